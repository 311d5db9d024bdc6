/**
 * The XML engine (libxml2-wasm) at the edges, as the runtime serves a
 * contract (the temperature fixture on the runtime's host): namespaces that
 * need escaping or that libxml2 refuses, declarations of other encodings,
 * the one-line schema fault, comments and processing instructions between
 * the envelope's elements, and documents freed whatever a call does.
 */
import test from 'ava';
import { join } from 'node:path';
import { type Contract, loadContract } from '../../../src/runtime/contract';
import { SOAP11, SOAP12, soapEnvelope } from '../../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../../src/runtime/xml/xml-escape';
import { xml } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../../src/runtime/xml/xml-schema';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../../support/fixture-contract';

const NS = 'https://temperature.example.com/';
const VARIANTS = ['soap11', 'soap12', 'httpGet', 'httpPost', 'json'] as const;

let temperature: FixtureContract;
let served: ServedFixture;
test.before(async () => {
  temperature = await generateFixture('temperature');
  served = await serveFixture(temperature.definition, { CelsiusToFahrenheit: async (r: { Celsius?: string }) => `${r.Celsius}°` });
});
test.after.always(async () => {
  await served?.close();
  temperature?.remove();
});

interface TypedClient {
  celsiusToFahrenheit(request: { Celsius?: string }, options?: { variant?: string }): Promise<string | undefined>;
}
type TypedClientClass = new (options: { baseUrl: string; namespace?: string; variant?: string }) => TypedClient;
const typedClient = () => (require(join(temperature.folder, 'client.js')) as { TempConvertClient: TypedClientClass }).TempConvertClient;

/** A SOAP 1.1 call of the endpoint with `body` as it is. */
async function postSoap(url: string, body: string, headers: Record<string, string> = {}) {
  const answer = await fetch(url, { method: 'POST', headers: { 'Content-Type': SOAP11.contentType, ...headers }, body });
  return { status: answer.status, body: await answer.text() };
}

const celsius = (value: string, ns = NS) =>
  `<CelsiusToFahrenheit xmlns="${escapeXmlAttribute(ns)}"><Celsius>${value}</Celsius></CelsiusToFahrenheit>`;

// `&` and `'` need escaping in attributes; `%25` is a percent-escape; %C3%A9 is é, percent-encoded.
const NAMESPACES = ['urn:temps&more/', "urn:it's/", 'urn:50%25/', 'http://temps.example.com/%C3%A9t%C3%A9/', "https://ex.com/a&b'c%2F/"];

for (const namespace of NAMESPACES) {
  test(`a contract served in namespace ${namespace} answers every variant, and its answers read back in that namespace`, async (t) => {
    const inNamespace = await serveFixture(temperature.definition, {}, { namespace });
    t.teardown(() => inNamespace.close());
    const Client = typedClient();
    for (const variant of VARIANTS) {
      // The typed client checks that each answer is the contract's element in this namespace and validates it.
      const client = new Client({ baseUrl: inNamespace.url, namespace, variant });
      t.is(typeof (await client.celsiusToFahrenheit({ Celsius: '20' })), 'string', `${variant}: answered`);
    }
    // The WSDL names the namespace, escaped, and libxml2 reads it back unchanged.
    const wsdl = await (await fetch(`${inNamespace.endpoint}?wsdl`)).text();
    const doc = xml().XmlDocument.fromString(wsdl);
    try {
      t.is(doc.root.attr('targetNamespace')?.value, namespace);
    } finally {
      doc.dispose();
    }
  });
}

test('a request in a namespace that differs only where escaping matters is refused', async (t) => {
  const inNamespace = await serveFixture(temperature.definition, {}, { namespace: 'urn:temps&more/' });
  t.teardown(() => inNamespace.close());
  const a = await postSoap(inNamespace.endpoint, soapEnvelope(SOAP11, celsius('20', 'urn:temps&amp;more/')), { SOAPAction: '' });
  t.is(a.status, 500);
  t.regex(a.body, /is not an operation of this service/);
});

for (const namespace of ['urn:été/', 'http://exämple.com/ns/', 'urn:50%/']) {
  test(`a namespace libxml2 refuses as a schema target (${namespace}) is one line naming it, when the contract is loaded`, (t) => {
    const error = t.throws(() => loadContract(temperature.definition, namespace));
    t.true(error!.message.includes(JSON.stringify(namespace)), error!.message);
    t.regex(error!.message, /not a valid URI/);
    t.false(error!.message.includes('\n'), 'one line');
  });
}

test('loadContract compiles the request schemas in the namespace it is given', (t) => {
  const contract: Contract<AnyOperations> = loadContract(temperature.definition, 'urn:example:temps/');
  const doc = xml().XmlDocument.fromString('<CelsiusToFahrenheit xmlns="urn:example:temps/"><x/></CelsiusToFahrenheit>');
  t.teardown(() => doc.dispose());
  t.throws(() => contract.requestSchema('CelsiusToFahrenheit').validate(doc.root), {
    message: /Element '\{urn:example:temps\/\}x': This element is not expected/,
  });
});

test('SOAP: a body whose XML declaration names ISO-8859-1 is a client fault mentioning UTF-8, even with ASCII bytes only', async (t) => {
  for (const encoding of ['ISO-8859-1', 'latin1', 'windows-1252']) {
    const text = soapEnvelope(SOAP11, celsius('20')).replace('encoding="utf-8"', `encoding="${encoding}"`);
    const a = await postSoap(served.endpoint, text);
    t.is(a.status, 500, encoding);
    t.regex(a.body, /<faultcode>soap:Client<\/faultcode><faultstring>[^<]*UTF-8/, encoding);
  }
  // UTF-8 spelled either way, or no declaration at all, is read.
  for (const declaration of ['<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="utf8"?>', '']) {
    const text = soapEnvelope(SOAP11, celsius('21')).replace('<?xml version="1.0" encoding="utf-8"?>', declaration);
    const a = await postSoap(served.endpoint, text);
    t.is(a.status, 200, declaration);
    t.regex(a.body, /<CelsiusToFahrenheitResult>21°<\/CelsiusToFahrenheitResult>/, declaration);
  }
});

test("SOAP: a schema violation's fault names the element and what was expected, from libxml2, in one line", async (t) => {
  const cases: [string, RegExp][] = [
    ['<Celsius>1</Celsius><extra>x</extra>', /Element 'extra': This element is not expected\.$/],
    [
      '<extra>x</extra><Celsius>1</Celsius>',
      /Element 'extra': This element is not expected\. Expected is \( \{https:\/\/temperature\.example\.com\/\}Celsius \)/,
    ],
  ];
  for (const [content, expected] of cases) {
    const a = await postSoap(served.endpoint, soapEnvelope(SOAP11, `<CelsiusToFahrenheit xmlns="${NS}">${content}</CelsiusToFahrenheit>`));
    const faultstring = /<faultstring>([^<]*)<\/faultstring>/.exec(a.body)?.[1] ?? '';
    t.regex(faultstring, /^The CelsiusToFahrenheit element does not match the schema: /);
    t.regex(faultstring, expected);
    t.false(/[\r\n]/.test(faultstring), 'one line');
  }
});

test.serial('SOAP: every document is disposed, whether the call succeeds, fails validation or is refused', async (t) => {
  const { diag } = xml();
  // libxml2-wasm's memory diagnostics list every document created and not yet disposed.
  diag.configure({ enabled: true });
  t.teardown(() => diag.configure({ enabled: false }));
  const bodies = [
    soapEnvelope(SOAP11, celsius('1')),
    soapEnvelope(SOAP11, `<CelsiusToFahrenheit xmlns="${NS}"><bad/></CelsiusToFahrenheit>`),
    soapEnvelope(SOAP11, '<Nope xmlns="urn:x"/>'),
    soapEnvelope(SOAP12, `<FahrenheitToCelsius xmlns="${NS}"><Fahrenheit>1</Fahrenheit></FahrenheitToCelsius>`),
    '<?xml version="1.0"?><!DOCTYPE x><x/>',
    '<?xml version="1.0" encoding="ISO-8859-1"?><x/>',
  ];
  let answered = 0;
  for (let i = 0; i < 60; i++) if ((await postSoap(served.endpoint, bodies[i % bodies.length])).status > 0) answered += 1;
  t.is(answered, 60);
  const report = (diag.report() ?? {}) as Record<string, { totalInstances: number }>;
  t.is(report.XmlDocument?.totalInstances ?? 0, 0, JSON.stringify(Object.keys(report)));
});

test.serial('the memory check above does see a document that is not disposed', (t) => {
  const { diag, XmlDocument } = xml();
  diag.configure({ enabled: true });
  t.teardown(() => diag.configure({ enabled: false }));
  const leaked = XmlDocument.fromString('<a/>');
  t.is((diag.report() as Record<string, { totalInstances: number }>).XmlDocument?.totalInstances, 1);
  leaked.dispose();
});

test('SOAP: processing instructions and comments between the envelope elements are skipped', async (t) => {
  const text =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><?pi a?><!--c-->' +
    `<soap:Body><?pi b?><CelsiusToFahrenheit xmlns="${NS}"><?pi c?><!--d--><Celsius>5</Celsius></CelsiusToFahrenheit><?pi d?></soap:Body><?pi e?></soap:Envelope>`;
  const a = await postSoap(served.endpoint, text);
  t.is(a.status, 200, a.body);
  t.regex(a.body, /<CelsiusToFahrenheitResult>5°<\/CelsiusToFahrenheitResult>/);
  t.false(
    served.lines().some((l) => l.level === 50),
    'nothing logged as an error',
  );
});

test('a schema set with a document of no namespace compiles, and validates elements of both', (t) => {
  const set = compileSchemaSet([
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:example:a"><xs:import/><xs:element name="a" type="xs:int"/></xs:schema>`,
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="plain" type="xs:int"/></xs:schema>`,
  ]);
  const { XmlDocument } = xml();
  for (const [text, valid] of [
    ['<a xmlns="urn:example:a">1</a>', true],
    ['<plain>2</plain>', true],
    ['<plain>x</plain>', false],
  ] as const) {
    const doc = XmlDocument.fromString(text);
    try {
      if (valid) t.notThrows(() => set.validate(doc), text);
      else t.throws(() => set.validate(doc), undefined, text);
    } finally {
      doc.dispose();
    }
  }
});
