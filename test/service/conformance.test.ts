/**
 * Conformance of a running service to the contract (schema/), the original's
 * wire format (the README's examples) and the settings: every operation over
 * every variant, each answer validated against the contract schema with
 * libxml2.
 *
 * Every PIN that must be accepted is checked against a secret used for no
 * other accepted PIN, so that replay protection (docs/security.md) cannot interfere.
 */
import test, { type ExecutionContext } from 'ava';
import { VARIANTS, type OperationName as Operation } from '../../generated/routes';
import type { Variant } from '../../src/runtime/definition';
import { setupCodeVectors } from '../support/vectors';
import {
  DEFAULT_TOTP,
  SOAP_VERSION,
  call,
  operationElement,
  readFault,
  send,
  soapEnvelope,
  type Answer,
  type Fields,
  type RequestOptions,
  type Target,
} from '../support/requests';
import type { Config } from '../../src/service/config';
import { decodeBase32, encodeBase32 } from '../../src/service/otp/base32';
import type { HashAlgorithm } from '../../src/service/otp/hmac';
import { totp, type TotpParams } from '../../src/service/otp/totp';
import { startTestService, type TestService } from '../support/service';
import {
  DEFAULT_NAMESPACE,
  SOAP_CONTENT_TYPES,
  SOAP_ENVELOPE_NAMESPACES,
  assertSoapEnvelope,
  assertXmlDeclaration,
  readPairingHtml,
  validateAgainstContract,
  validateAgainstSchema,
  validateElement,
} from '../support/xml-assertions';
import {
  attributeOf,
  childElements,
  elementAt,
  elementsAt,
  loadReaders,
  namespaceInScope,
  namespaceOf,
  prefixOf,
  readXml,
  standaloneXml,
  textOf,
  type XmlElement,
} from '../support/readers';

/** Secrets and the ManualSetupCode the reference service answered for them. */
const vectors = setupCodeVectors();

// ---------------------------------------------------------------------------
// Services

/** A fixed instant, 22.345 s into its 30-second step. */
const NOW = 1_750_000_012_345;

const services: TestService[] = [];
let main: TestService;

async function start(overrides: Partial<Config> = {}): Promise<TestService> {
  const service = await startTestService(overrides);
  services.push(service);
  service.clock.set(NOW);
  return service;
}

test.before(async () => {
  await loadReaders();
  main = await start();
});

test.after.always(async () => {
  await Promise.all(services.map((s) => s.close()));
});

// ---------------------------------------------------------------------------
// Requests

/** Calls `service` in its namespace, the SOAP envelope written as .NET-generated clients write it (xsi and xsd declared). */
const callAsDotNet = (
  service: Target,
  variant: Variant,
  operation: Operation,
  fields: Fields,
  options: RequestOptions = {},
): Promise<Answer> => call(service, variant, operation, fields, { schemaNamespaces: true, ...options });

// ---------------------------------------------------------------------------
// Reading answers

function expectedContentType(variant: Variant): string {
  return variant === 'soap12' ? SOAP_CONTENT_TYPES['1.2'] : 'text/xml; charset=utf-8';
}

function assertOk(t: ExecutionContext, answer: Answer, variant: Variant): void {
  t.is(answer.status, 200, `HTTP status (body: ${answer.body.slice(0, 300)})`);
  t.is(answer.contentType, expectedContentType(variant), 'Content-Type');
}

/** The element names (with namespace) of an element's children. */
const childNames = (element: XmlElement) => childElements(element).map((c) => `{${namespaceOf(c)}}${c.name}`);

/** SOAP: runs `use` on the operation response element, envelope rules checked, validated, with its namespace the default one declared on itself. */
function soapResponseElement<T>(
  t: ExecutionContext,
  answer: Answer,
  variant: Variant,
  operation: Operation,
  ns: string,
  use: (element: XmlElement) => T,
): T {
  return assertSoapEnvelope(t, answer.body, SOAP_VERSION[variant]!, (element) => {
    const validation = validateElement(element, ns);
    t.true(validation.valid, `the body element is valid against the contract schema: ${validation.errors.join('; ')}`);
    t.is(element.name, `${operation}Response`);
    t.is(namespaceOf(element), ns);
    t.falsy(prefixOf(element), 'the response element has no prefix');
    t.deepEqual(element.nsDeclarations, { '': ns }, 'the namespace is declared as the default namespace on the operation element');
    return use(element);
  });
}

/** HTTP GET/POST: runs `use` on the root element, declaration and schema checked. */
function httpRootElement<T>(t: ExecutionContext, answer: Answer, rootName: string, ns: string, use: (root: XmlElement) => T): T {
  return readXml(answer.body, (doc) => {
    assertXmlDeclaration(t, answer.body, doc);
    const validation = validateAgainstContract(answer.body, ns);
    t.true(validation.valid, `the answer is valid against the contract schema: ${validation.errors.join('; ')}`);
    const root = doc.root;
    t.is(root.name, rootName);
    t.is(namespaceOf(root), ns);
    t.falsy(prefixOf(root), 'the root element is in the default namespace');
    return use(root);
  });
}

interface PairingInfo {
  manualSetupCode: string;
  html: string;
}

function readPair(t: ExecutionContext, answer: Answer, variant: Variant, ns: string): PairingInfo {
  assertOk(t, answer, variant);
  const read = (info: XmlElement): PairingInfo => {
    t.deepEqual(childNames(info), [`{${ns}}ManualSetupCode`, `{${ns}}Html`]);
    const [code, html] = childElements(info);
    return { manualSetupCode: textOf(code), html: textOf(html) };
  };
  if (variant === 'soap11' || variant === 'soap12') {
    return soapResponseElement(t, answer, variant, 'Pair', ns, (response) => {
      t.deepEqual(childNames(response), [`{${ns}}PairResult`]);
      return read(childElements(response)[0]);
    });
  }
  return httpRootElement(t, answer, 'PairingInfo', ns, read);
}

function readValidatePin(t: ExecutionContext, answer: Answer, variant: Variant, ns: string): boolean {
  assertOk(t, answer, variant);
  const text =
    variant === 'soap11' || variant === 'soap12'
      ? soapResponseElement(t, answer, variant, 'ValidatePin', ns, (response) => {
          t.deepEqual(childNames(response), [`{${ns}}ValidatePinResult`]);
          return textOf(childElements(response)[0]);
        })
      : httpRootElement(t, answer, 'boolean', ns, (value) => {
          t.deepEqual(childNames(value), []);
          return textOf(value);
        });
  t.true(text === 'true' || text === 'false', `the boolean is written true or false (found ${JSON.stringify(text)})`);
  return text === 'true';
}

/** A client error: SOAP fault soap:Client / soap:Sender with HTTP 500, or HTTP 400 text/plain with one line. */
function assertClientError(t: ExecutionContext, answer: Answer, variant: Variant): string {
  const version = SOAP_VERSION[variant];
  if (version) {
    t.is(answer.status, 500, 'a SOAP fault comes with HTTP 500');
    t.is(answer.contentType, SOAP_CONTENT_TYPES[version]);
    assertSoapEnvelope(t, answer.body, version, (fault) => {
      t.is(fault.name, 'Fault');
      t.is(namespaceOf(fault), SOAP_ENVELOPE_NAMESPACES[version]);
    });
    const { code, codeNamespace, codeLocalName, reason } = readFault(answer.body, version);
    t.is(code, version === '1.1' ? 'soap:Client' : 'soap:Sender');
    t.is(codeNamespace, SOAP_ENVELOPE_NAMESPACES[version]);
    t.is(codeLocalName, version === '1.1' ? 'Client' : 'Sender');
    t.true(reason.trim().length > 0, 'the fault has a reason');
    t.false(reason.includes('\n'), 'the reason is one sentence, not a stack trace');
    return reason;
  }
  t.is(answer.status, 400);
  t.is(answer.contentType, 'text/plain; charset=utf-8');
  t.is(answer.body.trimEnd().split('\n').length, 1, 'one line');
  return answer.body.trim();
}

// ---------------------------------------------------------------------------
// PINs

let counter = 0;
/** A fresh secret (ASCII, at least 10 bytes): one per accepted PIN. */
const freshSecret = (label: string) => `${label}-${++counter}-conformance`;

const utf8 = (secret: string) => Buffer.from(secret, 'utf8');

/** The PIN of the step containing `ms` (+ `steps` steps). */
function pinAt(key: Uint8Array, ms: number, params: TotpParams = DEFAULT_TOTP, steps = 0): string {
  return totp(key, params, Math.floor(ms / 1000) + steps * params.period);
}

/** A well-formed PIN that belongs to no step within `window + 1` steps of `ms`. */
function wrongPin(key: Uint8Array, ms: number, params: TotpParams = DEFAULT_TOTP, window = 10): string {
  const near = new Set<string>();
  for (let s = -window - 1; s <= window + 1; s++) near.add(pinAt(key, ms, params, s));
  const modulus = 10 ** params.digits;
  let candidate = (Number(pinAt(key, ms, params)) + 1) % modulus;
  while (near.has(String(candidate).padStart(params.digits, '0'))) candidate = (candidate + 1) % modulus;
  return String(candidate).padStart(params.digits, '0');
}

/** The query parameters of the otpauth URI in a Pair answer's Html. */
function otpauthOf(html: string): URL {
  const { href } = readPairingHtml(html);
  if (href === undefined) throw new Error('the Html has no link');
  const uri = new URL(href);
  if (uri.protocol !== 'otpauth:' || uri.host !== 'totp') throw new Error(`not an otpauth TOTP URI: ${href}`);
  return uri;
}

// ---------------------------------------------------------------------------
// The eight calls

for (const variant of VARIANTS) {
  test(`Pair over ${variant}: 200, exact Content-Type, schema-valid answer, reference ManualSetupCode`, async (t) => {
    const answer = await callAsDotNet(main, variant, 'Pair', {
      appName: 'Conformance',
      appInfo: 'alice@example.com',
      secretCode: '12345678BXYT',
    });
    const { manualSetupCode, html } = readPair(t, answer, variant, DEFAULT_NAMESPACE);
    t.is(manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA');
    const link = readPairingHtml(html);
    t.is(link.title, 'Manually pair with GEZDGNBVGY3TQQSYLFKA');
    t.is(otpauthOf(html).searchParams.get('secret'), 'GEZDGNBVGY3TQQSYLFKA');
  });

  test(`ValidatePin over ${variant}: true for the PIN of the service's clock, false for a wrong PIN`, async (t) => {
    const secret = freshSecret(`validate-${variant}`);
    const right = await callAsDotNet(main, variant, 'ValidatePin', { pin: pinAt(utf8(secret), NOW), secretCode: secret });
    t.true(readValidatePin(t, right, variant, DEFAULT_NAMESPACE));
    const wrong = await callAsDotNet(main, variant, 'ValidatePin', { pin: wrongPin(utf8(secret), NOW), secretCode: secret });
    t.false(readValidatePin(t, wrong, variant, DEFAULT_NAMESPACE));
  });
}

test('ManualSetupCode equals the reference service for every vector, over all four variants', async (t) => {
  // The reference pairs any secret; ours refuses short ones by default, so the minimum is lowered here.
  const service = await start({ minSecretBytes: 1 });
  t.true(vectors.length >= 10);
  for (const vector of vectors) {
    for (const variant of VARIANTS) {
      const answer = await callAsDotNet(service, variant, 'Pair', { appName: 'Vectors', appInfo: 'vector', secretCode: vector.secretCode });
      t.is(
        readPair(t, answer, variant, DEFAULT_NAMESPACE).manualSetupCode,
        vector.ManualSetupCode,
        `${variant} ${JSON.stringify(vector.secretCode)}`,
      );
    }
  }
});

test('ValidatePin ignores white space around the PIN and answers false for a malformed PIN', async (t) => {
  const secret = freshSecret('spaces');
  const pin = pinAt(utf8(secret), NOW);
  t.true(
    readValidatePin(
      t,
      await callAsDotNet(main, 'httpPost', 'ValidatePin', { pin: ` ${pin}\t`, secretCode: secret }),
      'httpPost',
      DEFAULT_NAMESPACE,
    ),
  );
  const other = freshSecret('malformed');
  const otherPin = pinAt(utf8(other), NOW);
  for (const pin of [otherPin.slice(1), `${otherPin}0`, `${otherPin.slice(0, 5)}x`, '']) {
    t.false(
      readValidatePin(t, await callAsDotNet(main, 'httpGet', 'ValidatePin', { pin, secretCode: other }), 'httpGet', DEFAULT_NAMESPACE),
      JSON.stringify(pin),
    );
  }
});

test('a missing secretCode is a client error in every variant, for both operations', async (t) => {
  for (const variant of VARIANTS) {
    const reasons = [
      assertClientError(t, await callAsDotNet(main, variant, 'ValidatePin', { pin: '123456' }), variant),
      assertClientError(t, await callAsDotNet(main, variant, 'Pair', { appName: 'A', appInfo: 'b' }), variant),
    ];
    for (const reason of reasons) t.true(reason.includes('secretCode'), `${variant}: ${reason}`);
  }
});

test('default drift window: a PIN one step off is accepted, two steps off refused', async (t) => {
  t.is(main.config.driftWindow, 1);
  for (const steps of [-2, -1, 0, 1, 2]) {
    const secret = freshSecret(`default-drift${steps}`);
    const answer = await callAsDotNet(main, 'httpGet', 'ValidatePin', {
      pin: pinAt(utf8(secret), NOW, DEFAULT_TOTP, steps),
      secretCode: secret,
    });
    t.is(readValidatePin(t, answer, 'httpGet', DEFAULT_NAMESPACE), Math.abs(steps) <= 1, `${steps} steps`);
  }
});

// ---------------------------------------------------------------------------
// SOAPAction and action

test('SOAP 1.1: SOAPAction quoted, unquoted or absent all reach the operation', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  for (const soapAction of [`"${ns}Pair"`, `${ns}Pair`, null]) {
    const answer = await callAsDotNet(main, 'soap11', 'Pair', { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' }, { soapAction });
    t.is(readPair(t, answer, 'soap11', ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', String(soapAction));
  }
  for (const soapAction of [`"${ns}ValidatePin"`, `${ns}ValidatePin`, null]) {
    const secret = freshSecret('soapaction');
    const answer = await callAsDotNet(main, 'soap11', 'ValidatePin', { pin: pinAt(utf8(secret), NOW), secretCode: secret }, { soapAction });
    t.true(readValidatePin(t, answer, 'soap11', ns), String(soapAction));
  }
});

test('SOAP 1.1: a SOAPAction naming another operation is a soap:Client fault with HTTP 500', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  for (const soapAction of [`"${ns}ValidatePin"`, `"${ns}Unknown"`, '"urn:other/Pair"']) {
    const answer = await callAsDotNet(main, 'soap11', 'Pair', { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' }, { soapAction });
    assertClientError(t, answer, 'soap11');
  }
});

test('SOAP 1.2: the action parameter of the Content-Type, quoted, unquoted or absent', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  for (const contentType of [
    `application/soap+xml; charset=utf-8; action="${ns}Pair"`,
    `application/soap+xml;charset=utf-8;action=${ns}Pair`,
    'application/soap+xml; charset=utf-8',
  ]) {
    const answer = await callAsDotNet(main, 'soap12', 'Pair', { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' }, { contentType });
    t.is(readPair(t, answer, 'soap12', ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', contentType);
  }
  const secret = freshSecret('action');
  const answer = await callAsDotNet(
    main,
    'soap12',
    'ValidatePin',
    { pin: pinAt(utf8(secret), NOW), secretCode: secret },
    {
      contentType: `application/soap+xml; action="${ns}ValidatePin"; charset=utf-8`,
    },
  );
  t.true(readValidatePin(t, answer, 'soap12', ns));
});

test('SOAP 1.2: an action naming another operation is a soap:Sender fault with HTTP 500', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  const answer = await callAsDotNet(
    main,
    'soap12',
    'Pair',
    { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' },
    {
      contentType: `application/soap+xml; charset=utf-8; action="${ns}ValidatePin"`,
    },
  );
  assertClientError(t, answer, 'soap12');
});

// ---------------------------------------------------------------------------
// Case-insensitive paths and fields

test('the endpoint path and the operation segment match case-insensitively', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  const secret = freshSecret('path');
  const get = await callAsDotNet(
    main,
    'httpGet',
    'ValidatePin',
    { pin: pinAt(utf8(secret), NOW), secretCode: secret },
    { path: '/API.asmx/validatepin' },
  );
  t.true(readValidatePin(t, get, 'httpGet', ns));
  const post = await callAsDotNet(
    main,
    'httpPost',
    'Pair',
    { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' },
    { path: '/Api.ASMX/PAIR' },
  );
  t.is(readPair(t, post, 'httpPost', ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA');
  for (const variant of ['soap11', 'soap12'] as const) {
    const soap = await callAsDotNet(
      main,
      variant,
      'Pair',
      { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' },
      { path: '/API.ASMX' },
    );
    t.is(readPair(t, soap, variant, ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', variant);
  }
});

test('the other spellings of a call path the router takes (a trailing slash, percent-encoded letters) answer as the usual paths do', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  const pair = { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' };
  for (const path of ['/api.asmx/Pair/', '/api.asmx/%50air', '/API.asmx/pai%72/']) {
    for (const variant of ['httpGet', 'httpPost'] as const) {
      const answer = await callAsDotNet(main, variant, 'Pair', pair, { path });
      t.is(readPair(t, answer, variant, ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', `${variant} ${path}`);
    }
  }
  for (const variant of ['soap11', 'soap12'] as const) {
    const answer = await callAsDotNet(main, variant, 'Pair', pair, { path: '/api.asmx/' });
    t.is(readPair(t, answer, variant, ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', `${variant} /api.asmx/`);
  }
  const secret = freshSecret('spelling');
  const get = await callAsDotNet(
    main,
    'httpGet',
    'ValidatePin',
    { pin: pinAt(utf8(secret), NOW), secretCode: secret },
    { path: '/api.asmx/ValidatePin/' },
  );
  t.true(readValidatePin(t, get, 'httpGet', ns));
});

test('HTTP GET and POST field names match case-insensitively', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  const secret = freshSecret('fields');
  const get = await callAsDotNet(main, 'httpGet', 'ValidatePin', { PIN: pinAt(utf8(secret), NOW), SecretCode: secret });
  t.true(readValidatePin(t, get, 'httpGet', ns));
  const post = await callAsDotNet(main, 'httpPost', 'Pair', { APPNAME: 'Case', AppInfo: 'bob', SECRETCODE: '12345678BXYT' });
  const pair = readPair(t, post, 'httpPost', ns);
  t.is(pair.manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA');
  t.is(otpauthOf(pair.html).searchParams.get('issuer'), 'Case', 'APPNAME was read as appName');
});

// ---------------------------------------------------------------------------
// WSDL

const WSDL = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  s: 'http://www.w3.org/2001/XMLSchema',
};

const PORTS: readonly [name: string, address: string][] = [
  ['AuthenticatorAPISoap', 'soap:address'],
  ['AuthenticatorAPISoap12', 'soap12:address'],
  ['AuthenticatorAPIHttpGet', 'http:address'],
  ['AuthenticatorAPIHttpPost', 'http:address'],
];

async function fetchWsdl(service: TestService, path = '/api.asmx?WSDL'): Promise<Answer> {
  return send(service.url + path, {});
}

/** Checks a served WSDL; returns its inline schema as a document of its own (XML text). */
function checkWsdl(t: ExecutionContext, answer: Answer, ns: string, address: string): string {
  t.is(answer.status, 200);
  t.is(answer.contentType, 'text/xml; charset=utf-8');
  return readXml(answer.body, (doc) => {
    assertXmlDeclaration(t, answer.body, doc);
    const definitions = doc.root;
    t.is(definitions.name, 'definitions');
    t.is(namespaceOf(definitions), WSDL.wsdl);
    t.is(attributeOf(definitions, 'targetNamespace'), ns);
    t.is(namespaceInScope(definitions, 'tns'), ns, 'tns is the target namespace');

    const services = elementsAt(doc, '/wsdl:definitions/wsdl:service', WSDL);
    t.deepEqual(
      services.map((s) => attributeOf(s, 'name')),
      ['AuthenticatorAPI'],
    );
    const ports = elementsAt(services[0], 'wsdl:port', WSDL);
    t.deepEqual(
      ports.map((p) => attributeOf(p, 'name')),
      PORTS.map(([name]) => name),
    );
    for (const [name, addressElement] of PORTS) {
      const port = elementAt(services[0], `wsdl:port[@name='${name}']`, WSDL);
      const addresses = port ? elementsAt(port, '*', WSDL) : [];
      t.is(addresses.length, 1, `${name} has one address element`);
      t.is(attributeOf(port && elementAt(port, addressElement, WSDL), 'location'), address, `${name} address`);
      t.is(attributeOf(port, 'binding'), `tns:${name}`);
      t.truthy(elementAt(doc, `/wsdl:definitions/wsdl:binding[@name='${name}']`, WSDL), `binding ${name} exists`);
    }

    for (const [binding, prefix] of [
      ['AuthenticatorAPISoap', 'soap'],
      ['AuthenticatorAPISoap12', 'soap12'],
    ] as const) {
      const actions = elementsAt(doc, `/wsdl:definitions/wsdl:binding[@name='${binding}']/wsdl:operation/${prefix}:operation`, WSDL).map(
        (o) => [attributeOf(o, 'soapAction'), attributeOf(o, 'style')],
      );
      t.deepEqual(
        actions,
        [
          [`${ns}Pair`, 'document'],
          [`${ns}ValidatePin`, 'document'],
        ],
        `${binding} soapAction values`,
      );
    }
    for (const binding of ['AuthenticatorAPIHttpGet', 'AuthenticatorAPIHttpPost']) {
      const locations = elementsAt(doc, `/wsdl:definitions/wsdl:binding[@name='${binding}']/wsdl:operation/http:operation`, WSDL).map((o) =>
        attributeOf(o, 'location'),
      );
      t.deepEqual(locations, ['/Pair', '/ValidatePin'], `${binding} locations`);
    }

    const schemas = elementsAt(doc, '/wsdl:definitions/wsdl:types/s:schema', WSDL);
    t.is(schemas.length, 1, 'one inline schema');
    t.is(attributeOf(schemas[0], 'targetNamespace'), ns);
    t.is(attributeOf(schemas[0], 'elementFormDefault'), 'qualified');
    return standaloneXml(schemas[0]);
  });
}

/** The inline schema validates real requests and refuses wrong ones. */
function checkInlineSchema(t: ExecutionContext, schema: string, ns: string): void {
  const valid = (xml: string) => validateAgainstSchema(xml, schema).valid;
  const pair = soapEnvelope('1.1', operationElement('Pair', { appName: 'A', appInfo: 'b', secretCode: 'c' }, ns), {
    schemaNamespaces: true,
  });
  const pairValid = readXml(pair, (doc) => validateElement(elementAt(doc, '//*[local-name()="Pair"]')!, ns, schema).valid);
  t.true(pairValid, 'a sample Pair request is valid');
  t.true(
    valid(`<ValidatePin xmlns="${ns}"><pin>123456</pin><secretCode>s</secretCode></ValidatePin>`),
    'a sample ValidatePin request is valid',
  );
  t.true(valid(`<Pair xmlns="${ns}"/>`), 'every request field is optional');
  t.true(valid(`<ValidatePinResponse xmlns="${ns}"><ValidatePinResult>true</ValidatePinResult></ValidatePinResponse>`));
  t.true(
    valid(`<PairingInfo xmlns="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>`),
    'PairingInfo is nillable',
  );
  t.true(valid(`<boolean xmlns="${ns}">false</boolean>`));
  t.false(valid(`<Pair xmlns="${ns}"><secretCode>c</secretCode><appName>A</appName></Pair>`), 'fields out of order are refused');
  t.false(valid(`<ValidatePin xmlns="${ns}"><pin>1</pin><token>x</token></ValidatePin>`), 'an unknown field is refused');
  t.false(valid(`<ValidatePinResponse xmlns="${ns}"/>`), 'ValidatePinResult is required');
  t.false(valid(`<Pair xmlns="urn:not-the-contract/"/>`), 'another namespace is refused');
}

for (const query of ['WSDL', 'wsdl']) {
  test(`GET /api.asmx?${query}: the WSDL, four ports at this server's /api.asmx, an inline schema that validates requests`, async (t) => {
    const schema = checkWsdl(t, await fetchWsdl(main, `/api.asmx?${query}`), DEFAULT_NAMESPACE, `${main.url}/api.asmx`);
    checkInlineSchema(t, schema, DEFAULT_NAMESPACE);
  });
}

test('the WSDL is also served at a differently cased path and query', async (t) => {
  checkWsdl(t, await fetchWsdl(main, '/API.asmx?Wsdl'), DEFAULT_NAMESPACE, `${main.url}/api.asmx`);
});

test('publicUrl puts that address in the four ports of the WSDL', async (t) => {
  const service = await start({ publicUrl: 'https://pins.example.com/auth' });
  checkWsdl(t, await fetchWsdl(service), DEFAULT_NAMESPACE, 'https://pins.example.com/auth/api.asmx');
});

// ---------------------------------------------------------------------------
// Another namespace

test('a service in namespace urn:example:pins/ uses it in the WSDL, soapAction values and every answer', async (t) => {
  const ns = 'urn:example:pins/';
  const service = await start({ namespace: ns });
  const schema = checkWsdl(t, await fetchWsdl(service), ns, `${service.url}/api.asmx`);
  checkInlineSchema(t, schema, ns);

  for (const variant of VARIANTS) {
    const pairAnswer = await callAsDotNet(
      service,
      variant,
      'Pair',
      { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' },
      { soapAction: `"${ns}Pair"` },
    );
    t.is(readPair(t, pairAnswer, variant, ns).manualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', variant);
    if (variant.startsWith('http')) {
      t.false(validateAgainstContract(pairAnswer.body, DEFAULT_NAMESPACE).valid, 'not valid in the default namespace');
    }
    const secret = freshSecret(`ns-${variant}`);
    const pinAnswer = await callAsDotNet(service, variant, 'ValidatePin', { pin: pinAt(utf8(secret), NOW), secretCode: secret });
    t.true(readValidatePin(t, pinAnswer, variant, ns), variant);
  }
});

test('a service in namespace urn:example:pins/ refuses a request in the default namespace with a client fault', async (t) => {
  const ns = 'urn:example:pins/';
  const service = await start({ namespace: ns });
  const fields = { appName: 'A', appInfo: 'b', secretCode: '12345678BXYT' };
  for (const variant of ['soap11', 'soap12'] as const) {
    // The body element in the default namespace, with no action, the old action or the new one.
    assertClientError(
      t,
      await callAsDotNet(service, variant, 'Pair', fields, {
        bodyNamespace: DEFAULT_NAMESPACE,
        soapAction: null,
        contentType: variant === 'soap12' ? 'application/soap+xml; charset=utf-8' : undefined,
      }),
      variant,
    );
    assertClientError(
      t,
      await callAsDotNet(service, variant, 'Pair', fields, {
        bodyNamespace: DEFAULT_NAMESPACE,
        soapAction: `"${DEFAULT_NAMESPACE}Pair"`,
        contentType: variant === 'soap12' ? `application/soap+xml; charset=utf-8; action="${DEFAULT_NAMESPACE}Pair"` : undefined,
      }),
      variant,
    );
    assertClientError(t, await callAsDotNet(service, variant, 'Pair', fields, { bodyNamespace: DEFAULT_NAMESPACE }), variant);
    // The right body with the default namespace's action.
    assertClientError(
      t,
      await callAsDotNet(service, variant, 'Pair', fields, {
        soapAction: `"${DEFAULT_NAMESPACE}Pair"`,
        contentType: variant === 'soap12' ? `application/soap+xml; charset=utf-8; action="${DEFAULT_NAMESPACE}Pair"` : undefined,
      }),
      variant,
    );
  }
});

// ---------------------------------------------------------------------------
// Settings

test('default settings: the otpauth URI carries only secret and issuer', async (t) => {
  const answer = await callAsDotNet(main, 'httpGet', 'Pair', { appName: 'Defaults', appInfo: 'carol', secretCode: '12345678BXYT' });
  const uri = otpauthOf(readPair(t, answer, 'httpGet', DEFAULT_NAMESPACE).html);
  t.deepEqual([...uri.searchParams.keys()].sort(), ['issuer', 'secret']);
});

test('secretEncoding base32: the secret is Base32-decoded for Pair and ValidatePin, invalid Base32 is a client error', async (t) => {
  const service = await start({ secretEncoding: 'base32' });
  const ns = DEFAULT_NAMESPACE;
  for (const secretCode of ['JBSWY3DPEHPK3PXP', 'jbsw y3dp ehpk 3pxp', 'JBSWY3DPEHPK3PXP======']) {
    for (const variant of VARIANTS) {
      const answer = await callAsDotNet(service, variant, 'Pair', { appName: 'B32', appInfo: 'dave', secretCode });
      const pair = readPair(t, answer, variant, ns);
      t.is(pair.manualSetupCode, 'JBSWY3DPEHPK3PXP', `${variant} ${secretCode}`);
      t.is(otpauthOf(pair.html).searchParams.get('secret'), 'JBSWY3DPEHPK3PXP');
    }
  }
  for (const variant of VARIANTS) {
    const secret = encodeBase32(Buffer.from(freshSecret(`b32-${variant}`)));
    const key = decodeBase32(secret);
    const right = await callAsDotNet(service, variant, 'ValidatePin', { pin: pinAt(key, NOW), secretCode: secret });
    t.true(readValidatePin(t, right, variant, ns), `${variant}: PIN of the decoded key`);
    const utf8Pin = pinAt(utf8(secret), NOW);
    t.not(utf8Pin, pinAt(key, NOW));
    const asText = await callAsDotNet(service, variant, 'ValidatePin', { pin: utf8Pin, secretCode: secret });
    t.false(readValidatePin(t, asText, variant, ns), `${variant}: PIN of the UTF-8 bytes of the text`);
  }
  for (const variant of VARIANTS) {
    // A character outside the alphabet, an impossible length (14 characters), a non-ASCII letter.
    for (const secretCode of ['JBSWY3DPEHPK3PX1', 'JBSWY3DPEHPK3P', 'JBSWY3DPÉHPK3PXP']) {
      assertClientError(t, await callAsDotNet(service, variant, 'Pair', { appName: 'B32', appInfo: 'dave', secretCode }), variant);
      assertClientError(t, await callAsDotNet(service, variant, 'ValidatePin', { pin: '123456', secretCode }), variant);
    }
  }
});

interface TotpCase {
  title: string;
  overrides: Partial<Config>;
  params: TotpParams;
  /** otpauth parameters beyond secret and issuer. */
  uriParams: Record<string, string>;
  /** PINs the default settings would give, all of which must be refused. */
  refused: (key: Uint8Array) => string[];
}

const TOTP_CASES: TotpCase[] = [
  {
    title: 'digits 8',
    overrides: { digits: 8 },
    params: { algorithm: 'SHA1', digits: 8, period: 30 },
    uriParams: { digits: '8' },
    refused: (key) => [pinAt(key, NOW)],
  },
  {
    title: 'algorithm SHA256',
    overrides: { algorithm: 'SHA256' as HashAlgorithm },
    params: { algorithm: 'SHA256', digits: 6, period: 30 },
    uriParams: { algorithm: 'SHA256' },
    refused: (key) => [pinAt(key, NOW)],
  },
  {
    title: 'period 60',
    overrides: { period: 60 },
    params: { algorithm: 'SHA1', digits: 6, period: 60 },
    uriParams: { period: '60' },
    refused: (key) => [pinAt(key, NOW), pinAt(key, NOW, DEFAULT_TOTP, 3)],
  },
];

for (const c of TOTP_CASES) {
  test(`${c.title}: changes the PIN accepted and the otpauth URI parameters`, async (t) => {
    const service = await start(c.overrides);
    const ns = DEFAULT_NAMESPACE;
    const pairAnswer = await callAsDotNet(service, 'httpGet', 'Pair', { appName: 'Settings', appInfo: 'erin', secretCode: '12345678BXYT' });
    const uri = otpauthOf(readPair(t, pairAnswer, 'httpGet', ns).html);
    const expected = { secret: 'GEZDGNBVGY3TQQSYLFKA', issuer: 'Settings', ...c.uriParams };
    t.deepEqual(Object.fromEntries(uri.searchParams), expected);

    for (const variant of VARIANTS) {
      const secret = freshSecret(`${c.title}-${variant}`);
      const key = utf8(secret);
      const pin = pinAt(key, NOW, c.params);
      t.is(pin.length, c.params.digits);
      t.true(
        readValidatePin(t, await callAsDotNet(service, variant, 'ValidatePin', { pin, secretCode: secret }), variant, ns),
        `${variant}: PIN with these settings`,
      );
      const window = new Set([-1, 0, 1].map((s) => pinAt(key, NOW, c.params, s)));
      for (const other of c.refused(key)) {
        t.false(window.has(other), 'the default-settings PIN differs from every accepted one');
        t.false(
          readValidatePin(t, await callAsDotNet(service, variant, 'ValidatePin', { pin: other, secretCode: secret }), variant, ns),
          `${variant}: PIN with default settings`,
        );
      }
    }
  });
}

test('period 60: the drift window counts 60-second steps', async (t) => {
  const service = await start({ period: 60 });
  const params: TotpParams = { algorithm: 'SHA1', digits: 6, period: 60 };
  for (const steps of [-2, -1, 1, 2]) {
    const secret = freshSecret(`p60-drift${steps}`);
    const answer = await callAsDotNet(service, 'httpGet', 'ValidatePin', {
      pin: pinAt(utf8(secret), NOW, params, steps),
      secretCode: secret,
    });
    t.is(readValidatePin(t, answer, 'httpGet', DEFAULT_NAMESPACE), Math.abs(steps) <= 1, `${steps} steps of 60 s`);
  }
});

// ---------------------------------------------------------------------------
// Drift windows, with the service's clock moved

/** For clocks at both ends of a step, which of `offsets` (in steps) ValidatePin accepts. */
async function acceptedOffsets(service: TestService, offsets: number[]): Promise<Record<string, number[]>> {
  const stepStart = Math.floor(NOW / 30_000) * 30_000;
  const result: Record<string, number[]> = {};
  for (const [label, clock] of [
    ['step start', stepStart],
    ['step end', stepStart + 29_999],
    ['a later step', stepStart + 7 * 30_000 + 15_000],
  ] as const) {
    service.clock.set(clock);
    result[label] = [];
    for (const steps of offsets) {
      const secret = freshSecret(`drift${service.config.driftWindow}`);
      const answer = await callAsDotNet(service, 'httpGet', 'ValidatePin', {
        pin: pinAt(utf8(secret), clock, DEFAULT_TOTP, steps),
        secretCode: secret,
      });
      if (answer.status !== 200) throw new Error(`ValidatePin answered ${answer.status}: ${answer.body}`);
      if (readXml(answer.body, (doc) => textOf(doc.root)) === 'true') result[label].push(steps);
    }
  }
  return result;
}

test('drift window 1 accepts ±1 step and refuses ±2 (clock moved with clock.set)', async (t) => {
  const service = await start({ driftWindow: 1 });
  const accepted = await acceptedOffsets(service, [-3, -2, -1, 0, 1, 2, 3]);
  for (const label of Object.keys(accepted)) t.deepEqual(accepted[label], [-1, 0, 1], label);
});

test("drift window 10 accepts ±10 steps (the reference's five minutes) and refuses ±11", async (t) => {
  const service = await start({ driftWindow: 10 });
  const accepted = await acceptedOffsets(service, [-11, -10, -5, 0, 5, 10, 11]);
  for (const label of Object.keys(accepted)) t.deepEqual(accepted[label], [-10, -5, 0, 5, 10], label);
});

test('drift window 0 accepts only the current step', async (t) => {
  const service = await start({ driftWindow: 0 });
  const accepted = await acceptedOffsets(service, [-1, 0, 1]);
  for (const label of Object.keys(accepted)) t.deepEqual(accepted[label], [0], label);
});
