/**
 * rpc/encoded operations bound in no namespace (`soap:body namespace=""`), on
 * test/fixtures/outside/no-namespace-rpc.wsdl (Axis 1's FaultService and parameterOrder tests' shape): a call whose
 * wrapper is in no namespace, as Axis 1 writes it (a multi-reference part), reaches the handler typed; the answer's
 * wrapper and a declared fault's detail are written in no namespace too, never with an empty prefix declaration
 * (`xmlns:w=""`, not well-formed); a wrapper in a namespace is not the operation; the typed client calls it.
 */
import test from 'ava';
import { join } from 'node:path';
import { loadContract, type LoadedContract } from '../../../codegen/harness/load-generated';
import { loadXmlEngine, safeParseOptions, xml, type XmlElement } from '../../../src/runtime/xml/xml-engine';
import { childElements } from '../../../src/runtime/xml/xml-codec';
import { type ServedFixture, serveFixture } from '../../support/fixture-contract';

const WSDL = join(__dirname, '..', '..', 'fixtures', 'outside', 'no-namespace-rpc.wsdl');
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let loaded: LoadedContract;
let served: ServedFixture;
const seen: unknown[] = [];
// biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
let types: any;

const handlers = {
  post: async (request: { entry: { account: string; amount: number }; note: string }) => {
    seen.push(JSON.parse(JSON.stringify(request)));
    if (request.entry.amount < 0)
      throw new types.LedgerFault2(new types.LedgerFault({ reason: `no overdraft on ${request.entry.account}` }));
    return request.entry.amount + 100;
  },
  balance: async (request: { account: string }) => request.account.length,
};

test.before(async () => {
  await loadXmlEngine();
  loaded = await loadContract(WSDL);
  types = require(join(loaded.folder, 'types.js'));
  served = await serveFixture(loaded.definition, handlers as never);
});
test.after.always(async () => {
  await served?.close();
  loaded?.remove();
});

const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;

async function call(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(served.endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' },
    body: envelope(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The first element of the answer's Body (the document parsed: the answer is well-formed), given to `use`. */
function withBodyChild<T>(text: string, use: (element: XmlElement) => T): T {
  const doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  try {
    const body = childElements(doc.root).find((e) => e.name === 'Body');
    if (!body) throw new Error('no Body');
    return use(childElements(body)[0]);
  } finally {
    doc.dispose();
  }
}

// As Axis 1 writes it: the wrapper in no namespace, the struct a multi-reference value after it.
const axisPost = (amount: number) =>
  `<post soapenv:encodingStyle="${ENC}"><note xsi:type="xsd:string">rent</note><entry href="#id0"/></post>` +
  `<multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="${ENC}" xsi:type="ns1:Entry" xmlns:soapenc="${ENC}" xmlns:ns1="urn:ledger">` +
  `<account xsi:type="xsd:string">acme</account><amount xsi:type="xsd:int">${amount}</amount></multiRef>`;

test.serial('a call whose wrapper is in no namespace reaches the handler typed; the answer is in no namespace', async (t) => {
  const { status, text } = await call(axisPost(5));
  t.is(status, 200, text);
  t.deepEqual(seen.at(-1), { entry: { account: 'acme', amount: 5 }, note: 'rent' });
  t.notRegex(text, /xmlns:\w+=""/);
  t.regex(text, /<balance xsi:type="xsd:int">105<\/balance>/);
  withBodyChild(text, (answer) => {
    t.is(answer.name, 'postResponse');
    t.is(answer.namespaceUri ?? '', '');
    const [balance] = childElements(answer);
    t.is(balance.name, 'balance');
    t.is(balance.namespaceUri ?? '', '');
    t.is(balance.content, '105');
  });
});

test.serial('a second operation bound in no namespace: its answer in none too', async (t) => {
  const { status, text } = await call(`<balance><account xsi:type="xsd:string">abcd</account></balance>`);
  t.is(status, 200, text);
  withBodyChild(text, (answer) => {
    t.is(answer.name, 'balanceResponse');
    t.is(answer.namespaceUri ?? '', '');
    t.is(childElements(answer)[0].content, '4');
  });
});

test.serial('a declared fault of such an operation carries its detail in no namespace, encoded', async (t) => {
  const { status, text } = await call(axisPost(-1));
  t.is(status, 500, text);
  t.regex(text, /<faultcode>\w+:Server<\/faultcode>/);
  t.notRegex(text, /xmlns:\w+=""/);
  const detail = /<detail>([\s\S]*)<\/detail>/.exec(text)?.[1] ?? '';
  t.regex(detail, /^<fault xmlns=""/);
  t.regex(detail, /<reason[^>]*>no overdraft on acme<\/reason>/);
});

test.serial('a wrapper in a namespace is not the operation bound in none: a client fault', async (t) => {
  const { status, text } = await call(`<l:balance xmlns:l="urn:ledger"><account>abcd</account></l:balance>`);
  t.is(status, 500);
  t.regex(text, /<faultcode>\w+:Client<\/faultcode>/);
});

test.serial('the typed client calls operations bound in no namespace', async (t) => {
  const generated = require(join(loaded.folder, 'client.js'));
  const client = new generated.LedgerServiceClient({ baseUrl: served.url });
  t.is(await client.post({ entry: new types.Entry({ account: 'x', amount: 1 }), note: 'n' }), 101);
  t.is(await client.balance({ account: 'abc' }), 3);
  const fault = await t.throwsAsync(client.post({ entry: new types.Entry({ account: 'x', amount: -3 }), note: 'n' }));
  t.regex(String(fault?.message), /LedgerFault|no overdraft/);
});
