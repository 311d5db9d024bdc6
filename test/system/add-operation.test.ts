/**
 * Issue 28's promise: adding an operation means schema/ plus one handler
 * module, nothing else. A copy of the repository (its tracked files, and a
 * link to its node_modules) gets GenerateSecret in schema/api.xsd and on every
 * port of schema/api.wsdl (test/fixtures/add-operation/schema.ts) and ONE new
 * file, src/service/handlers/generate-secret.ts (test/fixtures/add-operation/src/service/);
 * its generate step and type check must pass, and its service must answer
 * GenerateSecret over SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST and JSON (the
 * SOAP answers valid against the copy's schema), list it in its WSDL, help
 * pages, script proxy and /openapi.json, and still answer Pair and ValidatePin.
 */
import test from 'ava';
import { startAddedOperation, NS, type AddedOperation } from '../support/added-operation';
import { childElements, elementAt, readXml, textOf, type XmlElement } from '../support/readers';

/** xsd:dateTime as the service writes it (UTC). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let added: AddedOperation | undefined;

test.before(async (t) => {
  t.timeout(420_000, 'copy, generate, type-check and start the copy');
  added = await startAddedOperation(); // test/support/added-operation.ts
});

test.after.always(async () => {
  await added?.close();
});

/** libxml2's complaint when `element` is invalid against the copy's schema/api.xsd; [] when valid. */
const valid = (element: XmlElement): string[] => added!.schemaErrors(element);

async function send(path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(`${added!.url}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
  return { status: response.status, text: await response.text() };
}

const soapEnvelope = (version: '1.1' | '1.2', body: string) => {
  const ns = version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
};

function postSoap(version: '1.1' | '1.2', operation: string, body: string) {
  const action = `${NS}${operation}`;
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${action}"` }
      : { 'Content-Type': `application/soap+xml; charset=utf-8; action="${action}"` };
  return send('/api.asmx', { method: 'POST', headers, body: soapEnvelope(version, body) });
}

/** The SecretInfo (a SOAP result or an HTTP answer's root): `length` characters, a dateTime, an array of warnings. */
function checkSecretInfo(t: import('ava').ExecutionContext, info: XmlElement, length: number, alphabet: string): void {
  const fields = new Map(childElements(info).map((child) => [child.name, child]));
  const secret = textOf(fields.get('Secret')!);
  t.is(secret.length, length, 'the int length is honoured');
  t.true(
    [...secret].every((c) => alphabet.includes(c)),
    `the secret is of ${alphabet}`,
  );
  const created = textOf(fields.get('CreatedUtc')!);
  t.regex(created, DATE_TIME, 'CreatedUtc is an xsd:dateTime');
  t.true(Math.abs(Date.parse(created) - Date.now()) < 60_000, 'CreatedUtc is now');
  const warnings = fields.get('Warnings');
  t.truthy(warnings, 'Warnings is there');
  t.deepEqual(
    childElements(warnings!).map((w) => w.name),
    ['string'],
    'Warnings is an ArrayOfString (one warning: shorter than 16)',
  );
}

for (const version of ['1.1', '1.2'] as const) {
  test(`GenerateSecret over SOAP ${version}: the int length honoured, an answer valid against the copy's schema`, async (t) => {
    const answer = await postSoap(
      version,
      'GenerateSecret',
      `<GenerateSecret xmlns="${NS}"><length>12</length><alphabet>XYZ</alphabet></GenerateSecret>`,
    );
    t.is(answer.status, 200, answer.text);
    readXml(answer.text, (doc) => {
      const response = elementAt(doc, '//*[local-name()="Body"]/*[1]')!;
      t.is(response.name, 'GenerateSecretResponse');
      t.is(response.namespaceUri, NS);
      t.deepEqual(valid(response), [], 'the SOAP body is valid against the copy schema/api.xsd');
      const result = childElements(response)[0];
      t.is(result.name, 'GenerateSecretResult');
      checkSecretInfo(t, result, 12, 'XYZ');
    });
  });
}

const checkHttpAnswer = (t: import('ava').ExecutionContext, answer: { status: number; text: string }, length: number, alphabet: string) => {
  t.is(answer.status, 200, answer.text);
  readXml(answer.text, (doc) => {
    const root = doc.root;
    t.is(root.name, 'SecretInfo');
    t.deepEqual(valid(root), [], 'the answer is valid against the copy schema/api.xsd');
    checkSecretInfo(t, root, length, alphabet);
  });
};

test('GenerateSecret over HTTP GET', async (t) => {
  checkHttpAnswer(t, await send('/api.asmx/GenerateSecret?length=9&alphabet=AB'), 9, 'AB');
});

test('GenerateSecret over HTTP POST (a form; alphabet left out: Base32)', async (t) => {
  const answer = await send('/api.asmx/GenerateSecret', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'length=10',
  });
  checkHttpAnswer(t, answer, 10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
});

test('GenerateSecret over JSON', async (t) => {
  const answer = await send('/api.asmx/GenerateSecret', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ length: 7, alphabet: 'Q' }),
  });
  t.is(answer.status, 200, answer.text);
  const { d } = JSON.parse(answer.text) as { d: { Secret: string; CreatedUtc: string; Warnings: unknown } };
  t.is(d.Secret, 'QQQQQQQ', 'the int length is honoured');
  t.regex(d.CreatedUtc, /^\/Date\(\d+\)\/$/, "CreatedUtc is a date, as ASP.NET's JSON writes one");
  t.true(Math.abs(Number(/\d+/.exec(d.CreatedUtc)![0]) - Date.now()) < 60_000, 'CreatedUtc is now');
  t.true(Array.isArray(d.Warnings), 'Warnings is an array');
});

test('a length the handler refuses is the caller mistake (soap:Client)', async (t) => {
  const answer = await postSoap('1.1', 'GenerateSecret', `<GenerateSecret xmlns="${NS}"><length>0</length></GenerateSecret>`);
  t.is(answer.status, 500);
  t.regex(answer.text, /soap:Client/);
});

test('Pair and ValidatePin still answer in the copy', async (t) => {
  const pair = await postSoap(
    '1.1',
    'Pair',
    `<Pair xmlns="${NS}"><appName>App</appName><appInfo>a@example.com</appInfo><secretCode>abcdefghijklmnop</secretCode></Pair>`,
  );
  t.is(pair.status, 200, pair.text);
  readXml(pair.text, (doc) => {
    const response = elementAt(doc, '//*[local-name()="Body"]/*[1]')!;
    t.is(response.name, 'PairResponse');
    t.deepEqual(valid(response), []);
    t.regex(textOf(elementAt(response, './/*[local-name()="ManualSetupCode"]')!), /^[A-Z2-7]+$/);
  });
  const validate = await send('/api.asmx/ValidatePin?pin=000000&secretCode=abcdefghijklmnop');
  t.is(validate.status, 200, validate.text);
  readXml(validate.text, (doc) => {
    t.is(doc.root.name, 'boolean');
    t.true(['true', 'false'].includes(textOf(doc.root)));
  });
});

test("the copy's WSDL has GenerateSecret on every port type and binding", async (t) => {
  const answer = await send('/api.asmx?WSDL');
  t.is(answer.status, 200);
  readXml(answer.text, (doc) => {
    const operations = (kind: string) =>
      childElements(doc.root)
        .filter((e) => e.name === kind)
        .filter((e) => childElements(e).some((o) => o.name === 'operation' && o.attr('name')?.value === 'GenerateSecret'))
        .map((e) => e.attr('name')?.value);
    t.deepEqual(operations('portType'), ['AuthenticatorAPISoap', 'AuthenticatorAPIHttpGet', 'AuthenticatorAPIHttpPost']);
    t.deepEqual(operations('binding'), [
      'AuthenticatorAPISoap',
      'AuthenticatorAPISoap12',
      'AuthenticatorAPIHttpGet',
      'AuthenticatorAPIHttpPost',
    ]);
  });
  t.regex(answer.text, /<s:element name="GenerateSecret">/, 'the inline schema has its element');
});

test("the copy's help pages, script proxy and /openapi.json list GenerateSecret", async (t) => {
  const page = await send('/api.asmx?op=GenerateSecret');
  t.is(page.status, 200);
  t.regex(page.text, /<title>AuthenticatorAPI: GenerateSecret<\/title>/);
  t.regex(page.text, /Creates a random secret of the given length\./, 'the WSDL documentation');
  const index = await send('/api.asmx');
  t.regex(index.text, /op=GenerateSecret/, 'the index links its page');
  const proxy = await send('/api.asmx/js');
  t.regex(proxy.text, /GenerateSecret/, 'the script proxy has its method');
  const openapi = await send('/openapi.json');
  t.is(openapi.status, 200);
  const paths = Object.keys((JSON.parse(openapi.text) as { paths: Record<string, unknown> }).paths);
  t.true(
    paths.some((path) => path.endsWith('/GenerateSecret')),
    paths.join(', '),
  );
});
