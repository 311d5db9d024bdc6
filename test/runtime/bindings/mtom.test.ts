/**
 * MTOM/XOP on the mtom fixture contract (test/fixtures/contracts/mtom/: Store takes a base64Binary, Fetch answers
 * one; wsoma:OptimizedMimeSerialization on both SOAP bindings). Calls shaped exactly as JAX-WS RI 2.3, gSOAP 2.8 and
 * node-soap 1.13 send them (their Content-Type, part headers and line ends, copied from captured requests), in both
 * SOAP versions: the handler reads the attachment byte for byte. Answers are MTOM where the call was or the policy
 * asks, read back by the generated typed client; every bad package is a client fault of the call's SOAP version, and
 * the service goes on answering. A plain call of the contract without the policy is answered as before, byte for byte.
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import { byContentType } from '../../../src/runtime/bindings/content-type';
import type { CallContext } from '../../../src/runtime/call-state';
import type { ContractDefinition } from '../../../src/runtime/definition';
import { type MtomSettings, attachmentMarker, mtomMessage, mtomPackageOf } from '../../../src/runtime/wire/mtom';
import { SOAP12 } from '../../../src/runtime/wire/soap-envelope';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../../support/fixture-contract';
import { elementAt, loadReaders, textOf } from '../../support/readers';
import { CLIENT_CODE, readFault } from '../../support/requests';
import { soapEnvelopeValidator } from '../../support/soap-schemas';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';
import { readXml } from '../../support/readers';

const NS = 'http://documents.example.org/';
const XOP = 'http://www.w3.org/2004/08/xop/include';
const STORE_ACTION = `${NS}Store`;
const SOAP11_NS = SOAP_ENVELOPE_NAMESPACES['1.1'];
const SOAP12_NS = SOAP_ENVELOPE_NAMESPACES['1.2'];

let fixture: FixtureContract;
let served: ServedFixture;
let limited: ServedFixture;
let plain: ServedFixture;
let unasked: ServedFixture;
/** What the Store handler was handed, last. */
let stored: { name: string; content: Uint8Array } | undefined;
const handlers = {
  Store: async (request: object) => {
    const { name, content } = request as { name: string; content: Uint8Array };
    stored = { name, content };
    return content.length;
  },
  // The name is how many bytes to answer: the same bytes for the same name.
  Fetch: async (request: object) => fetched(Number((request as { name: string }).name)),
};
/** What the Store handler was handed last (a call, not a narrowed variable: the handler sets it meanwhile). */
const lastStored = () => stored;
const fetched = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + (i >> 8)) & 0xff);

test.before(async () => {
  await loadReaders();
  fixture = await generateFixture('mtom');
  served = await serveFixture(fixture.definition, handlers, { maxBodyBytes: 4 * 1024 * 1024 });
  const small: MtomSettings = { maxPartBytes: 4096, maxParts: 3 };
  limited = await serveFixture(fixture.definition, handlers, { maxBodyBytes: 4 * 1024 * 1024 }, { mtom: small });
  plain = await serveFixture(withoutPolicies(fixture.definition), handlers);
  unasked = await serveFixture(withoutPolicies(fixture.definition), handlers, {}, { mtom: { acceptUnasked: true } });
});
test.after.always(async () => {
  await served?.close();
  await limited?.close();
  await plain?.close();
  await unasked?.close();
  fixture?.remove();
});

function withoutPolicies(definition: ContractDefinition<AnyOperations>): ContractDefinition<AnyOperations> {
  const routes = Object.fromEntries(Object.entries(definition.routes).map(([name, route]) => [name, { ...route, policies: undefined }]));
  return { ...definition, routes: routes as typeof definition.routes };
}

/** Binary content that a naive split would trip on: CR LF, dashes, a boundary's start, NUL, every byte value. */
function attachmentBytes(size = 3000): Buffer {
  const bytes = randomBytes(size);
  Buffer.from('\r\n--uuid:\r\n--==\r\n--').copy(bytes, 17);
  for (let i = 0; i < 256 && 100 + i < size; i++) bytes[100 + i] = i;
  return bytes;
}

interface Shaped {
  contentType: string;
  body: Buffer;
  headers?: Record<string, string>;
}

/** The Store envelope, its content an xop:Include of `cid`. */
const storeEnvelope11 = (cid: string, prefix = 'S') =>
  `<?xml version='1.0' encoding='UTF-8'?><${prefix}:Envelope xmlns:${prefix}="${SOAP11_NS}"><${prefix}:Body><Store xmlns="${NS}"><name>report.bin</name><content><xop:Include xmlns:xop="${XOP}" href="cid:${cid}"/></content></Store></${prefix}:Body></${prefix}:Envelope>`;
const storeEnvelope = (version: SoapVersionName, cid: string) =>
  version === '1.1' ? storeEnvelope11(cid) : storeEnvelope11(cid).replace(SOAP11_NS, SOAP12_NS);

/** JAX-WS RI 2.3 (wire: Content-Id spelling, rootpart* start, boundary uuid:, start-info the SOAP type; 1.2: the action in start-info). */
function jaxws(version: SoapVersionName, bytes: Buffer, envelope?: string): Shaped {
  const uuid = '6e432097-674a-4ce3-bc97-a74422807717';
  const cid = '0850083c-e041-4c55-a729-f5a94732ba18@example.jaxws.sun.com';
  const soapType = version === '1.1' ? 'text/xml' : `application/soap+xml;action=\\"${STORE_ACTION}\\"`;
  const head =
    `--uuid:${uuid}\r\nContent-Id: <rootpart*${uuid}@example.jaxws.sun.com>\r\nContent-Type: application/xop+xml;charset=utf-8;type="${soapType}"\r\n` +
    `Content-Transfer-Encoding: binary\r\n\r\n${envelope ?? storeEnvelope(version, cid)}\r\n` +
    `--uuid:${uuid}\r\nContent-Id: <${cid}>\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\n\r\n`;
  return {
    contentType: `multipart/related;start="<rootpart*${uuid}@example.jaxws.sun.com>";type="application/xop+xml";boundary="uuid:${uuid}";start-info="${soapType}"`,
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--uuid:${uuid}--\n`)]),
    headers: version === '1.1' ? { SOAPAction: `"${STORE_ACTION}"` } : {},
  };
}

/** gSOAP 2.8 (wire: boundary "==...==", start "<SOAP-ENV:Envelope>" literally, Content-ID: <id2>, a pretty-printed envelope). */
function gsoap(version: SoapVersionName, bytes: Buffer): Shaped {
  const boundary = '==7LzceEh7x8U8xVSzMHRJ34A49cC8NNRozOOCXwPLaelajhkj4ChdEMg8VMxY==';
  const ns = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  const soapType = version === '1.1' ? 'text/xml' : 'application/soap+xml';
  const envelope =
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:ns1="${NS}">\n` +
    `\t<SOAP-ENV:Body>\n\t\t<ns1:Store>\n\t\t\t<ns1:name>report.bin</ns1:name>\n\t\t\t<ns1:content>\n\t\t\t\t<xop:Include xmlns:xop="${XOP}" href="cid:id2"/>\n\t\t\t</ns1:content>\n\t\t</ns1:Store>\n\t</SOAP-ENV:Body>\n</SOAP-ENV:Envelope>`;
  const head =
    `--${boundary}\r\nContent-Type: application/xop+xml; charset=utf-8; type="${soapType}"\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <SOAP-ENV:Envelope>\r\n\r\n${envelope}\r\n\r\n` +
    `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <id2>\r\n\r\n`;
  const action = version === '1.1' ? '' : `; action="${STORE_ACTION}"`;
  return {
    contentType: `multipart/related; charset=utf-8; boundary="${boundary}"; type="application/xop+xml"; start="<SOAP-ENV:Envelope>"; start-info="${soapType}"${action}`,
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\n`)]),
    headers: { SOAPAction: `"${STORE_ACTION}"` },
  };
}

/** node-soap 1.13 (wire: unquoted boundary, start-info="text/xml" even for SOAP 1.2, whose action is on the multipart type). */
function nodeSoap(version: SoapVersionName, bytes: Buffer): Shaped {
  const boundary = 'd5209089-cce9-4302-9659-f4e97b7f45be';
  const start = 'bc23ba5b-bfbb-400a-a992-a604b62029eb';
  const ns = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"  xmlns:tns="${NS}"><soap:Body><Store xmlns="${NS}"><name>report.bin</name><content><xop:Include xmlns:xop="${XOP}" href="cid:data1@example"/></content></Store></soap:Body></soap:Envelope>`;
  const head =
    `--${boundary}\r\nContent-Type: application/xop+xml; charset=UTF-8; type="text/xml"\r\nContent-ID: <${start}>\r\n\r\n${envelope}\r\n` +
    `--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <data1@example>\r\nContent-Disposition: attachment; filename="data.bin"\r\n\r\n`;
  const action = version === '1.1' ? '' : `; action="${STORE_ACTION}"`;
  return {
    contentType: `multipart/related; type="application/xop+xml"; start="<${start}>"; start-info="text/xml"; boundary=${boundary}${action}`,
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--`)]),
    headers: version === '1.1' ? { SOAPAction: `"${STORE_ACTION}"` } : {},
  };
}

interface RawAnswer {
  status: number;
  contentType: string;
  bytes: Buffer;
}

async function post(target: ServedFixture, shaped: Shaped): Promise<RawAnswer> {
  const response = await fetch(target.endpoint, {
    method: 'POST',
    headers: { 'Content-Type': shaped.contentType, ...shaped.headers },
    body: shaped.body,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** The parameters of a Content-Type, as the test reads them (quoted or not). */
function parameters(contentType: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of contentType.matchAll(/;\s*([a-z-]+)=("((?:[^"\\]|\\.)*)"|[^;]*)/gi)) {
    found[match[1]!.toLowerCase()] = match[3] === undefined ? match[2]!.trim() : match[3].replace(/\\(.)/g, '$1');
  }
  return found;
}

interface ReadAnswer {
  root: string;
  rootHeaders: string;
  attachments: Map<string, Buffer>;
}

/** An MTOM answer split at its boundary, as the test reads it: the root part (named by start) and the attachments by Content-Id. */
function splitMtom(t: ExecutionContext, answer: RawAnswer, version: SoapVersionName, action?: string): ReadAnswer {
  t.regex(
    answer.contentType,
    /^multipart\/related;start="<[^>]+>";type="application\/xop\+xml";boundary="uuid:[0-9a-f-]{36}";start-info="(?:[^"\\]|\\.)+"$/,
  );
  const p = parameters(answer.contentType);
  // A request's SOAP 1.2 action is in start-info (JAX-WS's form); an answer has none.
  const soapType = version === '1.1' ? 'text/xml' : `application/soap+xml${action === undefined ? '' : `;action="${action}"`}`;
  t.is(p['start-info'], soapType);
  const delimiter = Buffer.from(`\r\n--${p.boundary}`);
  const body = Buffer.concat([Buffer.from('\r\n'), answer.bytes]);
  const chunks: Buffer[] = [];
  let at = body.indexOf(delimiter);
  t.is(at, 0, 'the body begins with the boundary');
  while (at >= 0) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) {
      t.is(body.subarray(at + delimiter.length).toString(), '--\r\n', 'the closing boundary ends the body');
      break;
    }
    chunks.push(body.subarray(at + delimiter.length + 2, next));
    at = next;
  }
  const attachments = new Map<string, Buffer>();
  let root: { text: string; headers: string } | undefined;
  for (const chunk of chunks) {
    const end = chunk.indexOf('\r\n\r\n');
    const headers = chunk.subarray(0, end).toString();
    const id = /^Content-Id: <([^>]+)>$/m.exec(headers)?.[1];
    const content = chunk.subarray(end + 4);
    if (`<${id}>` === p.start) root = { text: content.toString('utf8'), headers };
    else if (id) {
      t.regex(headers, /^Content-Type: application\/octet-stream$/m);
      t.regex(headers, /^Content-Transfer-Encoding: binary$/m);
      attachments.set(id, content);
    }
  }
  if (!root) throw new Error('no root part');
  t.true(root.headers.includes(`Content-Type: application/xop+xml;charset=utf-8;type="${soapType.replaceAll('"', '\\"')}"`), root.headers);
  return { root: root.text, rootHeaders: root.headers, attachments };
}

/** The root part holds a SOAP envelope, valid against the envelope schema; `use` reads its body element. */
function envelopeOf<T>(
  t: ExecutionContext,
  root: string,
  version: SoapVersionName,
  use: (content: import('../../support/readers').XmlElement) => T,
): T {
  readXml(root, (doc) => t.notThrows(() => soapEnvelopeValidator(version).validate(doc.root), 'valid against the SOAP envelope schema'));
  return assertSoapEnvelope(t, root, version, use);
}

const CLIENTS = { 'JAX-WS': jaxws, gSOAP: gsoap, 'node-soap': nodeSoap } as const;
for (const [client, shape] of Object.entries(CLIENTS)) {
  for (const version of ['1.1', '1.2'] as const) {
    test.serial(`${client}, SOAP ${version}: the attachment reaches the handler byte for byte, and the answer is MTOM`, async (t) => {
      stored = undefined;
      const bytes = attachmentBytes();
      const answer = await post(served, shape(version, bytes));
      t.is(answer.status, 200, answer.bytes.toString().slice(0, 500));
      const read = lastStored();
      t.is(read?.name, 'report.bin');
      t.true(read !== undefined && Buffer.from(read.content).equals(bytes), 'the handler reads the bytes sent');
      const mtom = splitMtom(t, answer, version);
      t.is(mtom.attachments.size, 0, 'an int answer has no attachment');
      envelopeOf(t, mtom.root, version, (content) => {
        t.is(content.name, 'StoreResponse');
        t.is(textOf(elementAt(content, 'd:size', { d: NS })!), String(bytes.length));
      });
    });
  }
}

test.serial(
  'a preamble before the first boundary (a CRLF, as Axis2 writes) is passed over; a root part with no start is the first',
  async (t) => {
    stored = undefined;
    const bytes = attachmentBytes(64);
    const shaped = jaxws('1.1', bytes);
    t.is((await post(served, { ...shaped, body: Buffer.concat([Buffer.from('\r\n'), shaped.body]) })).status, 200);
    t.true(Buffer.from(lastStored()!.content).equals(bytes));
    stored = undefined;
    const noStart = await post(served, { ...shaped, contentType: shaped.contentType.replace(/start="[^"]+";/, '') });
    t.is(noStart.status, 200);
    t.true(Buffer.from(lastStored()!.content).equals(bytes));
  },
);

/** A generated client of the fixture, for `target`. */
function clientFor(target: ServedFixture, variant: 'soap11' | 'soap12', fetchImpl?: typeof fetch) {
  // biome-ignore lint/suspicious/noExplicitAny: a generated folder loaded at run time has no static types
  const { DocumentsClient } = require(`${fixture.folder}/client.js`) as Record<string, any>;
  return new DocumentsClient({ baseUrl: target.url, variant, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}

for (const version of ['1.1', '1.2'] as const) {
  const variant = version === '1.1' ? 'soap11' : 'soap12';
  test.serial(
    `SOAP ${version}: the typed client sends MTOM where the policy asks, as JAX-WS does; the handler reads the bytes`,
    async (t) => {
      const sent: { contentType: string; soapAction: string | null; body: Buffer }[] = [];
      const recording: typeof fetch = async (input, init) => {
        const headers = new Headers(init?.headers);
        sent.push({
          contentType: headers.get('content-type') ?? '',
          soapAction: headers.get('soapaction'),
          body: Buffer.from(init?.body as Uint8Array),
        });
        return fetch(input, init);
      };
      const client = clientFor(served, variant, recording);
      for (const size of [5000, 10]) {
        stored = undefined;
        const bytes = attachmentBytes(size);
        t.is(await client.store({ name: 'report.bin', content: new Uint8Array(bytes) }), size);
        t.true(Buffer.from(lastStored()!.content).equals(bytes), `${size} bytes read by the handler`);
        const request = sent.at(-1)!;
        const mtom = splitMtom(t, { status: 200, contentType: request.contentType, bytes: request.body }, version, STORE_ACTION);
        t.is(mtom.attachments.size, size >= 1024 ? 1 : 0, 'an attachment from 1024 bytes on');
        t.is(request.soapAction, version === '1.1' ? `"${STORE_ACTION}"` : null);
        envelopeOf(t, mtom.root, version, (element) => t.is(element.name, 'Store'));
      }
    },
  );
}

for (const version of ['1.1', '1.2'] as const) {
  const variant = version === '1.1' ? 'soap11' : 'soap12';
  test.serial(
    `SOAP ${version}: the policy asks for MTOM: a large base64Binary answer is an attachment, read back by the typed client`,
    async (t) => {
      const client = clientFor(served, variant);
      const content: Uint8Array = await client.fetch_({ name: '5000' });
      t.true(Buffer.from(content).equals(Buffer.from(fetched(5000))), 'the typed client reads the attachment');
      // The same call on the wire: one attachment, its Include alone in the content element.
      const envelope = `<soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NAMESPACES[version]}"><soap:Body><Fetch xmlns="${NS}"><name>5000</name></Fetch></soap:Body></soap:Envelope>`;
      const answer = await post(served, {
        contentType: version === '1.1' ? SOAP_CONTENT_TYPES['1.1'] : `${SOAP_CONTENT_TYPES['1.2']}; action="${NS}Fetch"`,
        body: Buffer.from(envelope),
        headers: version === '1.1' ? { SOAPAction: `"${NS}Fetch"` } : {},
      });
      t.is(answer.status, 200);
      const mtom = splitMtom(t, answer, version);
      t.is(mtom.attachments.size, 1);
      const [[id, attached]] = [...mtom.attachments];
      t.true(attached!.equals(Buffer.from(fetched(5000))));
      envelopeOf(t, mtom.root, version, (element) => {
        t.is(element.name, 'FetchResponse');
        const include = elementAt(element, 'd:content/xop:Include', { d: NS, xop: XOP });
        t.is(include?.attr('href')?.value, `cid:${encodeURIComponent(id!)}`);
        t.is(elementAt(element, 'd:content', { d: NS })!.find('node()').length, 1, 'the Include alone in its element');
      });
    },
  );

  test.serial(`SOAP ${version}: a base64Binary under the threshold stays inline in the MTOM answer`, async (t) => {
    const client = clientFor(served, variant);
    t.deepEqual(Buffer.from(await client.fetch_({ name: '100' })), Buffer.from(fetched(100)));
    t.deepEqual(Buffer.from(await client.fetch_({ name: '0' })), Buffer.alloc(0));
  });
}

test.serial('a plain call of the contract without the MTOM policy is answered as before, byte for byte', async (t) => {
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><Fetch xmlns="${NS}"><name>3</name></Fetch></soap:Body></soap:Envelope>`;
  const answer = await post(plain, {
    contentType: SOAP_CONTENT_TYPES['1.1'],
    body: Buffer.from(envelope),
    headers: { SOAPAction: `"${NS}Fetch"` },
  });
  t.is(answer.status, 200);
  t.is(answer.contentType, 'text/xml; charset=utf-8');
  t.is(
    answer.bytes.toString(),
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><FetchResponse xmlns="${NS}"><content>AAcO</content></FetchResponse></soap:Body></soap:Envelope>`,
  );
});

test.serial(
  'an MTOM call of a contract whose policy asks for none is 415, as before; with mtom.acceptUnasked it is read and answered as MTOM',
  async (t) => {
    stored = undefined;
    const refused = await post(plain, gsoap('1.2', attachmentBytes()));
    t.is(refused.status, 415);
    t.is(stored, undefined, 'no handler ran');
    const answer = await post(unasked, gsoap('1.2', attachmentBytes()));
    t.is(answer.status, 200);
    splitMtom(t, answer, '1.2');
  },
);

/** A fault answer: plain SOAP of the call's version, a client fault; the service answers the next call. */
async function assertClientFault(t: ExecutionContext, target: ServedFixture, shaped: Shaped, version: SoapVersionName, reason: RegExp) {
  const answer = await post(target, shaped);
  t.is(answer.status, 500, answer.bytes.toString().slice(0, 300));
  t.is(answer.contentType, version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
  const text = answer.bytes.toString();
  readXml(text, (doc) => t.notThrows(() => soapEnvelopeValidator(version).validate(doc.root)));
  const fault = readFault(text, version);
  t.is(fault.codeLocalName, CLIENT_CODE[version]);
  t.regex(fault.reason, reason);
  const next = await post(target, jaxws('1.1', attachmentBytes(50)));
  t.is(next.status, 200, 'the service answers the next call');
}

/** A JAX-WS-shaped call with its body changed by `edit`. */
function edited(version: SoapVersionName, edit: (body: string) => string, bytes = attachmentBytes(40)): Shaped {
  const shaped = jaxws(version, bytes);
  return { ...shaped, body: Buffer.from(edit(shaped.body.toString('latin1')), 'latin1') };
}

for (const version of ['1.1', '1.2'] as const) {
  test.serial(`SOAP ${version}: every bad package is a client fault of its version`, async (t) => {
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace(/Content-Id: <rootpart\*/, 'Content-Id: <other*')),
      version,
      /no part whose Content-ID is its start/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => `garbage${b.replace(/--uuid:/g, '--uuix:')}`),
      version,
      /not a well-formed multipart/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace(/\r\n--uuid:[0-9a-f-]+--\n$/, '')),
      version,
      /not a well-formed multipart/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace(/\r\n--uuid:[0-9a-f-]+--\n$/, '\r\n--uuid:6e43')),
      version,
      /not a well-formed multipart/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace('href="cid:0850083c', 'href="cid:9999083c')),
      version,
      /names a part the MTOM message does not have/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace('href="cid:', 'href="http:')),
      version,
      /href of cid:/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace('href="cid:0850083c', 'href="cid:%zz')),
      version,
      /not a well-formed cid: URL/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace('<content><xop:Include', '<content>AAAA<xop:Include')),
      version,
      /stand alone/,
    );
    // An Include where the schema has a string: the value is not taken as text.
    await assertClientFault(
      t,
      served,
      edited(version, (b) =>
        b.replace(/<name>report.bin<\/name><content>(<xop:Include[^>]*>)<\/content>/, '<name>$1</name><content>AAAA</content>'),
      ),
      version,
      /not base64Binary/,
    );
    // gSOAP's canonical mode writes an Include with no href and no namespace (wire/gsoap-mtom-canonical.txt).
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace(/<xop:Include [^>]*\/>/, '<xop:Include></xop:Include>')),
      version,
      /./,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace(/<xop:Include xmlns:xop="([^"]+)" [^>]*\/>/, '<xop:Other xmlns:xop="$1"/>')),
      version,
      /no element but Include/,
    );
    await assertClientFault(
      t,
      served,
      edited(version, (b) => b.replace(/Content-Transfer-Encoding: binary\r\n\r\n([^<])/, 'Content-Transfer-Encoding: base64\r\n\r\n$1')),
      version,
      /Content-Transfer-Encoding/,
    );
    const noBoundary = jaxws(version, attachmentBytes(40));
    await assertClientFault(
      t,
      served,
      { ...noBoundary, contentType: noBoundary.contentType.replace(/;boundary="[^"]+"/, '') },
      version,
      /no boundary/,
    );
    // The limits of the second service: 4096-byte parts, 3 parts.
    await assertClientFault(t, limited, jaxws(version, attachmentBytes(5000)), version, /part is larger than this service accepts/);
    const many = edited(version, (b) =>
      b.replace(/(\r\n--uuid:[0-9a-f-]+)--\n$/, '$1\r\nContent-Id: <a>\r\n\r\nA$1\r\nContent-Id: <b>\r\n\r\nB$1--\n'),
    );
    await assertClientFault(t, limited, many, version, /more parts than this service accepts/);
    t.is((await post(limited, jaxws(version, attachmentBytes(4000)))).status, 200, 'under both limits');
  });
}

test.serial("SOAP 1.2: an MTOM call's action, in start-info or on the multipart type, must name the operation", async (t) => {
  const wrong = jaxws('1.2', attachmentBytes(40));
  await assertClientFault(
    t,
    served,
    { ...wrong, contentType: wrong.contentType.replace(`action=\\"${STORE_ACTION}\\"`, 'action=\\"urn:other\\"') },
    '1.2',
    /action does not name/,
  );
  const other = nodeSoap('1.2', attachmentBytes(40));
  await assertClientFault(
    t,
    served,
    { ...other, contentType: other.contentType.replace(`action="${STORE_ACTION}"`, 'action="urn:other"') },
    '1.2',
    /action does not name/,
  );
});

test.serial('a 3 MiB attachment each way: read by the handler and by the typed client as it was sent', async (t) => {
  stored = undefined;
  const bytes = attachmentBytes(3 * 1024 * 1024);
  const answer = await post(served, gsoap('1.1', bytes));
  t.is(answer.status, 200);
  const read = lastStored();
  t.true(read !== undefined && Buffer.from(read.content).equals(bytes));
  const size = 3 * 1024 * 1024;
  t.true(Buffer.from(await clientFor(served, 'soap12').fetch_({ name: String(size) })).equals(Buffer.from(fetched(size))));
});

test.serial('a multipart/related that is not XOP is 415; a body over the body limit is 413, MTOM or not', async (t) => {
  const shaped = jaxws('1.1', attachmentBytes(40));
  const notXop = await post(served, {
    ...shaped,
    contentType: shaped.contentType.replace('type="application/xop+xml"', 'type="text/xml"'),
  });
  t.is(notXop.status, 415);
  const large = await post(plain, jaxws('1.1', attachmentBytes(2 * 1024 * 1024)));
  t.is(large.status, 413);
});

test.serial('the typed client: an MTOM answer whose Include names no attachment is a protocol fault', async (t) => {
  // A service stand-in whose answer's Include names a part it does not send.
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    const boundary = 'uuid:0000';
    const root = `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><FetchResponse xmlns="${NS}"><content><xop:Include xmlns:xop="${XOP}" href="cid:missing"/></content></FetchResponse></soap:Body></soap:Envelope>`;
    res.writeHead(200, {
      'Content-Type': `multipart/related;start="<root>";type="application/xop+xml";boundary="${boundary}";start-info="text/xml"`,
    });
    res.end(
      `--${boundary}\r\nContent-Id: <root>\r\nContent-Type: application/xop+xml;charset=utf-8;type="text/xml"\r\n\r\n${root}\r\n--${boundary}--\r\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const address = server.address() as { port: number };
    const client = clientFor({ url: `http://127.0.0.1:${address.port}` } as ServedFixture, 'soap11');
    const error = await t.throwsAsync(() => client.fetch_({ name: '1' }));
    t.is((error as unknown as { code: string }).code, 'protocol');
    t.regex(error!.message, /names a part the MTOM message does not have/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a Content-Type reading that is not kept (an MTOM call's, its boundary new each time) is worked out each time and flushes none out", (t) => {
  const reads: string[] = [];
  const read = byContentType(
    (ctx) => {
      reads.push(ctx.get('Content-Type'));
      return ctx.get('Content-Type').length;
    },
    (_, header) => !header.startsWith('multipart/'),
  );
  const ctx = (header: string) => ({ get: () => header }) as unknown as CallContext;
  t.is(read(ctx('text/xml')), 8);
  for (let i = 0; i < 200; i++) read(ctx(`multipart/related; boundary=${i}`));
  t.is(read(ctx('text/xml')), 8);
  t.is(reads.filter((header) => header === 'text/xml').length, 1, 'text/xml read once, kept through 200 multipart readings');
  t.is(reads.length, 201);
});

test('the package a Content-Type describes: the SOAP version from start-info or the action parameter, start without brackets', (t) => {
  const of = (type: string) => {
    const pkg = mtomPackageOf(type);
    return pkg && { version: pkg.version.variant, boundary: pkg.boundary, start: pkg.start, action: pkg.action };
  };
  t.deepEqual(of('Multipart/Related; TYPE="Application/XOP+XML"; boundary=b; start=" <a@b> "'), {
    version: 'soap11',
    boundary: 'b',
    start: 'a@b',
    action: undefined,
  });
  t.deepEqual(of('multipart/related; type="application/xop+xml"; boundary=b; action="urn:x"'), {
    version: 'soap12',
    boundary: 'b',
    start: undefined,
    action: 'urn:x',
  });
  t.deepEqual(
    of('multipart/related; type="application/xop+xml"; boundary=b; start-info="application/soap+xml;action=\\"urn:y\\""; action="urn:x"'),
    {
      version: 'soap12',
      boundary: 'b',
      start: undefined,
      action: 'urn:y',
    },
  );
  t.is(of('text/xml; charset=utf-8'), undefined);
  t.is(of('multipart/form-data; boundary=b'), undefined);
  t.is(of('multipart/related; type="application/xop+xml"')?.boundary, '', 'no boundary: refused when the body is read, as a fault');
  t.throws(() => mtomPackageOf('multipart/related; type="text/xml"; boundary=b'), { message: /must be MTOM/ });
});

test("an answer's token that is an element's whole content is an attachment; elsewhere (an attribute) it is its base64 text", (t) => {
  const marker = attachmentMarker();
  const values = Array.from({ length: 12 }, (_, i) => Uint8Array.from({ length: 2000 + i }, (_, j) => (i + j) & 0xff));
  const found = new Map(values.map((value, i) => [`${marker}${i}.`, value] as const));
  const tokens = [...found.keys()];
  const elements = tokens.filter((_, i) => i !== 1).map((token) => `<v>${token}</v>`);
  const envelope = `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><r a="${tokens[1]}">${elements.join('')}</r></soap:Body></soap:Envelope>`;
  const message = mtomMessage(SOAP12, envelope, found);
  const split = splitMtom(t, { status: 200, contentType: message.contentType, bytes: Buffer.concat(message.chunks) }, '1.2');
  t.is(message.length, Buffer.concat(message.chunks).length);
  t.is(split.attachments.size, 11);
  t.false(split.root.includes(marker), 'no token is left');
  t.true(split.root.includes(`a="${Buffer.from(values[1]!).toString('base64')}"`));
  readXml(split.root, (doc) => {
    const includes = doc.find('//xop:Include', { xop: XOP }) as import('../../support/readers').XmlElement[];
    t.is(includes.length, 11);
    const ids = [...split.attachments.keys()];
    includes.forEach((include, n) => {
      const id = decodeURIComponent(include.attr('href')!.value.slice(4));
      const index = n === 0 ? 0 : n + 1;
      t.true(split.attachments.get(id)!.equals(Buffer.from(values[index]!)), `value ${index}`);
      t.true(ids.includes(id));
    });
  });
});
