/**
 * This service's operation handlers, one module each, found by convention
 * (src/runtime/handler-modules.ts): operation `ValidatePin` has its handler
 * in src/service/handlers/validate-pin.ts, which exports `validatePin`, a
 * HandlerMaker<'ValidatePin'>, and names it here by declaration merging:
 *
 *   declare module './by-convention' {
 *     interface HandlerModules { ValidatePin: typeof validatePin }
 *   }
 *
 * index.ts does not compile until every operation of generated/routes.ts has
 * its member here, of its operation's type. A module's function makes the
 * handler once, from what it takes of the HandlerDependencies below (the
 * settings it reads, the clock, the state); the handler is a function of
 * its typed request and the call it answers (the runtime's Call: address,
 * request id, operation, variant, header blocks, plain data): no XML, no
 * HTTP, no pages.
 */
import type { OperationName, Operations } from '../../../generated/routes';
import type { Config } from '../config';
import type { Call, EveryOperationHandled, OperationHandler as RuntimeOperationHandler } from '../../runtime/handler';
import type { StateStore } from '../state/store';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** What the operations keep across calls (ValidatePin's replay and throttle records), keyed by a keyed hash. */
export interface ServiceState {
  store: StateStore;
  stateKeyOf(secretKey: Uint8Array): string;
  /** Told of every outcome an operator may have to account for (the audit trail, the metrics, the request line). */
  outcomes?: Outcomes;
  /** Told when the store could not answer and a call failed closed (metrics). */
  unavailable?(): void;
}

/** What a ValidatePin call came to; `locked` is the lock a refused PIN caused, told after its `wrong` or `replay`. */
export type PinOutcome = 'accepted' | 'wrong' | 'replay' | 'throttled' | 'locked';

/**
 * Where the operations tell their outcomes, each naming the secret by its keyed hash (never the secret), and the call
 * it came from (`call`, as the handler was given it).
 */
export interface Outcomes {
  /** Before anything is decided or changed: throws a ServiceError when an outcome could not be recorded now (--audit-required). */
  ready(): void;
  /**
   * Throws a ServiceError when the outcome cannot be recorded and must not be answered (--audit-required).
   * `attempts`: failed attempts counted in the window, this call's included; `lockedUntilMs`: when the lock ends, in
   * milliseconds since the Unix epoch (locked, throttled).
   */
  validated(outcome: PinOutcome, stateKeyHash: string, call: Call | undefined, attempts?: number, lockedUntilMs?: number): void;
  paired(stateKeyHash: string, call: Call | undefined): void;
}

/** What the service makes its handlers from; each module's function takes what it uses (its settings among them). */
export interface HandlerDependencies {
  readonly settings: Config;
  readonly clock: Clock;
  readonly state: ServiceState;
}

/** The handler of operation K: its typed request and the call it answers in, its result out. */
export type OperationHandler<K extends OperationName> = RuntimeOperationHandler<Operations, K>;

/** What a handler module exports for operation K: the function that makes its handler from what it uses of the dependencies. */
export type HandlerMaker<K extends OperationName> = (deps: HandlerDependencies) => OperationHandler<K>;

/** One member per handler module, each added by the module itself (see above). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the handler modules' declaration merging
export interface HandlerModules {}

/** What index.ts demands of HandlerModules: a member of the right type for every operation. */
export type EveryOperationHasItsHandlerModule = EveryOperationHandled<Operations, HandlerDependencies>;
