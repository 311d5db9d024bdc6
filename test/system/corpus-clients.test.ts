/**
 * The published contracts of test/fixtures/corpus/ served by the mock
 * (`npm run mock`), read by real clients: Python zeep loads each WSDL as the
 * mock serves it (the WSDLs and schemas it names with it), and over every
 * declared SOAP port decodes the answer to each operation's sample request
 * by its own reading of the contract; Mono's `wsdl` generates a proxy of
 * every ASMX one that compiles. A missing client is a failure naming
 * the Debian packages to install (.ci/run installs them).
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { contractsOf } from '../../codegen/corpus';
import { loadContract, sampleHandlers } from '../../codegen/load-generated';
import { createContractApp } from '../../src/runtime/host';
import { listen } from '../../src/runtime/listener';
import { SOAP11, SOAP12, soapEnvelope } from '../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../src/runtime/xml/xml-codec';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { CLIENTS_DIR, PYTHON, bounded, haveTool, runJsonClient } from './clients/harness';

const CORPUS = join(__dirname, '..', 'fixtures', 'corpus');
/**
 * The ASMX contracts of the fixtures: the ones .NET's proxies are made for. (The WCF one, euroconsumers-partner,
 * is left to zeep: Mono's `wsdl` writes a proxy of it that does not compile, its own event arguments holding an
 * out parameter named Result beside their Result property.)
 */
const DOTNET = ['afip-wconsdeclaracion', 'afip-wsfev1', 'ssrs-ReportExecution2005'];
const served = contractsOf(CORPUS).filter((c) => c.name !== 'servicestack-portaplusapi');

let work: string;
test.before(async () => {
  await loadXmlEngine();
  work = mkdtempSync(join(tmpdir(), 'corpus-clients-'));
});
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function serve(wsdl: string, name: string) {
  const loaded = await loadContract(wsdl, { folder: mkdtempSync(join(work, `${name}-`)) });
  const { definition } = loaded;
  const app = createContractApp(
    definition,
    sampleHandlers(definition),
    { namespace: undefined, publicUrl: undefined, trustProxy: false, maxBodyBytes: 16 << 20 },
    pino({ level: 'silent' }),
  );
  const handle = app.callback();
  const listener = await listen((req, res) => void handle(req, res), {
    port: 0,
    host: '127.0.0.1',
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5_000,
    inactivityTimeoutMs: 60_000,
  } as Parameters<typeof listen>[1]);
  return { definition, url: listener.url, close: () => listener.close() };
}

for (const contract of served) {
  test.serial(`${contract.name}: zeep reads the served WSDL and decodes every answer of every SOAP port`, async (t) => {
    if (!haveTool(t, PYTHON, ['-c', 'import zeep'], 'python3-zeep')) return;
    t.timeout(300_000);
    const { definition, url, close } = await serve(contract.wsdl, contract.name);
    try {
      const ns = escapeXmlAttribute(definition.targetNamespace);
      for (const port of definition.ports.filter((p) => p.variant === 'soap11' || p.variant === 'soap12')) {
        const version = port.variant === 'soap11' ? SOAP11 : SOAP12;
        const calls = definition.operationNames.map((op) => {
          const route = definition.routes[op];
          const headers = route.sampleHeaders?.();
          const headerText = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : '';
          const action = route.soapActions?.[port.variant as 'soap11'] ?? definition.targetNamespace + route.soapActionSuffix;
          return {
            op,
            envelope: soapEnvelope(version, route.encodeSoapRequest(route.sampleRequest(), ns), headerText || undefined),
            headers:
              version === SOAP11
                ? { 'Content-Type': version.contentType, SOAPAction: `"${action}"` }
                : { 'Content-Type': `${version.contentType}; action="${action}"` },
          };
        });
        const { zeep, results } = await runJsonClient<{ zeep: string; results: { ok?: unknown; error?: unknown }[] }>(
          PYTHON,
          [join(CLIENTS_DIR, 'zeep_reads_answers.py')],
          {
            wsdl: `${url}${definition.endpointPath}?WSDL`,
            service: definition.serviceName,
            port: port.name,
            address: `${url}${port.path}`,
            calls,
          },
          240_000,
        );
        t.log(`zeep ${zeep}, ${port.name}: ${results.length} calls`);
        t.is(results.length, calls.length);
        for (const [i, result] of results.entries()) {
          t.is(result.error, undefined, `${calls[i].op} over ${port.name}: ${JSON.stringify(result.error)}`);
        }
      }
    } finally {
      await close();
    }
  });
}

for (const name of DOTNET) {
  test.serial(`${name}: Mono's wsdl generates a proxy of the served WSDL that compiles`, async (t) => {
    if (!haveTool(t, 'wsdl', ['-?'], 'mono-devel')) return;
    if (!haveTool(t, 'mcs', ['--version'], 'mono-mcs mono-devel')) return;
    t.timeout(300_000);
    const contract = served.find((c) => c.name === name)!;
    const { definition, url, close } = await serve(contract.wsdl, name);
    try {
      const file = join(work, `${name}.wsdl`);
      writeFileSync(file, await (await fetch(`${url}${definition.endpointPath}?WSDL`)).text());
      const proxy = join(work, `${name}.cs`);
      const generated = await bounded('wsdl', [`-out:${proxy}`, file], 120_000);
      t.is(generated.code, 0, `${generated.out}${generated.err}`);
      const built = await bounded(
        'mcs',
        ['-target:library', `-out:${join(work, `${name}.dll`)}`, '-r:System.dll', '-r:System.Xml.dll', '-r:System.Web.Services.dll', proxy],
        120_000,
      );
      t.is(built.code, 0, `${built.out}${built.err}`);
    } finally {
      await close();
    }
  });
}
