/**
 * MTOM (src/runtime/wire/mtom.ts) against real clients, on the mtom fixture (Documents: Store takes a base64Binary,
 * Fetch answers one; wsoma:OptimizedMimeSerialization on both SOAP bindings), each client built from the WSDL the
 * running service serves (GET ?wsdl) and configured as its documentation says:
 *
 * - JAX-WS RI (wsimport -extension, javac): the policy alone switches MTOM on; it stores a few hundred KB and
 *   fetches them back, on both ports.
 * - gSOAP (wsdl2h, soapcpp2, gcc): soap_set_omode(SOAP_ENC_MTOM), the base64Binary's type set, both SOAP versions.
 * - node-soap: the attachment and its xop:Include written by hand (options.attachments, $xml), the multipart answer
 *   read with parseResponseAttachments.
 * - zeep, which cannot send MTOM: it reads the multipart answer of a Fetch.
 *
 * The bytes hold CR LF, blank lines, dashes and boundary-like sequences and every byte value. Each cell: the Store
 * handler got the exact bytes, the client read the Fetch answer's bytes back equal, and both went multipart/related
 * on the wire (a recording proxy in front of the service sees each request's and answer's Content-Type).
 */
import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as soap from 'soap';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../support/fixture-contract';
import { loadReaders } from '../support/readers';
import { CLIENTS_DIR, PYTHON, requireTool, runJsonClient, JAXWS_CLASSPATH } from './clients/harness';

const run = promisify(execFile);

const NS = 'http://documents.example.org/';
const XOP = 'http://www.w3.org/2004/08/xop/include';
/** A client's build or run: generous, the machine may be busy. */
const MINUTES = 5 * 60_000;

const work = mkdtempSync(join(tmpdir(), 'mtom-clients-'));
let documents: FixtureContract;
let server: ServedFixture;
let proxy: Server;
/** The proxy's address of the endpoint: every client calls through it. */
let endpoint: string;
let jaxwsClasses: string;
let gsoapClient: string;

/** What the Store handler was handed, by name; Fetch answers it. */
const stored = new Map<string, Buffer>();

/** Each exchange the proxy passed on: the request's and the answer's Content-Type, and the SOAPAction. */
interface Exchange {
  request: string;
  answer: string;
  status: number;
}
const exchanges: Exchange[] = [];

/** Binary content a naive multipart split trips on: CR LF, blank lines, dashes, boundaries' starts, NUL, every byte. */
function attachmentBytes(size: number): Buffer {
  const bytes = randomBytes(size);
  const traps = ['\r\n', '\r\n\r\n', '\r\n--', '--uuid:', '\r\n--uuid:', '\r\n--==', '--MIMEBoundary', '\r\n--\r\n', '\n\n', '\r'];
  let at = 11;
  for (const trap of traps) {
    for (let copy = 0; copy < 20; copy++, at += 977) Buffer.from(trap).copy(bytes, at % (size - 16));
  }
  for (let i = 0; i < 256; i++) bytes[size - 300 + i] = i;
  return bytes;
}

/** The requests' bytes: a few hundred KB, one file a client reads. */
const CONTENT = attachmentBytes(300 * 1024);
const contentFile = join(work, 'content.bin');

function startProxy(target: URL): Promise<Server> {
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const onward = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        if (incoming.method === 'POST') {
          exchanges.push({
            request: String(incoming.headers['content-type']),
            answer: String(answer.headers['content-type']),
            status: answer.statusCode ?? 0,
          });
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    onward.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(onward);
  };
  return new Promise((resolve) => {
    const listening = createServer(forward).listen(0, '127.0.0.1', () => resolve(listening));
  });
}

test.before(async (t) => {
  t.timeout(3 * MINUTES, 'a contract generated, wsimport and javac, wsdl2h, soapcpp2 and gcc');
  requireTool(PYTHON, ['-c', 'import zeep'], 'python3-zeep');
  requireTool('java', ['-version'], 'default-jdk-headless');
  requireTool('javac', ['-version'], 'default-jdk-headless');
  requireTool('wsimport', ['-version'], 'jaxws libjaxws-java');
  requireTool('test', ['-f', '/usr/share/java/jaxws-rt.jar'], 'libjaxws-java');
  requireTool('wsdl2h', ['-V'], 'gsoap');
  requireTool('soapcpp2', ['-V'], 'gsoap');
  requireTool('test', ['-f', '/usr/include/stdsoap2.h'], 'libgsoap-dev');
  requireTool('gcc', ['--version'], 'gcc');
  requireTool('pkg-config', ['--exists', 'gsoapssl'], 'pkgconf libgsoap-dev');

  writeFileSync(contentFile, CONTENT);
  await loadReaders();
  documents = await generateFixture('mtom');
  server = await serveFixture(
    documents.definition,
    {
      Store: async (request: { name: string; content: Uint8Array }) => {
        stored.set(request.name, Buffer.from(request.content));
        return request.content.length;
      },
      Fetch: async (request: { name: string }) => {
        const content = stored.get(request.name);
        if (content === undefined) throw new Error(`nothing stored as ${request.name}`);
        return new Uint8Array(content);
      },
    } as never,
    { maxBodyBytes: 4 * 1024 * 1024 },
  );
  const target = new URL(server.endpoint);
  proxy = await startProxy(target);
  endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`;

  const jaxws = async () => {
    const generated = join(work, 'jaxws-src');
    jaxwsClasses = join(work, 'jaxws-classes');
    mkdirSync(generated);
    mkdirSync(jaxwsClasses);
    // -extension: wsimport keeps a SOAP 1.2 port only with it.
    await run('wsimport', ['-extension', '-Xnocompile', '-keep', '-quiet', '-d', generated, '-p', 'documents', `${endpoint}?wsdl`], {
      timeout: MINUTES,
    });
    const { stdout } = await run('find', [generated, '-name', '*.java']);
    const sources = [...stdout.trim().split('\n'), join(CLIENTS_DIR, 'JaxwsDocuments.java')];
    await run('javac', ['-nowarn', '-d', jaxwsClasses, '-cp', JAXWS_CLASSPATH, ...sources], { timeout: MINUTES });
  };
  const gsoap = async () => {
    const folder = join(work, 'gsoap');
    mkdirSync(folder);
    await run('wsdl2h', ['-c', '-t', '/usr/share/gsoap/WS/typemap.dat', '-o', 'documents.h', `${endpoint}?wsdl`], {
      cwd: folder,
      timeout: MINUTES,
    });
    await run('soapcpp2', ['-c', '-C', '-L', '-x', '-I/usr/share/gsoap/import:/usr/share/gsoap', 'documents.h'], {
      cwd: folder,
      timeout: MINUTES,
    });
    gsoapClient = join(folder, 'gsoap_mtom_client');
    // The library's own flags: struct soap's layout depends on them.
    const flags = async (which: string) => (await run('pkg-config', [which, 'gsoapssl'])).stdout.trim().split(/\s+/);
    await run(
      'gcc',
      [
        ...['-O0', '-w', ...(await flags('--cflags')), `-I${folder}`, '-o', gsoapClient],
        ...[join(CLIENTS_DIR, 'gsoap_mtom_client.c'), 'soapC.c', 'soapClient.c', ...(await flags('--libs'))],
      ],
      { cwd: folder, timeout: MINUTES },
    );
  };
  await Promise.all([jaxws(), gsoap()]);
});

test.after.always(async () => {
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await server?.close();
  documents?.remove();
  rmSync(work, { recursive: true, force: true });
});

/** The exchanges made by `calls`, and a check that each went and came back as MTOM. */
async function recorded<T>(calls: () => Promise<T>): Promise<{ result: T; made: Exchange[] }> {
  const before = exchanges.length;
  const result = await calls();
  return { result, made: exchanges.slice(before) };
}

const MULTIPART = /^multipart\/related;.*type="application\/xop\+xml"/i;

/**
 * `made` is `count` pairs of a Store and a Fetch, each answered 200 and MTOM (the policy asks), and the requests as
 * `requests` says: MTOM (m) or plain SOAP (p), one letter a request, or `undefined`: each Store MTOM, each Fetch
 * (which carries no binary content) plain.
 */
function assertMtom(t: ExecutionContext, made: Exchange[], count: number, client: string, requests = 'mp'.repeat(count)): void {
  t.is(made.length, 2 * count, JSON.stringify(made));
  for (const [i, exchange] of made.entries()) {
    t.is(exchange.status, 200);
    if (requests[i] === 'm') t.regex(exchange.request, MULTIPART, `${client}: request ${i} MTOM`);
    else t.notRegex(exchange.request, /multipart/, `${client}: request ${i} plain SOAP`);
    t.regex(exchange.answer, MULTIPART, 'the service answered MTOM');
  }
}

/** The handler got CONTENT under `name`, and the client read it back into `file`, byte for byte. */
function assertRoundTrip(t: ExecutionContext, name: string, file: string): void {
  const got = stored.get(name);
  t.truthy(got, `the Store handler was called as ${name}`);
  t.true(got?.equals(CONTENT), `the handler got the exact bytes (${got?.length} of ${CONTENT.length})`);
  t.true(readFileSync(file).equals(CONTENT), `${name}: the client read the bytes back equal`);
}

test.serial(
  'JAX-WS RI: MTOM both ways where the policy switches it on (SOAP 1.2) or MTOMFeature does (SOAP 1.1); MTOM answers read on each port',
  async (t) => {
    t.timeout(MINUTES, 'a client run');
    const out = join(work, 'jaxws');
    const { result, made } = await recorded(() =>
      run(
        'java',
        ['-cp', `${jaxwsClasses}:${JAXWS_CLASSPATH}`, 'documents.client.JaxwsDocuments', `${endpoint}?wsdl`, endpoint, contentFile, out],
        { timeout: MINUTES, maxBuffer: 16 * 1024 * 1024 },
      ),
    );
    const results = JSON.parse(result.stdout) as { port: string; stored?: number; fetched?: number; error?: unknown }[];
    for (const port of ['DocumentsSoap', 'DocumentsSoap+MTOMFeature', 'DocumentsSoap12']) {
      const cell = results.find((r) => r.port === port);
      t.deepEqual(cell, { port, stored: CONTENT.length, fetched: CONTENT.length }, JSON.stringify(cell));
      assertRoundTrip(t, port, `${out}-${port}.bin`);
    }
    // The SOAP 1.1 binding's policy comes by a wsp:PolicyAttachment, which JAX-WS RI does not read: plain requests
    // (the content inline, base64), MTOM answers read all the same. MTOMFeature, or the SOAP 1.2 binding's
    // wsp:PolicyURIs, switch MTOM on for every request, a Fetch's too.
    assertMtom(t, made, 3, 'JAX-WS RI', 'ppmmmm');
    t.regex(made[2].request, /start-info="text\/xml"/);
    t.regex(made[4].request, /start-info="application\/soap\+xml;action=\\"http:\/\/documents\.example\.org\/Store\\""/);
  },
);

for (const version of ['1.1', '1.2'] as const) {
  test.serial(`gSOAP, SOAP ${version}: SOAP_ENC_MTOM both ways, stored and fetched back byte for byte`, async (t) => {
    t.timeout(MINUTES, 'a client run');
    const name = `gsoap${version}`;
    const out = join(work, `${name}.bin`);
    const { result, made } = await recorded(() =>
      run(gsoapClient, [endpoint, name, contentFile, out, ...(version === '1.2' ? ['--soap12'] : [])], { timeout: MINUTES }),
    );
    t.deepEqual(JSON.parse(result.stdout), { stored: CONTENT.length, fetched: CONTENT.length, attachment: true }, result.stdout);
    assertRoundTrip(t, name, out);
    assertMtom(t, made, 1, 'gSOAP');
    t.regex(made[0].request, version === '1.1' ? /start-info="text\/xml"/ : /start-info="application\/soap\+xml"/);
  });
}

for (const version of ['1.1', '1.2'] as const) {
  test.serial(
    `node-soap, SOAP ${version}: the attachment and its xop:Include by hand; the multipart answer read, its part the bytes`,
    async (t) => {
      t.timeout(MINUTES, 'a client run');
      const options = { parseResponseAttachments: true, ...(version === '1.2' ? { forceSoap12Headers: true } : {}) };
      const client = await soap.createClientAsync(`${endpoint}?wsdl`, options);
      client.setEndpoint(endpoint);
      const port = version === '1.2' ? 'DocumentsSoap12' : 'DocumentsSoap';
      type Callback = (error: unknown, answer: Record<string, unknown>, raw: string, header: unknown, sent: string) => void;
      type Method = (args: object, callback: Callback, options?: object) => void;
      const ports = (client as unknown as { Documents: Record<string, Record<string, Method>> }).Documents;
      const call = (operation: string, args: object, options?: object) =>
        new Promise<{ answer: Record<string, unknown>; raw: string; sent: string }>((resolve, reject) =>
          ports[port][operation](
            args,
            (error, answer, raw, _header, sent) => (error ? reject(error) : resolve({ answer, raw, sent })),
            options,
          ),
        );
      const name = `node-soap${version}`;
      const { result, made } = await recorded(async () => {
        const { answer: storeAnswer, sent: storeRequest } = await call(
          'Store',
          { name, content: { $xml: `<xop:Include xmlns:xop="${XOP}" href="cid:content@documents.example.org"/>` } },
          {
            attachments: [
              { mimetype: 'application/octet-stream', contentId: 'content@documents.example.org', name: 'content.bin', body: CONTENT },
            ],
          },
        );
        const { answer: fetchAnswer, raw: fetchRaw } = await call('Fetch', { name });
        return { storeAnswer, storeRequest, fetchAnswer, fetchRaw, attachments: client.lastResponseAttachments };
      });
      t.is(Number(result.storeAnswer.size), CONTENT.length, JSON.stringify(result.storeAnswer));
      t.regex(result.storeRequest, /<content><xop:Include xmlns:xop="[^"]+" href="cid:content@documents\.example\.org"\/><\/content>/);
      // The answer's content is an xop:Include; the part it names is the bytes.
      const href = /<[\w:]*Include[^>]*href="cid:([^"]+)"/.exec(result.fetchRaw)?.[1];
      t.truthy(href, result.fetchRaw);
      const parts = (result.attachments as unknown as { parts: { headers: Record<string, string>; body: Buffer }[] }).parts;
      const part = parts.find((p) =>
        Object.entries(p.headers).some(([k, v]) => k.toLowerCase() === 'content-id' && v === `<${decodeURIComponent(href ?? '')}>`),
      );
      t.truthy(part, JSON.stringify(parts.map((p) => p.headers)));
      const out = join(work, `${name}.bin`);
      writeFileSync(out, part?.body ?? Buffer.alloc(0));
      assertRoundTrip(t, name, out);
      assertMtom(t, made, 1, 'node-soap');
    },
  );
}

test.serial("zeep: reads the Fetch answer's attachment (MTOM the policy asks for), in both SOAP versions", async (t) => {
  t.timeout(MINUTES, 'a client run');
  stored.set('zeep', CONTENT);
  const calls = ['1.1', '1.2'].map((version) => ({
    binding: `{${NS}}${version === '1.1' ? 'DocumentsSoap' : 'DocumentsSoap12'}`,
    address: endpoint,
    name: 'zeep',
    out: join(work, `zeep${version}.bin`),
  }));
  const { result, made } = await recorded(() =>
    runJsonClient<{ results: { fetched?: number; error?: unknown }[] }>(
      PYTHON,
      [join(CLIENTS_DIR, 'zeep_mtom_client.py')],
      { wsdl: `${endpoint}?wsdl`, calls },
      MINUTES,
    ),
  );
  for (const [i, call] of calls.entries()) {
    t.deepEqual(result.results[i], { fetched: CONTENT.length }, JSON.stringify(result.results[i]));
    t.true(readFileSync(call.out).equals(CONTENT), `${call.binding}: zeep read the bytes back equal`);
  }
  // zeep asks in plain SOAP (it cannot send MTOM); the policy makes the answer MTOM all the same.
  t.is(made.length, 2, JSON.stringify(made));
  for (const exchange of made) {
    t.notRegex(exchange.request, /multipart/);
    t.regex(exchange.answer, MULTIPART);
  }
});
