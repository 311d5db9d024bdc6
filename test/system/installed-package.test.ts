/**
 * A team serves its own contract from its own project, with the runtime and
 * codegen packages installed as npm installs them, and nothing else of the
 * repository (test/support/installed-package.ts: `npm pack` of each workspace
 * of a fresh copy of the repository, `npm install` of both tarballs and of
 * typescript into a new project in a temporary folder; not the PIN service).
 * There, with the codegen package's commands from node_modules/.bin:
 *  - `contract-codegen --wsdl Calculator.wsdl --out src/generated --handlers
 *    src/handlers` writes the contract and the handler skeleton, which import
 *    the runtime by its package's name (the contract its codec and client
 *    doors, `contract-runtime/codec` and `/client`; the skeleton
 *    `contract-runtime`) and nothing of it by path;
 *  - the team writes one handler (Add); the project's own `tsc` refuses it
 *    while it returns the wrong type, then compiles the project;
 *  - the compiled skeleton (dist/handlers/index.js, the runtime's host) serves
 *    the contract: Python zeep reads Add's sum over SOAP 1.1 and SOAP 1.2, and
 *    the "not implemented" fault of an operation not written yet;
 *  - `contract-mock --wsdl Calculator.wsdl` serves the same contract with
 *    sample answers, which zeep reads over both SOAP versions, and stops on
 *    SIGTERM.
 * In `make test-all`: npm needs the registry (or its cache), and zeep is
 * Debian's python3-zeep (.ci/run installs it).
 */
import test, { type ExecutionContext } from 'ava';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../../codegen/harness/load-generated';
import { SOAP11, SOAP12 } from '../../src/runtime/wire/soap-envelope';
import { loadReaders, readXml } from '../support/readers';
import { importsIn, makeProject, packWorkspaces, projectBin, type Served, serve, succeed } from '../support/installed-package';
import { CLIENTS_DIR, PYTHON, haveTool, requireTool, runJsonClient, type TypedResult } from './clients/harness';

const CALCULATOR = join(__dirname, '..', 'fixtures', 'contracts', 'calculator', 'Calculator.wsdl');
const ROOT = join(__dirname, '..', '..');
const packageJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string; description: string };
const RUNTIME = packageJson(join(ROOT, 'src', 'runtime', 'package.json'));
const CODEGEN = packageJson(join(ROOT, 'codegen', 'package.json'));
const SERVICE = packageJson(join(ROOT, 'package.json'));

let work: string | undefined;
const servers: Served[] = [];

test.after.always(async () => {
  for (const server of servers) await server.stop(0);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The handler the team writes for Add; `wrong` returns text where the contract says xsd:int. */
const addHandler = (wrong: boolean) => `import type { Operations } from '../generated/routes';

export async function add(request: Operations['Add']['request']): Promise<${wrong ? 'string' : "Operations['Add']['result']"}> {
  return ${wrong ? 'String(request.intA + request.intB)' : 'request.intA + request.intB'};
}

declare module './index' {
  interface HandlerModules {
    Add: typeof add;
  }
}
`;

/** zeep's calls over the calculator's SOAP port of `version`, through zeep_typed_client.py. */
async function zeepCalls(
  url: string,
  version: '1.1' | '1.2',
  calls: { op: string; args: Record<string, unknown> }[],
): Promise<TypedResult[]> {
  const { results } = await runJsonClient<{ results: TypedResult[] }>(
    PYTHON,
    [join(CLIENTS_DIR, 'zeep_typed_client.py')],
    { wsdl: `${url}?WSDL`, service: 'Calculator', port: version === '1.1' ? 'CalculatorSoap' : 'CalculatorSoap12', calls },
    90_000,
  );
  return results;
}

/** The SOAP version of the envelope zeep received, by its namespace. */
function envelopeVersion(received: string | null | undefined): string | undefined {
  const namespace = received ? readXml(received, (doc) => doc.root.namespaceUri) : undefined;
  return namespace === SOAP11.envelopeNamespace ? '1.1' : namespace === SOAP12.envelopeNamespace ? '1.2' : undefined;
}

function checkTools(t: ExecutionContext): boolean {
  requireTool('npm', ['--version'], 'npm');
  return haveTool(t, PYTHON, ['-c', 'import zeep'], 'python3-zeep');
}

test.serial(
  'in a project of its own, with the runtime and codegen packages installed (not the service), codegen generates a WSDL with its handler skeleton, the project type-checks with its own tsc, serves the contract to zeep over SOAP 1.1 and 1.2, and the mock answers zeep',
  async (t) => {
    t.timeout(25 * 60_000, 'pack, install from the registry, generate, compile, serve');
    if (!checkTools(t)) return;
    await loadReaders();
    work = mkdtempSync(join(tmpdir(), 'pin-installed-'));
    const project = join(work, 'project');
    const packed = await packWorkspaces(work);
    t.deepEqual(
      packed.map(({ name }) => name),
      [RUNTIME.name, CODEGEN.name],
    );
    await makeProject(
      project,
      packed.map(({ tarball }) => tarball),
      ['typescript@5.9', '@types/node@24'],
    );
    cpSync(CALCULATOR, join(project, 'Calculator.wsdl'));

    // Both packages, as packed here (codegen's dependency on the runtime is the runtime's tarball), and not the service.
    const modules = join(project, 'node_modules');
    for (const expected of [RUNTIME, CODEGEN]) {
      const installed = packageJson(join(modules, expected.name, 'package.json'));
      t.deepEqual([installed.name, installed.version, installed.description], [expected.name, expected.version, expected.description]);
    }
    t.false(existsSync(join(modules, CODEGEN.name, 'node_modules', RUNTIME.name)), 'one runtime, the tarball, and no other copy');
    t.false(existsSync(join(modules, SERVICE.name)), 'the PIN service is not installed');
    t.deepEqual(
      Object.keys((JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: object }).dependencies).sort(),
      ['@types/node', CODEGEN.name, RUNTIME.name, 'typescript'].sort(),
    );

    // The installed codegen: the contract and the skeleton, importing the runtime by the package's name.
    const generated = await succeed(
      projectBin(project, 'contract-codegen'),
      ['--wsdl', 'Calculator.wsdl', '--out', 'src/generated', '--handlers', 'src/handlers'],
      project,
      120_000,
    );
    t.regex(generated, /wrote src\/handlers\/index\.ts/);
    t.deepEqual(readdirSync(join(project, 'src')).sort(), ['generated', 'handlers']);
    const imports = importsIn(join(project, 'src'));
    const outside = imports.filter(({ module }) => !module.startsWith('.'));
    t.true(outside.length >= 8, 'the generated files and the handlers import the runtime');
    const doors = [`${RUNTIME.name}/codec`, `${RUNTIME.name}/client`];
    t.deepEqual(
      outside.filter(({ file, module }) => (file.startsWith('generated') ? !doors.includes(module) : module !== RUNTIME.name)),
      [],
      "nothing but the runtime's codec and client doors (the generated files) and its front door (the handlers), by the runtime package's name",
    );
    t.deepEqual(
      imports.filter(({ module }) => module.includes('node_modules') || (module.includes('runtime/') && !doors.includes(module))),
      [],
      'nothing of the runtime by path',
    );
    t.regex(
      readFileSync(join(project, 'src', 'generated', 'types.ts'), 'utf8'),
      /^\/\/ Generated by contract-codegen from Calculator\.wsdl\. Do not edit:/,
    );

    // The team's handler: the project's compiler refuses it while it answers text for an xsd:int, then builds.
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    writeFileSync(join(project, 'src', 'handlers', 'add.ts'), addHandler(true));
    const refused = await succeed(process.execPath, [tsc, '-p', '.'], project, 180_000).then(
      () => '',
      (error: Error) => error.message,
    );
    t.regex(refused, /src\/handlers\/(add|index)\.ts.*error TS/, 'tsc names the handler of the wrong type');
    writeFileSync(join(project, 'src', 'handlers', 'add.ts'), addHandler(false));
    await succeed(process.execPath, [tsc, '-p', '.'], project, 180_000);

    // The contract served by the project's compiled skeleton.
    const served = await serve(process.execPath, [join('dist', 'handlers', 'index.js')], project);
    servers.push(served);
    t.regex(served.url, /^http:\/\/127\.0\.0\.1:\d+\/Calculator\.asmx$/);
    for (const version of ['1.1', '1.2'] as const) {
      const [sum, notYet] = await zeepCalls(served.url, version, [
        { op: 'Add', args: { intA: 2, intB: 40 } },
        { op: 'Subtract', args: { intA: 2, intB: 40 } },
      ]);
      t.deepEqual(sum.ok, { type: 'builtins.int', value: 42 }, `Add over SOAP ${version}: ${JSON.stringify(sum)}`);
      t.is(envelopeVersion(sum.received), version, `Add was answered over SOAP ${version}`);
      t.regex(notYet.fault?.message ?? JSON.stringify(notYet), /Subtract is not implemented yet/, `Subtract over SOAP ${version}`);
    }
    t.is(await served.stop(), 0, `the host stops on SIGTERM:\n${served.output()}`);

    // The installed mock, of the same WSDL: every answer is the operation's sample.
    const samples = await loadContract(CALCULATOR, { folder: join(work, 'samples') });
    const mock = await serve(projectBin(project, 'contract-mock'), ['--wsdl', 'Calculator.wsdl'], project);
    servers.push(mock);
    for (const version of ['1.1', '1.2'] as const) {
      const [answer] = await zeepCalls(mock.url, version, [{ op: 'Multiply', args: { intA: 6, intB: 7 } }]);
      t.deepEqual(
        answer.ok,
        { type: 'builtins.int', value: samples.definition.routes.Multiply.sampleResult() },
        `the mock's Multiply over SOAP ${version}: ${JSON.stringify(answer)}`,
      );
      t.is(envelopeVersion(answer.received), version, `the mock answered over SOAP ${version}`);
    }
    t.is(await mock.stop(), 0, `the mock stops on SIGTERM:\n${mock.output()}`);
  },
);
