/**
 * The documents the runtime serves for a contract beside its calls
 * (src/runtime/pages/): the self-contained WSDL at `?WSDL` (any case), the
 * DISCO document at `?disco`, the ASP.NET AJAX script proxy at `/js` and
 * `/jsdebug`, and one line of text for any other query. On the calculator
 * fixture contract served by the runtime's host, in its own namespace and in
 * a configured one. (The service's own contract tests, test/service/conformance.test.ts
 * and help-pages.test.ts, check the same on its contract.)
 */
import test, { type ExecutionContext } from 'ava';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../../support/fixture-contract';
import {
  attributeOf,
  elementAt,
  elementsAt,
  loadReaders,
  namespaceInScope,
  namespaceOf,
  readXml,
  standaloneXml,
} from '../../support/readers';
import { assertXmlDeclaration, validateAgainstSchema } from '../../support/xml-assertions';

const NS = 'http://calculator.example.org/';
const CONFIGURED = 'urn:example:calculator/';
const OPERATIONS = ['Add', 'Subtract', 'Multiply', 'Divide', 'Average', 'Clear'];
const WSDL = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  s: 'http://www.w3.org/2001/XMLSchema',
};
/** The calculator's ports and the element of each one's address. */
const PORTS: ReadonlyArray<readonly [name: string, address: string]> = [
  ['CalculatorSoap', 'soap:address'],
  ['CalculatorSoap12', 'soap12:address'],
  ['CalculatorHttpPost', 'http:address'],
];

let calculator: FixtureContract;
let served: ServedFixture;
let configured: ServedFixture;

test.before(async () => {
  await loadReaders();
  calculator = await generateFixture('calculator');
  served = await serveFixture(calculator.definition);
  configured = await serveFixture(calculator.definition, {}, { namespace: CONFIGURED });
});

test.after.always(async () => {
  await served?.close();
  await configured?.close();
  calculator?.remove();
});

async function get(url: string) {
  const answer = await fetch(url);
  return { status: answer.status, headers: answer.headers, body: await answer.text() };
}

/** Checks a served WSDL: its namespace, every port at `endpoint`, every operation's soapAction in `ns`; returns its inline schema. */
function checkWsdl(t: ExecutionContext, text: string, ns: string, endpoint: string): string {
  return readXml(text, (doc) => {
    assertXmlDeclaration(t, text, doc);
    const definitions = doc.root;
    t.is(definitions.name, 'definitions');
    t.is(namespaceOf(definitions), WSDL.wsdl);
    t.is(attributeOf(definitions, 'targetNamespace'), ns);
    t.is(namespaceInScope(definitions, 'tns'), ns, 'tns is the namespace');
    const service = elementAt(doc, "/wsdl:definitions/wsdl:service[@name='Calculator']", WSDL);
    t.truthy(service, 'the service');
    t.deepEqual(
      elementsAt(service!, 'wsdl:port', WSDL).map((port) => attributeOf(port, 'name')),
      PORTS.map(([name]) => name),
    );
    for (const [name, address] of PORTS) {
      const port = elementAt(service!, `wsdl:port[@name='${name}']`, WSDL);
      t.is(attributeOf(port && elementAt(port, address, WSDL), 'location'), endpoint, `${name}'s address is this server's endpoint`);
    }
    for (const [binding, prefix] of [
      ['CalculatorSoap', 'soap'],
      ['CalculatorSoap12', 'soap12'],
    ] as const) {
      const actions = elementsAt(doc, `/wsdl:definitions/wsdl:binding[@name='${binding}']/wsdl:operation/${prefix}:operation`, WSDL);
      t.deepEqual(
        actions.map((o) => attributeOf(o, 'soapAction')),
        OPERATIONS.map((name) => `${ns}${name}`),
        `${binding}'s actions are in ${ns}`,
      );
    }
    const schemas = elementsAt(doc, '/wsdl:definitions/wsdl:types/s:schema', WSDL);
    t.is(schemas.length, 1, 'one inline schema');
    t.is(attributeOf(schemas[0], 'targetNamespace'), ns);
    return standaloneXml(schemas[0]);
  });
}

/** The inline schema validates a request of the contract in `ns` and refuses one that breaks it. */
function checkInlineSchema(t: ExecutionContext, schema: string, ns: string): void {
  const valid = (xml: string) => validateAgainstSchema(xml, schema);
  const add = valid(`<Add xmlns="${ns}"><intA>2</intA><intB>3</intB></Add>`);
  t.true(add.valid, `an Add request is valid: ${add.errors.join('; ')}`);
  t.true(valid(`<AddResponse xmlns="${ns}"><AddResult>5</AddResult></AddResponse>`).valid, 'an Add answer is valid');
  t.false(valid(`<Add xmlns="${ns}"><intA>two</intA><intB>3</intB></Add>`).valid, 'a value that is no xsd:int is refused');
  t.false(valid(`<Add xmlns="${ns}"><intB>3</intB><intA>2</intA></Add>`).valid, 'members out of order are refused');
  t.false(valid(`<Add xmlns="urn:not-the-contract/"><intA>2</intA><intB>3</intB></Add>`).valid, 'another namespace is refused');
}

for (const query of ['WSDL', 'wsdl', 'Wsdl']) {
  test(`GET ?${query}: the WSDL, its ports at this server's endpoint, an inline schema that validates requests`, async (t) => {
    const answer = await get(`${served.endpoint}?${query}`);
    t.is(answer.status, 200);
    t.is(answer.headers.get('content-type'), 'text/xml; charset=utf-8');
    checkInlineSchema(t, checkWsdl(t, answer.body, NS, served.endpoint), NS);
  });
}

test('a configured namespace is the WSDL’s, its actions’ and its schema’s', async (t) => {
  const answer = await get(`${configured.endpoint}?wsdl`);
  t.is(answer.status, 200);
  const schema = checkWsdl(t, answer.body, CONFIGURED, configured.endpoint);
  checkInlineSchema(t, schema, CONFIGURED);
  t.false(
    validateAgainstSchema(`<Add xmlns="${NS}"><intA>2</intA><intB>3</intB></Add>`, schema).valid,
    'the authored namespace is refused',
  );
});

for (const [name, fixture] of [
  ['its own namespace', () => served],
  ['a configured namespace', () => configured],
] as const) {
  test(`GET ?disco (${name}): the WSDL's address and one SOAP binding per SOAP port, at this server's endpoint`, async (t) => {
    const { endpoint } = fixture();
    const ns = fixture() === served ? NS : CONFIGURED;
    const answer = await get(`${endpoint}?DISCO`);
    t.is(answer.status, 200);
    t.is(answer.headers.get('content-type'), 'text/xml; charset=utf-8');
    readXml(answer.body, (doc) => {
      assertXmlDeclaration(t, answer.body, doc);
      t.is(doc.root.name, 'discovery');
      t.is(namespaceOf(doc.root), 'http://schemas.xmlsoap.org/disco/');
      const contractRef = elementAt(doc, '/d:discovery/scl:contractRef', {
        d: 'http://schemas.xmlsoap.org/disco/',
        scl: 'http://schemas.xmlsoap.org/disco/scl/',
      });
      t.is(attributeOf(contractRef, 'ref'), `${endpoint}?wsdl`);
      t.is(attributeOf(contractRef, 'docRef'), endpoint);
      const soap = elementsAt(doc, '/d:discovery/ds:soap', {
        d: 'http://schemas.xmlsoap.org/disco/',
        ds: 'http://schemas.xmlsoap.org/disco/soap/',
      });
      t.deepEqual(
        soap.map((element) => attributeOf(element, 'address')),
        [endpoint, endpoint],
      );
      t.deepEqual(
        soap.map((element) => {
          const [prefix, local] = (attributeOf(element, 'binding') ?? '').split(':');
          return [namespaceInScope(element, prefix), local];
        }),
        [
          [ns, 'CalculatorSoap'],
          [ns, 'CalculatorSoap12'],
        ],
      );
    });
  });
}

test('GET /js and /jsdebug: the script proxy, calling each operation at the endpoint’s path', async (t) => {
  for (const path of ['js', 'jsdebug']) {
    const answer = await get(`${served.endpoint}/${path}`);
    t.is(answer.status, 200, path);
    t.is(answer.headers.get('content-type'), 'application/x-javascript; charset=utf-8', path);
    t.is(answer.headers.get('x-content-type-options'), 'nosniff', path);
    t.true(answer.body.includes(new URL(served.endpoint).pathname), `${path} names the endpoint's path`);
    for (const operation of OPERATIONS) t.true(answer.body.includes(operation), `${path} names ${operation}`);
    t.notThrows(() => new Function(answer.body), `${path} is JavaScript`);
  }
});

test('any other query is 404 with one line of text naming what may be asked', async (t) => {
  for (const query of ['op=Nope', 'xsd', 'wsdl=wsdl1', 'op=Add&op=Subtract', 'nonsense']) {
    const answer = await get(`${served.endpoint}?${query}`);
    t.is(answer.status, 404, query);
    t.regex(answer.headers.get('content-type') ?? '', /^text\/plain(;|$)/, query);
    t.is(answer.body.trimEnd().split('\n').length, 1, `${query}: one line`);
    t.true(answer.body.includes('?WSDL') && answer.body.includes('?op=Add'), `${query}: ${answer.body}`);
  }
});
