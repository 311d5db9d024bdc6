/**
 * The SOAP header stack (src/runtime/soap-stack/) against real clients, each built from the WSDL the running
 * fixture service serves (GET ?wsdl) and configured as its documentation says:
 *
 * - WS-Addressing, on the jaxws-addressing fixture (Orders: required on SOAP 1.1 by wsaw:UsingAddressing, optional
 *   on SOAP 1.2 by a wsam:Addressing policy): JAX-WS RI (wsimport -extension, javac; the WSDL switches addressing
 *   on, and the proxy requires wsa:Action and wsa:RelatesTo on every answer, a declared fault's too), zeep (which
 *   addresses an operation whose port type names its wsam:Action, and no other) and gSOAP (wsdl2h, soapcpp2, the wsa
 *   plugin).
 * - WS-Security, on the ws-security fixture (Notes: a UsernameToken with a text password, one with a digest, an
 *   X.509 signature over the body): zeep (UsernameToken, use_digest; BinarySignature), node-soap (WSSecurity,
 *   WSSecurityCert), suds (suds.wsse) and gSOAP (the wsse plugin).
 *
 * Every call is answered, the answer accepted by the client, and the handler saw the principal the authenticate
 * hook gave (its name is in the answer) or the addressing headers the client sent. zeep's BinarySignature verifies
 * every answer's signature: against the service that does not sign answers the test holds its exact failure, and
 * against the one that does (below) zeep verifies it with the service's certificate. gSOAP also verifies signed answers: the same contract served with NoteSigned's policy signing
 * answers (signAnswer, the service's own openssl-made key and certificate), the certificate its cafile; the same
 * answer changed on the way (by a proxy) is refused, and so are an unsigned one and a signed one with another cafile. Then a table of bad requests sent raw, each answered by its fault and one log line, the
 * service answering a good call after each. Certificates are made here with openssl, in a temporary folder;
 * the clients' builds (javac, gcc) run once, before the tests.
 */
import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as soap from 'soap';
import { SignedXml } from 'xml-crypto';
import type { Authenticate, Call } from '../../src/runtime/definition';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../support/fixture-contract';
import { loadReaders } from '../support/readers';
import { type Answer, readFault, send } from '../support/requests';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName } from '../support/xml-assertions';
import { CLIENTS_DIR, PYTHON, requireTool, runJsonClient, JAXWS_CLASSPATH } from './clients/harness';

const run = promisify(execFile);

const ORDERS = 'http://orders.example.org/ws';
const NOTES = 'http://notes.example.org/ws';
const WSA = 'http://www.w3.org/2005/08/addressing';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
const BASE64 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
const TOKEN_PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const VERSIONS: readonly SoapVersionName[] = ['1.1', '1.2'];
const VARIANT = { '1.1': 'soap11', '1.2': 'soap12' } as const;
const GSOAP_PLUGIN = '/usr/share/gsoap/plugin';
/** A client's build or run: generous, the machine may be busy. */
const MINUTES = 5 * 60_000;

/** The users the authenticate hook knows. */
const USERS: Record<string, string> = { alice: 'wonderland', bob: 'builder' };

const work = mkdtempSync(join(tmpdir(), 'soap-stack-clients-'));
const pki = join(work, 'pki');
let orders: FixtureContract;
let notes: FixtureContract;
let ordersServer: ServedFixture;
let notesServer: ServedFixture;
/** The Notes contract with NoteSigned's answers signed by the service's key. */
let signingServer: ServedFixture;
/** A proxy to signingServer that changes each answer's receipt after it was signed. */
let tamperer: Server;
/** What each handler saw, by the answer it gave. */
const seen = new Map<string, Pick<Call, 'principal' | 'addressing' | 'variant'>>();
let caller: { key: string; cert: string; base64: string };
let stranger: { key: string; cert: string; base64: string };
let jaxwsClasses: string;
let gsoapClient: string;

const authenticate: Authenticate = (credential) => {
  if (credential.kind === 'x509') return { name: credential.certificate.subject.replace(/^CN=/, '') };
  const password = USERS[credential.username];
  return password !== undefined && credential.matches(password) ? { name: credential.username } : undefined;
};

let orderNumber = 0;
/** A handler's answer, naming what it saw (the principal, or the addressing version and MessageID). */
function remember(answer: string, call: Call): string {
  seen.set(answer, { principal: call.principal, addressing: call.addressing, variant: call.variant });
  return answer;
}

async function openssl(...args: string[]): Promise<void> {
  await run('openssl', args, { cwd: pki, timeout: MINUTES });
}

test.before(async (t) => {
  t.timeout(3 * MINUTES, 'the test PKI, two contracts generated, wsimport and javac, wsdl2h, soapcpp2 and gcc');
  requireTool(PYTHON, ['-c', 'import zeep, xmlsec, suds'], 'python3-zeep python3-xmlsec python3-suds');
  requireTool('java', ['-version'], 'default-jdk-headless');
  requireTool('javac', ['-version'], 'default-jdk-headless');
  requireTool('wsimport', ['-version'], 'jaxws libjaxws-java');
  requireTool('test', ['-f', '/usr/share/java/jaxws-rt.jar'], 'libjaxws-java');
  requireTool('wsdl2h', ['-V'], 'gsoap');
  requireTool('soapcpp2', ['-V'], 'gsoap');
  requireTool('test', ['-f', join(GSOAP_PLUGIN, 'wsseapi.c')], 'gsoap');
  requireTool('test', ['-f', '/usr/include/stdsoap2.h'], 'libgsoap-dev');
  requireTool('test', ['-f', '/usr/include/openssl/pem.h'], 'libssl-dev');
  requireTool('gcc', ['--version'], 'gcc');
  requireTool('pkg-config', ['--exists', 'gsoapssl'], 'pkgconf libgsoap-dev');
  requireTool('openssl', ['version'], 'openssl');

  // The test PKI: a CA the service trusts, the calling system's certificate it issued, and a stranger of the
  // same name, self-signed. RSA 2048, SHA-256, PKCS#8 keys, valid two days.
  mkdirSync(pki);
  await openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2'],
    ...['-subj', '/CN=notes test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'],
  );
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=notes client');
  await openssl(
    ...['x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-out', 'client.crt', '-days', '2', '-sha256'],
  );
  await openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'stranger.key', '-out', 'stranger.crt', '-days', '2'],
    ...['-subj', '/CN=notes client'],
  );
  // The service's own signing key and certificate, self-signed: a gSOAP client's cafile.
  await openssl(
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'service.key', '-out', 'service.crt', '-days', '2'],
    ...['-subj', '/CN=notes service'],
  );
  const signer = (name: string) => {
    const cert = readFileSync(join(pki, `${name}.crt`), 'utf8');
    const base64 = cert.replace(/-----[^-]+-----|\s+/g, '');
    return { key: readFileSync(join(pki, `${name}.key`), 'utf8'), cert, base64 };
  };
  caller = signer('client');
  stranger = signer('stranger');

  await loadReaders();
  orders = await generateFixture('jaxws-addressing');
  notes = await generateFixture('ws-security');
  const types = orders.types as unknown as {
    UnknownOrder: new (fields: { orderId: string }) => object;
    UnknownOrderFault: new (detail: object, message?: string, kind?: 'client' | 'server') => Error;
  };
  const unknown = (orderId: string) => new types.UnknownOrderFault(new types.UnknownOrder({ orderId }), 'No such order', 'client');
  ordersServer = await serveFixture(orders.definition, {
    placeOrder: async (request: { item: string; quantity: number }, call: Call) => {
      if (request.item === 'unknown') throw unknown(request.item);
      return remember(`order-${++orderNumber}-${request.item}x${request.quantity}-${call.addressing?.version ?? 'none'}`, call);
    },
    cancel: async (request: { orderId: string }, call: Call) => {
      if (request.orderId === 'unknown') throw unknown(request.orderId);
      remember(`cancel-${request.orderId}-${call.addressing?.version ?? 'none'}-${++orderNumber}`, call);
      return true;
    },
  } as never);
  const note = async (request: { text: string }, call: Call) =>
    remember(`${request.text} noted for ${(call.principal as { name: string }).name} #${++orderNumber}`, call);
  notesServer = await serveFixture(
    notes.definition,
    { NoteText: note, NoteDigest: note, NoteSigned: note } as never,
    {},
    { authenticate, soapSecurity: { trustedCertificates: [readFileSync(join(pki, 'ca.crt'), 'utf8')] } },
  );

  const signingPolicy = { signature: { body: true, headers: [], digest: 'sha256' as const, signAnswer: true } };
  const signedRoute = notes.definition.routes.NoteSigned;
  signingServer = await serveFixture(
    {
      ...notes.definition,
      routes: { ...notes.definition.routes, NoteSigned: { ...signedRoute, policies: { soap11: signingPolicy, soap12: signingPolicy } } },
    },
    { NoteText: note, NoteDigest: note, NoteSigned: note } as never,
    {},
    {
      authenticate,
      soapSecurity: {
        trustedCertificates: [readFileSync(join(pki, 'ca.crt'), 'utf8')],
        signingKey: readFileSync(join(pki, 'service.key'), 'utf8'),
        signingCertificate: readFileSync(join(pki, 'service.crt'), 'utf8'),
      },
    },
  );
  tamperer = await tamperingProxy(new URL(signingServer.endpoint));

  // The builds, from the served WSDLs, side by side: JAX-WS RI's proxy, and gSOAP's code of both contracts.
  const jaxws = async () => {
    const generated = join(work, 'jaxws-src');
    jaxwsClasses = join(work, 'jaxws-classes');
    mkdirSync(generated);
    mkdirSync(jaxwsClasses);
    // -extension: wsimport keeps a SOAP 1.2 port only with it.
    await run(
      'wsimport',
      ['-extension', '-Xnocompile', '-keep', '-quiet', '-d', generated, '-p', 'orders', `${ordersServer.endpoint}?wsdl`],
      {
        timeout: MINUTES,
      },
    );
    const { stdout } = await run('find', [generated, '-name', '*.java']);
    const sources = [...stdout.trim().split('\n'), join(CLIENTS_DIR, 'JaxwsOrders.java')];
    await run('javac', ['-nowarn', '-d', jaxwsClasses, '-cp', JAXWS_CLASSPATH, ...sources], { timeout: MINUTES });
  };
  const gsoap = async () => {
    const folder = join(work, 'gsoap');
    mkdirSync(folder);
    const header = join(folder, 'services.h');
    await run(
      'wsdl2h',
      ['-c', '-t', '/usr/share/gsoap/WS/typemap.dat', '-o', header, `${ordersServer.endpoint}?wsdl`, `${notesServer.endpoint}?wsdl`],
      { cwd: folder, timeout: MINUTES },
    );
    // What wsdl2h's reminders ask for the policies it read: the WS-Addressing and WS-Security plugins' headers.
    await run('sh', ['-c', `printf '#import "wsa5.h"\\n#import "wsse.h"\\n' >> services.h`], { cwd: folder });
    await run('soapcpp2', ['-c', '-C', '-L', '-x', '-I/usr/share/gsoap/import:/usr/share/gsoap', 'services.h'], {
      cwd: folder,
      timeout: MINUTES,
    });
    gsoapClient = join(folder, 'gsoap_ws_client');
    const plugins = ['wsaapi.c', 'wsseapi.c', 'smdevp.c', 'mecevp.c', 'threads.c'].map((file) => join(GSOAP_PLUGIN, file));
    // The library's own flags (WITH_OPENSSL, WITH_DOM, WITH_GZIP, WITH_IPV6): struct soap's layout depends on them.
    const flags = async (which: string) => (await run('pkg-config', [which, 'gsoapssl'])).stdout.trim().split(/\s+/);
    // wsse.h brings in SAML, whose xsd__dateTime is a struct timeval: gSOAP's custom serializer for it is linked.
    await run(
      'gcc',
      [
        ...['-O0', '-w', ...(await flags('--cflags')), `-I${folder}`, '-I/usr/share/gsoap', `-I${GSOAP_PLUGIN}`, '-o', gsoapClient],
        ...[join(CLIENTS_DIR, 'gsoap_ws_client.c'), 'soapC.c', 'soapClient.c', ...plugins, '/usr/share/gsoap/custom/struct_timeval.c'],
        ...[...(await flags('--libs')), '-lssl', '-lcrypto'],
      ],
      { cwd: folder, timeout: MINUTES },
    );
  };
  await Promise.all([jaxws(), gsoap()]);
});

/** A proxy to `target` that changes each answer's receipt ("noted for" becomes "noted by"), the rest as it came. */
function tamperingProxy(target: URL): Promise<Server> {
  const proxy = createServer((incoming, outgoing) => {
    const onward = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      async (answer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replace(' noted for ', ' noted by '));
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
        outgoing.end(body);
      },
    );
    onward.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(onward);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

test.after.always(async () => {
  await new Promise((resolve) => (tamperer ? tamperer.close(resolve) : resolve(undefined)));
  await signingServer?.close();
  await ordersServer?.close();
  await notesServer?.close();
  orders?.remove();
  notes?.remove();
  rmSync(work, { recursive: true, force: true });
});

/** The principal the handler that gave `answer` saw. */
const principalOf = (answer: string) => seen.get(answer)?.principal;

test.serial("the served contracts ask what the clients are tried against (the fixtures' generated policies)", (t) => {
  const policies = (contract: FixtureContract) =>
    Object.fromEntries(Object.entries(contract.definition.routes).map(([name, route]) => [name, route.policies]));
  const username = (password: 'text' | 'digest') => ({ usernameToken: { password } });
  const signature = { signature: { body: true, headers: [], digest: 'sha256', signAnswer: false } };
  t.deepEqual(policies(notes), {
    NoteText: { soap11: username('text'), soap12: username('text') },
    NoteDigest: { soap11: username('digest'), soap12: username('digest') },
    NoteSigned: { soap11: signature, soap12: signature },
  });
  const addressing = { soap11: { addressing: 'required' }, soap12: { addressing: 'optional' } };
  t.deepEqual(policies(orders), { placeOrder: addressing, cancel: addressing });
});

// --- WS-Addressing ---------------------------------------------------------------------------------------------------

interface JaxwsResult {
  name: string;
  ok?: string;
  fault?: { declared?: boolean; orderId?: string; code?: string; message: string };
  error?: { type: string; message: string };
}

test.serial(
  'JAX-WS RI: the proxy wsimport made of the served WSDL switches addressing on by itself and takes every answer and declared fault',
  async (t) => {
    t.timeout(MINUTES, 'a client run');
    const { stdout } = await run(
      'java',
      ['-cp', `${jaxwsClasses}:${JAXWS_CLASSPATH}`, 'orders.client.JaxwsOrders', `${ordersServer.endpoint}?wsdl`, ordersServer.endpoint],
      { timeout: MINUTES },
    );
    const results = JSON.parse(stdout) as JaxwsResult[];
    const by = (name: string) => results.find((r) => r.name === name)!;
    for (const port of ['OrderPort', 'OrderPortSoap12']) {
      // An answer without wsa:Action and wsa:RelatesTo would be MessageAddressingHeaderRequired here.
      const placed = by(`${port} placeOrder`);
      t.regex(placed.ok ?? JSON.stringify(placed), /^order-\d+-bookx2-wsa10$/, port);
      t.is(seen.get(placed.ok!)?.variant, port === 'OrderPort' ? 'soap11' : 'soap12');
      const addressing = seen.get(placed.ok!)?.addressing;
      t.is(addressing?.action, `${ORDERS}/OrderPort/placeOrderRequest`);
      t.regex(addressing?.messageId ?? '', /^uuid:[0-9a-f-]{36}$/, 'JAX-WS RI sends uuid:, not urn:uuid:');
      t.is(addressing?.replyTo, `${WSA}/anonymous`);
      // A declared fault: its wsa:Action and RelatesTo make JAX-WS map it to the wsimport exception, its detail read.
      t.deepEqual(by(`${port} placeOrder fault`).fault, { declared: true, orderId: 'unknown', message: 'No such order' }, port);
      t.is(by(`${port} cancel`).ok, 'true', JSON.stringify(by(`${port} cancel`)));
      // cancel's actions follow WS-Addressing's default pattern (no wsam:Action): JAX-WS sends the same the service expects.
      const cancelled = [...seen].filter(([answer]) => answer.startsWith('cancel-order-7-wsa10-')).at(-1)?.[1];
      t.is(cancelled?.addressing?.action, `${ORDERS}/OrderPort/cancelRequest`);
      t.deepEqual(by(`${port} cancel fault`).fault, { declared: true, orderId: 'unknown', message: 'No such order' }, port);
    }
  },
);

interface ZeepResult {
  name: string;
  ok?: unknown;
  fault?: { code: string | null; message: string; detail: string | null };
  error?: { type: string; message: string };
  sent: string | null;
  received: string | null;
}

async function zeep(wsdl: string, calls: object[]): Promise<Map<string, ZeepResult>> {
  const { results } = await runJsonClient<{ results: ZeepResult[] }>(
    PYTHON,
    [join(CLIENTS_DIR, 'zeep_ws_client.py')],
    { wsdl, calls },
    MINUTES,
  );
  return new Map(results.map((r) => [r.name, r]));
}

test.serial(
  'zeep: addressing where the port type names the wsam:Action, whatever the binding and its policy say; none for the default action pattern',
  async (t) => {
    t.timeout(MINUTES, 'a client run');
    const endpoint = ordersServer.endpoint;
    const soap11 = `{${ORDERS}}OrderPortBinding`;
    const soap12 = `{${ORDERS}}OrderPortSoap12Binding`;
    const place = (name: string, binding: string, quantity: number, wsa = false) => ({
      name,
      binding,
      address: endpoint,
      op: 'placeOrder',
      args: { item: 'tea', quantity },
      wsa,
    });
    const cancel = (name: string, binding: string, wsa = false) => ({
      name,
      binding,
      address: endpoint,
      op: 'cancel',
      args: { orderId: 'order-3' },
      wsa,
    });
    const results = await zeep(`${endpoint}?wsdl`, [
      place('place11', soap11, 4),
      { name: 'fault11', binding: soap11, address: endpoint, op: 'placeOrder', args: { item: 'unknown', quantity: 1 } },
      place('place12', soap12, 5),
      cancel('cancel11', soap11),
      cancel('cancel12', soap12),
      cancel('cancel11-plugin', soap11, true),
      place('place11-plugin', soap11, 6, true),
    ]);
    const get = (name: string) => results.get(name)!;
    // zeep adds wsa:Action, MessageID and To for an operation whose port type input has wsam:Action (or wsaw:Action):
    // on SOAP 1.1 (wsaw:UsingAddressing) and on SOAP 1.2 (wsam:Addressing in a policy, which zeep does not read) alike.
    for (const [name, quantity] of [
      ['place11', 4],
      ['place12', 5],
    ] as const) {
      t.regex(String(get(name).ok), new RegExp(`^order-\\d+-teax${quantity}-wsa10$`), JSON.stringify(get(name)));
      t.regex(get(name).sent ?? '', /<wsa:Action>http:\/\/orders\.example\.org\/ws\/OrderPort\/placeOrderRequest</);
      t.regex(seen.get(String(get(name).ok))?.addressing?.messageId ?? '', /^urn:uuid:/);
    }
    t.is(get('fault11').fault?.message, 'No such order', JSON.stringify(get('fault11')));
    t.regex(get('fault11').fault?.detail ?? '', /<orderId>unknown<\/orderId>/);
    // cancel has no wsam:Action (WS-Addressing's default action pattern): zeep sends no addressing header. SOAP 1.2's
    // policy makes addressing optional: answered; SOAP 1.1 requires it: refused.
    t.is(get('cancel12').ok, true, JSON.stringify(get('cancel12')));
    t.notRegex(get('cancel12').sent ?? '', /addressing/);
    t.is(get('cancel11').fault?.code, 'wsa:MessageAddressingHeaderRequired', JSON.stringify(get('cancel11')));
    t.notRegex(get('cancel11').sent ?? '', /addressing/);
    // zeep's WsAddressingPlugin added by hand: cancel's Action is then its soapAction, "" (ActionNotSupported), and on
    // placeOrder every header goes twice (zeep's own plus the plugin's), which is InvalidAddressingHeader.
    t.is(get('cancel11-plugin').fault?.code, 'wsa:ActionNotSupported', JSON.stringify(get('cancel11-plugin')));
    t.regex(get('cancel11-plugin').sent ?? '', /<wsa:Action><\/wsa:Action>|<wsa:Action\/>/);
    t.is(get('place11-plugin').fault?.code, 'wsa:InvalidAddressingHeader', JSON.stringify(get('place11-plugin')));
    t.is(get('place11-plugin').sent?.match(/<wsa:MessageID>/g)?.length, 2);
  },
);

interface GsoapResult {
  ok?: string;
  fault?: { error: number; code: string | null; string: string | null; orderId: string | null };
}

async function gsoap(name: string, address: string, ...options: string[]): Promise<GsoapResult> {
  const { stdout } = await run(gsoapClient, [name, address, ...options], { timeout: MINUTES });
  return JSON.parse(stdout) as GsoapResult;
}

for (const version of VERSIONS) {
  test.serial(`gSOAP, SOAP ${version}: the wsa plugin's headers are taken, the answers and declared faults read`, async (t) => {
    t.timeout(MINUTES, 'a client run');
    const options = version === '1.2' ? ['--soap12'] : [];
    const placed = await gsoap('place-order', ordersServer.endpoint, ...options);
    t.regex(placed.ok ?? JSON.stringify(placed), /^order-\d+-penx3-wsa10$/);
    // The SOAP version asked for, not the SOAP 1.2 wsdl2h's namespace table makes the default.
    t.is(seen.get(placed.ok!)?.variant, VARIANT[version]);
    const addressing = seen.get(placed.ok!)?.addressing;
    t.is(addressing?.action, `${ORDERS}/OrderPort/placeOrderRequest`);
    t.is(addressing?.to, ordersServer.endpoint);
    t.regex(addressing?.messageId ?? '', /^urn:uuid:/);
    t.is((await gsoap('cancel', ordersServer.endpoint, ...options)).ok, 'true');
    for (const name of ['place-order-unknown', 'cancel-unknown']) {
      const fault = (await gsoap(name, ordersServer.endpoint, ...options)).fault;
      t.is(fault?.string, 'No such order', name);
      t.is(fault?.orderId, 'unknown', name);
    }
  });
}

// --- WS-Security -----------------------------------------------------------------------------------------------------

const NOTES_BINDING: Record<SoapVersionName, string> = { '1.1': `{${NOTES}}NotesSoap`, '1.2': `{${NOTES}}NotesSoap12` };

/** The answer names the principal the handler saw, and the handler saw it on call.principal, called by `version`. */
function assertNoted(t: ExecutionContext, version: SoapVersionName, answer: unknown, text: string, name: string, context: unknown): void {
  t.regex(String(answer), new RegExp(`^${text} noted for ${name} #\\d+$`), JSON.stringify(context));
  t.deepEqual(principalOf(String(answer)), { name });
  t.is(seen.get(String(answer))?.variant, VARIANT[version], `the call came by SOAP ${version}`);
}

test.serial('zeep: UsernameToken text and digest in both SOAP versions; BinarySignature fails on the unsigned answer only', async (t) => {
  t.timeout(MINUTES, 'a client run');
  const endpoint = notesServer.endpoint;
  const calls: object[] = [];
  for (const version of VERSIONS) {
    const binding = NOTES_BINDING[version];
    calls.push(
      {
        name: `text${version}`,
        binding,
        address: endpoint,
        op: 'NoteText',
        args: { text: 'bread' },
        wsse: { kind: 'text', username: 'alice', password: USERS.alice },
      },
      {
        name: `digest${version}`,
        binding,
        address: endpoint,
        op: 'NoteDigest',
        args: { text: 'eggs' },
        wsse: { kind: 'digest', username: 'bob', password: USERS.bob },
      },
      {
        name: `signed${version}`,
        binding,
        address: endpoint,
        op: 'NoteSigned',
        args: { text: 'jam' },
        wsse: { kind: 'binary-signature', key: join(pki, 'client.key'), cert: join(pki, 'client.crt') },
      },
    );
  }
  const before = notesServer.lines().length;
  const results = await zeep(`${endpoint}?wsdl`, calls);
  for (const version of VERSIONS) {
    assertNoted(t, version, results.get(`text${version}`)?.ok, 'bread', 'alice', results.get(`text${version}`));
    assertNoted(t, version, results.get(`digest${version}`)?.ok, 'eggs', 'bob', results.get(`digest${version}`));
    // The request was signed well: the service answered it, its handler saw the certificate's principal...
    const signed = results.get(`signed${version}`)!;
    const answered = /jam noted for notes client #\d+/.exec(signed.received ?? '')?.[0];
    t.truthy(answered, JSON.stringify(signed));
    t.deepEqual(principalOf(answered ?? ''), { name: 'notes client' });
    t.is(seen.get(answered ?? '')?.variant, VARIANT[version]);
    // ...and zeep refused the answer, which carries no signature: zeep requires every answer signed.
    t.deepEqual(signed.error, { type: 'zeep.exceptions.SignatureVerificationFailed', message: '' }, JSON.stringify(signed));
  }
  const refused = notesServer
    .lines()
    .slice(before)
    .filter((line) => line.event === 'refused');
  t.deepEqual(refused, [], "the service refused none of zeep's calls");
});

test.serial(
  "zeep: BinarySignature both ways where the service signs its answers, verified with the service's certificate; changed, or checked against another certificate, refused",
  async (t) => {
    t.timeout(MINUTES, 'a client run');
    const tamperedAt = `http://127.0.0.1:${(tamperer.address() as AddressInfo).port}${new URL(signingServer.endpoint).pathname}`;
    const signedCall = (name: string, version: SoapVersionName, address: string, serviceCert: string) => ({
      name: `${name}${version}`,
      binding: NOTES_BINDING[version],
      address,
      op: 'NoteSigned',
      args: { text: 'jam' },
      wsse: { kind: 'binary-signature', key: join(pki, 'client.key'), cert: join(pki, 'client.crt'), serviceCert: join(pki, serviceCert) },
    });
    const calls = VERSIONS.flatMap((version) => [
      signedCall('signed', version, signingServer.endpoint, 'service.crt'),
      signedCall('tampered', version, tamperedAt, 'service.crt'),
      signedCall('other', version, signingServer.endpoint, 'stranger.crt'),
    ]);
    const results = await zeep(`${signingServer.endpoint}?wsdl`, calls);
    for (const version of VERSIONS) {
      // The answer the service signed with its key, verified by zeep (python3-xmlsec) with the service's certificate.
      const signed = results.get(`signed${version}`)!;
      assertNoted(t, version, signed.ok, 'jam', 'notes client', signed);
      t.regex(signed.received ?? '', /<ds:SignatureValue>/, 'the answer zeep took was signed');
      // The same answer changed after signing, and an answer checked against a certificate that did not sign it.
      const failed = { type: 'zeep.exceptions.SignatureVerificationFailed', message: '' };
      t.deepEqual(results.get(`tampered${version}`)?.error, failed, JSON.stringify(results.get(`tampered${version}`)));
      t.deepEqual(results.get(`other${version}`)?.error, failed, JSON.stringify(results.get(`other${version}`)));
    }
  },
);

test.serial(
  'node-soap: WSSecurity text and digest, WSSecurityCert signing the body, a signed answer read, in both SOAP versions',
  async (t) => {
    t.timeout(MINUTES, 'a client run');
    for (const version of VERSIONS) {
      const options = version === '1.2' ? { forceSoap12Headers: true } : {};
      const client = await soap.createClientAsync(`${notesServer.endpoint}?wsdl`, options);
      const port = version === '1.2' ? 'NotesSoap12' : 'NotesSoap';
      type Method = (args: object, callback: (error: unknown, answer: { receipt: string }) => void) => void;
      const ports = (client as unknown as { Notes: Record<string, Record<string, Method>> }).Notes;
      const call = (operation: string, text: string) =>
        new Promise<string>((resolve, reject) =>
          ports[port][operation]({ text }, (error, answer) => (error ? reject(error) : resolve(answer.receipt))),
        );
      client.setSecurity(new soap.WSSecurity('alice', USERS.alice, { passwordType: 'PasswordText', hasNonce: true, hasTimeStamp: true }));
      assertNoted(t, version, await call('NoteText', 'salt'), 'salt', 'alice', version);
      client.setSecurity(new soap.WSSecurity('bob', USERS.bob, { passwordType: 'PasswordDigest', hasNonce: true, hasTimeStamp: true }));
      assertNoted(t, version, await call('NoteDigest', 'flour'), 'flour', 'bob', version);
      // wsu:Id on the Body (signerOptions.idMode 'wssecurity'), as WS-Security has it; node-soap's default is an unqualified Id.
      client.setSecurity(
        new soap.WSSecurityCert(caller.key, caller.cert, '', {
          signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
          digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
          signerOptions: { idMode: 'wssecurity' },
        } as never),
      );
      assertNoted(t, version, await call('NoteSigned', 'oil'), 'oil', 'notes client', version);
      // node-soap's default marks the Body with an unqualified Id="_0" (WSS4J takes it too): the Body is the part signed all the same.
      client.setSecurity(
        new soap.WSSecurityCert(caller.key, caller.cert, '', {
          signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
          digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
        } as never),
      );
      assertNoted(t, version, await call('NoteSigned', 'vinegar'), 'vinegar', 'notes client', version);
      // The answer the service signs (signAnswer): node-soap reads it as any other (node-soap verifies no answer's
      // signature: it has no such code), the Security header it does not understand not refused; its caller verifies
      // the answer node-soap hands its 'response' event with xml-crypto (node-soap's own signing library).
      const signing = await soap.createClientAsync(`${signingServer.endpoint}?wsdl`, options);
      const bodies: string[] = [];
      signing.on('response', (body: string) => bodies.push(body));
      signing.setSecurity(
        new soap.WSSecurityCert(caller.key, caller.cert, '', {
          signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
          digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
          signerOptions: { idMode: 'wssecurity' },
        } as never),
      );
      const signingPorts = (signing as unknown as { Notes: Record<string, Record<string, Method>> }).Notes;
      const receipt = await new Promise<string>((resolve, reject) =>
        signingPorts[port].NoteSigned({ text: 'honey' }, (error, answer) => (error ? reject(error) : resolve(answer.receipt))),
      );
      assertNoted(t, version, receipt, 'honey', 'notes client', version);
      t.is(bodies.length, 1);
      const serviceCert = readFileSync(join(pki, 'service.crt'), 'utf8');
      t.true(answerVerifies(bodies[0], serviceCert), 'the answer verifies with the service certificate');
      t.false(answerVerifies(bodies[0].replace(' noted for ', ' noted by '), serviceCert), 'the answer changed after signing');
      t.false(answerVerifies(bodies[0], stranger.cert), 'the answer checked against another certificate');
    }
  },
);

// @xmldom/xmldom's declarations bring in the DOM library; the parser is required with the one signature used here.
const { DOMParser } = require('@xmldom/xmldom') as { DOMParser: new () => { parseFromString(text: string, type: string): object } };

/** A signed answer's one signature checked by xml-crypto with `certificate` (never a key the answer names). */
function answerVerifies(xml: string, certificate: string): boolean {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const verifier = new SignedXml({ publicCert: certificate, getCertFromKeyInfo: () => null });
  const signatures = verifier.findSignatures(doc as never);
  if (signatures.length !== 1) return false;
  verifier.loadSignature(signatures[0]);
  try {
    return verifier.checkSignature(xml);
  } catch {
    return false;
  }
}

test.serial('suds: UsernameToken text (its own hex nonce) and digest (computed as suds users do); suds speaks SOAP 1.1 only', async (t) => {
  t.timeout(MINUTES, 'a client run');
  const endpoint = notesServer.endpoint;
  const { results } = await runJsonClient<{ results: (ZeepResult & { ok?: string })[] }>(
    PYTHON,
    [join(CLIENTS_DIR, 'suds_ws_client.py')],
    {
      wsdl: `${endpoint}?wsdl`,
      calls: [
        {
          name: 'text',
          port: 'NotesSoap',
          address: endpoint,
          op: 'NoteText',
          args: { text: 'rice' },
          token: { kind: 'text', username: 'alice', password: USERS.alice },
        },
        {
          name: 'digest',
          port: 'NotesSoap',
          address: endpoint,
          op: 'NoteDigest',
          args: { text: 'corn' },
          token: { kind: 'digest', username: 'bob', password: USERS.bob },
        },
        {
          name: 'port12',
          port: 'NotesSoap12',
          address: endpoint,
          op: 'NoteText',
          args: { text: 'oats' },
          token: { kind: 'text', username: 'alice', password: USERS.alice },
        },
      ],
    },
    MINUTES,
  );
  const [text, digest, port12] = results;
  assertNoted(t, '1.1', text.ok, 'rice', 'alice', text);
  // suds's quirks, taken: an unqualified mustUnderstand, a hex nonce with no EncodingType.
  t.regex(text.sent ?? '', /<wsse:Security mustUnderstand="true">/);
  t.regex(text.sent ?? '', /<wsse:Nonce>[0-9a-f]{32}<\/wsse:Nonce>/);
  assertNoted(t, '1.1', digest.ok, 'corn', 'bob', digest);
  // The SOAP 1.2 port chosen, suds still sends a SOAP 1.1 envelope (text/xml): answered as SOAP 1.1.
  assertNoted(t, '1.1', port12.ok, 'oats', 'alice', port12);
});

for (const version of VERSIONS) {
  test.serial(
    `gSOAP, SOAP ${version}: the wsse plugin's UsernameToken text and digest, and its signature of the body and Timestamp`,
    async (t) => {
      t.timeout(MINUTES, 'a client run');
      const options = version === '1.2' ? ['--soap12'] : [];
      const endpoint = notesServer.endpoint;
      const text = await gsoap('note-text', endpoint, ...options, '--user', 'alice', '--password', USERS.alice);
      assertNoted(t, version, text.ok, 'milk', 'alice', text);
      const digest = await gsoap('note-digest', endpoint, ...options, '--user', 'bob', '--password', USERS.bob);
      assertNoted(t, version, digest.ok, 'milk', 'bob', digest);
      const signed = await gsoap('note-signed', endpoint, ...options, '--key', join(pki, 'client.key'), '--cert', join(pki, 'client.crt'));
      assertNoted(t, version, signed.ok, 'milk', 'notes client', signed);
    },
  );
}

for (const version of VERSIONS) {
  test.serial(
    `gSOAP, SOAP ${version}: soap_wsse_verify_auto verifies the answer the service signed (its certificate the cafile); changed, unsigned or with another cafile, it is refused`,
    async (t) => {
      t.timeout(MINUTES, 'a client run');
      const options = [
        ...(version === '1.2' ? ['--soap12'] : []),
        ...['--key', join(pki, 'client.key'), '--cert', join(pki, 'client.crt'), '--verify', join(pki, 'service.crt')],
      ];
      const signed = await gsoap('note-signed', signingServer.endpoint, ...options);
      assertNoted(t, version, signed.ok, 'milk', 'notes client', signed);
      const tamperedAt = `http://127.0.0.1:${(tamperer.address() as AddressInfo).port}${new URL(signingServer.endpoint).pathname}`;
      // gSOAP's own fault for an answer it refuses: wsse:FailedCheck (SOAP 1.2: its Sender code, the subcode not read).
      const refused = {
        error: 12,
        code: version === '1.1' ? 'wsse:FailedCheck' : 'SOAP-ENV:Sender',
        string: 'The signature or decryption was invalid',
        orderId: null,
      };
      const tampered = await gsoap('note-signed', tamperedAt, ...options);
      t.deepEqual(tampered, { fault: refused }, 'the answer changed after signing');
      // The service that does not sign its answers: gSOAP, told to verify, refuses the answer.
      const unsigned = await gsoap('note-signed', notesServer.endpoint, ...options);
      t.deepEqual(unsigned, { fault: refused }, 'an unsigned answer');
      // Another certificate as the cafile (the CA's, which did not issue the service's): the signer is not trusted.
      const untrusted = await gsoap('note-signed', signingServer.endpoint, ...options.slice(0, -1), join(pki, 'ca.crt'));
      t.deepEqual(untrusted, {
        fault: {
          ...refused,
          code: version === '1.1' ? 'wsse:SecurityTokenUnavailable' : 'SOAP-ENV:Sender',
          string: 'Referenced security token could not be retrieved',
        },
      });
    },
  );
}

// --- Bad requests, raw ------------------------------------------------------------------------------------------------

const soapNs = (version: SoapVersionName) => SOAP_ENVELOPE_NAMESPACES[version];

function post(endpoint: string, version: SoapVersionName, action: string, envelope: string): Promise<Answer> {
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'Content-Type': SOAP_CONTENT_TYPES['1.1'], SOAPAction: `"${action}"` }
      : { 'Content-Type': `${SOAP_CONTENT_TYPES['1.2']}; action="${action}"` };
  return send(endpoint, { method: 'POST', headers, body: envelope, signal: AbortSignal.timeout(MINUTES) });
}

const iso = (ms: number) => new Date(ms).toISOString();

interface TokenOptions {
  username?: string;
  password?: string;
  digest?: boolean;
  nonce?: Buffer;
  created?: number;
  timestamp?: { created: number; expires: number };
}

/** A Notes envelope of `operation` with a Security header holding a UsernameToken and/or a Timestamp. */
function tokenEnvelope(version: SoapVersionName, operation: string, options: TokenOptions): string {
  const { username = 'alice', password = USERS.alice, nonce = randomBytes(16), created = Date.now() } = options;
  const createdText = iso(created);
  const value = options.digest ? createHash('sha1').update(nonce).update(createdText).update(password).digest('base64') : password;
  const type = options.digest ? 'PasswordDigest' : 'PasswordText';
  const timestamp = options.timestamp
    ? `<wsu:Timestamp><wsu:Created>${iso(options.timestamp.created)}</wsu:Created><wsu:Expires>${iso(options.timestamp.expires)}</wsu:Expires></wsu:Timestamp>`
    : '';
  return (
    `<soap:Envelope xmlns:soap="${soapNs(version)}"><soap:Header><wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1">` +
    `${timestamp}<wsse:UsernameToken><wsse:Username>${username}</wsse:Username>` +
    `<wsse:Password Type="${TOKEN_PROFILE}#${type}">${value}</wsse:Password>` +
    `<wsse:Nonce EncodingType="${BASE64}">${nonce.toString('base64')}</wsse:Nonce><wsu:Created>${createdText}</wsu:Created>` +
    `</wsse:UsernameToken></wsse:Security></soap:Header>` +
    `<soap:Body><${operation} xmlns="${NOTES}"><text>raw</text></${operation}></soap:Body></soap:Envelope>`
  );
}

/** A NoteSigned envelope with `signer`'s BinarySecurityToken, signed over `target` (the Body, by its wsu:Id). */
function signedEnvelope(version: SoapVersionName, signer: { key: string; base64: string }, target = "//*[local-name(.)='Body']"): string {
  const unsigned =
    `<soap:Envelope xmlns:soap="${soapNs(version)}"><soap:Header><wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1">` +
    `<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>${iso(Date.now())}</wsu:Created><wsu:Expires>${iso(Date.now() + 300_000)}</wsu:Expires></wsu:Timestamp>` +
    `<wsse:BinarySecurityToken wsu:Id="X509-1" ValueType="${X509V3}" EncodingType="${BASE64}">${signer.base64}</wsse:BinarySecurityToken>` +
    `</wsse:Security></soap:Header><soap:Body xmlns:wsu="${WSU}" wsu:Id="Body-1"><NoteSigned xmlns="${NOTES}"><text>pay 10</text></NoteSigned></soap:Body></soap:Envelope>`;
  const signature = new SignedXml({
    privateKey: signer.key,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: EXC_C14N,
    idMode: 'wssecurity',
    getKeyInfoContent: () =>
      `<wsse:SecurityTokenReference><wsse:Reference URI="#X509-1" ValueType="${X509V3}"/></wsse:SecurityTokenReference>`,
  });
  signature.addReference({ xpath: target, transforms: [EXC_C14N], digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256' });
  signature.computeSignature(unsigned, { location: { reference: "//*[local-name(.)='Security']", action: 'append' } });
  return signature.getSignedXml();
}

/** An Orders envelope with WS-Addressing 1.0 headers, Action `action`. */
function addressedEnvelope(version: SoapVersionName, action: string): string {
  return (
    `<soap:Envelope xmlns:soap="${soapNs(version)}" xmlns:wsa="${WSA}"><soap:Header>` +
    `<wsa:Action soap:mustUnderstand="1">${action}</wsa:Action><wsa:MessageID>urn:uuid:${randomUUID()}</wsa:MessageID>` +
    `<wsa:To>${ordersServer.endpoint}</wsa:To></soap:Header>` +
    `<soap:Body><o:placeOrder xmlns:o="${ORDERS}"><item>raw</item><quantity>1</quantity></o:placeOrder></soap:Body></soap:Envelope>`
  );
}

interface BadCase {
  name: string;
  /** SOAP 1.1 only: the Orders binding that requires addressing is SOAP 1.1's. */
  versions?: readonly SoapVersionName[];
  server: () => ServedFixture;
  /** The request(s): the last one's answer is judged. */
  send: (version: SoapVersionName) => Promise<Answer>;
  /** The fault's code: `{namespace}local`, SOAP 1.1's faultcode or SOAP 1.2's subcode. */
  code: string;
  cause: RegExp;
}

const notesPost = (version: SoapVersionName, operation: string, envelope: string) =>
  post(notesServer.endpoint, version, `${NOTES}/${operation}`, envelope);

const BAD: readonly BadCase[] = [
  {
    name: 'a body changed under its signature',
    server: () => notesServer,
    send: (v) => notesPost(v, 'NoteSigned', signedEnvelope(v, caller).replace('pay 10', 'pay 1000')),
    code: `{${WSSE}}FailedCheck`,
    cause: /the signature does not verify/,
  },
  {
    name: 'a signature over the Timestamp, not the body',
    server: () => notesServer,
    send: (v) => notesPost(v, 'NoteSigned', signedEnvelope(v, caller, "//*[local-name(.)='Timestamp']")),
    code: `{${WSSE}}FailedCheck`,
    cause: /a part the policy names is not signed/,
  },
  {
    name: 'a certificate nobody trusts (self-signed, the same name)',
    server: () => notesServer,
    send: (v) => notesPost(v, 'NoteSigned', signedEnvelope(v, stranger)),
    code: `{${WSSE}}FailedAuthentication`,
    cause: /an untrusted or expired certificate/,
  },
  {
    name: 'a nonce replayed',
    server: () => notesServer,
    send: async (v) => {
      const envelope = tokenEnvelope(v, 'NoteDigest', { digest: true, username: 'bob', password: USERS.bob });
      const first = await notesPost(v, 'NoteDigest', envelope);
      if (first.status !== 200) throw new Error(`the first call was refused: ${first.body}`);
      return notesPost(v, 'NoteDigest', envelope);
    },
    code: `{${WSSE}}FailedAuthentication`,
    cause: /a nonce seen before/,
  },
  {
    name: 'an expired Timestamp',
    server: () => notesServer,
    send: (v) =>
      notesPost(
        v,
        'NoteText',
        tokenEnvelope(v, 'NoteText', { timestamp: { created: Date.now() - 3_600_000, expires: Date.now() - 3_000_000 } }),
      ),
    code: `{${WSSE}}MessageExpired`,
    cause: /an expired Timestamp/,
  },
  {
    name: 'a wrong password (text)',
    server: () => notesServer,
    send: (v) => notesPost(v, 'NoteText', tokenEnvelope(v, 'NoteText', { password: 'not wonderland' })),
    code: `{${WSSE}}FailedAuthentication`,
    cause: /the authenticate hook refused the token/,
  },
  {
    name: 'a wrong password (digest)',
    server: () => notesServer,
    send: (v) => notesPost(v, 'NoteDigest', tokenEnvelope(v, 'NoteDigest', { digest: true, username: 'bob', password: USERS.alice })),
    code: `{${WSSE}}FailedAuthentication`,
    cause: /the authenticate hook refused the token/,
  },
  {
    name: 'no Security header where the policy asks for a UsernameToken',
    server: () => notesServer,
    send: (v) =>
      notesPost(
        v,
        'NoteText',
        `<soap:Envelope xmlns:soap="${soapNs(v)}"><soap:Body><NoteText xmlns="${NOTES}"><text>raw</text></NoteText></soap:Body></soap:Envelope>`,
      ),
    code: `{${WSSE}}FailedAuthentication`,
    cause: /no Security header/,
  },
  {
    name: 'no Security header where the policy asks for a signature',
    server: () => notesServer,
    send: (v) =>
      notesPost(
        v,
        'NoteSigned',
        `<soap:Envelope xmlns:soap="${soapNs(v)}"><soap:Body><NoteSigned xmlns="${NOTES}"><text>raw</text></NoteSigned></soap:Body></soap:Envelope>`,
      ),
    code: `{${WSSE}}InvalidSecurity`,
    cause: /no Security header/,
  },
  {
    name: 'no addressing header where the policy requires them',
    versions: ['1.1'],
    server: () => ordersServer,
    send: (v) =>
      post(
        ordersServer.endpoint,
        v,
        '',
        `<soap:Envelope xmlns:soap="${soapNs(v)}"><soap:Body><o:placeOrder xmlns:o="${ORDERS}"><item>raw</item><quantity>1</quantity></o:placeOrder></soap:Body></soap:Envelope>`,
      ),
    code: `{${WSA}}MessageAddressingHeaderRequired`,
    cause: /./,
  },
  {
    name: 'a wrong wsa:Action',
    server: () => ordersServer,
    send: (v) => post(ordersServer.endpoint, v, '', addressedEnvelope(v, `${ORDERS}/OrderPort/cancelRequest`)),
    code: `{${WSA}}ActionNotSupported`,
    cause: /./,
  },
];

/** A fault answer's code: SOAP 1.1's faultcode, SOAP 1.2's first Subcode (its Code Sender). */
function codeOf(answer: Answer, version: SoapVersionName): string {
  const fault = readFault(answer.body, version);
  if (version === '1.1') return `{${fault.codeNamespace}}${fault.codeLocalName}`;
  if (fault.codeLocalName !== 'Sender') return `{${fault.codeNamespace}}${fault.codeLocalName}`;
  const subcode = /<soap:Subcode>\s*<soap:Value(?:\s[^>]*)?>([^<]+)<\/soap:Value>/.exec(answer.body)?.[1] ?? '';
  const [prefix, local] = subcode.includes(':') ? subcode.split(':') : ['', subcode];
  const namespace = new RegExp(`xmlns:${prefix}="([^"]+)"`).exec(answer.body)?.[1] ?? '';
  return `{${namespace}}${local}`;
}

test.serial('bad requests, raw, in both SOAP versions: each its fault and one log line, and the service answers after', async (t) => {
  t.timeout(MINUTES, 'a client run');
  for (const bad of BAD) {
    for (const version of bad.versions ?? VERSIONS) {
      const what = `${bad.name} (SOAP ${version})`;
      const server = bad.server();
      const before = server.lines().length;
      const answer = await bad.send(version);
      t.is(answer.status, 500, `${what}: ${answer.body}`);
      t.is(codeOf(answer, version), bad.code, what);
      const refused = server
        .lines()
        .slice(before)
        .filter((line) => line.event === 'refused');
      t.is(refused.length, 1, `${what}: one refused line`);
      t.regex(String(refused[0]?.cause), bad.cause, what);
      // The service still answers a good call.
      const good =
        server === notesServer
          ? await notesPost(version, 'NoteText', tokenEnvelope(version, 'NoteText', {}))
          : await post(server.endpoint, version, '', addressedEnvelope(version, `${ORDERS}/OrderPort/placeOrderRequest`));
      t.is(good.status, 200, `after ${what}: ${good.body}`);
    }
  }
});
