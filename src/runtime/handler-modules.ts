/**
 * The handler of every operation, one module each, found by convention: so
 * that adding an operation means the contract plus that module and nothing
 * else.
 *
 * Operation `ConvertTemperature` has its handler in `<folder>/convert-temperature.ts`
 * (the name in kebab case), which exports `convertTemperature` (camel case), a
 * function of the request and the service's context. A service keeps the
 * modules' types in one interface that each module extends by declaration
 * merging, and demands a member of the right type for every operation
 * (EveryOperationHandled), so that a missing handler is a compile error; the
 * modules are loaded by their conventional paths when the handlers are made,
 * so a module named otherwise fails the start, naming the path it expected.
 */
import type { Call, Handlers, HeadersOf, OperationName, OperationsOf } from './definition';

/**
 * The function a handler module exports for operation K: the request and the service's context in, the result out;
 * an operation with SOAP headers also gets them (`in` as the call carried them, `out` for it to set), and every
 * handler the call it answers (`call`: its address, request id, operation and variant; undefined outside a call).
 */
export type OperationHandler<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>, Context> = (
  request: Ops[K]['request'],
  context: Context,
  headers: HeadersOf<Ops[K]>,
  call: Call | undefined,
) => Promise<Ops[K]['result']>;

/** A module's function for every operation of `Ops`, each of its operation's type. */
export type EveryOperationHandled<Ops extends OperationsOf<Ops>, Context> = {
  readonly [K in OperationName<Ops>]: OperationHandler<Ops, K, Context>;
};

/** `ConvertTemperature` → `convert-temperature`: the handler module's file name, without `.ts`. */
export function handlerModuleName(operation: string): string {
  return operation
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `ConvertTemperature` → `convertTemperature`: the function the handler module exports. */
export function handlerExportName(operation: string): string {
  return operation.charAt(0).toLowerCase() + operation.slice(1);
}

/**
 * Each operation's function, from its module: `load(file)` requires
 * `<folder>/<file>` (the caller's own require, so that the path is relative
 * to its folder), `folder` names it in messages. Answers what the service
 * declared its modules to be; a module missing, or without its function,
 * throws an Error naming the path expected.
 */
export function loadHandlerModules<Modules>(operations: readonly string[], load: (file: string) => unknown, folder: string): Modules {
  const loaded = operations.map((operation) => {
    const file = handlerModuleName(operation);
    const name = handlerExportName(operation);
    let module: unknown;
    try {
      module = load(`./${file}`);
    } catch (error) {
      throw new Error(`${operation}: its handler module ${folder}/${file}.ts could not be loaded (${(error as Error).message})`);
    }
    const handler = (module as Record<string, unknown> | undefined)?.[name];
    if (typeof handler !== 'function') throw new Error(`${operation}: ${folder}/${file}.ts does not export a function ${name}`);
    return [operation, handler] as const;
  });
  return Object.fromEntries(loaded) as Modules;
}

/** Every operation's function bound to the service's context: what the bindings call. */
export function bindHandlers<Ops extends OperationsOf<Ops>, Context>(
  modules: EveryOperationHandled<Ops, Context>,
  context: Context,
): Handlers<Ops> {
  const handlers: Partial<Record<string, unknown>> = {};
  for (const [operation, handler] of Object.entries(modules) as [
    string,
    (request: unknown, context: Context, headers: unknown, call: Call | undefined) => unknown,
  ][]) {
    handlers[operation] = (request: unknown, headers: unknown, call: Call | undefined) =>
      handler(request, context, headers ?? { in: {}, out: {} }, call);
  }
  return handlers as Handlers<Ops>;
}
