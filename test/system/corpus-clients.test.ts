/**
 * The published contracts of test/fixtures/corpus/, and the contracts laid
 * out and shipped as published ones are (test/fixtures/published/: folders
 * side by side, a catalog, a DOCTYPE'd W3C schema, standards named by URL,
 * ports that cannot be served; Axis2's HTTP binding, the collision contract,
 * a WSDL of bindings and no service), served by the mock
 * (`npm run mock`), read by real clients: Python zeep loads each WSDL as the
 * mock serves it (the WSDLs and schemas it names with it), and over every
 * declared SOAP port decodes the answer to each operation's sample request
 * by its own reading of the contract; Mono's `wsdl` generates a proxy of
 * each port of every ASMX and WCF one, and the proxies compile. A missing client is a failure naming
 * the Debian packages to install (.ci/run installs them).
 */
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import { contractNames, contractsOf } from '../../codegen/harness/corpus';
import { loadContract, sampleHandlers } from '../../codegen/harness/load-generated';
import { createContractApp, requestAddressingHeaders } from '../../src/runtime/host';
import { listen } from '../../src/runtime/listener';
import { SOAP11, SOAP12, soapEnvelope } from '../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../src/runtime/xml/xml-escape';
import { loadXmlEngine, safeParseOptions, xml, type XmlElement } from '../../src/runtime/xml/xml-engine';
import { CLIENTS_DIR, PYTHON, bounded, haveTool, runJsonClient } from './clients/harness';

const CORPUS = join(__dirname, '..', 'fixtures', 'corpus');
/**
 * The ASMX and WCF contracts of the fixtures: the ones .NET's proxies are made for. Mono's `wsdl` makes one of
 * each declared port (`-protocol:Soap12` for SOAP 1.2, HttpGet and HttpPost where declared).
 */
const DOTNET = [
  'afip-wconsdeclaracion',
  'afip-wsfev1',
  'correios-CalcPrecoPrazo',
  'euroconsumers-partner',
  'gus-bir',
  'heartland-posgateway',
  'interhome',
  'ssrs-ReportExecution2005',
];
const FIXTURES = join(__dirname, '..', 'fixtures');
/** The contracts zeep calls, by folder of test/fixtures/ and name (found once the XML engine is loaded). */
const served: { folder: string; name: string }[] = [
  ...contractNames(CORPUS)
    .filter((name) => name !== 'servicestack-portaplusapi')
    .map((name) => ({ folder: 'corpus', name })),
  ...contractNames(join(FIXTURES, 'published')).map((name) => ({ folder: 'published', name })),
  ...['axis2-libraryservice', 'axis2-version', 'collisions'].map((name) => ({ folder: 'contracts', name })),
  ...['ihe-xds-iti18', 'onvif-doorcontrol'].map((name) => ({ folder: 'outside', name })),
];
const contractOf = ({ folder, name }: { folder: string; name: string }) =>
  contractsOf(join(FIXTURES, folder)).find((c) => c.name === name)!;

let work: string;
test.before(async () => {
  await loadXmlEngine();
  work = mkdtempSync(join(tmpdir(), 'corpus-clients-'));
});
test.after.always(() => rmSync(work, { recursive: true, force: true }));

async function serve(wsdl: string, name: string, catalog?: string) {
  const loaded = await loadContract(wsdl, { folder: mkdtempSync(join(work, `${name}-`)), ...(catalog ? { catalog } : {}) });
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

for (const entry of served) {
  test.serial(`${entry.folder}/${entry.name}: zeep reads the served WSDL and decodes every answer of every SOAP port`, async (t) => {
    if (!haveTool(t, PYTHON, ['-c', 'import zeep'], 'python3-zeep')) return;
    t.timeout(300_000);
    const contract = contractOf(entry);
    const { definition, url, close } = await serve(contract.wsdl, contract.name, contract.catalog);
    t.true(
      definition.ports.some((p) => p.variant === 'soap11' || p.variant === 'soap12'),
      'a SOAP port is served',
    );
    try {
      const ns = escapeXmlAttribute(definition.targetNamespace);
      for (const port of definition.ports.filter((p) => p.variant === 'soap11' || p.variant === 'soap12')) {
        const version = port.variant === 'soap11' ? SOAP11 : SOAP12;
        const calls = definition.operationNames.map((op) => {
          const route = definition.routes[op];
          const headers = route.sampleHeaders?.();
          const headerText = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : '';
          const action = route.soapActions?.[port.variant as 'soap11'] ?? definition.targetNamespace + route.soapActionSuffix;
          // Where the port's WS-Policy asks for WS-Addressing, the call carries its headers, as its clients' calls do.
          const addressed = route.addressingActions && route.policies?.[port.variant as 'soap11' | 'soap12']?.addressing;
          const addressing = addressed ? requestAddressingHeaders(route.addressingActions!.input, `${url}${port.path}`) : '';
          return {
            op,
            envelope: soapEnvelope(version, route.encodeSoapRequest(route.sampleRequest(), ns), addressing + headerText || undefined),
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

/** The class a proxy of each protocol derives from, as Mono's `wsdl -protocol:` names the protocols. */
const PROTOCOLS = {
  soap11: { protocol: 'Soap', base: 'SoapHttpClientProtocol' },
  soap12: { protocol: 'Soap12', base: 'SoapHttpClientProtocol' },
  httpGet: { protocol: 'HttpGet', base: 'HttpGetClientProtocol' },
  httpPost: { protocol: 'HttpPost', base: 'HttpPostClientProtocol' },
} as const;

const MCS_REFERENCES = ['-r:System.dll', '-r:System.Xml.dll', '-r:System.Web.Services.dll', '-r:System.EnterpriseServices.dll'];

/** The operations whose response wrapper (`{Op}Response`) holds an element named Result after its first (an out parameter), read from the contract's own schemas. */
async function operationsAnsweringAResult(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.xsd'))) {
    const doc = xml().XmlDocument.fromString(readFileSync(join(folder, file), 'utf8'), { option: safeParseOptions() });
    try {
      const wrappers = doc.find(
        "/xs:schema/xs:element[substring(@name, string-length(@name) - 7) = 'Response']" +
          '[xs:complexType/xs:sequence[count(xs:element) > 1]/xs:element[position() > 1]' +
          "[@name = 'Result' or substring-after(@ref, ':') = 'Result' or @ref = 'Result']]",
        { xs: 'http://www.w3.org/2001/XMLSchema' },
      ) as XmlElement[];
      for (const wrapper of wrappers) found.push(wrapper.attr('name')!.value.replace(/Response$/, ''));
    } finally {
      doc.dispose();
    }
  }
  return found.sort();
}

for (const name of DOTNET) {
  test.serial(`${name}: Mono's wsdl generates a proxy of the served WSDL for each declared port, and they compile`, async (t) => {
    if (!haveTool(t, 'wsdl', ['-?'], 'mono-devel')) return;
    if (!haveTool(t, 'mcs', ['--version'], 'mono-mcs mono-devel')) return;
    t.timeout(300_000);
    const contract = contractOf({ folder: 'corpus', name });
    const { definition, url, close } = await serve(contract.wsdl, name);
    try {
      // By URL, so that Mono fetches what the WSDL imports (`?wsdl=wsdl0`) from the service too.
      const wsdlUrl = `${url}${definition.endpointPath}?WSDL`;
      const variants = [...new Set(definition.ports.map((p) => p.variant))];
      const proxies: string[] = [];
      for (const variant of variants) {
        const { protocol, base } = PROTOCOLS[variant];
        const proxy = join(work, `${name}-${protocol}.cs`);
        const generated = await bounded('wsdl', ['-nologo', `-protocol:${protocol}`, `-n:${protocol}`, `-out:${proxy}`, wsdlUrl], 120_000);
        t.is(generated.code, 0, `${protocol}: ${generated.out}${generated.err}`);
        const code = readFileSync(proxy, 'utf8');
        t.regex(code, new RegExp(`class \\w+ : System\\.Web\\.Services\\.Protocols\\.${base} `), `${protocol}: a client class`);
        if (variant === 'soap12') t.true(code.includes('SoapProtocolVersion.Soap12'), 'the SOAP 1.2 proxy speaks SOAP 1.2');
        const missing = definition.operationNames.filter((op) => !new RegExp(`public [\\w.\\[\\]]+ ${op}\\(`).test(code));
        t.deepEqual(missing, [], `${protocol}: a method of every operation`);
        proxies.push(proxy);
      }
      t.log(`${name}: Mono's wsdl over ${variants.map((v) => PROTOCOLS[v].protocol).join(', ')}`);
      if (!variants.includes('soap11')) {
        // Mono's wsdl makes SOAP 1.1 unless told: of a contract with no SOAP 1.1 port it writes a proxy with no class.
        const proxy = join(work, `${name}-default.cs`);
        const byDefault = await bounded('wsdl', ['-nologo', `-out:${proxy}`, wsdlUrl], 120_000);
        t.regex(`${byDefault.out}${byDefault.err}`, /SOAP 1\.1 binding was not found/);
        t.notRegex(readFileSync(proxy, 'utf8'), /\bclass\b/);
      }
      const dll = join(work, `${name}.dll`);
      const built = await bounded('mcs', ['-target:library', `-out:${dll}`, ...MCS_REFERENCES, ...proxies], 120_000);
      if (name !== 'euroconsumers-partner') {
        t.is(built.code, 0, `${built.out}${built.err}`);
        return;
      }
      // Mono cannot read the contract as published (a complexType carries `nillable`, which XSD does not allow), so the
      // proxy of the served WSDL is compared with the contract's schemas.
      const original = await bounded('wsdl', ['-nologo', `-out:${join(work, `${name}-original.cs`)}`, contract.wsdl], 120_000);
      t.not(original.code, 0);
      t.regex(`${original.out}${original.err}`, /The 'nillable' attribute is not supported in this context/);
      // The contract's own names clash in .NET's proxy: a response wrapper holding an element named Result is
      // unwrapped into an out parameter Result after the return value, and the operation's CompletedEventArgs writes
      // both as properties named Result. The clashes are exactly the operations whose response holds such a Result.
      const clashing = await operationsAnsweringAResult(dirname(contract.wsdl));
      t.deepEqual(clashing, ['ValidateMember', 'ValidateMemberPartner', 'ValidatePartner']);
      // A failed run's error message repeats what the tool wrote on stderr.
      const errors = [...new Set([...`${built.out}${built.err}`.matchAll(/error (CS\d+): (.*)/g)].map((m) => `${m[1]} ${m[2]}`))].sort();
      t.deepEqual(
        errors,
        variants
          .flatMap((v) =>
            clashing.map(
              (op) => `CS0102 The type \`${PROTOCOLS[v].protocol}.${op}CompletedEventArgs' already contains a definition for \`Result'`,
            ),
          )
          .sort(),
      );
      // Named apart (the out parameter's property renamed), the rest of the proxy compiles.
      for (const proxy of proxies) {
        let code = readFileSync(proxy, 'utf8');
        for (const op of clashing) {
          code = code.replace(
            new RegExp(`(class ${op}CompletedEventArgs [^]*?public [\\w.]+ Result \\{[^]*?public [\\w.]+ )Result \\{`),
            '$1ResultElement {',
          );
        }
        writeFileSync(proxy, code);
      }
      const rebuilt = await bounded('mcs', ['-target:library', `-out:${dll}`, ...MCS_REFERENCES, ...proxies], 120_000);
      t.is(rebuilt.code, 0, `${rebuilt.out}${rebuilt.err}`);
    } finally {
      await close();
    }
  });
}
