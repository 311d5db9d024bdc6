/**
 * `make generate`: schema/ (its one .wsdl, and the schema files it names) → contract model → generated/. `--wsdl FILE --out DIR`
 * generates for any WSDL instead, into DIR, with a tsconfig.json that
 * type-checks DIR on its own (`npx tsc --noEmit -p DIR`).
 * `--handlers DIR` also writes, into DIR, a handler module for each operation
 * that has none yet (it throws "not implemented") and an index.ts that binds
 * them and serves the contract: a skeleton that compiles as written.
 * `--service NAME` chooses among several services (default: the first, said in
 * one line); `--schemas DIR` names where the schemas a WSDL names by URL are.
 *   npm run generate [-- --wsdl FILE --out DIR] [--handlers DIR] [--service NAME] [--schemas DIR]
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { loadXmlEngine } from '../src/runtime/xml/xml-engine';
import { buildContractModel, buildSchemaModel } from './model/build';
import type { SchemaModel } from './model/model';
import { emitElements } from './emit/elements';
import { type Catalog, readCatalog } from './read/catalog';
import { readSchemaSet } from './read/schemas';
import { parseArgs } from 'node:util';
import { emitTypes } from './emit/types';
import { emitClient } from './emit/client';
import { emitContract } from './emit/contract';
import { emitJson } from './emit/json';
import { emitDocuments } from './emit/documents';
import { emitHandlerSkeleton } from './emit/handlers';
import { handlerModuleName } from '../src/runtime/handler-modules';
import { GENERATED_HEADER } from './emit/header';
import { emitOpenApi } from './emit/openapi';
import { emitRoutes } from './emit/routes';
import { readContract } from './read/contract';

const ROOT = resolve(__dirname, '..');

/**
 * Writes the generated files for a WSDL into outDir. `standalone` (the
 * default anywhere but generated/) makes the folder type-check on its own.
 */
export async function generate(
  wsdlPath: string,
  outDir: string,
  {
    standalone = resolve(outDir) !== join(ROOT, 'generated'),
    handlers,
    service,
    schemas,
    runtime,
    catalog,
    note = (line) => console.error(line),
  }: {
    standalone?: boolean;
    /** A folder for the handler skeleton: the modules (and index.ts) it lacks are written there. */
    handlers?: string;
    /** The service to serve when the WSDL declares several. */
    service?: string;
    /** Where schemas the WSDL names by URL are saved. */
    schemas?: string;
    /** The runtime's folder the generated files import (default: this checkout's src/runtime). */
    runtime?: string;
    /** An OASIS XML Catalog (a file) that maps the URLs documents are named by to local files. */
    catalog?: string;
    /** Says, in one line, what was chosen among several services or bindings. */
    note?: (line: string) => void;
  } = {},
): Promise<string[]> {
  await loadXmlEngine(); // libxml2-wasm is an ES module: loaded once, before any contract file is read
  const model = buildContractModel(
    await readContract(wsdlPath, { service, schemas, warn: note, ...(catalog ? { catalog: readCatalog(catalog) } : {}) }),
    note,
  );
  if (model.choice) note(`codegen: ${model.choice}`);
  const files: Record<string, string> = {
    'types.ts': emitTypes(model),
    'routes.ts': emitRoutes(model),
    'documents.ts': emitDocuments(model),
    'client.ts': emitClient(model),
    'json.ts': emitJson(model),
    'openapi.ts': emitOpenApi(model),
    'contract.ts': emitContract(),
  };
  if (standalone) {
    for (const name of Object.keys(files)) files[name] = forStandaloneFolder(files[name], wsdlPath, outDir, runtime);
    // With a handler skeleton, the folder's type check covers the handlers too (those written and those already there).
    const handlerFiles =
      handlers === undefined
        ? []
        : model.operations
            .map((op) => `${handlerModuleName(op.name)}.ts`)
            .concat('index.ts')
            .map((name) =>
              relative(resolve(outDir), join(resolve(handlers), name))
                .split(sep)
                .join('/'),
            );
    files['tsconfig.json'] = standaloneTsconfig(outDir, handlerFiles);
  }
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(outDir, name), text.endsWith('\n') ? text : `${text}\n`);
  }
  const written = Object.keys(files).map((name) => join(outDir, name));
  if (handlers !== undefined) {
    const from = (target: string) => {
      const path = relative(resolve(handlers), target).split(sep).join('/');
      return path.startsWith('.') ? path : `./${path}`;
    };
    const skeleton = emitHandlerSkeleton(model, {
      generated: from(resolve(outDir)),
      runtime: from(join(ROOT, 'src', 'runtime')),
      folder: handlers.split(sep).join('/').replace(/\/+$/, ''),
    });
    mkdirSync(handlers, { recursive: true });
    for (const [name, text] of Object.entries(skeleton)) {
      const file = join(handlers, name);
      if (existsSync(file)) continue; // the team's own
      writeFileSync(file, text);
      written.push(file);
    }
  }
  return written;
}

/**
 * The model of a bare schema set and the text of its files (`types.ts`, `elements.ts`), as generated/ would hold
 * them (their imports name `../src/runtime/`); nothing is written.
 */
export async function generateSchemaTexts(
  xsdPaths: readonly string[],
  { note = (line: string) => console.error(line), catalog }: { note?: (line: string) => void; catalog?: string | Catalog } = {},
): Promise<{ model: SchemaModel; files: Record<string, string> }> {
  await loadXmlEngine();
  const mapping = typeof catalog === 'string' ? readCatalog(catalog) : catalog;
  const model = buildSchemaModel(await readSchemaSet(xsdPaths, { warn: note, ...(mapping ? { catalog: mapping } : {}) }));
  return { model, files: { 'types.ts': emitTypes(model), 'elements.ts': emitElements(model, GENERATED_HEADER) } };
}

/**
 * `--xsd FILE --out DIR`: the classes of every global element and type of a schema set, each element's reader and
 * writer, and a tsconfig.json that type-checks the folder on its own.
 */
export async function generateFromXsd(
  xsdPaths: readonly string[],
  outDir: string,
  { runtime, catalog }: { runtime?: string; catalog?: string } = {},
): Promise<string[]> {
  const { files } = await generateSchemaTexts(xsdPaths, { catalog });
  for (const name of Object.keys(files)) files[name] = forStandaloneFolder(files[name], xsdPaths[0], outDir, runtime);
  files['tsconfig.json'] = standaloneTsconfig(outDir, [], ['types.ts', 'elements.ts']);
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text.endsWith('\n') ? text : `${text}\n`);
  return Object.keys(files).map((name) => join(outDir, name));
}

/**
 * The emitters write for generated/, beside src/: elsewhere the imports of
 * src/ (the XML engine, the client's transport) take the path from the
 * folder to this checkout's src/, and the header names the WSDL.
 */
export function forStandaloneFolder(text: string, wsdlPath: string, outDir: string, runtime = join(ROOT, 'src', 'runtime')): string {
  const src = relative(resolve(outDir), resolve(runtime, '..')).split(sep).join('/');
  const header = [
    `// Generated by codegen/ from ${relative(ROOT, resolve(wsdlPath)).split(sep).join('/')}. Do not edit:`,
    '// change the WSDL or codegen/ and generate again.',
  ].join('\n');
  return text.replace(GENERATED_HEADER, header).replace(/(from ['"])\.\.\/src\//g, `$1${src.startsWith('.') ? src : `./${src}`}/`);
}

/** What `tsc -p DIR` needs: the project's compiler options, and Node's types from this checkout. */
export function standaloneTsconfig(
  outDir: string,
  more: string[] = [],
  files = ['types.ts', 'routes.ts', 'documents.ts', 'client.ts', 'json.ts', 'openapi.ts', 'contract.ts'],
): string {
  const typeRoots = relative(resolve(outDir), join(ROOT, 'node_modules', '@types'))
    .split(sep)
    .join('/');
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'node16',
      moduleResolution: 'node16',
      lib: ['ES2022'],
      types: ['node'],
      typeRoots: [typeRoots],
      strict: true,
      noImplicitOverride: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
    },
    files: [...files, ...more],
  };
  return JSON.stringify(config, null, 2);
}

/** The one WSDL of a folder (schema/api.wsdl here; another contract's schema/ may name its own). */
export function theWsdlOf(folder: string): string {
  const found = readdirSync(folder).filter((name) => name.toLowerCase().endsWith('.wsdl'));
  if (found.length !== 1) {
    throw new Error(
      `codegen: ${relative(ROOT, folder) || folder}/ must hold one .wsdl file (the contract), not ${found.length}${found.length ? `: ${found.join(', ')}` : ''}`,
    );
  }
  return join(folder, found[0]);
}

/** The command line's options, each with what its value is (named in the one line a missing value gets). */
const OPTIONS = {
  wsdl: 'a file',
  schema: 'a file',
  xsd: 'a file',
  out: 'a folder',
  handlers: 'a folder',
  service: 'a name',
  schemas: 'a folder',
  catalog: 'a file',
} as const;
type OptionName = keyof typeof OPTIONS;

/** The options as node:util's parseArgs splits them; an unknown option, a stray word or a missing value is one line. */
export function parseCommandLine(argv: string[]): Partial<Record<OptionName, string>> {
  const { tokens } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, { type: 'string' as const }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Partial<Record<OptionName, string>> = {};
  for (const token of tokens) {
    if (token.kind === 'positional')
      throw new Error(`codegen: ${token.value}: codegen takes options only (--wsdl FILE --out DIR, --xsd FILE --out DIR, …)`);
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(OPTIONS, token.name)) throw new Error(`codegen: unknown option ${token.rawName}`);
    const name = token.name as OptionName;
    const spec = name === 'schema' ? 'wsdl' : name;
    if (token.value === undefined || token.value === '' || (token.inlineValue !== true && token.value.startsWith('--')))
      throw new Error(`codegen: --${spec} needs ${OPTIONS[name]}`);
    values[spec] = token.value;
  }
  return values;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (require.main === module) {
  let options: Partial<Record<OptionName, string>>;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    fail((error as Error).message);
  }
  const { xsd, wsdl, out, handlers, service, schemas } = options;
  if (wsdl && !out) fail('codegen: --wsdl FILE needs --out DIR (generated/ is generated from schema/ only)');
  if (xsd && !out) fail('codegen: --xsd FILE needs --out DIR');
  if (xsd && wsdl) fail('codegen: --xsd and --wsdl are two ways in: name one');
  const { catalog } = options;
  const done = (written: string[]) => console.log(written.map((f) => `wrote ${f}`).join('\n'));
  const failed = (error: Error) => fail(error.message.startsWith('codegen: ') ? error.message : `codegen: ${error.message}`);
  if (xsd && out) generateFromXsd([xsd], out, { catalog }).then(done, failed);
  else if (wsdl && out) generate(wsdl, out, { handlers, service, schemas, catalog }).then(done, failed);
  else {
    let schemaWsdl: string;
    try {
      schemaWsdl = theWsdlOf(join(ROOT, 'schema'));
    } catch (error) {
      fail((error as Error).message);
    }
    generate(schemaWsdl, out ?? join(ROOT, 'generated'), { handlers, catalog }).then(done, failed);
  }
}
