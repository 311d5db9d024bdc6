/**
 * Another contract served on the runtime, with nothing of the PIN service:
 * for each contract below, a copy of the repository
 * (test/support/other-contract.ts) has that contract's WSDL in schema/, its
 * handler modules in src/handlers/ and, of src/, the runtime only: it
 * generates, builds and serves at the path of the WSDL's address. Then
 *  - the copy's own typed client (generated/client.ts) calls every operation
 *    over every declared variant and JSON;
 *  - HTTP GET and POST answers, and the SOAP envelopes zeep and PHP's
 *    SoapClient sent and received, are valid against the served schema
 *    (libxml2); the service validates each SOAP request it takes;
 *  - Python zeep calls over every declared port (SOAP 1.1, SOAP 1.2, HTTP GET,
 *    HTTP POST), PHP SoapClient over each SOAP port, and a Mono proxy that
 *    `wsdl` generates for every declared protocol (SOAP, SOAP12, HttpGet,
 *    HttpPost) calls through ReflectingProxyClient.cs.
 * The contracts: temperature (strings, all four ports), calculator (int,
 * double, a void operation without parameters; SOAP 1.1, SOAP 1.2, HTTP
 * POST), all-types (every XSD construct codegen reads, echoed; SOAP 1.2 and
 * HTTP GET) and currency-convertor (a published ASMX service's WSDL: an
 * enumeration of 151 currencies, all four ports).
 * A missing client is a failure naming the Debian packages to install (.ci/run installs them).
 */
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Variant } from '../../src/runtime/definition';
import { CONTRACTS, startOtherContract, type OtherContract } from '../support/other-contract';
import { readXml } from '../support/readers';
import { CLIENTS_DIR, PYTHON, bounded, haveTool, runJsonClient, type Typed, type TypedResult } from './clients/harness';

/** One call: its operation, its arguments (JSON; "5n" a bigint for the typed client) and what every client must read back. */
interface Call {
  op: string;
  args: Record<string, unknown>;
  /** The answer as text (a number as .NET and Python print it), or null for a void operation. */
  expect: string | null;
  /** Only over these variants (an operation the WSDL's HTTP bindings leave out). */
  only?: Variant[];
  /**
   * Left out of zeep's HTTP calls: zeep 4.2's HTTP binding cannot read the
   * empty answer of an operation without an output part ("'NoneType' object
   * has no attribute 'deserialize'"), whatever the service answers.
   */
  notByZeepOverHttp?: true;
}

interface ContractCase {
  name: string;
  service: string;
  variants: Variant[];
  calls: Call[];
}

/** An Everything of all-types (its members that JSON can carry into the typed client), echoed back over SOAP 1.2. */
const EVERYTHING = {
  Text: 'a <text> & more',
  Flag: true,
  Int: -2147483648,
  Long: '9007199254740993n',
  Short: -32768,
  Byte: -128,
  UnsignedInt: 4294967295,
  UnsignedLong: '18446744073709551615n',
  UnsignedShort: 65535,
  UnsignedByte: 255,
  Decimal: '-1234567890.0987654321',
  Double: 1.5e300,
  Float: 0.5,
  When: '2026-11-25T21:45:00.123Z',
  Day: '2026-11-25',
  Clock: '21:45:00',
  Span: 'P1DT2H',
  Id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  Shade: 'Green',
  MaybeCount: null,
  Tag: ['a', 'b'],
  version: 3,
  label: 'l',
};

const CASES: ContractCase[] = [
  {
    name: 'temperature',
    service: 'TempConvert',
    variants: ['soap11', 'soap12', 'httpGet', 'httpPost'],
    calls: [
      { op: 'CelsiusToFahrenheit', args: { Celsius: '100' }, expect: '212' },
      { op: 'FahrenheitToCelsius', args: { Fahrenheit: '-40' }, expect: '-40' },
      { op: 'CelsiusToFahrenheit', args: { Celsius: 'warm' }, expect: 'Error' },
    ],
  },
  {
    name: 'calculator',
    service: 'Calculator',
    variants: ['soap11', 'soap12', 'httpPost'],
    calls: [
      { op: 'Add', args: { intA: 2, intB: 3 }, expect: '5' },
      { op: 'Subtract', args: { intA: 7, intB: 10 }, expect: '-3' },
      { op: 'Multiply', args: { intA: 6, intB: 7 }, expect: '42' },
      { op: 'Divide', args: { intA: 7, intB: 2 }, expect: '3' },
      { op: 'Average', args: { a: 1.5, b: 2 }, expect: '1.75' },
      { op: 'Clear', args: {}, expect: null, notByZeepOverHttp: true },
    ],
  },
  {
    name: 'currency-convertor',
    service: 'CurrencyConvertor',
    variants: ['soap11', 'soap12', 'httpGet', 'httpPost'],
    calls: [
      { op: 'ConversionRate', args: { FromCurrency: 'USD', ToCurrency: 'EUR' }, expect: '0.5' },
      { op: 'ConversionRate', args: { FromCurrency: 'GBP', ToCurrency: 'JPY' }, expect: '400' },
    ],
  },
  {
    name: 'all-types',
    service: 'AllTypes',
    variants: ['soap12', 'httpGet'],
    calls: [{ op: 'Reset', args: {}, expect: null, notByZeepOverHttp: true }],
  },
];

const started = new Map<string, Promise<OtherContract>>();
const contract = (name: string): Promise<OtherContract> => {
  if (!started.has(name)) started.set(name, startOtherContract(name));
  return started.get(name)!;
};
let work: string | undefined;

test.before(() => {
  work = mkdtempSync(join(tmpdir(), 'pin-other-contracts-'));
});

test.after.always(async () => {
  for (const copy of started.values()) await copy.then((c) => c.close()).catch(() => {});
  if (work) rmSync(work, { recursive: true, force: true });
});

const PORT_SUFFIX: Record<Variant, string> = { soap11: 'Soap', soap12: 'Soap12', httpGet: 'HttpGet', httpPost: 'HttpPost' };
const callsOver = (c: ContractCase, variant: Variant | 'json') =>
  c.calls.filter((call) => variant === 'json' || !call.only || call.only.includes(variant));
/** A number or text as the clients print it: JavaScript's shortest form. */
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

for (const c of CASES) {
  test.serial(
    `${c.name}: its schema/ and handler modules on the runtime alone, no file of the PIN service, generate, build and serve; the typed client calls every operation over ${[...c.variants, 'json'].join(', ')}`,
    async (t) => {
      t.timeout(480_000, 'copy, generate, build and start the copy');
      const served = await contract(c.name);
      t.deepEqual(readdirSync(join(served.copy, 'src')).sort(), ['handlers', 'runtime'], 'src/ is the runtime and the handlers');
      t.deepEqual(readdirSync(join(served.copy, 'dist', 'src')).sort(), ['handlers', 'runtime'], 'and so is the build');
      const calls = [...c.variants, 'json' as const].flatMap((variant) =>
        callsOver(c, variant).map((call) => ({ method: call.op[0].toLowerCase() + call.op.slice(1), variant, args: call.args, call })),
      );
      const results = await served.runInCopy<{ ok?: unknown; error?: unknown }[]>(join(CONTRACTS, 'typed-client.ts'), {
        baseUrl: served.service.url,
        calls: calls.map(({ method, variant, args }) => ({ method, variant, args })),
      });
      t.is(results.length, calls.length);
      calls.forEach(({ call, variant }, i) => {
        t.deepEqual(
          results[i],
          { ok: call.expect === null ? null : results[i].ok },
          `${call.op} over ${variant}: ${JSON.stringify(results[i])}`,
        );
        t.is(text(results[i].ok), call.expect, `${call.op} over ${variant}`);
      });
      // The service's page, WSDL and OpenAPI description name the contract's operations, and no PIN operation.
      const page = await (await fetch(served.url)).text();
      for (const call of c.calls) t.true(page.includes(`?op=${call.op}`), `the service page lists ${call.op}`);
      t.false(/ValidatePin|\/pair\.aspx/.test(page));
      const wsdl = await (await fetch(`${served.url}?WSDL`)).text();
      t.true(wsdl.includes(`<wsdl:service name="${c.service}">`), "the WSDL is the contract's");
      t.is((await fetch(`${served.service.url}/pair.aspx?AppName=a&AppInfo=b&SecretCode=c`)).status, 404, 'no page of the PIN operations');
      // A variant the WSDL declares no port for is refused, never served beside the description.
      const [first] = c.calls;
      if (!c.variants.includes('httpGet')) {
        const answer = await fetch(
          `${served.url}/${first.op}?${new URLSearchParams(Object.entries(first.args).map(([k, v]): [string, string] => [k, String(v)]))}`,
        );
        t.is(answer.status, 404, 'HTTP GET, which the WSDL does not declare');
        t.regex(await answer.text(), /declares no HTTP GET port/);
      }
      if (!c.variants.includes('soap11')) {
        const answer = await fetch(served.url, {
          method: 'POST',
          headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' },
          body: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>',
        });
        t.is(answer.status, 415, 'SOAP 1.1, which the WSDL does not declare');
        t.regex(await answer.text(), /declares no SOAP 1\.1 port/);
      }
    },
  );

  if (c.name === 'all-types') {
    test.serial('all-types: Echo over SOAP 1.2 answers the Everything it was given, every member read and written again', async (t) => {
      const served = await contract(c.name);
      const [result] = await served.runInCopy<{ ok?: Record<string, unknown>; error?: unknown }[]>(join(CONTRACTS, 'typed-client.ts'), {
        baseUrl: served.service.url,
        calls: [{ method: 'echo', variant: 'soap12', args: { item: { $class: 'Everything', ...EVERYTHING } } }],
      });
      t.deepEqual(result, { ok: { $class: 'Everything', ...EVERYTHING } });
    });
  }

  for (const variant of c.variants.filter((v) => v === 'httpGet' || v === 'httpPost')) {
    test.serial(`${c.name}: HTTP ${variant === 'httpGet' ? 'GET' : 'POST'} answers are valid against the served schema`, async (t) => {
      const served = await contract(c.name);
      for (const call of callsOver(c, variant)) {
        const fields = new URLSearchParams(Object.entries(call.args).map(([k, v]): [string, string] => [k, String(v)]));
        const answer =
          variant === 'httpGet'
            ? await fetch(`${served.url}/${call.op}?${fields}`)
            : await fetch(`${served.url}/${call.op}`, {
                method: 'POST',
                body: fields,
                headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              });
        const body = await answer.text();
        t.is(answer.status, 200, `${call.op}: ${body}`);
        if (call.expect === null) {
          t.is(body, '', `${call.op}: a void operation answers nothing`);
          continue;
        }
        readXml(body, (doc) => {
          t.deepEqual(served.schemaErrors(doc.root), [], `${call.op}: ${body}`);
          t.is(doc.root.content, call.expect!, `${call.op}: the answer`);
        });
      }
    });
  }
}

// --- Python zeep, every declared port ------------------------------------------------------------

/** A value a client decoded, as text; a PHP or zeep response object of one field (PHP's XResult) is that field. */
function decodedText(typed: Typed | undefined): string | null {
  if (!typed || typed.value === null) return null;
  if (typeof typed.value === 'object') {
    const fields = Object.values(typed.value as Record<string, Typed>);
    return fields.length === 1 ? decodedText(fields[0]) : JSON.stringify(typed.value);
  }
  if (typed.type === 'builtins.float' || typed.type === 'double') return String(Number(typed.value));
  return String(typed.value);
}

for (const c of CASES) {
  // A port none of whose calls zeep can make (all-types' HTTP GET: only the void Reset) has no zeep test.
  for (const variant of c.variants.filter((v) => callsOver(c, v).some((call) => !(call.notByZeepOverHttp && v.startsWith('http'))))) {
    test.serial(`${c.name}: zeep over the ${c.service}${PORT_SUFFIX[variant]} port`, async (t) => {
      if (!haveTool(t, PYTHON, ['-c', 'import zeep'], 'python3-zeep')) return;
      const served = await contract(c.name);
      const calls = callsOver(c, variant).filter((call) => !(call.notByZeepOverHttp && (variant === 'httpGet' || variant === 'httpPost')));
      const { zeep, results } = await runJsonClient<{ zeep: string; results: TypedResult[] }>(
        PYTHON,
        [join(CLIENTS_DIR, 'zeep_typed_client.py')],
        {
          wsdl: `${served.url}?WSDL`,
          service: c.service,
          port: `${c.service}${PORT_SUFFIX[variant]}`,
          calls: calls.map(({ op, args }) => ({ op, args })),
        },
      );
      t.log(`zeep ${zeep}: ${results.length} calls`);
      calls.forEach((call, i) => {
        const result = results[i];
        t.deepEqual({ fault: result.fault, error: result.error }, { fault: undefined, error: undefined }, call.op);
        t.is(decodedText(result.ok), call.expect, `${call.op}: ${JSON.stringify(result.ok)}`);
        if (variant === 'soap11' || variant === 'soap12') {
          t.deepEqual(served.bodyErrors(result.sent ?? ''), [], `${call.op}: the request zeep sent is valid`);
          t.deepEqual(served.bodyErrors(result.received ?? ''), [], `${call.op}: the answer zeep received is valid`);
        }
      });
    });
  }
}

// --- PHP SoapClient, every SOAP port ---------------------------------------------------------------

for (const c of CASES) {
  for (const variant of c.variants.filter((v) => v === 'soap11' || v === 'soap12')) {
    test.serial(`${c.name}: PHP SoapClient, ${variant === 'soap11' ? 'SOAP_1_1' : 'SOAP_1_2'}`, async (t) => {
      if (!haveTool(t, 'php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'], 'php-cli php-soap')) return;
      const served = await contract(c.name);
      const calls = callsOver(c, variant);
      const { php, results } = await runJsonClient<{ php: string; results: TypedResult[] }>(
        'php',
        [join(CLIENTS_DIR, 'soapclient_typed.php')],
        {
          wsdl: `${served.url}?WSDL`,
          soapVersion: variant === 'soap11' ? '1.1' : '1.2',
          calls: calls.map(({ op, args }) => ({ op, args })),
        },
      );
      t.log(`PHP ${php}: ${results.length} calls`);
      calls.forEach((call, i) => {
        const result = results[i];
        t.deepEqual({ fault: result.fault, error: result.error }, { fault: undefined, error: undefined }, call.op);
        // SoapClient answers a response object whose one member is the result; a void operation's is empty.
        const ok = result.ok;
        const members = ok && typeof ok.value === 'object' && ok.value !== null ? Object.values(ok.value as Record<string, Typed>) : [];
        t.is(members.length === 0 ? null : decodedText(ok), call.expect, `${call.op}: ${JSON.stringify(ok)}`);
        t.deepEqual(served.bodyErrors(result.sent ?? ''), [], `${call.op}: the request SoapClient sent is valid`);
        t.deepEqual(served.bodyErrors(result.received ?? ''), [], `${call.op}: the answer SoapClient received is valid`);
      });
    });
  }
}

// --- .NET (Mono): proxies from `wsdl`, every declared protocol -----------------------------------------

const MONO_PROTOCOL: Record<Variant, string> = { soap11: 'SOAP', soap12: 'SOAP12', httpGet: 'HttpGet', httpPost: 'HttpPost' };

for (const c of CASES.filter((c) => c.name !== 'all-types')) {
  test.serial(`${c.name}: Mono proxies that wsdl generates for ${c.variants.map((v) => MONO_PROTOCOL[v]).join(', ')}`, async (t) => {
    if (!haveTool(t, 'mcs', ['--version'], 'mono-mcs mono-devel')) return;
    if (!haveTool(t, 'wsdl', ['-?'], 'mono-devel')) return;
    const served = await contract(c.name);
    const wsdlFile = join(work!, `${c.name}.wsdl`);
    writeFileSync(wsdlFile, await (await fetch(`${served.url}?WSDL`)).text());
    for (const variant of c.variants) {
      const protocol = MONO_PROTOCOL[variant];
      const proxy = join(work!, `${c.name}-${protocol}.cs`);
      const generated = await bounded('wsdl', [`-protocol:${protocol}`, `-out:${proxy}`, wsdlFile]);
      t.is(generated.code, 0, `wsdl -protocol:${protocol}: ${generated.out}${generated.err}`);
      const exe = join(work!, `${c.name}-${protocol}.exe`);
      const built = await bounded('mcs', [
        `-out:${exe}`,
        '-r:System.dll',
        '-r:System.Xml.dll',
        '-r:System.Web.Services.dll',
        '-r:System.EnterpriseServices.dll', // the HttpGet and HttpPost proxies name it
        proxy,
        join(CLIENTS_DIR, 'ReflectingProxyClient.cs'),
      ]);
      t.is(built.code, 0, `mcs: ${built.out}${built.err}`);
      const calls = callsOver(c, variant);
      const answered = await bounded(
        'mono',
        [exe, ...calls.map((call) => [call.op, ...Object.values(call.args).map(String)].join('|'))],
        60_000,
      );
      t.is(answered.code, 0, answered.err);
      const lines = answered.out.trim().split('\n');
      t.is(lines.length, calls.length, answered.out);
      calls.forEach((call, i) => {
        const [status, type, value] = (lines[i] ?? '').split('\t');
        t.is(status, 'ok', `${protocol} ${call.op}: ${lines[i]}`);
        t.is(call.expect === null ? null : value, call.expect, `${protocol} ${call.op}: ${lines[i]}`);
        if (call.expect === null) t.is(type, 'void', `${protocol} ${call.op}`);
      });
      t.log(`Mono ${protocol}: ${lines.map((l) => l.split('\t').slice(1).join(' ')).join('; ')}`);
    }
  });
}
