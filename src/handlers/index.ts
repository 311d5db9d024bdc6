import type { Config } from '../config';
import { OPERATION_NAMES, type Handlers } from '../../generated/routes';
import { ServiceError } from '../errors';
import { StoreUnavailableError } from '../state/store';
import {
  HAND_WRITTEN,
  loadHandlerModules,
  type ByConvention,
  type Clock,
  type EveryOperationHasItsHandlerModule,
  type HandlerContext,
  type HandlerModules,
} from './by-convention';
import { pair } from './pair';
import { validatePin, type ValidationState } from './validate-pin';

export type { Clock } from './by-convention';

export const systemClock: Clock = { now: () => Date.now() };

/**
 * The handler modules of the operations not wired by hand (by-convention.ts).
 * `modules` is typed by the modules' own declarations, so this compiles only
 * when each such operation has its module, of its operation's type.
 */
function conventionalHandlers(modules: HandlerModules, context: HandlerContext): Pick<Handlers, ByConvention> {
  const typed: EveryOperationHasItsHandlerModule = modules;
  const handlers: Partial<Record<string, unknown>> = {};
  for (const [operation, handler] of Object.entries(typed) as [ByConvention, (request: unknown, context: HandlerContext) => unknown][]) {
    handlers[operation] = (request: unknown) => handler(request, context);
  }
  return handlers as Pick<Handlers, ByConvention>;
}

/** The hand-written operations, bound to the settings, a clock and the state store. */
export function createHandlers(config: Config, clock: Clock, state: ValidationState, onStoreError: () => void = () => {}): Handlers {
  // Fail closed: without its state, ValidatePin cannot say true safely.
  const failClosed = (error: unknown): never => {
    if (error instanceof StoreUnavailableError) {
      onStoreError();
      throw new ServiceError('unavailable', 'The service cannot validate PINs right now; try again later.', undefined, error.message);
    }
    throw error;
  };
  const others = OPERATION_NAMES.filter((operation) => !HAND_WRITTEN.includes(operation));
  return {
    Pair: async (request) => pair(request, config),
    ValidatePin: (request) => validatePin(request, config, clock.now(), state).catch(failClosed),
    ...conventionalHandlers(loadHandlerModules(others), { config, clock }),
  };
}
