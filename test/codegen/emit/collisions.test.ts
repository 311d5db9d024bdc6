/**
 * Generated code always compiles, whatever the contract names: a contract
 * built to collide (test/fixtures/contracts/collisions/) names types after
 * everything generated files import from the runtime's front door or declare
 * themselves, operations after the client's own members under several
 * casings and with characters no identifier holds, members after the
 * classes' methods, and a header and a fault after the client's types. It is
 * generated with its handler skeleton and type-checked, served and called
 * over every SOAP port (`npm run corpus`'s check). The list of names generated
 * code reserves is held to the exports of the front door and of the doors
 * generated files import (the codec's, the client's), and to what the
 * generated files declare.
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { checkCorpus } from '../../../codegen/harness/corpus';
import { loadModules } from '../../../codegen/harness/xsts/run-set';
import { RUNTIME_NAMES } from '../../../codegen/emit/ts';
import { generate, generateFromXsd, generateSchemaTexts } from '../../../codegen/main';
import { clientBase, GENERATED_FILE_NAMES, LOCAL_NAMES, NUMBERED_LOCALS } from '../../../codegen/model/names';
import { handlerModules } from '../../../src/runtime/handler-modules';
import { typeCheck } from '../../support/type-check';

const ROOT = join(__dirname, '..', '..', '..');
const COLLISIONS = join(ROOT, 'test', 'fixtures', 'contracts', 'collisions');
const work = mkdtempSync(join(tmpdir(), 'codegen-collisions-'));
test.after.always(() => rmSync(work, { recursive: true, force: true }));

/** The top-level names a TypeScript file binds: what it imports (by local name) and what it declares. */
function topLevelNames(file: string): { imported: string[]; declared: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const imported: string[] = [];
  const declared: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) imported.push(...bindings.elements.map((e) => e.name.text));
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) declared.push(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement)) &&
      statement.name
    ) {
      declared.push(statement.name.text);
    }
  }
  return { imported, declared };
}

/** The names src/runtime/index.ts exports. */
function frontDoorExports(): string[] {
  const file = join(ROOT, 'src', 'runtime', 'index.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.flatMap((s) =>
    ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause) ? s.exportClause.elements.map((e) => e.name.text) : [],
  );
}

test('every name the runtime front door exports is one no contract class takes', (t) => {
  const missing = frontDoorExports().filter((name) => !GENERATED_FILE_NAMES.has(name));
  t.deepEqual(missing, [], 'add them to GENERATED_FILE_NAMES in codegen/model/names.ts');
});

test('every name the codec and client doors export, which generated files import, is one no contract class takes', (t) => {
  t.true(RUNTIME_NAMES.has('parseXsdInteger') && RUNTIME_NAMES.has('exchange'), 'both doors were read');
  const missing = [...RUNTIME_NAMES].filter((name) => !GENERATED_FILE_NAMES.has(name));
  t.deepEqual(missing, [], 'add them to GENERATED_FILE_NAMES in codegen/model/names.ts');
});

/** What a generated folder's files import or declare beside its contract's classes and their companions, unreserved. */
function unreservedNames(folder: string, service: string): string[] {
  const { declared: classes } = topLevelNames(join(folder, 'types.ts'));
  const contract = new Set(classes);
  // A class's companions: its JSON writer (json.ts) and reader (client.ts), as the name registry keeps them.
  const companion = (name: string) => /^json(To)?/.test(name) && contract.has(name.replace(/^json(To)?/, ''));
  // The typed client's classes are named after the service, clear of the contract's (a number added if need be).
  const client = new RegExp(`^${clientBase(service)}(Client\\d*(Options|Headers)?|Error|CallError\\d*)$`);
  const reserved = new Set(GENERATED_FILE_NAMES);
  const unreserved: string[] = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && f !== 'types.ts')) {
    const { imported, declared } = topLevelNames(join(folder, file));
    for (const name of [...imported, ...declared]) {
      if (!contract.has(name) && !reserved.has(name) && !companion(name) && !client.test(name)) unreserved.push(`${file}: ${name}`);
    }
  }
  return unreserved;
}

test('every name a generated file imports or declares beside the contract classes is one no contract class takes', (t) => {
  t.deepEqual(
    unreservedNames(join(ROOT, 'generated'), 'AuthenticatorApi'),
    [],
    'add them to GENERATED_FILE_NAMES in codegen/model/names.ts',
  );
});

/** The parameters and local variables of a generated folder's functions (a class of such a name would be hidden there). */
function localNames(folder: string): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(folder, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, inFunction: boolean) => {
      if (inFunction && (ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isBindingElement(node)) && ts.isIdentifier(node.name))
        names.add(node.name.text);
      ts.forEachChild(node, (child) => visit(child, inFunction || ts.isFunctionLike(node)));
    };
    visit(source, false);
  }
  return names;
}

test.serial(
  'the collision contract generates with its handler skeleton, type-checks, and answers every operation over each SOAP port',
  async (t) => {
    t.timeout(300_000, 'generate, type-check, serve and call');
    const out = join(work, 'generated');
    const handlers = join(work, 'handlers');
    const notes: string[] = [];
    await generate(join(COLLISIONS, 'Collisions.wsdl'), out, { handlers, note: (line) => notes.push(line) });
    t.deepEqual(notes, []);
    t.is(typeCheck(out), '');
    // A contract type of a name generated code uses is renamed; the names it asked for are all taken.
    const types = readFileSync(join(out, 'types.ts'), 'utf8');
    const client = readFileSync(join(out, 'client.ts'), 'utf8');
    for (const name of ['Fault', 'CallOptions', 'Handlers', 'Route', 'ROUTES', 'XmlFragment', 'DecodeError']) {
      t.notRegex(types, new RegExp(`^export class ${name} `, 'm'), name);
    }
    // The client's classes give way to the contract's.
    t.regex(types, /^export class CollisionsClient /m);
    t.regex(client, /^export class CollisionsClient2 /m);
    t.regex(client, /^export class CollisionsCallError extends Error /m);
    t.regex(types, /^export class Thing /m);
    t.regex(types, /^export class ThingFields2 /m, "a type named as another's Fields interface takes a number");
    // One method per operation, under any casing, none the client's own.
    const methods = [...client.matchAll(/^ {2}async (\w+)\(request/gm)].map((m) => m[1]);
    t.deepEqual(methods, [
      'echo',
      'get',
      'get2',
      'gET',
      'call_',
      'callJson_',
      'then_',
      'constructor_',
      'toString_',
      'do_It',
      'do_it',
      'fault',
      'endpoint_',
      'namespace_',
      'variant_',
    ]);
    // Handler modules are one file each on a file system that ignores case, each exporting an identifier.
    const modules = handlerModules(['Get', 'get', 'GET', 'Do-It', 'do.it', 'index', 'delete']);
    t.deepEqual(
      modules.map((m) => [m.file, m.name]),
      [
        ['get', 'get'],
        ['get-2', 'get2'],
        ['get-3', 'gET'],
        ['do-it', 'do_It'],
        ['do.it', 'do_it'],
        ['index-2', 'index'],
        ['delete', 'delete_'],
      ],
    );
    t.deepEqual(readdirSync(handlers).sort(), [
      'call-json.ts',
      'call.ts',
      'constructor.ts',
      'do-it.ts',
      'do.it.ts',
      'echo.ts',
      'endpoint.ts',
      'fault.ts',
      'get-2.ts',
      'get-3.ts',
      'get.ts',
      'index.ts',
      'namespace.ts',
      'then.ts',
      'to-string.ts',
      'variant.ts',
    ]);
    // Every parameter and local of the generated functions is a name no class takes.
    const locals = [...localNames(out), ...localNames(join(ROOT, 'generated'))];
    t.deepEqual(
      [...new Set(locals)].filter((name) => !LOCAL_NAMES.has(name) && !NUMBERED_LOCALS.test(name)).sort(),
      [],
      'add them to LOCAL_NAMES in codegen/model/names.ts',
    );
    const lines: string[] = [];
    const outcomes = await checkCorpus(COLLISIONS, (line) => lines.push(line));
    t.log(lines.join('\n'));
    t.deepEqual(
      outcomes.map((o) => [o.name, o.outcome]),
      [['Collisions', 'pass']],
    );
  },
);

test.serial(
  'in XSD mode, a schema whose global elements and types are named after everything generated files import compiles and reads',
  async (t) => {
    t.timeout(180_000, 'generate and type-check');
    // Every name a generated file may import from the runtime, and each as the element a reader or writer is named by
    // (an ISO 20022 message's root `Document` beside the runtime's readDocument).
    const imported = [...RUNTIME_NAMES].filter((n) => /^[A-Za-z_]\w*$/.test(n));
    const suffixes = imported.flatMap((n) => (/^(read|write)[A-Z]/.test(n) ? [n.replace(/^(read|write)/, '')] : []));
    const names = [...new Set([...imported, ...suffixes, 'Document', 'ELEMENTS', 'GLOBAL_ELEMENTS', 'ROOT_TYPES'])];
    const schema =
      `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:collide" xmlns="urn:collide" elementFormDefault="qualified">` +
      names
        .map((n) => `<xs:complexType name="${n}"><xs:sequence><xs:element name="v" type="xs:string"/></xs:sequence></xs:complexType>`)
        .join('') +
      names.map((n) => `<xs:element name="${n}" type="${n}"/>`).join('') +
      '</xs:schema>';
    const dir = join(work, 'xsd-collide');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'collide.xsd'), schema);
    await generateFromXsd([join(dir, 'collide.xsd')], join(dir, 'out'));
    t.is(typeCheck(join(dir, 'out')), '');
    const { files } = await generateSchemaTexts([join(dir, 'collide.xsd')], { note: () => {} });
    const { ELEMENTS } = loadModules(files)('./elements') as {
      ELEMENTS: Record<string, { read(text: string): { v: string }; write(value: unknown): string }>;
    };
    for (const name of ['Document', 'TypedRoot', 'AnyType']) {
      const codec = ELEMENTS[`{urn:collide}${name}`];
      const value = codec.read(`<${name} xmlns="urn:collide"><v>${name}</v></${name}>`);
      t.is(value.v, name);
      t.regex(codec.write(value), new RegExp(`<tns:v>${name}</tns:v>`));
    }
  },
);
