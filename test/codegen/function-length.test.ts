/**
 * No function of codegen/ or src/ is over 150 lines, from its first line to
 * its last: function declarations, methods (constructors and accessors too),
 * arrow functions and function expressions, however deep they are nested.
 * A longer one is a function of several jobs: it is written as named
 * functions of one job each. generated/ is codegen's output and not held to
 * this.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..');
const LIMIT = 150;
const ROOMS = ['codegen', 'src'];

const OUTPUT_FOLDERS = new Set(['dist', 'node_modules']);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    // A package's build (dist/) and installs (node_modules/) are no source of the repository.
    entry.isDirectory()
      ? OUTPUT_FOLDERS.has(entry.name)
        ? []
        : sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** How a function is named in a report: its own name, or the name it is given (a variable, a property), or its kind. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name)
    return parent.name.getText();
  return ts.isConstructorDeclaration(node) ? 'constructor' : ts.isArrowFunction(node) ? '(arrow function)' : '(function expression)';
}

function isMeasured(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** Each function of a source text over `limit` lines: `file:line name (N lines)`. Bodiless declarations (overloads) have no length. */
function longFunctions(file: string, text: string, limit = LIMIT): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isMeasured(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push(`${file}:${first + 1} ${nameOf(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A function of `lines` lines (its first and last line included), of the given shape. */
function functionOf(lines: number, shape: (body: string) => string): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  return shape(body);
}

test('the measurer reports a function of 151 lines, of each kind, and none of 150', (t) => {
  const shapes: [string, (body: string) => string][] = [
    ['declared', (body) => `function declared() {\n${body}\n}\n`],
    ['method', (body) => `class Holder {\n  method() {\n${body}\n  }\n}\n`],
    ['arrow', (body) => `const arrow = () => {\n${body}\n};\n`],
    ['expression', (body) => `export const expression = function () {\n${body}\n};\n`],
    ['nested', (body) => `function outer() {\n  return [1].map((x) => {\n${body}\n  });\n}\n`],
  ];
  for (const [name, shape] of shapes) {
    const long = longFunctions(`${name}.ts`, functionOf(LIMIT + 1, shape));
    t.true(
      long.some((report) => report.endsWith(`(${LIMIT + 1} lines)`)),
      `${name}: ${long.join(', ')}`,
    );
    t.deepEqual(
      longFunctions(`${name}.ts`, functionOf(LIMIT, shape)).filter((report) => report.endsWith(`(${LIMIT + 1} lines)`)),
      [],
      name,
    );
  }
  const declared = shapes[0][1];
  t.deepEqual(longFunctions('declared.ts', functionOf(LIMIT + 1, declared)), [`declared.ts:1 declared (${LIMIT + 1} lines)`]);
  t.deepEqual(longFunctions('declared.ts', functionOf(LIMIT, declared)), []);
});

test(`no function of ${ROOMS.join('/ or ')}/ is over ${LIMIT} lines`, (t) => {
  const files = ROOMS.flatMap((room) => sourceFiles(room));
  t.true(files.length > 100, `${files.length} files read`);
  t.deepEqual(
    files.flatMap((file) => longFunctions(file, readFileSync(join(ROOT, file), 'utf8'))),
    [],
  );
});
