/**
 * The handlers of every operation but Pair and ValidatePin (wired by hand in
 * index.ts): one module each, found by convention, so that adding an
 * operation means schema/ plus that module and nothing else.
 *
 * Operation `GenerateSecret` has its handler in src/handlers/generate-secret.ts
 * (the name in kebab case), which exports `generateSecret` (camel case), an
 * OperationHandler<'GenerateSecret'>, and names it here by declaration merging:
 *
 *   declare module './by-convention' {
 *     interface HandlerModules { GenerateSecret: typeof generateSecret }
 *   }
 *
 * index.ts does not compile until every such operation of generated/routes.ts
 * has its member here, of its operation's type: a missing handler is a
 * compile error. The module is loaded by its conventional path when the
 * handlers are made, so a module named otherwise fails the service's start,
 * naming the path it expected.
 */
import type { OperationName, Operations } from '../../generated/routes';
import type { Config } from '../config';

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** What a handler module's function is given besides the request. */
export interface HandlerContext {
  readonly config: Config;
  readonly clock: Clock;
}

/** The function a handler module exports for operation K. */
export type OperationHandler<K extends OperationName> = (
  request: Operations[K]['request'],
  context: HandlerContext,
) => Promise<Operations[K]['result']>;

/** One member per handler module, each added by the module itself (see above). */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the handler modules' declaration merging
export interface HandlerModules {}

/** The operations index.ts wires by hand (their handlers need the state store, its failures, the QR settings). */
export type HandWritten = 'Pair' | 'ValidatePin';
export const HAND_WRITTEN: readonly OperationName[] = ['Pair', 'ValidatePin'] satisfies readonly HandWritten[];
export type ByConvention = Exclude<OperationName, HandWritten>;

/** What index.ts demands of HandlerModules: a member of the right type for every operation not wired by hand. */
export type EveryOperationHasItsHandlerModule = { readonly [K in ByConvention]: OperationHandler<K> };

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

/**
 * The handler module's function of each operation given, loaded by its
 * conventional path: what HandlerModules declares, when each module declared
 * itself in its own file (a function missing at the path fails here).
 */
export function loadHandlerModules(operations: readonly OperationName[]): HandlerModules {
  const found: Record<string, unknown> = {};
  for (const operation of operations) {
    const file = handlerModuleName(operation);
    const name = handlerExportName(operation);
    let module: Record<string, unknown>;
    try {
      module = require(`./${file}`) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${operation}: its handler module src/handlers/${file}.ts could not be loaded (${(error as Error).message})`);
    }
    if (typeof module[name] !== 'function') throw new Error(`${operation}: src/handlers/${file}.ts does not export a function ${name}`);
    found[operation] = module[name];
  }
  return found as unknown as HandlerModules;
}
