/**
 * The XML engine (libxml2-wasm) at the edges: namespaces that need escaping
 * or that libxml2 refuses, declarations of other encodings, the one-line
 * schema fault, and documents freed whatever a call does.
 */
import test from 'ava';
import { AuthenticatorApiClient } from '../../generated/client';
import { CONTRACT } from '../../generated/contract';
import { loadContract } from '../../src/runtime/contract';
import { defaultConfig } from '../../src/service/config';
import { createLogger } from '../../src/service/observability/logger';
import { startService } from '../../src/service/server';
import { escapeXmlAttribute } from '../../src/runtime/xml/xml-codec';
import { loadXmlEngine, xml } from '../../src/runtime/xml/xml-engine';
import { VARIANTS } from '../../generated/routes';
import { postSoap, soapEnvelope } from '../support/requests';
import { startTestService } from '../support/service';

const SECRET = 'xml-engine-test-secret';

// `&` and `'` need escaping in attributes; `%25` is a percent-escape; %C3%A9 is é, percent-encoded.
const NAMESPACES = ['urn:pins&more/', "urn:it's/", 'urn:50%25/', 'http://pins.example.com/%C3%A9t%C3%A9/', "https://ex.com/a&b'c%2F/"];

for (const namespace of NAMESPACES) {
  test(`a service in namespace ${namespace} answers every variant, and its answers read back in that namespace`, async (t) => {
    const service = await startTestService({ namespace });
    t.teardown(() => service.close());
    for (const variant of VARIANTS) {
      // The client checks that each answer is the contract's element in this namespace and validates it.
      const client = new AuthenticatorApiClient({ baseUrl: service.url, namespace, variant });
      const info = await client.pair({ appName: 'App', appInfo: 'a@example.com', secretCode: SECRET });
      t.truthy(info?.ManualSetupCode, `${variant}: Pair answered`);
      t.false(await client.validatePin({ pin: '000000x', secretCode: SECRET }), `${variant}: ValidatePin answered false`);
    }
    // The WSDL names the namespace, escaped, and libxml2 reads it back unchanged.
    const wsdl = await (await fetch(`${service.url}/api.asmx?wsdl`)).text();
    const doc = xml().XmlDocument.fromString(wsdl);
    try {
      t.is(doc.root.attr('targetNamespace')?.value, namespace);
    } finally {
      doc.dispose();
    }
  });
}

test('a request in a namespace that differs only where escaping matters is refused', async (t) => {
  const service = await startTestService({ namespace: 'urn:pins&more/' });
  t.teardown(() => service.close());
  const body = `<ValidatePin xmlns="${escapeXmlAttribute('urn:pins&amp;more/')}"><pin>1</pin><secretCode>${SECRET}</secretCode></ValidatePin>`;
  const a = await postSoap(service.url, '1.1', soapEnvelope('1.1', body), 'ValidatePin', { SOAPAction: '' });
  t.is(a.status, 500);
  t.regex(a.body, /is not an operation of this service/);
});

for (const namespace of ['urn:été/', 'http://exämple.com/ns/', 'urn:50%/']) {
  test(`a namespace libxml2 refuses as a schema target (${namespace}) is a one-line start-up error`, async (t) => {
    const config = { ...defaultConfig(), host: '127.0.0.1', port: 0, namespace, store: 'memory' };
    const error = await t.throwsAsync(startService(config, createLogger('silent')));
    t.true(error!.message.includes(JSON.stringify(namespace)), error!.message);
    t.regex(error!.message, /not a valid URI/);
    t.false(error!.message.includes('\n'), 'one line');
  });
}

test('loadContract compiles the schemas once the engine is loaded', async (t) => {
  await loadXmlEngine();
  const contract = loadContract(CONTRACT, 'urn:example:pins/');
  const doc = xml().XmlDocument.fromString('<ValidatePin xmlns="urn:example:pins/"><x/></ValidatePin>');
  t.teardown(() => doc.dispose());
  t.throws(() => contract.requestSchema('ValidatePin').validate(doc.root), {
    message: /Element '\{urn:example:pins\/\}x': This element is not expected/,
  });
});

test('SOAP: a body whose XML declaration names ISO-8859-1 is a client fault mentioning UTF-8, even with ASCII bytes only', async (t) => {
  const service = await startTestService();
  t.teardown(() => service.close());
  for (const encoding of ['ISO-8859-1', 'latin1', 'windows-1252']) {
    const text = soapEnvelope(
      '1.1',
      `<ValidatePin xmlns="http://authenticatorapi.com/"><pin>123456</pin><secretCode>${SECRET}</secretCode></ValidatePin>`,
    ).replace('encoding="utf-8"', `encoding="${encoding}"`);
    const a = await postSoap(service.url, '1.1', text);
    t.is(a.status, 500, encoding);
    t.regex(a.body, /<faultcode>soap:Client<\/faultcode><faultstring>[^<]*UTF-8/, encoding);
  }
  // UTF-8 spelled either way, or no declaration at all, is read.
  for (const declaration of ['<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="utf8"?>', '']) {
    const text = soapEnvelope(
      '1.1',
      `<ValidatePin xmlns="http://authenticatorapi.com/"><pin>1</pin><secretCode>${SECRET}</secretCode></ValidatePin>`,
    ).replace('<?xml version="1.0" encoding="utf-8"?>', declaration);
    const a = await postSoap(service.url, '1.1', text);
    t.is(a.status, 200, declaration);
    t.regex(a.body, /<ValidatePinResult>false<\/ValidatePinResult>/, declaration);
  }
});

test("SOAP: a schema violation's fault names the element and what was expected, from libxml2, in one line", async (t) => {
  const service = await startTestService();
  t.teardown(() => service.close());
  const cases: [string, RegExp][] = [
    [
      '<pin>1</pin><extra>x</extra><secretCode>s</secretCode>',
      /Element 'extra': This element is not expected\. Expected is \( \{http:\/\/authenticatorapi\.com\/\}secretCode \)/,
    ],
    ['<secretCode>s</secretCode><pin>1</pin>', /Element 'pin': This element is not expected/],
  ];
  for (const [content, expected] of cases) {
    const a = await postSoap(
      service.url,
      '1.1',
      soapEnvelope('1.1', `<ValidatePin xmlns="http://authenticatorapi.com/">${content}</ValidatePin>`),
    );
    const faultstring = /<faultstring>([^<]*)<\/faultstring>/.exec(a.body)?.[1] ?? '';
    t.regex(faultstring, /^The ValidatePin element does not match the schema: /);
    t.regex(faultstring, expected);
    t.false(/[\r\n]/.test(faultstring), 'one line');
  }
});

test.serial('SOAP: every document is disposed, whether the call succeeds, fails validation or is refused', async (t) => {
  const service = await startTestService();
  t.teardown(() => service.close());
  const { diag } = xml();
  // libxml2-wasm's memory diagnostics list every document created and not yet disposed.
  diag.configure({ enabled: true });
  t.teardown(() => diag.configure({ enabled: false }));
  const bodies = [
    soapEnvelope('1.1', `<ValidatePin xmlns="http://authenticatorapi.com/"><pin>1</pin><secretCode>${SECRET}</secretCode></ValidatePin>`),
    soapEnvelope('1.1', `<ValidatePin xmlns="http://authenticatorapi.com/"><bad/></ValidatePin>`),
    soapEnvelope('1.1', `<Nope xmlns="urn:x"/>`),
    soapEnvelope('1.2', `<Pair xmlns="http://authenticatorapi.com/"><secretCode>${SECRET}</secretCode></Pair>`),
    `<?xml version="1.0"?><!DOCTYPE x><x/>`,
    `<?xml version="1.0" encoding="ISO-8859-1"?><x/>`,
  ];
  let answered = 0;
  for (let i = 0; i < 60; i++) if ((await postSoap(service.url, '1.1', bodies[i % bodies.length])).status > 0) answered += 1;
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

test('SOAP: processing instructions and comments between the envelope elements are skipped, as before (found by the fuzzer)', async (t) => {
  const service = await startTestService();
  t.teardown(() => service.close());
  const ns = 'http://authenticatorapi.com/';
  const text =
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><?pi a?><!--c-->' +
    `<soap:Body><?pi b?><ValidatePin xmlns="${ns}"><?pi c?><pin>1</pin><!--d--><secretCode>${SECRET}</secretCode></ValidatePin><?pi d?></soap:Body><?pi e?></soap:Envelope>`;
  const a = await postSoap(service.url, '1.1', text);
  t.is(a.status, 200, a.body);
  t.regex(a.body, /<ValidatePinResult>false<\/ValidatePinResult>/);
  t.false(service.logs().includes('"level":50'), 'nothing logged as an error');
});
