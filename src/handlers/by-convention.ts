/**
 * The handler of every operation: one module each, found by convention, so
 * that adding an operation means schema/ plus that module and nothing else,
 * and serving another contract means its schema/ plus its modules.
 *
 * Operation `GenerateSecret` has its handler in src/handlers/generate-secret.ts
 * (the name in kebab case), which exports `generateSecret` (camel case), an
 * OperationHandler<'GenerateSecret'>, and names it here by declaration merging:
 *
 *   declare module './by-convention' {
 *     interface HandlerModules { GenerateSecret: typeof generateSecret }
 *   }
 *
 * index.ts does not compile until every operation of generated/routes.ts has
 * its member here, of its operation's type: a missing handler is a compile
 * error. The module is loaded by its conventional path when the handlers are
 * made, so a module named otherwise fails the service's start, naming the
 * path it expected.
 *
 * A module may also export `extras` (OperationExtras): plain pages beside the
 * web service, a terminal command, what its help page and /openapi.json say
 * besides what the WSDL does. Pair's and ValidatePin's do.
 */
import { OPERATION_NAMES, type OperationName, type Operations } from '../../generated/routes';
import type { CallContext } from '../runtime/call-state';
import type { Config } from '../config';
import type { StateStore } from '../state/store';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** What an operation keeps across calls (ValidatePin's replay and throttle records), keyed by a keyed hash. */
export interface ServiceState {
  store: StateStore;
  stateKeyOf(secretKey: Uint8Array): string;
  /** Told of refusals an operator wants to count (metrics). */
  events?: { replayRejected(): void; throttled(): void };
  /** Told when the store could not answer and a call failed closed (metrics). */
  unavailable?(): void;
}

/** What a handler module's function is given besides the request. */
export interface HandlerContext {
  readonly config: Config;
  readonly clock: Clock;
  readonly state: ServiceState;
}

/** The function a handler module exports for operation K. */
export type OperationHandler<K extends OperationName> = (
  request: Operations[K]['request'],
  context: HandlerContext,
) => Promise<Operations[K]['result']>;

/** An operation's handler bound to its context: what the bindings and the plain pages call. */
export type BoundHandler<K extends OperationName> = (request: Operations[K]['request']) => Promise<Operations[K]['result']>;

/** A command of the terminal (`pin-service NAME`) that an operation's module adds. */
export interface TerminalCommand {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** The text of `pin-service NAME --help`. */
  help: string;
  /** Runs the command; answers the exit code. A mistake of the user throws UsageError (src/runtime/errors.ts). */
  run(args: string[], io: { out(text: string): void }): Promise<number>;
}

/** What an operation's module may export as `extras`, besides its handler. */
export interface OperationExtras<K extends OperationName = OperationName> {
  /** Plain GET pages beside the web service, by path; each made from the operation's bound handler. */
  pages?: Readonly<Record<string, (call: BoundHandler<K>) => (ctx: CallContext) => Promise<void>>>;
  /** A command of the terminal. */
  command?: TerminalCommand;
  /** The handler refuses a throttled caller (429 with Retry-After): /openapi.json says so. */
  throttles?: boolean;
  /** The help page's Invoke shows the answer's QR code and setup code (a pairing's `Html` and `ManualSetupCode`). */
  showsPairing?: boolean;
}

/** One member per handler module, each added by the module itself (see above). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the handler modules' declaration merging
export interface HandlerModules {}

/** What index.ts demands of HandlerModules: a member of the right type for every operation. */
export type EveryOperationHasItsHandlerModule = { readonly [K in OperationName]: OperationHandler<K> };

/** `GenerateSecret` → `generate-secret`: the handler module's file name, without `.ts`. */
export function handlerModuleName(operation: string): string {
  return operation
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `GenerateSecret` → `generateSecret`: the function the handler module exports. */
export function handlerExportName(operation: string): string {
  return operation.charAt(0).toLowerCase() + operation.slice(1);
}

interface LoadedModule {
  handler: unknown;
  extras: OperationExtras;
}

function loadModule(operation: OperationName): LoadedModule {
  const file = handlerModuleName(operation);
  const name = handlerExportName(operation);
  let module: Record<string, unknown>;
  try {
    module = require(`./${file}`) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${operation}: its handler module src/handlers/${file}.ts could not be loaded (${(error as Error).message})`);
  }
  if (typeof module[name] !== 'function') throw new Error(`${operation}: src/handlers/${file}.ts does not export a function ${name}`);
  const extras = module.extras ?? {};
  if (typeof extras !== 'object' || extras === null)
    throw new Error(`${operation}: src/handlers/${file}.ts exports extras that are not an object`);
  return { handler: module[name], extras: extras as OperationExtras };
}

/**
 * The handler module's function of every operation, loaded by its
 * conventional path: what HandlerModules declares, when each module declared
 * itself in its own file (a function missing at the path fails here).
 */
export function loadHandlerModules(): HandlerModules {
  return Object.fromEntries(OPERATION_NAMES.map((operation) => [operation, loadModule(operation).handler])) as unknown as HandlerModules;
}

/** Every operation's extras (empty for a module without them), in the contract's order. */
export function operationExtras(): ReadonlyMap<OperationName, OperationExtras> {
  return new Map(OPERATION_NAMES.map((operation) => [operation, loadModule(operation).extras]));
}
