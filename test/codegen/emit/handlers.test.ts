/**
 * `npm run generate -- --wsdl FILE --out DIR --handlers DIR2` on published
 * contracts: the skeleton of the hand-written side (one module per
 * operation, and index.ts) type-checks as written with the generated folder,
 * runs as the contract's server, and answers every operation with a SOAP
 * fault saying it is not implemented yet; a second run keeps the modules a
 * team has written and writes again only those missing.
 */
import test from 'ava';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import type { ContractDefinition } from '../../../src/runtime/definition';
import { handlerModuleName } from '../../../src/runtime/handler-modules';
import { SOAP11, SOAP12, soapEnvelope } from '../../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../../src/runtime/xml/xml-escape';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const ROOT = join(__dirname, '..', '..', '..');
const CORPUS = join(__dirname, '..', '..', 'fixtures', 'corpus');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const run = promisify(execFile);

/** Runs codegen's command line as `npm run generate` does. */
async function generateCommand(...args: string[]): Promise<void> {
  await run(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), ...args], { cwd: ROOT });
}

/** `tsc --noEmit -p folder`: its output, empty when the folder type-checks. */
async function typeCheck(folder: string): Promise<string> {
  try {
    await run(process.execPath, [TSC, '--noEmit', '-p', folder], { cwd: ROOT, maxBuffer: 16 << 20 });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout) || String(error);
  }
}

/** Starts `node handlers/index.ts --port 0` and answers its endpoint from the `listening` line, and its output so far. */
async function runSkeleton(
  t: import('ava').ExecutionContext,
  handlers: string,
): Promise<{ endpoint: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import=tsx', join(handlers, 'index.ts'), '--port', '0', '--host', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => child.kill('SIGKILL'));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const url = /"event":"listening","url":"([^"]+)"/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { endpoint, child, output: () => output };
}

for (const [name, wsdl] of [
  ['ssrs-ReportExecution2005', 'ssrs-ReportExecution2005/ssrs-ReportExecution2005.wsdl'],
  ['lnp-NumberManagement', 'lnp-NumberManagement/NumberManagement.wsdl'],
] as const) {
  test(`${name}: the --handlers skeleton compiles as written, serves, answers each operation "not implemented", and keeps a module written by hand`, async (t) => {
    t.timeout(300_000, 'generate, type-check and serve a published contract');
    const dir = mkdtempSync(join(tmpdir(), 'handlers-skeleton-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'generated');
    const handlers = join(dir, 'handlers');
    await generateCommand('--wsdl', join(CORPUS, wsdl), '--out', out, '--handlers', handlers);

    // One module per operation, and index.ts; the folder's tsconfig covers them all.
    const definition = (require(join(out, 'contract.ts')) as { CONTRACT: ContractDefinition<AnyOperations> }).CONTRACT;
    const operations = [...definition.operationNames];
    t.deepEqual(readdirSync(handlers).sort(), [...operations.map((op) => `${handlerModuleName(op)}.ts`), 'index.ts'].sort());
    const tsconfig = JSON.parse(readFileSync(join(out, 'tsconfig.json'), 'utf8')) as { files?: string[]; include?: string[] };
    t.true(JSON.stringify(tsconfig).includes('../handlers/index.ts'), 'the type check covers the handlers');
    t.is(await typeCheck(out), '', 'the skeleton compiles as written');

    // A module that breaks its operation's type fails the check: the check is real.
    const first = join(handlers, `${handlerModuleName(operations[0])}.ts`);
    const written = readFileSync(first, 'utf8');
    writeFileSync(first, written.replace(/: Promise<Operations\['[^']+'\]\['result'\]> \{/, ': Promise<{ notTheResult: symbol }> {'));
    const broken = await typeCheck(out);
    t.regex(broken, new RegExp(`${handlerModuleName(operations[0])}\\.ts|index\\.ts`), 'tsc names the module');

    // A second run: the team's module stays as it is, a missing one is written again.
    const teamsOwn = `${written}\n// written by the team\n`;
    writeFileSync(first, teamsOwn);
    const second = join(handlers, `${handlerModuleName(operations[1])}.ts`);
    unlinkSync(second);
    await generateCommand('--wsdl', join(CORPUS, wsdl), '--out', out, '--handlers', handlers);
    t.is(readFileSync(first, 'utf8'), teamsOwn);
    t.regex(readFileSync(second, 'utf8'), new RegExp(`${operations[1]} is not implemented yet`));

    // index.ts serves the contract: every operation, over every SOAP port, is a fault saying it is not implemented.
    await loadXmlEngine();
    const { endpoint } = await runSkeleton(t, handlers);
    const base = endpoint.slice(0, endpoint.length - definition.endpointPath.length);
    const ns = escapeXmlAttribute(definition.targetNamespace);
    const soapPorts = definition.ports.filter((p) => p.variant === 'soap11' || p.variant === 'soap12');
    t.true(soapPorts.length > 0);
    for (const port of soapPorts) {
      const version = port.variant === 'soap11' ? SOAP11 : SOAP12;
      for (const operation of operations) {
        const route = definition.routes[operation];
        const action = route.soapActions?.[port.variant as 'soap11' | 'soap12'] ?? definition.targetNamespace + route.soapActionSuffix;
        const headers = route.sampleHeaders?.();
        const headerText = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : '';
        const answer = await fetch(`${base}${port.path ?? definition.endpointPath}`, {
          method: 'POST',
          headers:
            version === SOAP11
              ? { 'Content-Type': version.contentType, SOAPAction: `"${action}"` }
              : { 'Content-Type': `${version.contentType}; action="${action}"` },
          body: soapEnvelope(version, route.encodeSoapRequest(route.sampleRequest(), ns), headerText || undefined),
        });
        const text = await answer.text();
        t.is(answer.status, 500, `${operation} over ${port.name}`);
        t.true(text.includes(`${operation} is not implemented yet.`), `${operation} over ${port.name}: ${text.slice(0, 300)}`);
        t.false(/\bat .*\.ts:\d+/.test(text), 'no stack trace');
      }
    }
  });
}

/** The ```ts block of docs/runtime.md's section headed `## The handler's door`. */
function handlerDoorExample(): string {
  const page = readFileSync(join(ROOT, 'docs', 'runtime.md'), 'utf8');
  const section = page.slice(page.indexOf("\n## The handler's door\n"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("docs/runtime.md: no ts block under ## The handler's door");
  return block;
}

test("docs/runtime.md's handler example, written into the skeleton of its contract, type-checks, reads the call's header block and sets the answer's", async (t) => {
  t.timeout(300_000, 'generate, type-check and serve a published contract');
  const dir = mkdtempSync(join(tmpdir(), 'handlers-example-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'generated');
  const handlers = join(dir, 'handlers');
  await generateCommand(
    '--wsdl',
    join(CORPUS, 'ssrs-ReportExecution2005/ssrs-ReportExecution2005.wsdl'),
    '--out',
    out,
    '--handlers',
    handlers,
  );

  // The example imports the runtime by the package's name; here, by the path the skeleton's own modules use.
  const module = join(handlers, 'load-report.ts');
  const runtime = /import \{[^}]*ServiceError[^}]*\} from '([^']+)';/.exec(readFileSync(module, 'utf8'))?.[1];
  t.truthy(runtime, 'the skeleton module imports the runtime');
  writeFileSync(module, handlerDoorExample().replaceAll("'contract-runtime'", `'${runtime}'`));
  t.is(await typeCheck(out), '', 'the example compiles in the skeleton');

  await loadXmlEngine();
  const definition = (require(join(out, 'contract.ts')) as { CONTRACT: ContractDefinition<AnyOperations> }).CONTRACT;
  const types = require(join(out, 'types.ts')) as Record<string, new (fields: object) => object>;
  const route = definition.routes.LoadReport;
  const ns = escapeXmlAttribute(definition.targetNamespace);
  const { endpoint, output } = await runSkeleton(t, handlers);
  const answer = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': SOAP11.contentType,
      SOAPAction: `"${route.soapActions?.soap11 ?? definition.targetNamespace + route.soapActionSuffix}"`,
    },
    body: soapEnvelope(
      SOAP11,
      route.encodeSoapRequest(new types.LoadReport({ Report: '/Sales' }), ns),
      route.encodeSoapRequestHeaders!({ TrustedUserHeader: new types.TrustedUserHeader({ UserName: 'alice' }) }, ns),
    ),
  });
  const text = await answer.text();
  t.is(answer.status, 200, text);
  t.regex(
    text,
    /<soap:Header><(\w+:)?ExecutionHeader [^>]*><(\w+:)?ExecutionID>alice:\/Sales<\//,
    'the out header block, named by the in one',
  );
  // The request line follows the answer: what the handler told `answered` is its outcome.
  const deadline = Date.now() + 30_000;
  while (!/"outcome":"loaded"/.test(output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  t.regex(output(), /"operation":"LoadReport"[^\n]*"outcome":"loaded"/);
});
