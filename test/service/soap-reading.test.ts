/**
 * The SOAP binding reads a call in one of two ways (src/runtime/bindings/soap.ts):
 * the usual envelope straight from libxml2's tree, anything else in detail
 * through libxml2-wasm's API. Whatever the first accepts, the second must
 * accept with the same operation and request, and the same refusal when the
 * action disagrees. Checked on hand-written envelopes that must take the
 * first way, and on thousands of the fuzzer's mutated envelopes.
 */
import test from 'ava';
import { isUtf8 } from 'node:buffer';
import type { CallContext } from '../../src/runtime/call-state';
import { CONTRACT } from '../../generated/contract';
import type { Operations } from '../../generated/routes';
import { loadContract, type Contract } from '../../src/runtime/contract';
import { ServiceError } from '../../src/runtime/errors';
import { readCallInDetail, readUsualCall } from '../../src/runtime/bindings/soap';
import { withUntrustedXml } from '../../src/runtime/bindings/untrusted-xml';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { SOAP11, SOAP12, soapVersionOf, type SoapVersion } from '../../src/runtime/wire/soap-envelope';
import { generateCase } from './fuzz/generator';
import { NS, operationElement, soapEnvelope } from '../support/requests';

let contract: Contract<Operations>;

test.before(async () => {
  await loadXmlEngine();
  contract = loadContract(CONTRACT, NS);
});

/** The little of a Koa context the readers use: request headers and the call's state. */
function callContext(headers: Record<string, string>): CallContext {
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name: string) => lower.get(name.toLowerCase()) ?? '', state: {} } as unknown as CallContext;
}

type Outcome = { read: unknown; operation?: string } | { refused: string };

function outcome(read: (ctx: CallContext) => unknown, headers: Record<string, string>): Outcome | undefined {
  const ctx = callContext(headers);
  try {
    const call = read(ctx);
    return call === undefined ? undefined : { read: call, operation: ctx.state.operation };
  } catch (error) {
    if (error instanceof ServiceError) return { refused: `${error.kind}: ${error.message}` };
    throw error;
  }
}

/** Both ways; `usual` is undefined when the first way passed the call on. */
function readBothWays(bytes: Buffer, version: SoapVersion, headers: Record<string, string>) {
  const usual = outcome((ctx) => readUsualCall(ctx, bytes, version, contract), headers);
  const detail = outcome((ctx) => withUntrustedXml(bytes, (doc) => readCallInDetail(ctx, doc, version, contract)), headers);
  return { usual, detail };
}

const validatePin = { pin: '123456', secretCode: 'reading-secret-42' };
const pair = { appName: 'App', appInfo: 'a@example.com', secretCode: 'reading-secret-42' };

const USUAL: { title: string; version: SoapVersion; body: string; headers?: Record<string, string> }[] = [
  {
    title: 'SOAP 1.1 ValidatePin as the clients send it',
    version: SOAP11,
    body: soapEnvelope('1.1', operationElement('ValidatePin', validatePin)),
  },
  { title: 'SOAP 1.2 Pair', version: SOAP12, body: soapEnvelope('1.2', operationElement('Pair', pair)) },
  {
    title: 'a field left out, an empty field',
    version: SOAP11,
    body: soapEnvelope('1.1', operationElement('Pair', { appInfo: 'a', secretCode: '' })),
  },
  {
    title: 'white space, comments, processing instructions, CDATA, an attribute on the Envelope and Body, other prefixes',
    version: SOAP11,
    body:
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><e:Envelope xmlns:e="${SOAP11.envelopeNamespace}" e:encodingStyle="x">\n <?pi x?>` +
      `<e:Body id="b">\n  <p:ValidatePin xmlns:p="${NS}"><p:pin> 123456 </p:pin><!-- c --><p:secretCode>a<![CDATA[<&>]]>b&amp;c&#233;</p:secretCode></p:ValidatePin>\n </e:Body></e:Envelope>`,
  },
  {
    title: 'a SOAPAction naming the operation, quoted',
    version: SOAP11,
    body: soapEnvelope('1.1', operationElement('ValidatePin', validatePin)),
    headers: { SOAPAction: `"${NS}ValidatePin"` },
  },
  {
    title: 'a SOAPAction naming the other operation: refused the same way',
    version: SOAP11,
    body: soapEnvelope('1.1', operationElement('ValidatePin', validatePin)),
    headers: { SOAPAction: `"${NS}Pair"` },
  },
];

for (const c of USUAL) {
  test(`read from the tree, as in detail: ${c.title}`, (t) => {
    const { usual, detail } = readBothWays(Buffer.from(c.body, 'utf8'), c.version, { 'Content-Type': c.version.contentType, ...c.headers });
    t.not(usual, undefined, 'the usual envelope is read from the tree');
    t.deepEqual(usual, detail);
  });
}

test('the fuzzer’s envelopes: whatever is read from the tree is read alike in detail, and the rest is left to the detail', (t) => {
  let fromTree = 0;
  let inDetail = 0;
  for (let index = 0; index < 6000; index++) {
    const fuzz = generateCase(20261124, index);
    if ((fuzz.kind !== 'soap11' && fuzz.kind !== 'soap12') || !fuzz.body || fuzz.headers['Content-Encoding']) continue;
    const version = soapVersionOf((fuzz.headers['Content-Type'] ?? '').split(';')[0].trim().toLowerCase());
    if (!version || !isUtf8(fuzz.body)) continue;
    const { usual, detail } = readBothWays(fuzz.body, version, fuzz.headers);
    if (usual === undefined) {
      inDetail++;
      continue;
    }
    fromTree++;
    t.deepEqual(usual, detail, `case ${index}: ${fuzz.mutations.join(', ')}`);
  }
  t.log(`${fromTree} read from the tree, ${inDetail} left to the detail`);
  t.true(fromTree > 100 && inDetail > 100, `both ways are exercised (${fromTree} / ${inDetail})`);
});
