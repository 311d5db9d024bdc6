/**
 * Escaping is written once: codegen/ and src/ define a function named
 * quote… or escape… only in the runtime's escaping modules
 * (src/runtime/escape.ts: markup by a table, HTML, regular expressions;
 * src/runtime/xml/xml-escape.ts: XML text and attribute values;
 * src/runtime/wire/json-text.ts: JSON text safe in HTML) and in codegen's
 * writer of TypeScript literals (codegen/emit/ts.ts). Everything else
 * imports those, so that no copy escapes a character fewer than the others.
 * The scan reads what `git grep -nE "function (quote|escape)"` reads, and
 * also a function bound to a const (`const escapeX = (…) =>`).
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const ROOMS = ['codegen', 'src'];

/** Where an escaping or quoting function may be defined, and the names it may define there. */
const ESCAPING: Record<string, RegExp> = {
  'src/runtime/escape.ts': /^escape/,
  'src/runtime/xml/xml-escape.ts': /^escapeXml/,
  'src/runtime/wire/json-text.ts': /^escapeChar$/,
  'codegen/emit/ts.ts': /^(quote|doubleQuote)$/,
};

const HELPER =
  /\bfunction\s*\*?\s*((?:quote|escape)\w*)|\b(?:const|let|var)\s+((?:quote|escape)\w*)\s*(?::[^\n]*?)?=\s*(?:async\s+)?(?:function\b|\(|\w+\s*=>)/g;

/** The TypeScript files and templates of a folder (codegen/standard/'s schemas are not code). */
const OUTPUT_FOLDERS = new Set(['dist', 'node_modules']);

function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    // A package's build (dist/) and installs (node_modules/) are no source of the repository.
    entry.isDirectory()
      ? OUTPUT_FOLDERS.has(entry.name)
        ? []
        : codeFiles(join(dir, entry.name))
      : /\.(ts|hbs)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each escaping or quoting function a text defines: `file:line name`. */
function escapingHelpers(file: string, text: string): { file: string; line: number; name: string }[] {
  return [...text.matchAll(HELPER)].map((match) => ({
    file,
    line: text.slice(0, match.index).split('\n').length,
    name: match[1] ?? match[2],
  }));
}

const treeHelpers = () => ROOMS.flatMap(codeFiles).flatMap((file) => escapingHelpers(file, readFileSync(join(ROOT, file), 'utf8')));

test('the scan sees an escaping or quoting function however it is defined, and nothing else', (t) => {
  const text = [
    'export function escapeAttribute(value: string): string {',
    '  return value;',
    '}',
    'function quoteName(s) { return s; }',
    'const escapeRegExp = (text: string) => text;',
    'const escapeChar = c => c;',
    'let quoted: (s: string) => string = function (s) { return s; };',
    'const escaped = escapeAttribute(name);',
    'const quote = QUOTE;',
    "export { escapeXmlText } from './xml/xml-escape';",
  ].join('\n');
  t.deepEqual(
    escapingHelpers('a.ts', text).map(({ line, name }) => `${line} ${name}`),
    ['1 escapeAttribute', '4 quoteName', '5 escapeRegExp', '6 escapeChar', '7 quoted'],
  );
});

test("escaping and quoting are defined only in the runtime's escaping modules and codegen's literal writer", (t) => {
  const helpers = treeHelpers();
  const elsewhere = helpers
    .filter(({ file, name }) => !ESCAPING[file]?.test(name))
    .map(({ file, line, name }) => `${file}:${line} ${name}`);
  t.deepEqual(elsewhere, [], 'import the runtime’s escaping (src/runtime/escape.ts, src/runtime/xml/xml-escape.ts) instead');
  // The places the scan allows hold what they are allowed for: the scan read them.
  const names = new Set(helpers.map(({ name }) => name));
  for (const name of ['escapeEach', 'escapeHtml', 'escapeRegExp', 'escapeXmlText', 'escapeXmlAttribute', 'quote'])
    t.true(names.has(name), name);
});
