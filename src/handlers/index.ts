import type { Config } from '../config';
import type { Handlers } from '../../generated/routes';
import {
  loadHandlerModules,
  type Clock,
  type EveryOperationHasItsHandlerModule,
  type HandlerContext,
  type HandlerModules,
  type ServiceState,
} from './by-convention';

export type { Clock, ServiceState } from './by-convention';

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Every operation's handler (by-convention.ts), bound to the settings, a
 * clock and the state store. `modules` is typed by the modules' own
 * declarations, so this compiles only when each operation has its module, of
 * its operation's type.
 */
export function createHandlers(
  config: Config,
  clock: Clock,
  state: ServiceState,
  modules: HandlerModules = loadHandlerModules(),
): Handlers {
  const typed: EveryOperationHasItsHandlerModule = modules;
  const context: HandlerContext = { config, clock, state };
  const handlers: Partial<Record<string, unknown>> = {};
  for (const [operation, handler] of Object.entries(typed) as [string, (request: unknown, context: HandlerContext) => unknown][]) {
    handlers[operation] = (request: unknown) => handler(request, context);
  }
  return handlers as Handlers;
}
