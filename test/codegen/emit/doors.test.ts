/**
 * The runtime's doors for generated code: src/runtime/codec.ts (what every
 * generated file imports) and src/runtime/client/index.ts (the typed
 * client's transport). Each lists its exports in a const that codegen reads
 * (codegen/emit/ts.ts) to know what a generated file may import, and how (a
 * type as a type): the list is the door's exports, no more and no fewer, and
 * each value is one at run time.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import * as client from '../../../src/runtime/client';
import * as codec from '../../../src/runtime/codec';

const ROOT = join(__dirname, '..', '..', '..');

/** The names a module exports by name, values and types apart (a type is one exported with `type`). */
function exportsOf(file: string): { values: string[]; types: string[] } {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const values: string[] = [];
  const types: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause))
      for (const element of statement.exportClause.elements)
        (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text);
    else if (ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) values.push(declaration.name.text);
  }
  return { values: values.sort(), types: types.sort() };
}

const doors = [
  { file: 'src/runtime/codec.ts', list: 'CODEC_EXPORTS', exports: codec.CODEC_EXPORTS, module: codec as Record<string, unknown> },
  {
    file: 'src/runtime/client/index.ts',
    list: 'CLIENT_EXPORTS',
    exports: client.CLIENT_EXPORTS,
    module: client as Record<string, unknown>,
  },
];

for (const { file, list, exports, module } of doors) {
  test(`${file}'s ${list} lists its exports, values and types apart`, (t) => {
    const declared = exportsOf(file);
    t.deepEqual(
      { values: [...exports.values].sort(), types: [...exports.types].sort() },
      { values: declared.values.filter((name) => name !== list), types: declared.types },
    );
  });

  test(`each value ${list} lists is one at run time, and no type is`, (t) => {
    t.deepEqual(
      exports.values.filter((name) => module[name] === undefined),
      [],
    );
    t.deepEqual(
      exports.types.filter((name) => module[name] !== undefined),
      [],
    );
  });
}

test('the doors share no name: each name a generated file imports has one door', (t) => {
  const codecNames = new Set<string>([...codec.CODEC_EXPORTS.values, ...codec.CODEC_EXPORTS.types]);
  t.deepEqual(
    [...client.CLIENT_EXPORTS.values, ...client.CLIENT_EXPORTS.types].filter((name) => codecNames.has(name)),
    [],
  );
});

test('the export reader tells values from types', (t) => {
  const { values, types } = exportsOf('src/runtime/client/index.ts');
  t.true(values.includes('exchange') && values.includes('CLIENT_EXPORTS'));
  t.true(types.includes('Fault') && types.includes('XsdValidator'));
  t.false(values.includes('Fault'));
});
