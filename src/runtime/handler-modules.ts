/**
 * The handler of every operation, one module each, found by convention: so
 * that adding an operation means the contract plus that module and nothing
 * else.
 *
 * Operation `ConvertTemperature` has its handler in `<folder>/convert-temperature.ts`
 * (the name in kebab case), which exports `convertTemperature` (camel case):
 * the handler itself, `async (request, call) => result` (definition.ts,
 * OperationHandler), or, for a service whose handlers are made from settings
 * and state of its own, the function that makes it from them (bindHandlers).
 * A service keeps the modules' types in one interface that each module
 * extends by declaration merging, and demands a member of the right type for
 * every operation (Handlers, or EveryOperationHandled), so that a missing
 * handler is a compile error; the modules are loaded by their conventional
 * paths when the handlers are made, so a module named otherwise fails the
 * start, naming the path it expected.
 */
import type { Handlers, OperationHandler, OperationName, OperationsOf } from './definition';

/**
 * What each module exports for every operation of `Ops` when a service makes its handlers from what it holds
 * (`Deps`: its settings, clock, state): the function that makes the operation's handler, called once, at start.
 * A module's function may take less than `Deps` (only the settings it reads).
 */
export type EveryOperationHandled<Ops extends OperationsOf<Ops>, Deps> = {
  readonly [K in OperationName<Ops>]: (deps: Deps) => OperationHandler<Ops, K>;
};

/** `ConvertTemperature` → `convert-temperature`: the handler module's file name, without `.ts`. */
export function handlerModuleName(operation: string): string {
  return operation
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/** `ConvertTemperature` → `convertTemperature`: the function the handler module exports (`Do-It` → `do_It`). */
export function handlerExportName(operation: string): string {
  const name = [...operation].map((c, i) => ((i === 0 ? /[\p{ID_Start}$_]/u : /[\p{ID_Continue}$]/u).test(c) ? c : '_')).join('');
  const camel = name.charAt(0).toLowerCase() + name.slice(1);
  return RESERVED_WORDS.has(camel) ? `${camel}_` : camel;
}

const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface ' +
    'package private protected public await arguments eval'
  ).split(' '),
);

/** One operation's handler module: its file (without `.ts`) and the function it exports. */
export interface HandlerModule {
  operation: string;
  file: string;
  name: string;
}

/**
 * Each operation's module and function, in the contract's order: the convention's names, and where a later operation
 * would share a file or a function with an earlier one (`Get`, `get`, `GET` are all `get`, and file systems that ignore
 * case hold one such file) or index.ts, a number after its own (`Get`, `get`, `GET`: `get.ts`, `get-2.ts`,
 * `get-3.ts` exporting `get`, `get2`, `gET`).
 */
export function handlerModules(operations: readonly string[]): HandlerModule[] {
  // index.ts is the folder's own (it binds the modules and serves).
  const files = new Set<string>(['index']);
  const names = new Set<string>();
  return operations.map((operation) => {
    const baseFile = handlerModuleName(operation);
    const baseName = handlerExportName(operation);
    let file = baseFile;
    for (let n = 2; files.has(file); n++) file = `${baseFile}-${n}`;
    let name = baseName;
    for (let n = 2; names.has(name); n++) name = `${baseName}${n}`;
    files.add(file);
    names.add(name);
    return { operation, file, name };
  });
}

/**
 * Each operation's function, from its module: `load(file)` requires
 * `<folder>/<file>` (the caller's own require, so that the path is relative
 * to its folder), `folder` names it in messages. Answers what the service
 * declared its modules to be; a module missing, or without its function,
 * throws an Error naming the path expected.
 */
export function loadHandlerModules<Modules>(operations: readonly string[], load: (file: string) => unknown, folder: string): Modules {
  const loaded = handlerModules(operations).map(({ operation, file, name }) => {
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

/** Every operation's handler, made by its module's function from what the service holds: what the bindings call. */
export function bindHandlers<Ops extends OperationsOf<Ops>, Deps>(modules: EveryOperationHandled<Ops, Deps>, deps: Deps): Handlers<Ops> {
  const handlers: Partial<Record<string, unknown>> = {};
  for (const [operation, make] of Object.entries(modules) as [string, (deps: Deps) => unknown][]) handlers[operation] = make(deps);
  return handlers as Handlers<Ops>;
}
