/**
 * Which room may import which (README, Layout): generated code depends only
 * on the small runtime it is generated against, the runtime on libraries
 * only, and the help pages and the typed client never on the bindings.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Each import of a file: the project path it resolves to (relative imports), or the package name. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map(({ fileName }) => (fileName.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), fileName)) : `package:${fileName}`));
}

function offending(dir: string, allowed: (target: string, file: string) => boolean): string[] {
  return sourceFiles(dir).flatMap((file) => importsOf(file).filter((target) => !allowed(target, file)).map((target) => `${file} imports ${target}`));
}

const inside = (target: string, dir: string) => target === dir || target.startsWith(`${dir}/`);

test('the import reader sees relative imports, type-only ones and packages', (t) => {
  const imports = importsOf('generated/client.ts');
  t.true(imports.includes('generated/types'));
  t.true(imports.some((target) => inside(target, 'src/runtime')));
  t.true(importsOf('src/runtime/xml-engine.ts').includes('package:libxml2-wasm'), 'the type-only import of the engine');
});

test('generated/ imports generated/ and src/runtime/ only; the typed client also its transport, src/client/', (t) => {
  t.true(sourceFiles('generated').length >= 5);
  t.deepEqual(
    offending('generated', (target, file) => inside(target, 'generated') || inside(target, 'src/runtime') || (file === 'generated/client.ts' && inside(target, 'src/client'))),
    [],
  );
});

test('src/runtime/ imports libraries and itself, nothing else of the project', (t) => {
  t.deepEqual(offending('src/runtime', (target) => target.startsWith('package:') || inside(target, 'src/runtime')), []);
});

test('the help pages and the typed client do not import the bindings', (t) => {
  t.deepEqual([...offending('src/help', (target) => !inside(target, 'src/bindings')), ...offending('src/client', (target) => !inside(target, 'src/bindings'))], []);
});

test("only src/runtime/xml-tree.ts reaches into libxml2-wasm's internal module (the package's version is pinned for it)", (t) => {
  const internal = (target: string) => target.startsWith('package:libxml2-wasm/');
  const reaching = ['src', 'generated', 'codegen', 'test', 'bench'].flatMap((dir) => offending(dir, (target) => !internal(target)));
  t.deepEqual([...new Set(reaching)], ['src/runtime/xml-tree.ts imports package:libxml2-wasm/lib/libxml2.mjs']);
  const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['libxml2-wasm'];
  t.regex(pinned, /^\d+\.\d+\.\d+$/, 'an exact version, not a range');
});
