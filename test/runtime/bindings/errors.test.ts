/**
 * The bindings' answers to bad input, on fixture contracts served by the
 * runtime's host: the calculator (SOAP 1.1, SOAP 1.2 and HTTP POST) and the
 * temperature converter (HTTP GET and POST besides). Malformed XML, a DOCTYPE,
 * a body the contract's schema refuses, an unknown operation or a SOAPAction
 * naming another, the other SOAP version's envelope, a header block that must
 * be understood, a wrong media type and a body over the limit: each gets its
 * SOAP fault (HTTP 500, the version's Content-Type, Client or Sender,
 * VersionMismatch, MustUnderstand, one line of reason) or its plain HTTP
 * error, and the service keeps answering. Every SOAP answer is validated
 * against the SOAP envelope schema of its version, and every payload against
 * the contract's schemas, with libxml2. (The service's own contract tests,
 * test/service/errors.test.ts, check the same on its contract.)
 */
import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import type { XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet, firstLibxmlMessage } from '../../../src/runtime/xml/xml-schema';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../../support/fixture-contract';
import {
  childElements,
  elementAt,
  loadReaders,
  namespaceInScope,
  namespaceOf,
  readXml,
  textOf,
  type XmlElement,
} from '../../support/readers';
import { soapEnvelopeValidator } from '../../support/soap-schemas';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';

const CALCULATOR_NS = 'http://calculator.example.org/';
const TEMPERATURE_NS = 'https://temperature.example.com/';
const VERSIONS: readonly SoapVersionName[] = ['1.1', '1.2'];
/** The body limit the calculator is served with (small, so that the test's bodies stay small). */
const LIMIT = 4096;

let calculator: FixtureContract;
let temperature: FixtureContract;
let calc: ServedFixture;
let temps: ServedFixture;
let calculatorSchema: XsdValidator;
let temperatureSchema: XsdValidator;

/** The schemas of a generated folder (documents.js), in the contract's own namespace, compiled. */
function contractSchema(fixture: FixtureContract): XsdValidator {
  const documents = require(join(fixture.folder, 'documents.js')) as { renderSchemas(namespace: string): readonly string[] };
  return compileSchemaSet(documents.renderSchemas(fixture.definition.targetNamespace));
}

test.before(async () => {
  await loadReaders();
  calculator = await generateFixture('calculator');
  temperature = await generateFixture('temperature');
  calculatorSchema = contractSchema(calculator);
  temperatureSchema = contractSchema(temperature);
  calc = await serveFixture(
    calculator.definition,
    { Add: async (request: { intA: number; intB: number }) => request.intA + request.intB },
    { maxBodyBytes: LIMIT },
  );
  temps = await serveFixture(temperature.definition, {
    CelsiusToFahrenheit: async (request: { Celsius?: string }) => String((Number(request.Celsius) * 9) / 5 + 32),
  });
});

test.after.always(async () => {
  await calc?.close();
  await temps?.close();
  calculator?.remove();
  temperature?.remove();
});

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const answer = await fetch(url, { method: 'POST', headers, body });
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', body: await answer.text() };
}

async function get(url: string): Promise<Answer> {
  const answer = await fetch(url);
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', body: await answer.text() };
}

/** A SOAP envelope of `version` around `body`, with `header` (the blocks) when given. */
function envelope(version: SoapVersionName, body: string, header?: string): string {
  const head = header === undefined ? '' : `<soap:Header>${header}</soap:Header>`;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NAMESPACES[version]}">${head}<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

const add = (a: string, b: string, ns = CALCULATOR_NS) => `<Add xmlns="${ns}"><intA>${a}</intA><intB>${b}</intB></Add>`;

/** Posts `text` to the calculator's endpoint as SOAP `version` (the action, when given, as that version carries it). */
function soap(version: SoapVersionName, text: string, action?: string, contentType = SOAP_CONTENT_TYPES[version]): Promise<Answer> {
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'Content-Type': contentType, ...(action === undefined ? {} : { SOAPAction: action }) }
      : { 'Content-Type': action === undefined ? contentType : `${contentType}; action="${action.replace(/^"|"$/g, '')}"` };
  return post(calc.endpoint, headers, text);
}

/** Validates `element` (or the whole document) against `schema`; a failure names libxml2's reason. */
function assertValid(t: ExecutionContext, schema: XsdValidator, target: XmlElement, what: string): void {
  try {
    schema.validate(target);
    t.pass();
  } catch (error) {
    t.fail(`${what} is not valid: ${firstLibxmlMessage(error)}`);
  }
}

/** The answer as a whole is valid against the SOAP envelope schema of `version`. */
function assertEnvelopeSchema(t: ExecutionContext, answer: Answer, version: SoapVersionName, label: string): void {
  readXml(answer.body, (doc) =>
    assertValid(t, soapEnvelopeValidator(version), doc.root, `${label}: the envelope (SOAP ${version} schema)`),
  );
}

type FaultCode = 'Client' | 'VersionMismatch' | 'MustUnderstand';

/**
 * A SOAP fault of `version` with `code` (the SOAP 1.1 name; SOAP 1.2's Sender for Client): HTTP 500, the
 * version's Content-Type, the envelope's rules and schema, the code in the envelope's namespace, and a reason
 * of one line with no stack frame or file path. Returns the reason.
 */
function assertFault(t: ExecutionContext, answer: Answer, version: SoapVersionName, code: FaultCode, label: string): string {
  label = `${label} [SOAP ${version}]`;
  t.is(answer.status, 500, `${label}: status (${answer.body.slice(0, 300)})`);
  t.is(answer.contentType, SOAP_CONTENT_TYPES[version], `${label}: Content-Type`);
  assertEnvelopeSchema(t, answer, version, label);
  const envNs = SOAP_ENVELOPE_NAMESPACES[version];
  const local = version === '1.2' && code === 'Client' ? 'Sender' : code;
  const reason = assertSoapEnvelope(t, answer.body, version, (fault) => {
    t.is(fault.name, 'Fault', `${label}: the Body holds a Fault`);
    t.is(namespaceOf(fault), envNs, `${label}: the Fault is in the envelope's namespace`);
    const ns = { env: envNs };
    const codeElement = version === '1.1' ? elementAt(fault, 'faultcode') : elementAt(fault, 'env:Code/env:Value', ns);
    const reasonElement = version === '1.1' ? elementAt(fault, 'faultstring') : elementAt(fault, 'env:Reason/env:Text', ns);
    if (!codeElement || !reasonElement) return t.fail(`${label}: the Fault lacks its code or reason`) ?? '';
    const written = textOf(codeElement).trim();
    const [prefix, name] = written.includes(':') ? written.split(':') : [null, written];
    t.is(name, local, `${label}: the fault code`);
    t.is(namespaceInScope(codeElement, prefix), envNs, `${label}: the fault code's namespace`);
    // A fault's detail, when there is one, is the contract's: none of these faults is declared.
    const detail = childElements(fault).find((e) => e.name === (version === '1.1' ? 'detail' : 'Detail'));
    t.is(detail ? childElements(detail).length : 0, 0, `${label}: no detail element`);
    return textOf(reasonElement);
  });
  t.true(reason.trim().length > 0, `${label}: a reason`);
  t.false(/[\r\n]/.test(reason.trim()), `${label}: the reason is one line: ${JSON.stringify(reason)}`);
  t.false(/\bat\s+\S+\s+\(|node_modules|\.(?:ts|js):\d+/.test(answer.body), `${label}: no stack frame or file path`);
  return reason;
}

/** A plain HTTP error: `status`, text/plain, one line with no stack frame or file path. */
function assertPlain(t: ExecutionContext, answer: Answer, status: number, label: string): void {
  t.is(answer.status, status, `${label}: status (${answer.body.slice(0, 300)})`);
  t.regex(answer.contentType, /^text\/plain(;|$)/, `${label}: Content-Type`);
  t.is(answer.body.trimEnd().split('\n').length, 1, `${label}: one line`);
  t.false(/\bat\s+\S+\s+\(|node_modules|\.(?:ts|js):\d+/.test(answer.body), `${label}: no stack frame or file path`);
}

/** A SOAP answer of `version` to Add: 200, the envelope's rules and schema, AddResponse valid against the contract; its AddResult. */
function assertAdded(t: ExecutionContext, answer: Answer, version: SoapVersionName, label: string): number {
  label = `${label} [SOAP ${version}]`;
  t.is(answer.status, 200, `${label}: status (${answer.body.slice(0, 300)})`);
  t.is(answer.contentType, SOAP_CONTENT_TYPES[version], `${label}: Content-Type`);
  assertEnvelopeSchema(t, answer, version, label);
  return assertSoapEnvelope(t, answer.body, version, (response) => {
    t.is(response.name, 'AddResponse', label);
    t.is(namespaceOf(response), CALCULATOR_NS, label);
    assertValid(t, calculatorSchema, response, `${label}: AddResponse (the contract's schema)`);
    return Number(textOf(childElements(response)[0]));
  });
}

const ACTION = `${CALCULATOR_NS}Add`;

test.serial('a call as the contract has it is answered over both versions, the action quoted, unquoted or absent', async (t) => {
  for (const version of VERSIONS) {
    const actions = version === '1.1' ? [`"${ACTION}"`, ACTION, undefined] : [`"${ACTION}"`, undefined];
    for (const action of actions)
      t.is(assertAdded(t, await soap(version, envelope(version, add('2', '3')), action), version, `action ${action}`), 5);
  }
});

test.serial('malformed XML is a Client (1.1) or Sender (1.2) fault', async (t) => {
  for (const version of VERSIONS) {
    const whole = envelope(version, add('2', '3'));
    const cases = {
      truncated: whole.slice(0, whole.indexOf('</intB>')),
      'mismatched tags': whole.replace('</intA>', '</intB>'),
      'undeclared prefix': whole.replace('<Add ', '<x:Add ').replace('</Add>', '</x:Add>'),
      'not XML': 'intA=2&intB=3',
      empty: '',
    };
    for (const [label, text] of Object.entries(cases)) assertFault(t, await soap(version, text, `"${ACTION}"`), version, 'Client', label);
  }
});

test.serial('a DOCTYPE, harmless or declaring entities, is a client fault and no entity is expanded', async (t) => {
  for (const version of VERSIONS) {
    const body = envelope(version, add('2', '3')).replace('<?xml version="1.0" encoding="utf-8"?>', '');
    const declaration = '<?xml version="1.0" encoding="utf-8"?>';
    assertFault(t, await soap(version, `${declaration}<!DOCTYPE soap:Envelope>${body}`), version, 'Client', 'a harmless DOCTYPE');
    const internal = `${declaration}<!DOCTYPE soap:Envelope [<!ENTITY two "2">]>${body.replace('<intA>2<', '<intA>&two;<')}`;
    assertFault(t, await soap(version, internal), version, 'Client', 'an internal entity');
    const external = `${declaration}<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${body.replace('<intA>2<', '<intA>&xxe;<')}`;
    const answer = await soap(version, external);
    assertFault(t, answer, version, 'Client', 'an external entity');
    t.false(answer.body.includes('root:'), 'the external entity is not read');
  }
});

test.serial("a body the contract's schema refuses is a client fault naming no more than one line", async (t) => {
  const cases = {
    'a value that is no xsd:int': add('two', '3'),
    'the children out of order': `<Add xmlns="${CALCULATOR_NS}"><intB>3</intB><intA>2</intA></Add>`,
    'an unknown child': `<Add xmlns="${CALCULATOR_NS}"><intA>2</intA><intB>3</intB><intC>4</intC></Add>`,
    'a required child missing': `<Add xmlns="${CALCULATOR_NS}"><intA>2</intA></Add>`,
    'a child in no namespace': `<Add xmlns="${CALCULATOR_NS}"><intA>2</intA><intB xmlns="">3</intB></Add>`,
  };
  for (const version of VERSIONS) {
    for (const [label, body] of Object.entries(cases)) {
      assertFault(t, await soap(version, envelope(version, body), `"${ACTION}"`), version, 'Client', label);
    }
  }
});

test.serial('a body that names no operation of the contract, or several, is a client fault', async (t) => {
  const cases = {
    'an unknown element': `<Nope xmlns="${CALCULATOR_NS}"><intA>2</intA></Nope>`,
    'the operation in another namespace': add('2', '3', 'http://example.com/other/'),
    'the operation in no namespace': '<Add><intA>2</intA><intB>3</intB></Add>',
    'two operations': add('2', '3') + add('4', '5'),
    'an empty Body': '',
  };
  for (const version of VERSIONS) {
    for (const [label, body] of Object.entries(cases))
      assertFault(t, await soap(version, envelope(version, body)), version, 'Client', label);
  }
});

test.serial(
  'an action naming another operation (SOAPAction in 1.1, the action parameter in 1.2), or none of the contract, is a client fault',
  async (t) => {
    for (const version of VERSIONS) {
      for (const action of [`"${CALCULATOR_NS}Subtract"`, `"${CALCULATOR_NS}Nope"`, '"urn:other:Add"']) {
        assertFault(t, await soap(version, envelope(version, add('2', '3')), action), version, 'Client', `action ${action}`);
      }
    }
  },
);

test.serial("VersionMismatch: the other version's envelope gets a fault of the version its media type names", async (t) => {
  assertFault(t, await soap('1.1', envelope('1.2', add('2', '3')), `"${ACTION}"`), '1.1', 'VersionMismatch', 'a 1.2 envelope as text/xml');
  assertFault(t, await soap('1.2', envelope('1.1', add('2', '3'))), '1.2', 'VersionMismatch', 'a 1.1 envelope as application/soap+xml');
});

test.serial(
  'MustUnderstand: a header block the operation does not read and must be understood is refused; one that need not be is ignored',
  async (t) => {
    const block = (value: string) => `<t:Session xmlns:t="urn:example:session" soap:mustUnderstand="${value}">42</t:Session>`;
    for (const [version, value] of [
      ['1.1', '1'],
      ['1.2', 'true'],
      ['1.2', '1'],
    ] as const) {
      assertFault(
        t,
        await soap(version, envelope(version, add('2', '3'), block(value))),
        version,
        'MustUnderstand',
        `mustUnderstand="${value}"`,
      );
    }
    for (const [version, value] of [
      ['1.1', '0'],
      ['1.2', 'false'],
      ['1.2', '0'],
    ] as const) {
      t.is(assertAdded(t, await soap(version, envelope(version, add('2', '3'), block(value))), version, `mustUnderstand="${value}"`), 5);
    }
  },
);

test.serial(
  '415: a media type that is neither SOAP version, or a charset other than UTF-8, to the SOAP endpoint and to an HTTP POST operation',
  async (t) => {
    const cases: Array<[url: string, contentType: string, body: string]> = [
      [calc.endpoint, 'application/json', '{"intA":2,"intB":3}'],
      [calc.endpoint, 'text/plain', envelope('1.1', add('2', '3'))],
      [calc.endpoint, 'text/xml; charset=iso-8859-1', envelope('1.1', add('2', '3'))],
      [`${calc.endpoint}/Add`, 'text/plain', 'intA=2&intB=3'],
      [`${calc.endpoint}/Add`, 'text/xml; charset=utf-8', envelope('1.1', add('2', '3'))],
      [`${calc.endpoint}/Add`, 'application/x-www-form-urlencoded; charset=iso-8859-1', 'intA=2&intB=3'],
    ];
    for (const [url, contentType, body] of cases)
      assertPlain(t, await post(url, { 'Content-Type': contentType }, body), 415, `${contentType} to ${url}`);
  },
);

/** A SOAP envelope of `version` calling Add, padded with a comment to exactly `bytes` bytes. */
function padded(version: SoapVersionName, bytes: number): string {
  const base = envelope(version, add('2', '3'));
  const text = base.replace('<soap:Body>', `<!--${'p'.repeat(bytes - Buffer.byteLength(base) - '<!---->'.length)}--><soap:Body>`);
  if (Buffer.byteLength(text) !== bytes) throw new Error('the padding is off');
  return text;
}

test.serial(
  '413: a body over the limit, to the SOAP endpoint and to an HTTP POST operation; one of exactly the limit is answered',
  async (t) => {
    for (const version of VERSIONS) {
      const over = await soap(version, padded(version, LIMIT + 1), `"${ACTION}"`);
      t.is(over.status, 413, `SOAP ${version}: ${over.body}`);
      t.is(assertAdded(t, await soap(version, padded(version, LIMIT), `"${ACTION}"`), version, 'exactly the limit'), 5);
    }
    const form = 'intA=2&intB=3&padding=';
    const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const over = await post(`${calc.endpoint}/Add`, formHeaders, form + 'p'.repeat(LIMIT + 1 - form.length));
    t.is(over.status, 413, `HTTP POST: ${over.body}`);
    const exactly = await post(`${calc.endpoint}/Add`, formHeaders, form + 'p'.repeat(LIMIT - form.length));
    t.is(exactly.status, 200, exactly.body);
  },
);

/** An HTTP GET or POST answer of CelsiusToFahrenheit: 200, text/xml, the contract's `string` element, valid. */
function assertConverted(t: ExecutionContext, answer: Answer, label: string): string {
  t.is(answer.status, 200, `${label}: status (${answer.body.slice(0, 300)})`);
  t.is(answer.contentType, 'text/xml; charset=utf-8', `${label}: Content-Type`);
  return readXml(answer.body, (doc) => {
    t.is(doc.root.name, 'string', label);
    t.is(namespaceOf(doc.root), TEMPERATURE_NS, label);
    assertValid(t, temperatureSchema, doc.root, `${label}: the answer (the contract's schema)`);
    return textOf(doc.root);
  });
}

test.serial('HTTP GET and POST: a call as the contract has it is answered with its element, valid against the contract', async (t) => {
  t.is(assertConverted(t, await get(`${temps.endpoint}/CelsiusToFahrenheit?Celsius=100`), 'GET'), '212');
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  t.is(assertConverted(t, await post(`${temps.endpoint}/CelsiusToFahrenheit`, form, 'Celsius=0'), 'POST'), '32');
});

test.serial(
  'HTTP GET and POST: an unknown operation is 404, a field repeated (in any letter case) or of the wrong type is 400, one line of text each',
  async (t) => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    assertPlain(t, await get(`${temps.endpoint}/Nope?Celsius=1`), 404, 'GET an unknown operation');
    assertPlain(t, await post(`${temps.endpoint}/Nope`, form, 'Celsius=1'), 404, 'POST an unknown operation');
    for (const query of ['Celsius=1&Celsius=2', 'Celsius=1&celsius=2']) {
      assertPlain(t, await get(`${temps.endpoint}/CelsiusToFahrenheit?${query}`), 400, `GET ${query}`);
      assertPlain(t, await post(`${temps.endpoint}/CelsiusToFahrenheit`, form, query), 400, `POST ${query}`);
    }
    // A field that is no xsd:int, over HTTP POST (the calculator has no HTTP GET port).
    assertPlain(t, await post(`${calc.endpoint}/Add`, form, 'intA=two&intB=3'), 400, 'POST intA=two');
  },
);

test.serial('after every bad request, the contracts still answer over every variant', async (t) => {
  for (const version of VERSIONS)
    t.is(assertAdded(t, await soap(version, envelope(version, add('40', '2')), `"${ACTION}"`), version, 'after'), 42);
  t.is(assertConverted(t, await get(`${temps.endpoint}/CelsiusToFahrenheit?Celsius=-40`), 'GET after'), '-40');
});
