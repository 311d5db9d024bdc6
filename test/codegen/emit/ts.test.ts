/**
 * codegen/emit/ts.ts, the one writer of TypeScript the emitters share: a
 * string literal of any text reads back as that text, a property key or
 * access is bare only for an identifier, and an import declaration is sorted,
 * typed and broken as generated files have it.
 */
import test from 'ava';
import ts from 'typescript';
import { importDeclaration, literal, propertyAccess, propertyKey, quote } from '../../../codegen/emit/ts';

/** The value of a TypeScript expression, compiled as generated code is (transpileModule) and run. */
function evaluate(expression: string): unknown {
  const { outputText } = ts.transpileModule(`module.exports = ${expression};`, { compilerOptions: { module: ts.ModuleKind.CommonJS } });
  const module = { exports: undefined as unknown };
  new Function('module', outputText)(module);
  return module.exports;
}

test('a string literal of any text is that text: backslashes, quotes and every line terminator escaped', (t) => {
  for (const text of ["it's", 'back\\slash', 'a\nb\rc', 'line\u2028and\u2029paragraph', '"double"', 'tab\there', "\\'", '']) {
    const literal = quote(text);
    t.regex(literal, /^'[^\n\r\u2028\u2029]*'$/, 'one line, in single quotes');
    t.is(evaluate(literal), text);
  }
  t.is(quote("O'Brien"), "'O\\'Brien'");
});

test('a property key or access is bare for an identifier of any script, quoted otherwise', (t) => {
  t.is(propertyKey('Add'), 'Add');
  t.is(propertyKey('Größe'), 'Größe');
  t.is(propertyKey('Do-It'), "'Do-It'");
  t.is(propertyKey('do.it'), "'do.it'");
  t.is(propertyAccess('Add'), '.Add');
  t.is(propertyAccess('Do-It'), "['Do-It']");
  t.deepEqual(evaluate(`{ ${propertyKey('Do-It')}: 1, ${propertyKey('x')}: 2 }`), { 'Do-It': 1, x: 2 });
});

test('an import declaration lists each name once in lower-case order, is `import type` when all are types, and breaks past 140 characters', (t) => {
  t.is(
    importDeclaration(['jsonString', 'type JsonOperation', 'jsonString'], './m'),
    "import { type JsonOperation, jsonString } from './m';",
  );
  t.is(importDeclaration(['type B', 'type a'], './m'), "import type { a, B } from './m';");
  t.is(
    importDeclaration(['type Handlers as ContractHandlers', 'escapeXmlText'], './m'),
    "import { escapeXmlText, type Handlers as ContractHandlers } from './m';",
  );
  const long = importDeclaration(
    Array.from({ length: 12 }, (_, i) => `aVeryLongNameNumber${i}`),
    '../src/runtime/codec',
  );
  t.true(long.startsWith('import {\n  aVeryLongNameNumber0,\n'));
  t.true(long.endsWith("\n} from '../src/runtime/codec';"));
});

test('a literal of plain data is that data: one line when it fits in 140 characters from its column, else a member a line', (t) => {
  const data = { soap11: { addressing: 'required', 'odd-key': [{ namespace: "it's", name: 'To' }], mtom: true, none: undefined }, n: 2 };
  const short = literal(data);
  t.is(short, "{ soap11: { addressing: 'required', 'odd-key': [{ namespace: 'it\\'s', name: 'To' }], mtom: true }, n: 2 }");
  t.deepEqual(evaluate(short), { soap11: { addressing: 'required', 'odd-key': [{ namespace: "it's", name: 'To' }], mtom: true }, n: 2 });
  const long = literal(data, 4, 120);
  t.is(
    long,
    [
      '{',
      "      soap11: { addressing: 'required', 'odd-key': [{ namespace: 'it\\'s', name: 'To' }], mtom: true },",
      '      n: 2,',
      '    }',
    ].join('\n'),
  );
  t.deepEqual(evaluate(long), evaluate(short));
  t.is(literal([]), '[]');
  t.is(literal({}), '{}');
});
