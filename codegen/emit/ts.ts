/**
 * Writing TypeScript, for every emitter: string literals, property keys and
 * accesses, identifiers, and a generated file's imports, gathered as data
 * while the file is written (each emitter says which name it uses where it
 * writes it; nothing is found by reading the text back), then written as its
 * import declarations. As openapi-typescript's lib/ts.ts, on text: generated
 * code is assembled from strings and templates.
 */
import { CLIENT_EXPORTS } from 'contract-runtime/client';
import { CODEC_EXPORTS } from 'contract-runtime/codec';

const LITERAL_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** A string literal in single quotes: the backslash, the quote and the line terminators (\n, \r, U+2028, U+2029) escaped. */
export function quote(value: string): string {
  return `'${value.replace(/[\\'\n\r\u2028\u2029]/g, (c) => LITERAL_ESCAPES[c])}'`;
}

/** A string literal as JSON writes it, in double quotes: the documents' texts, and the names generated files write so. */
export function doubleQuote(value: string): string {
  return JSON.stringify(value);
}

/** Whether a name is an identifier (of any script), as a property key or a member access can write it bare. */
export function isIdentifier(name: string): boolean {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name);
}

/** A name as it is written as a property key: itself when it is an identifier, else quoted (`'Do-It'`). */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : quote(name);
}

/** A property of `name` read from an object: `.Add`, or `['Do-It']`. */
export function propertyAccess(name: string): string {
  return isIdentifier(name) ? `.${name}` : `[${quote(name)}]`;
}

/** Plain data generated code holds as a literal: strings, numbers, booleans, arrays and objects of them (an undefined member is left out). */
export type Literal = string | number | boolean | object;

/**
 * Plain data as a TypeScript literal (strings single-quoted, keys as propertyKey writes them): on one line when it
 * fits in 140 characters from `column` (where it starts on its line), else a member a line, each indented two more
 * than the line it starts on (`indent` spaces), with a trailing comma.
 */
export function literal(value: Literal, indent = 0, column = indent): string {
  const flat = literalOnOneLine(value);
  const entries = membersOf(value);
  if (column + flat.length <= 140 || entries === undefined || entries.length === 0) return flat;
  const inner = ' '.repeat(indent + 2);
  const lines = entries.map(([key, item]) => `${inner}${keyPrefix(key)}${literal(item, indent + 2, indent + 2 + keyPrefix(key).length)},`);
  return `${Array.isArray(value) ? '[' : '{'}\n${lines.join('\n')}\n${' '.repeat(indent)}${Array.isArray(value) ? ']' : '}'}`;
}

/** Plain data as a literal on one line. */
function literalOnOneLine(value: Literal): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const entries = membersOf(value)!;
  const members = entries.map(([key, item]) => keyPrefix(key) + literalOnOneLine(item)).join(', ');
  if (Array.isArray(value)) return `[${members}]`;
  return entries.length ? `{ ${members} }` : '{}';
}

/** An array's items (no key) or an object's members (an undefined one left out); undefined for a string, number or boolean. */
function membersOf(value: Literal): [string | undefined, Literal][] | undefined {
  if (typeof value !== 'object') return undefined;
  if (value === null) throw new Error('codegen: null is not plain data a literal holds');
  if (Array.isArray(value)) return value.map((item: Literal) => [undefined, item]);
  return Object.entries(value).flatMap(([key, member]) => (member === undefined ? [] : [[key, member as Literal] as [string, Literal]]));
}

const keyPrefix = (key: string | undefined) => (key === undefined ? '' : `${propertyKey(key)}: `);

/** Names in generated files' order: by their lower case. */
export function byLowerCase(a: string, b: string): number {
  return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
}

/**
 * One import declaration: `names` (a type as `type X`, an alias as `X as Y`), each once, in lower-case order;
 * `import type` when all are types; a name a line when the line would pass 140 characters.
 */
export function importDeclaration(names: readonly string[], module: string): string {
  const unique = [...new Set(names)].sort((a, b) => byLowerCase(a.replace(/^type /, ''), b.replace(/^type /, '')));
  const typesOnly = unique.every((name) => name.startsWith('type '));
  const listed = typesOnly ? unique.map((name) => name.slice('type '.length)) : unique;
  const keyword = typesOnly ? 'import type' : 'import';
  const line = `${keyword} { ${listed.join(', ')} } from '${module}';`;
  return line.length <= 140 ? line : `${keyword} {\n${listed.map((name) => `  ${name},`).join('\n')}\n} from '${module}';`;
}

type NamesOf<E extends { readonly values: readonly string[]; readonly types: readonly string[] }> =
  | E['values'][number]
  | E['types'][number];

/** A name generated code imports from the runtime: one of its doors' (src/runtime/codec.ts, src/runtime/client/index.ts). */
export type RuntimeName = NamesOf<typeof CODEC_EXPORTS> | NamesOf<typeof CLIENT_EXPORTS>;

/** The runtime's doors for generated code, in the order a file imports them, each by its path below the front door. */
const DOORS: readonly { path: string; values: ReadonlySet<string>; types: ReadonlySet<string> }[] = [
  { path: 'codec', values: new Set(CODEC_EXPORTS.values), types: new Set(CODEC_EXPORTS.types) },
  { path: 'client', values: new Set(CLIENT_EXPORTS.values), types: new Set(CLIENT_EXPORTS.types) },
];

/** The names of the runtime (each door's values and types) that generated code may import, and no contract class may take. */
export const RUNTIME_NAMES: ReadonlySet<string> = new Set(DOORS.flatMap((door) => [...door.values, ...door.types]));

/**
 * The imports of one generated file, gathered as it is written: each runtime name it uses (its door found from the
 * doors' export lists), and each name of its own folder's modules (`./types`), as a value or a type only.
 */
export class Imports {
  private readonly runtimeNames = new Map<RuntimeName, string>();
  private readonly localNames = new Map<string, Map<string, 'value' | 'type'>>();

  /** The file uses `name` of the runtime (under `as`, when it is imported by another name): returns the name to write. */
  runtime(name: RuntimeName, as: string = name): string {
    this.runtimeNames.set(name, as);
    return as;
  }

  /** The file uses `name` of its folder's `module` (`./types`), as a value, or only as a type: returns the name to write. */
  local(module: string, name: string, use: 'value' | 'type' = 'value'): string {
    const names = this.localNames.get(module) ?? new Map<string, 'value' | 'type'>();
    if (names.get(name) !== 'value') names.set(name, use);
    this.localNames.set(module, names);
    return name;
  }

  /** How the file uses `name` of its folder's `module`: as a value, only as a type, or not at all. */
  localUse(module: string, name: string): 'value' | 'type' | undefined {
    return this.localNames.get(module)?.get(name);
  }

  /** Whether the file uses `name` of its folder's `module`. */
  usesLocal(module: string, name: string): boolean {
    return this.localUse(module, name) !== undefined;
  }

  /** The names the file uses of its folder's `module`, in the order they were first used. */
  localOf(module: string): string[] {
    return [...(this.localNames.get(module)?.keys() ?? [])];
  }

  /**
   * The declarations importing the runtime names the file uses, a door a line (codec, then client), each module
   * spelt below `runtime`, the front door's (`../src/runtime`, `contract-runtime`); types as `type X`.
   */
  runtimeDeclarations(runtime: string): string {
    return DOORS.flatMap(({ path, values, types }) => {
      const names = [...this.runtimeNames].flatMap(([name, as]) => {
        const written = as === name ? name : `${name} as ${as}`;
        return types.has(name) ? [`type ${written}`] : values.has(name) ? [written] : [];
      });
      return names.length ? [importDeclaration(names, `${runtime}/${path}`)] : [];
    }).join('\n');
  }
}
