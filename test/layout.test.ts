/**
 * Which room may import which (docs/architecture.md): the runtime, which
 * serves any contract, imports nothing of the PIN service, of generated/ or
 * of codegen/, and neither it nor codegen/ names the service's operations or
 * concepts; generated/ and codegen/ import only themselves and the runtime
 * (codegen/ packages too), generated/ through the doors made for it only
 * (src/runtime/codec.ts, and src/runtime/client/ for the typed client's
 * transport), codegen/ through the runtime package's doors by name
 * (`contract-runtime/xml`…, its `exports`, which tsconfig.json's `paths`
 * resolve to their TypeScript in the checkout); the service's rooms import the runtime through its doors only
 * (the handler's, src/runtime/handler.ts, and the host's, src/runtime/host.ts;
 * the package's entry also hands on the front door's typed-client names), and
 * nothing of codegen/. The
 * runtime's tests (test/runtime/) drive fixture contracts: they name nothing
 * of the PIN service and import nothing of it or of its generated contract.
 * No file imports itself back through others, and no room of src/ does
 * either.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');

/** The .ts files of `dir` (and its folders), but a package's build output (src/runtime/dist/, codegen/dist/). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === 'dist'
        ? []
        : sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each import of a file: the project path it resolves to (relative imports), or the package name. */
function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map(({ fileName }) =>
    fileName.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), fileName)) : `package:${fileName}`,
  );
}

function offending(dir: string, allowed: (target: string, file: string) => boolean): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((target) => !allowed(target, file))
      .map((target) => `${file} imports ${target}`),
  );
}

const inside = (target: string, dir: string) => target === dir || target.startsWith(`${dir}/`);

/** The runtime's front door, src/runtime/index.ts, as an import names it (`../runtime`, `../runtime/index`). */
const FRONT_DOOR = new Set(['src/runtime', 'src/runtime/index']);
/** The doors of generated code: the codec's (src/runtime/codec.ts) and the typed client's (src/runtime/client/index.ts). */
const GENERATED_DOORS = new Set(['src/runtime/codec', 'src/runtime/client', 'src/runtime/client/index']);

/** The runtime's doors the service imports: what a handler module imports, and what a host does. */
const SERVICE_DOORS = new Set(['src/runtime/handler', 'src/runtime/host']);

/** The service's package entry, which hands on the typed client and what it needs of the front door. */
const PACKAGE_ENTRY = 'src/service/index.ts';

test('the import reader sees relative imports, type-only ones and packages', (t) => {
  const imports = importsOf('generated/client.ts');
  t.true(imports.includes('generated/types'));
  t.true(imports.includes('src/runtime/codec'));
  t.true(imports.includes('src/runtime/client'));
  t.true(importsOf('src/runtime/host.ts').includes('src/runtime/xml/xml-engine'));
  t.true(importsOf('src/runtime/xml/xml-engine.ts').includes('package:libxml2-wasm'), 'the type-only import of the engine');
});

/** The rooms of the service: the folders of src/service/ and its config.ts. */
const SERVICE_ROOMS = ['handlers', 'pages', 'cli', 'state', 'otp', 'qr', 'observability', 'config'].map((room) => `src/service/${room}`);

test('src/ is two houses, each a folder: the runtime and the service', (t) => {
  t.deepEqual(readdirSync(join(ROOT, 'src')).sort(), ['runtime', 'service']);
});

test('test/ has a folder for each house (runtime, codegen, service), each holding tests, beside system/, fixtures/ and support/, and only repository-wide checks at its top', (t) => {
  const folders = readdirSync(join(ROOT, 'test'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  t.deepEqual(folders, ['codegen', 'fixtures', 'runtime', 'service', 'support', 'system']);
  const top = readdirSync(join(ROOT, 'test')).filter((name) => name.endsWith('.ts'));
  t.deepEqual(top.sort(), ['docs.test.ts', 'layout.test.ts', 'self-contained.test.ts']);
  for (const house of ['runtime', 'codegen', 'service']) t.true(sourceFiles(`test/${house}`).length > 0, `test/${house}/ holds tests`);
});

/** The folders under `dir`, at any depth, as paths below it. */
function foldersUnder(dir: string, below = ''): string[] {
  return readdirSync(join(ROOT, dir, below), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(below, entry.name), ...foldersUnder(dir, join(below, entry.name))]);
}

test('the tests of codegen/ and of the runtime mirror their rooms: each folder of test/codegen/ and test/runtime/ is a room of codegen/ or src/runtime/, and holds tests', (t) => {
  for (const [tests, house] of [
    ['test/codegen', 'codegen'],
    ['test/runtime', 'src/runtime'],
  ]) {
    const folders = foldersUnder(tests);
    t.true(folders.length >= 3, `${tests}/ has rooms`);
    for (const folder of folders) {
      t.true(existsSync(join(ROOT, house, folder)), `${tests}/${folder}/ mirrors ${house}/${folder}/, which is not there`);
      t.true(sourceFiles(join(tests, folder)).length > 0, `${tests}/${folder}/ holds tests`);
    }
  }
});

/** Imports that leave the runtime for anything but a package or the runtime itself. */
const leavingRuntime = (dir: string) => offending(dir, (target) => target.startsWith('package:') || inside(target, 'src/runtime'));

test('the runtime imports packages and itself only: nothing of generated/, codegen/ or the service', (t) => {
  t.true(sourceFiles('src/runtime').length >= 25, 'the runtime was read');
  t.deepEqual(leavingRuntime('src/runtime'), []);
});

test('the import check sees a runtime file that imports the service or generated code', (t) => {
  const leaving = (text: string) => importsOf('src/runtime/bindings/soap.ts', text).filter((target) => !inside(target, 'src/runtime'));
  t.deepEqual(leaving("import { validatePin } from '../../service/handlers/validate-pin';"), ['src/service/handlers/validate-pin']);
  t.deepEqual(leaving("import type { Operations } from '../../../generated/routes';"), ['generated/routes']);
  t.deepEqual(leaving("import { loadContract } from '../contract';"), []);
});

/** Imports of generated/ that leave it for anything but the doors made for it. */
const pastGeneratedDoors = (file: string, text?: string) =>
  importsOf(file, text).filter((target) => !inside(target, 'generated') && !GENERATED_DOORS.has(target));

/** The runtime package's doors (src/runtime/package.json's `exports`, but its package.json) as codegen/ imports them by name. */
const RUNTIME_PACKAGE = JSON.parse(readFileSync(join(ROOT, 'src', 'runtime', 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};
const RUNTIME_DOORS = new Set(
  Object.keys(RUNTIME_PACKAGE.exports)
    .filter((entry) => entry !== './package.json')
    .map((entry) => `package:${RUNTIME_PACKAGE.name}${entry.slice(1)}`),
);

/**
 * Imports of codegen/ that leave it for anything but another package or the runtime package's doors by name: a module of
 * the runtime by path (a door's path too: the package codegen/ is built and installed with is contract-runtime), or one
 * below a door by name.
 */
const pastCodegenDoors = (file: string, text?: string) =>
  importsOf(file, text).filter((target) =>
    target.startsWith('package:')
      ? (target === `package:${RUNTIME_PACKAGE.name}` || target.startsWith(`package:${RUNTIME_PACKAGE.name}/`)) &&
        !RUNTIME_DOORS.has(target)
      : !inside(target, 'codegen'),
  );

test("generated/ imports only itself and the runtime's codec and client doors; codegen/ only itself, packages and the runtime package's doors", (t) => {
  t.true(sourceFiles('generated').length >= 6);
  t.deepEqual(
    sourceFiles('generated').flatMap((file) => pastGeneratedDoors(file).map((target) => `${file} imports ${target}`)),
    [],
  );
  t.deepEqual(
    [...RUNTIME_DOORS].sort(),
    ['', '/client', '/codec', '/handler', '/host', '/xml'].map((door) => `package:contract-runtime${door}`),
  );
  t.true(sourceFiles('codegen').length >= 50, 'codegen/ was read');
  t.deepEqual(
    sourceFiles('codegen').flatMap((file) => pastCodegenDoors(file).map((target) => `${file} imports ${target}`)),
    [],
  );
  t.true(
    sourceFiles('codegen').some((file) => importsOf(file).includes('package:contract-runtime/xml')),
    'codegen/ imports the runtime by name',
  );
});

test("codegen/'s door check sees an import of the runtime by path, a door's path too, and one below a door by name", (t) => {
  t.deepEqual(pastCodegenDoors('codegen/read/catalog.ts', "import { xml } from '../../src/runtime/xml/xml-engine';"), [
    'src/runtime/xml/xml-engine',
  ]);
  t.deepEqual(pastCodegenDoors('codegen/main.ts', "import { handlerModules } from '../src/runtime/handler';"), ['src/runtime/handler']);
  t.deepEqual(pastCodegenDoors('codegen/main.ts', "import { xml } from 'contract-runtime/xml/xml-engine';"), [
    'package:contract-runtime/xml/xml-engine',
  ]);
  t.deepEqual(pastCodegenDoors('codegen/main.ts', "import { serveContract } from '../src/service/app';"), ['src/service/app']);
  t.deepEqual(
    pastCodegenDoors(
      'codegen/harness/mock.ts',
      "import { runContractServer } from 'contract-runtime/host';\nimport { xml } from 'contract-runtime/xml';\nimport { ts } from 'ts-morph';\nimport { x } from 'contract-runtimes';",
    ),
    [],
  );
});

test('the runtime package names its files by `exports` only: no `main` or `types`, which would turn an import of src/runtime by path (the front door, index.ts) into its dist/', (t) => {
  const manifest = RUNTIME_PACKAGE as { main?: string; types?: string };
  t.deepEqual([manifest.main, manifest.types], [undefined, undefined]);
  t.is(require.resolve('../src/runtime'), join(ROOT, 'src', 'runtime', 'index.ts'));
});

test("tsconfig.json's `paths` resolve the runtime package's doors, each to the TypeScript of the file its `exports` names", (t) => {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const paths = Object.fromEntries(
    Object.entries(RUNTIME_PACKAGE.exports)
      .filter(([entry]) => entry !== './package.json')
      .map(([entry, target]) => [
        `${RUNTIME_PACKAGE.name}${entry.slice(1)}`,
        [(target as { default: string }).default.replace(/^\.\/dist\//, './src/runtime/').replace(/\.js$/, '.ts')],
      ]),
  );
  t.deepEqual(config.compilerOptions.paths, paths);
  for (const [[file]] of Object.values(config.compilerOptions.paths).map((p) => [p])) t.true(existsSync(join(ROOT, file)), file);
});

/** Words of the PIN service: its operations, its concepts, its contract's namespace and endpoint. */
const SERVICE_WORDS = /\bPair\b|ValidatePin|\bPINs?\b|secret|\bTOTP\b|\bHOTP\b|otpauth|authenticator|api\.asmx/i;
/** Case matters for these: `pair` (a name=value pair) and `pins` (a version pinned) are other words. */
const CASE_SENSITIVE = new Set(['pair', 'pin', 'pins']);

function serviceWordsIn(dir: string): string[] {
  return sourceFilesAndTemplates(dir).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        const found = [...line.matchAll(new RegExp(SERVICE_WORDS.source, 'gi'))]
          .map((m) => m[0])
          .filter((word) => !CASE_SENSITIVE.has(word.toLowerCase()) || /^[A-Z]/.test(word));
        return found.length ? [`${file}:${i + 1}: ${found.join(', ')}`] : [];
      }),
  );
}

function sourceFilesAndTemplates(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFilesAndTemplates(join(dir, entry.name)) : /\.(ts|hbs)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

test('the runtime and codegen/ name no operation and no word of the PIN service', (t) => {
  t.deepEqual(serviceWordsIn('src/runtime'), []);
  t.deepEqual(serviceWordsIn('codegen'), []);
});

test('test/runtime/ names no word of the PIN service and imports nothing of src/service/, generated/ or test/service/', (t) => {
  t.true(sourceFiles('test/runtime').length >= 10, 'the tests of the runtime were read');
  t.deepEqual(serviceWordsIn('test/runtime'), []);
  t.deepEqual(
    offending('test/runtime', (target) => !['src/service', 'generated', 'test/service'].some((dir) => inside(target, dir))),
    [],
  );
});

test('the word check finds the service in the service, and not a pair of words or a pinned version', (t) => {
  t.true(serviceWordsIn('src/service/handlers').length > 5);
  const words = (line: string) =>
    [...line.matchAll(new RegExp(SERVICE_WORDS.source, 'gi'))]
      .map((m) => m[0])
      .filter((w) => !CASE_SENSITIVE.has(w.toLowerCase()) || /^[A-Z]/.test(w));
  t.deepEqual(words('for (const pair of fields) // package.json pins it'), []);
  t.deepEqual(words('Pair, ValidatePin, a PIN, secretCode'), ['Pair', 'ValidatePin', 'PIN', 'secret']);
});

test('the service stands on the runtime: its rooms import the runtime', (t) => {
  const importsOfRooms = SERVICE_ROOMS.flatMap((room) => (room.endsWith('config') ? [`${room}.ts`] : sourceFiles(room))).flatMap((file) =>
    importsOf(file),
  );
  t.true(importsOfRooms.some((target) => inside(target, 'src/runtime')));
});

/** Whether the service's `file` may import `target` of the runtime: a door, or (the package's entry) the front door. */
const throughTheDoors = (target: string, file: string) =>
  !inside(target, 'src/runtime') || SERVICE_DOORS.has(target) || (file === PACKAGE_ENTRY && FRONT_DOOR.has(target));

/** Imports of the service that pass the runtime's doors (a module of src/runtime/ named by path) or reach codegen/. */
const pastTheDoors = (dir: string) => offending(dir, (target, file) => throughTheDoors(target, file) && !inside(target, 'codegen'));

test("the service imports the runtime through its doors only (handler.ts, host.ts; its package entry the front door's client names too), and nothing of codegen/", (t) => {
  t.true(sourceFiles('src/service').length >= 40, 'the service was read');
  t.deepEqual(pastTheDoors('src/service'), []);
  t.true(
    sourceFiles('src/service').some((file) => importsOf(file).includes('src/runtime/handler')) &&
      sourceFiles('src/service').some((file) => importsOf(file).includes('src/runtime/host')),
    'both doors are used',
  );
});

test("the generated doors' check sees an import of the front door or of a runtime module by path", (t) => {
  t.deepEqual(pastGeneratedDoors('generated/routes.ts', "import type { Port } from '../src/runtime';"), ['src/runtime']);
  t.deepEqual(pastGeneratedDoors('generated/types.ts', "import { DecodeError } from '../src/runtime/xml/xml-codec';"), [
    'src/runtime/xml/xml-codec',
  ]);
  t.deepEqual(
    pastGeneratedDoors(
      'generated/client.ts',
      "import { exchange } from '../src/runtime/client';\nimport { jsonString } from '../src/runtime/codec';",
    ),
    [],
  );
});

test('the door check sees an import of a runtime module by path, of the front door past the package entry, and one of codegen/', (t) => {
  const past = (text: string, file = 'src/service/app.ts') =>
    importsOf(file, text).filter((target) => !throughTheDoors(target, file) || inside(target, 'codegen'));
  t.deepEqual(past("import { buildApp } from '../runtime/app-builder';"), ['src/runtime/app-builder']);
  t.deepEqual(past("import { generate } from '../../codegen/main';"), ['codegen/main']);
  t.deepEqual(past("import { buildApp } from '../runtime';\nimport { RouteTable } from '../runtime/index';"), [
    'src/runtime',
    'src/runtime/index',
  ]);
  t.deepEqual(past("import { buildApp } from '../runtime/host';\nimport { ServiceError } from '../runtime/handler';"), []);
  t.deepEqual(past("export { CLIENT_VARIANTS } from '../runtime';", PACKAGE_ENTRY), []);
});

test("the runtime's XML engine imports packages, itself and the runtime's escape.ts, nothing else of the project", (t) => {
  t.deepEqual(
    offending(
      'src/runtime/xml',
      (target) => target.startsWith('package:') || inside(target, 'src/runtime/xml') || target === 'src/runtime/escape',
    ),
    [],
  );
});

test('the help pages and the typed client do not import the bindings', (t) => {
  t.deepEqual(
    [
      ...offending('src/runtime/help', (target) => !inside(target, 'src/runtime/bindings')),
      ...offending('src/runtime/client', (target) => !inside(target, 'src/runtime/bindings')),
    ],
    [],
  );
});

test("only the XML engine, src/runtime/xml/xml-engine.ts, imports libxml2-wasm's internal module, and the runtime's package.json pins the package's exact release", (t) => {
  const internal = (target: string) => target.startsWith('package:libxml2-wasm/');
  const reaching = ['src', 'generated', 'codegen', 'test', 'bench'].flatMap((dir) => offending(dir, (target) => !internal(target)));
  t.deepEqual([...new Set(reaching)], ['src/runtime/xml/xml-engine.ts imports package:libxml2-wasm/lib/libxml2.mjs']);
  const pinned = (
    JSON.parse(readFileSync(join(ROOT, 'src', 'runtime', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  ).dependencies['libxml2-wasm'];
  t.regex(
    pinned,
    /^\d+\.\d+\.\d+$/,
    'libxml2-wasm is pinned to an exact release, not a range: a new one is taken as docs/runtime.md, "Taking a libxml2 fix", says',
  );
});

/** The project file an import names: `x` is `x.ts` or `x/index.ts`. */
function fileOf(target: string): string | undefined {
  return [`${target}.ts`, `${target}/index.ts`].find((file) => existsSync(join(ROOT, file)));
}

/** The import graph of `files` (edges to project files only). */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file).flatMap((target) => fileOf(target) ?? [])]));
}

/** The strongly connected parts of a graph with more than one node (or a node that reaches itself): its cycles (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) === order.get(node)) {
      const part: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        part.push(member);
      } while (member !== node);
      if (part.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(part.sort());
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}

const PROJECT = ['src', 'codegen', 'generated', 'bench', 'test'];

test('the cycle finder finds a cycle, a self-import and none in a chain', (t) => {
  t.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
        ['d', ['a']],
      ]),
    ),
    [['a', 'b', 'c']],
  );
  t.deepEqual(cycles(new Map([['a', ['a']]])), [['a']]);
  t.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
});

test('no import cycle between files, anywhere in the project', (t) => {
  const graph = importGraph(PROJECT.flatMap(sourceFiles));
  t.log(`${graph.size} files, ${[...graph.values()].flat().length} imports of project files`);
  t.true(graph.size > 150, 'the whole project was read');
  t.true([...graph.values()].flat().length > 400, 'and its imports resolved');
  t.deepEqual(cycles(graph), []);
});

test('no import cycle between the rooms of src/ (the runtime, and each folder and top-level file of the service)', (t) => {
  // The runtime is one room here (its own folders import each other freely); each folder and file of the service is one.
  const roomOf = (file: string) =>
    file
      .split('/')
      .slice(0, file.startsWith('src/runtime/') ? 2 : 3)
      .join('/')
      .replace(/\.ts$/, '');
  const rooms = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph(sourceFiles('src'))) {
    const room = roomOf(file);
    if (!rooms.has(room)) rooms.set(room, new Set());
    for (const target of targets) if (target.startsWith('src/') && roomOf(target) !== room) rooms.get(room)!.add(roomOf(target));
  }
  t.true(rooms.size >= 15);
  t.deepEqual(cycles(new Map([...rooms].map(([room, targets]) => [room, [...targets]]))), []);
});
