import { OPERATION_NAMES, type Handlers, type Operations } from '../../../generated/routes';
import type { Config } from '../config';
import { bindHandlers, loadHandlerModules } from '../../runtime/handler';
import type { Clock, EveryOperationHasItsHandlerModule, HandlerDependencies, HandlerModules, ServiceState } from './by-convention';

export type { Clock, HandlerDependencies, OperationHandler, ServiceState } from './by-convention';

export const systemClock: Clock = { now: () => Date.now() };

/** Each operation's module's function, loaded from this folder by its conventional path (by-convention.ts). */
export function loadServiceHandlerModules(): HandlerModules {
  return loadHandlerModules<HandlerModules>(OPERATION_NAMES, (file) => require(file), 'src/service/handlers');
}

/**
 * Every operation's handler (by-convention.ts), made by its module from the
 * settings, a clock and the state store. `modules` is typed by the modules'
 * own declarations, so this compiles only when each operation has its
 * module, of its operation's type.
 */
export function createHandlers(
  settings: Config,
  clock: Clock,
  state: ServiceState,
  modules: HandlerModules = loadServiceHandlerModules(),
): Handlers {
  const typed: EveryOperationHasItsHandlerModule = modules;
  return bindHandlers<Operations, HandlerDependencies>(typed, { settings, clock, state });
}
