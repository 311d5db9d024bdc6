/**
 * SOAP encoding (rpc/encoded, SOAP 1.1 section 5) served to the clients that speak it: the tracker contract of
 * test/fixtures/encoded/tracker.wsdl, served by our runtime (loadContract, createContractApp) with echo handlers, is
 * called by PHP's SoapClient, Python suds, Perl SOAP::Lite, Apache Axis 1 (WSDL2Java's stubs: multi-reference values),
 * gSOAP (wsdl2h and soapcpp2, C) and node-soap, each from the WSDL our server serves; every client calls every
 * operation (test/system/clients/encoded/tracker-calls.json) and must get back, decoded by its own reading of the
 * contract, what it sent, or the declared fault. The scripts print their results in one normalized JSON form (structs
 * as objects, arrays as lists, base64Binary as Base64 text, dateTime as UTC "YYYY-MM-DDTHH:MM:SSZ", nil as null).
 *
 * ENCODED_REFERENCE=php serves the same contract by PHP's SoapServer instead
 * (test/system/clients/encoded/php_tracker_server.php, an echo handler), the check that the client scripts and the
 * contract are right apart from our server. What a client is known to get wrong of itself (not the server) is listed
 * in QUIRKS, each with what it does instead.
 *
 * Bad input as raw HTTP POSTs, always to our server: a reference to no id, a cycle of references, an array whose
 * SOAP-ENC:arrayType size its items disagree with, a wrong xsi:type: each a SOAP 1.1 Client fault with HTTP 500, where
 * the same request without the mistake is answered.
 *
 * A missing client is a failure naming the Debian package (.ci/run installs them).
 */
import test, { type ExecutionContext } from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadContract } from '../../codegen/harness/load-generated';
import { createContractApp } from '../../src/runtime/host';
import { listen } from '../../src/runtime/listener';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { CLIENTS_DIR, PYTHON, bounded, haveTool, runJsonClient } from './clients/harness';

const ENCODED = join(CLIENTS_DIR, 'encoded');
const WSDL = join(__dirname, '..', 'fixtures', 'encoded', 'tracker.wsdl');
const REFERENCE = process.env.ENCODED_REFERENCE === 'php' ? 'php' : 'ours';
const AXIS_CLASSPATH = ['axis', 'jaxrpc', 'saaj', 'commons-discovery', 'commons-logging', 'wsdl4j', 'javax.activation', 'javax.mail']
  .map((jar) => `/usr/share/java/${jar}.jar`)
  .join(':');

interface Call {
  op: string;
  args: Record<string, unknown>;
  expect?: Outcome;
}
type Outcome = { ok: unknown } | { fault: { code: string; message: string; detail: unknown } };
interface Result {
  ok?: unknown;
  fault?: { code: string | null; message: string; detail: unknown };
  error?: { type: string; message: string };
  sent?: string | null;
}

const CALLS: Call[] = JSON.parse(readFileSync(join(ENCODED, 'tracker-calls.json'), 'utf8'));

/** What a call must answer: its `expect`, else the echo of what it sent (its one part, or all its parts as a struct). */
function expected(call: Call): Outcome {
  if (call.expect) return call.expect;
  const parts = Object.values(call.args);
  return { ok: parts.length === 1 ? parts[0] : call.args };
}

let work: string;
test.before(async () => {
  await loadXmlEngine();
  work = mkdtempSync(join(tmpdir(), 'encoded-clients-'));
});
test.after.always(() => rmSync(work, { recursive: true, force: true }));

interface Served {
  /** The WSDL's URL, as the server serves it. */
  wsdl: string;
  /** The endpoint (the WSDL's soap:address). */
  address: string;
  close(): Promise<void>;
}

/** The tracker contract served by our runtime, with echo handlers written against its generated classes. */
async function serveOurs(): Promise<Served> {
  const folder = mkdtempSync(join(work, 'tracker-'));
  const { definition } = await loadContract(WSDL, { folder });
  // The generated classes (types.ts, transpiled beside it by loadContract): answers are built of them.
  // biome-ignore lint/suspicious/noExplicitAny: classes of a contract generated at run time
  const types = require(join(folder, 'types.js')) as Record<string, any>;
  type Request = Record<string, unknown>;
  const handlers = {
    echoScalars: async (r: Request) =>
      new types.ScalarsData({ text: r.text, count: r.count, flag: r.flag, when: r.when, ratio: r.ratio, data: r.data }),
    echoIssue: async (r: Request) => r.issue,
    echoIssues: async (r: Request) => r.issues,
    echoStrings: async (r: Request) => r.values,
    echoMatrix: async (r: Request) => r.rows,
    getVersion: async () => 'tracker 1.0',
    touchIssue: async (r: Request) => {
      if ((r.id as number) < 0) {
        throw new types.IssueNotFoundFault(new types.FaultData({ id: r.id, reason: 'no such issue' }), `Issue ${r.id} not found`, 'client');
      }
    },
  };
  const app = createContractApp(
    definition,
    handlers as never,
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
  const address = `${listener.url}${definition.endpointPath}`;
  return { wsdl: `${address}?wsdl`, address, close: () => listener.close() };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The reference: PHP's SoapServer under PHP's built-in web server, the router php_tracker_server.php. */
async function servePhp(): Promise<Served> {
  const port = await freePort();
  const child: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, 'php_tracker_server.php'], {
    cwd: ENCODED,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, TRACKER_WSDL: WSDL },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const address = `http://127.0.0.1:${port}/tracker/soap.php`;
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`php -S exited with ${child.exitCode}: ${stderr}`);
    try {
      const answer = await fetch(`${address}?wsdl`);
      if (answer.ok) return { wsdl: `${address}?wsdl`, address, close };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await close();
  throw new Error(`php -S did not answer on port ${port}: ${stderr}`);
}

const serve = () => (REFERENCE === 'php' ? servePhp() : serveOurs());

/**
 * What a client is known to get wrong of itself, whatever the server: how it sees the echo instead (`view`, applied
 * to the expected value), or an operation it cannot call (`fails`: the error it gives).
 */
interface Quirk {
  why: string;
  view?: (expected: Outcome, call: Call) => Outcome;
  fails?: { op: string; error: RegExp };
  /** An operation whose request the client writes wrong: the server may answer the echo, or refuse it with `faultCode`. */
  writesWrong?: { op: string; faultCode: string };
}

/** node-soap's reading of an encoded answer: nil members absent, an empty string an empty object, nested array items text. */
function nodeSoapView(value: unknown, op: string, inRow = false): unknown {
  if (value === '') return {};
  if (inRow && typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((v) => nodeSoapView(v, op, op === 'echoMatrix'));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, nodeSoapView(v, op)]),
    );
  }
  return value;
}

const QUIRKS: Record<string, Quirk[]> = {
  suds: [
    {
      why: "suds gives a fault's detail members as text, not decoded by their type",
      view: (e) => ('fault' in e ? { fault: { ...e.fault, detail: textMembers(e.fault.detail) } } : e),
    },
  ],
  gsoap: [
    {
      why:
        "gSOAP writes an array of arrays' SOAP-ENC:arrayType as its innermost item type (xsd:int[3], not xsd:int[][3] " +
        "or ns1:ArrayOf_int[3]): a server may read it by the contract or refuse it (PHP's SoapServer answers a Server fault)",
      writesWrong: { op: 'echoMatrix', faultCode: REFERENCE === 'php' ? 'Server' : 'Client' },
    },
  ],
  'node-soap': [
    {
      why: 'node-soap decodes nil members as absent, an empty string as {}, and the items of a nested array as text',
      view: (e, call) => ('ok' in e ? { ok: nodeSoapView(e.ok, call.op) } : e),
    },
    {
      why: 'node-soap cannot call an rpc operation whose input message has no parts',
      fails: { op: 'getVersion', error: /invalid message definition for rpc style binding/ },
    },
  ],
};

function textMembers(value: unknown): unknown {
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null ? null : String(v)]));
  return value;
}

/** A fault code's local name: "SOAP-ENV:Client" and "Client" alike. */
const localCode = (code: string | null) => (code ?? '').replace(/^.*:/, '');

/** Checks each client result against what its call must answer, the client's quirks applied. */
function checkResults(t: ExecutionContext, client: string, results: Result[]) {
  t.is(results.length, CALLS.length, 'one result per call');
  const quirks = QUIRKS[client] ?? [];
  CALLS.forEach((call, i) => {
    const result = results[i] ?? {};
    const what = `${client} ${call.op}(${JSON.stringify(call.args).slice(0, 60)})`;
    const failing = quirks.find((q) => q.fails?.op === call.op);
    if (failing) {
      t.regex(result.error?.message ?? '', failing.fails!.error, `${what}: ${failing.why}`);
      return;
    }
    const wrong = quirks.find((q) => q.writesWrong?.op === call.op);
    if (wrong && result.fault) {
      t.is(localCode(result.fault.code), wrong.writesWrong!.faultCode, `${what}: ${wrong.why}`);
      t.log(`${what}: refused (${result.fault.message}): ${wrong.why}`);
      return;
    }
    let expect = expected(call);
    for (const quirk of quirks) if (quirk.view) expect = quirk.view(expect, call);
    t.is(result.error, undefined, `${what}: no error (${JSON.stringify(result.error)})`);
    if ('ok' in expect) {
      t.is(result.fault, undefined, `${what}: no fault (${JSON.stringify(result.fault)})`);
      t.deepEqual(result.ok, expect.ok, `${what}: the echo`);
    } else {
      t.truthy(result.fault, `${what}: a fault`);
      if (!result.fault) return;
      t.is(localCode(result.fault.code), expect.fault.code, `${what}: the fault code`);
      t.is(result.fault.message, expect.fault.message, `${what}: the fault string`);
      t.deepEqual(result.fault.detail, expect.fault.detail, `${what}: the declared fault's detail`);
    }
  });
}

interface Client {
  name: string;
  /** The tools it needs, each a failure naming its Debian package when missing. */
  tools(t: ExecutionContext): boolean;
  /** Builds what it needs from the served WSDL (stubs, a binary), then calls; resolves with its results. */
  run(t: ExecutionContext, served: Served, calls: Call[]): Promise<Result[]>;
}

const input = (served: Served, calls: Call[]) => ({ wsdl: served.wsdl, calls: calls.map(({ op, args }) => ({ op, args })) });
type Printed = { client: string; results: Result[] };

async function succeed(command: string, args: string[], cwd?: string) {
  const run = cwd
    ? await bounded('sh', ['-c', `cd "$0" && exec "$@"`, cwd, command, ...args], 180_000)
    : await bounded(command, args, 180_000);
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.code}):\n${run.out}\n${run.err}`.slice(0, 6000));
  return run;
}

const CLIENTS: Client[] = [
  {
    name: 'php',
    tools: (t) => haveTool(t, 'php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'], 'php-cli php-soap'),
    run: async (t, served, calls) => {
      const printed = await runJsonClient<Printed>('php', [join(ENCODED, 'soapclient_encoded.php')], input(served, calls));
      t.log(printed.client);
      return printed.results;
    },
  },
  {
    name: 'suds',
    tools: (t) => haveTool(t, PYTHON, ['-c', 'import suds'], 'python3-suds'),
    run: async (t, served, calls) => {
      const printed = await runJsonClient<Printed>(PYTHON, [join(ENCODED, 'suds_encoded.py')], input(served, calls));
      t.log(printed.client);
      return printed.results;
    },
  },
  {
    name: 'soaplite',
    tools: (t) => haveTool(t, 'perl', ['-MSOAP::Lite', '-MJSON::PP', '-e', '1'], 'libsoap-lite-perl'),
    run: async (t, served, calls) => {
      const printed = await runJsonClient<Printed>('perl', [join(ENCODED, 'soaplite_encoded.pl')], input(served, calls));
      t.log(printed.client);
      return printed.results;
    },
  },
  {
    name: 'axis',
    tools: (t) =>
      haveTool(t, 'java', ['-version'], 'default-jdk-headless') &&
      haveTool(t, 'javac', ['-version'], 'default-jdk-headless') &&
      haveTool(t, 'test', ['-f', '/usr/share/java/axis.jar'], 'libaxis-java') &&
      haveTool(t, 'test', ['-f', '/usr/share/java/wsdl4j.jar'], 'libaxis-java libwsdl4j-java'),
    run: async (t, served, calls) => {
      const folder = mkdtempSync(join(work, 'axis-'));
      const sources = join(folder, 'src');
      const classes = join(folder, 'classes');
      mkdirSync(classes);
      // WSDL2Java's stubs of the served WSDL, package tracker (the Java main's).
      await succeed('java', ['-cp', AXIS_CLASSPATH, 'org.apache.axis.wsdl.WSDL2Java', '-o', sources, '-p', 'tracker', served.wsdl]);
      const stubs = readdirSync(join(sources, 'tracker')).map((f) => join(sources, 'tracker', f));
      await succeed('javac', [
        '-nowarn',
        '-encoding',
        'UTF-8',
        '-cp',
        AXIS_CLASSPATH,
        '-d',
        classes,
        ...stubs,
        join(ENCODED, 'AxisTrackerClient.java'),
      ]);
      const printed = await runJsonClient<Printed>(
        'java',
        ['-cp', `${classes}:${AXIS_CLASSPATH}`, 'AxisTrackerClient'],
        input(served, calls),
        120_000,
      );
      t.log(printed.client);
      return printed.results;
    },
  },
  {
    name: 'gsoap',
    tools: (t) =>
      haveTool(t, 'wsdl2h', ['-V'], 'gsoap') &&
      haveTool(t, 'soapcpp2', ['-V'], 'gsoap') &&
      haveTool(t, 'test', ['-f', '/usr/include/stdsoap2.h'], 'libgsoap-dev') &&
      haveTool(t, 'gcc', ['--version'], 'gcc'),
    run: async (t, served, calls) => {
      const folder = mkdtempSync(join(work, 'gsoap-'));
      await succeed('wsdl2h', ['-c', '-s', '-o', 'tracker.h', served.wsdl], folder);
      await succeed('soapcpp2', ['-C', '-L', '-x', '-c', '-I/usr/share/gsoap/import', 'tracker.h'], folder);
      const binary = join(folder, 'client');
      await succeed('gcc', [
        '-w',
        '-o',
        binary,
        `-I${folder}`,
        join(ENCODED, 'gsoap_encoded_client.c'),
        join(folder, 'soapC.c'),
        join(folder, 'soapClient.c'),
        '-lgsoap',
      ]);
      const printed = await runJsonClient<Printed>(binary, [served.address], input(served, calls));
      t.log(printed.client);
      return printed.results;
    },
  },
  {
    name: 'node-soap',
    tools: (t) => {
      try {
        require.resolve('soap');
        return true;
      } catch {
        t.fail('the soap npm package (a devDependency) is not installed: run `npm install`');
        return false;
      }
    },
    run: async (t, served, calls) => {
      const printed = await runJsonClient<Printed>(process.execPath, [join(ENCODED, 'node_soap_encoded.cjs')], input(served, calls));
      t.log(printed.client);
      return printed.results;
    },
  },
];

for (const client of CLIENTS) {
  test.serial(
    `${client.name} calls every operation of the encoded tracker contract (${REFERENCE === 'php' ? "PHP's SoapServer" : 'our server'}) and gets back what it sent`,
    async (t) => {
      if (!client.tools(t)) return;
      t.timeout(300_000);
      const served = await serve();
      try {
        const results = await client.run(t, served, CALLS);
        checkResults(t, client.name, results);
        // What the client sent is SOAP encoding: the rpc wrapper in the contract's namespace, for every call.
        results.forEach((result, i) => {
          if (result.error) return;
          t.regex(
            result.sent ?? '',
            new RegExp(`<(\\w+:)?${CALLS[i].op}[\\s>/]`),
            `${client.name} ${CALLS[i].op}: the rpc wrapper was sent`,
          );
        });
      } finally {
        await served.close();
      }
    },
  );
}

// Bad input, as raw HTTP POSTs to our server: each a Client fault (HTTP 500), where its twin without the mistake is answered.
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="${ENC}" xmlns:ns1="urn:tracker">` +
  `<soapenv:Body soapenv:encodingStyle="${ENC}">${body}</soapenv:Body></soapenv:Envelope>`;
const account = (id: number) => `<id xsi:type="xsd:int">${id}</id><name xsi:type="xsd:string">a${id}</name><email xsi:nil="true"/>`;
const issueMembers = (reporter: string) =>
  `<id xsi:type="xsd:int">1</id><summary xsi:type="xsd:string">s</summary>${reporter}<handler xsi:nil="true"/>` +
  `<notes xsi:type="soapenc:Array" soapenc:arrayType="ns1:NoteData[0]"/>` +
  `<tags xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[0]"/><sticky xsi:type="xsd:boolean">false</sticky>`;

const BAD: { what: string; op: string; bad: string; good: string }[] = [
  {
    what: 'an href to no id',
    op: 'echoIssue',
    bad: `<ns1:echoIssue><issue href="#nowhere"/></ns1:echoIssue><multiRef id="id0" xsi:type="ns1:IssueData">${issueMembers(`<reporter xsi:type="ns1:AccountData">${account(2)}</reporter>`)}</multiRef>`,
    good: `<ns1:echoIssue><issue href="#id0"/></ns1:echoIssue><multiRef id="id0" xsi:type="ns1:IssueData">${issueMembers(`<reporter xsi:type="ns1:AccountData">${account(2)}</reporter>`)}</multiRef>`,
  },
  {
    what: 'a cycle of hrefs',
    op: 'echoIssue',
    bad: `<ns1:echoIssue><issue href="#id0"/></ns1:echoIssue><multiRef id="id0" href="#id1"/><multiRef id="id1" href="#id0"/>`,
    good: `<ns1:echoIssue><issue href="#id0"/></ns1:echoIssue><multiRef id="id0" href="#id1"/><multiRef id="id1" xsi:type="ns1:IssueData">${issueMembers(`<reporter xsi:type="ns1:AccountData">${account(2)}</reporter>`)}</multiRef>`,
  },
  {
    what: 'a struct that holds itself (a cycle through a member)',
    op: 'echoIssue',
    bad: `<ns1:echoIssue><issue href="#id0"/></ns1:echoIssue><multiRef id="id0" xsi:type="ns1:IssueData">${issueMembers('<reporter href="#id0"/>')}</multiRef>`,
    good: `<ns1:echoIssue><issue href="#id0"/></ns1:echoIssue><multiRef id="id0" xsi:type="ns1:IssueData">${issueMembers('<reporter href="#id1"/>')}</multiRef><multiRef id="id1" xsi:type="ns1:AccountData">${account(3)}</multiRef>`,
  },
  {
    what: 'an array with more items than its soapenc:arrayType size',
    op: 'echoStrings',
    bad: `<ns1:echoStrings><values xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[2]"><item>a</item><item>b</item><item>c</item></values></ns1:echoStrings>`,
    good: `<ns1:echoStrings><values xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[3]"><item>a</item><item>b</item><item>c</item></values></ns1:echoStrings>`,
  },
  {
    what: "an array of arrays whose inner arrayType size disagrees with the row's items",
    op: 'echoMatrix',
    bad: `<ns1:echoMatrix><rows xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[][1]"><item xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[1]"><item>1</item><item>2</item></item></rows></ns1:echoMatrix>`,
    good: `<ns1:echoMatrix><rows xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[][1]"><item xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[2]"><item>1</item><item>2</item></item></rows></ns1:echoMatrix>`,
  },
  {
    what: 'a wrong xsi:type (a dateTime where the part is an int)',
    op: 'touchIssue',
    bad: `<ns1:touchIssue><id xsi:type="xsd:dateTime">2024-05-06T07:08:09Z</id></ns1:touchIssue>`,
    good: `<ns1:touchIssue><id xsi:type="xsd:int">7</id></ns1:touchIssue>`,
  },
  {
    what: 'a wrong xsi:type (another struct where the part is an IssueData)',
    op: 'echoIssue',
    bad: `<ns1:echoIssue><issue xsi:type="ns1:AccountData">${account(2)}</issue></ns1:echoIssue>`,
    good: `<ns1:echoIssue><issue xsi:type="ns1:IssueData">${issueMembers(`<reporter xsi:type="ns1:AccountData">${account(2)}</reporter>`)}</issue></ns1:echoIssue>`,
  },
];

async function post(address: string, op: string, body: string) {
  const answer = await fetch(address, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"urn:tracker#${op}"` },
    body: envelope(body),
  });
  return { status: answer.status, text: await answer.text() };
}

for (const bad of BAD) {
  test.serial(`our server answers ${bad.what} (${bad.op}) with a SOAP 1.1 Client fault, HTTP 500`, async (t) => {
    t.timeout(120_000);
    const served = await serveOurs();
    try {
      const good = await post(served.address, bad.op, bad.good);
      t.is(good.status, 200, `the same request without the mistake is answered: ${good.text.slice(0, 600)}`);
      t.notRegex(good.text, /<(\w+:)?Fault[\s>]/);
      const answer = await post(served.address, bad.op, bad.bad);
      t.is(answer.status, 500, answer.text.slice(0, 600));
      t.regex(answer.text, /<(\w+:)?Fault[\s>]/, 'a SOAP fault');
      t.regex(answer.text, /<faultcode>(\w+:)?Client<\/faultcode>/, `the sender's fault: ${answer.text.slice(0, 600)}`);
    } finally {
      await served.close();
    }
  });
}
