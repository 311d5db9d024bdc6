/**
 * Writing TypeScript, for every emitter: string literals, property keys and
 * accesses, identifiers, import declarations. As openapi-typescript's
 * lib/ts.ts, on text: generated code is assembled from strings and templates.
 */
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
