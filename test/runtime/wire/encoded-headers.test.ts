/**
 * Encoded header blocks (`soap:header use="encoded"`), on test/fixtures/outside/encoded-headers.wsdl (SoftLayer's
 * shape: credentials and paging as encoded structs and arrays, a total sent back): blocks as PHP SoapClient writes
 * them (xsi:type on every value), as Axis 1 writes them (a reference to a multiRef in the Body), and with no
 * xsi:type at all reach the handler typed; the block the handler sets is written encoded and reads back valid;
 * a wrong xsi:type or a reference to no id is a client fault; the help page's samples carry encoded blocks.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract, type LoadedContract } from '../../../codegen/harness/load-generated';
import { literalHeader } from '../../../src/runtime/host';
import type { SoapEncoding } from '../../../src/runtime/definition';
import { loadXmlEngine, safeParseOptions, xml, type XmlElement, type XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../../src/runtime/xml/xml-schema';
import { childElements } from '../../../src/runtime/xml/xml-codec';
import { type ServedFixture, serveFixture } from '../../support/fixture-contract';

const WSDL = join(__dirname, '..', '..', 'fixtures', 'outside', 'encoded-headers.wsdl');
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let loaded: LoadedContract;
let served: ServedFixture;
let url: string;
let schemas: XsdValidator;
const seen: Record<string, unknown>[] = [];

type Headers = { in: Record<string, unknown>; out: Record<string, unknown> };
const handlers = {
  getAccounts: async (request: { prefix: string }, call: { headers: Headers }) => {
    seen.push(JSON.parse(JSON.stringify(call.headers.in)));
    const limit = (call.headers.in.resultLimit as { limit: number } | undefined)?.limit ?? 0;
    call.headers.out.totalItems = totalItems(limit * 10);
    return arrayOf([`${request.prefix}-1`, `${request.prefix}-2`]);
  },
  ping: async (_request: unknown, call: { headers: Headers }) => {
    seen.push(JSON.parse(JSON.stringify(call.headers.in)));
    return true;
  },
};

// The generated classes, from the generated folder (loaded after generation).
let totalItems: (amount: number) => unknown;
let arrayOf: (items: string[]) => unknown;

test.before(async () => {
  await loadXmlEngine();
  loaded = await loadContract(WSDL);
  const { definition } = loaded;
  const types = require(join(loaded.folder, 'types.js')) as Record<string, new (init: Record<string, unknown>) => unknown>;
  totalItems = (amount) => new types.totalItems({ amount });
  arrayOf = (items) => new types.ArrayOfString({ item: items });
  schemas = compileSchemaSet(
    definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)],
  );
  served = await serveFixture(definition, handlers as never);
  url = served.endpoint;
});
test.after.always(async () => {
  await served?.close();
  loaded?.remove();
});

const envelope = (header: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="${ENV}" xmlns:ns1="urn:accounts" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI}" xmlns:SOAP-ENC="${ENC}" SOAP-ENV:encodingStyle="${ENC}"><SOAP-ENV:Header>${header}</SOAP-ENV:Header><SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`;

async function call(operation: string, header: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"urn:accounts#${operation}"` },
    body: envelope(header, body),
  });
  return { status: response.status, text: await response.text() };
}

const getAccounts = '<ns1:getAccounts><prefix xsi:type="xsd:string">acme</prefix></ns1:getAccounts>';
const attribute = (element: XmlElement, name: string, ns: string) =>
  element.attrs.find((a) => a.name === name && a.namespaceUri === ns)?.value;

/** The answer's header blocks: each element, and its literal form (validated against the contract's schemas) as plain data. */
function answerHeaders(text: string, operation: string): { block: XmlElement; value: unknown }[] {
  const doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  const route = loaded.definition.routes[operation] as { soapEncoding: SoapEncoding };
  const header = childElements(doc.root).find((e) => e.name === 'Header');
  return (header ? childElements(header) : []).map((block) => {
    const literal = literalHeader(block, doc.root, route.soapEncoding);
    if (literal === undefined) throw new Error(`${block.name} is not an encoded block of ${operation}`);
    const parsed = xml().XmlDocument.fromString(literal, { option: safeParseOptions() });
    schemas.validate(parsed.root);
    return { block, value: Object.fromEntries(childElements(parsed.root).map((c) => [c.name, c.content])) };
  });
}

test.serial('PHP SoapClient: encoded header blocks (structs and an array, xsi:type on each value) reach the handler typed', async (t) => {
  seen.length = 0;
  const { status, text } = await call(
    'getAccounts',
    '<ns1:authenticate xsi:type="ns1:authenticate"><username xsi:type="xsd:string">ada</username><apiKey xsi:type="xsd:string">k-1</apiKey></ns1:authenticate>' +
      '<ns1:resultLimit xsi:type="ns1:resultLimit"><limit xsi:type="xsd:int">2</limit><offset xsi:type="xsd:int">4</offset></ns1:resultLimit>' +
      '<ns1:tags SOAP-ENC:arrayType="xsd:string[2]" xsi:type="ns1:ArrayOfString"><item xsi:type="xsd:string">red</item><item xsi:type="xsd:string">blue</item></ns1:tags>',
    getAccounts,
  );
  t.is(status, 200, text);
  t.deepEqual(seen, [
    { authenticate: { username: 'ada', apiKey: 'k-1' }, resultLimit: { limit: 2, offset: 4 }, tags: { item: ['red', 'blue'] } },
  ]);
  const [total] = answerHeaders(text, 'getAccounts');
  t.is(total.block.name, 'totalItems');
  t.is(total.block.namespaceUri, 'urn:accounts');
  t.is(attribute(total.block, 'encodingStyle', ENV), ENC);
  t.regex(attribute(total.block, 'type', XSI) ?? '', /:totalItems$/);
  const [amount] = childElements(total.block);
  t.regex(attribute(amount, 'type', XSI) ?? '', /:int$/);
  t.deepEqual(total.value, { amount: '20' });
});

test.serial('Axis 1: a header block that references a multiRef in the Body is read through the reference', async (t) => {
  seen.length = 0;
  const { status, text } = await call(
    'ping',
    '<ns1:authenticate href="#id0"/>',
    '<ns1:ping/>' +
      `<multiRef id="id0" SOAP-ENC:root="0" xsi:type="ns1:authenticate"><username xsi:type="xsd:string">bob</username><apiKey href="#id1"/></multiRef>` +
      '<multiRef id="id1" SOAP-ENC:root="0" xsi:type="xsd:string">k-2</multiRef>',
  );
  t.is(status, 200, text);
  t.deepEqual(seen, [{ authenticate: { username: 'bob', apiKey: 'k-2' } }]);
});

test.serial('a header block sent with no xsi:type (literal form) is read by the contract’s types', async (t) => {
  seen.length = 0;
  const { status, text } = await call(
    'ping',
    '<ns1:authenticate><username>eve</username><apiKey>k-3</apiKey></ns1:authenticate>',
    '<ns1:ping/>',
  );
  t.is(status, 200, text);
  t.deepEqual(seen, [{ authenticate: { username: 'eve', apiKey: 'k-3' } }]);
});

for (const [what, header, message] of [
  [
    'a wrong xsi:type on the block',
    '<ns1:authenticate xsi:type="xsd:string">ada</ns1:authenticate>',
    /xsi:type string of authenticate is not the contract's type authenticate/,
  ],
  ['a reference to no id', '<ns1:authenticate href="#nowhere"/>', /reference #nowhere of authenticate names no element/],
  [
    'a member the type does not have',
    '<ns1:authenticate><username>a</username><apiKey>k</apiKey><role>x</role></ns1:authenticate>',
    /authenticate element of authenticate does not match the schema/,
  ],
  [
    'a number that is not one',
    '<ns1:resultLimit><limit xsi:type="xsd:int">many</limit></ns1:resultLimit>',
    /resultLimit element of resultLimit does not match the schema/,
  ],
] as const) {
  test.serial(`${what} in an encoded header block is a client fault`, async (t) => {
    seen.length = 0;
    const { status, text } = await call('getAccounts', header, getAccounts);
    t.is(status, 500);
    t.regex(text, /<faultcode>\w+:Client<\/faultcode>/);
    t.regex(text, message);
    t.deepEqual(seen, []);
  });
}

test('the served WSDL keeps the encoded headers as published, the validating schemas declare their blocks, and the help page’s samples are encoded', async (t) => {
  const wsdl = await (await fetch(`${url}?wsdl`)).text();
  t.regex(wsdl, /<soap:header message="tns:authenticate" part="authenticate" use="encoded"/);
  // The blocks no schema of the contract declares are declared by the schemas the service validates with.
  const { definition } = loaded;
  const validating = (definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)]).join(
    '',
  );
  t.regex(validating, /<xs:element [^>]*name="authenticate" type="\w+:authenticate"\/>/);
  t.regex(validating, /<xs:element [^>]*name="totalItems" type="\w+:totalItems"\/>/);
  const help = await (await fetch(`${url}?op=getAccounts`)).text();
  // The request's authenticate block and the answer's totalItems block, each with its xsi:type and encodingStyle.
  t.regex(help, /w:authenticate [^>]{0,600}?xsi:type(=|&#x3D;)&quot;\w+:authenticate&quot;/);
  t.regex(help, /w:totalItems [^>]{0,600}?e:encodingStyle(=|&#x3D;)&quot;http:\/\/schemas\.xmlsoap\.org\/soap\/encoding\/&quot;/);
});

test('an encoded header in an operation whose body is literal is refused: the operation skipped, said in one warning line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'encoded-headers-'));
  try {
    const literalPing = readFileSync(WSDL, 'utf8').replace(
      /(<operation name="ping">\s*<soap:operation [^>]*>\s*<input>\s*)<soap:body use="encoded" [^>]*>/,
      '$1<soap:body use="literal" namespace="urn:accounts"/>',
    );
    t.not(literalPing, readFileSync(WSDL, 'utf8'));
    const wsdl = join(dir, 'Accounts.wsdl');
    writeFileSync(wsdl, literalPing);
    const lines: string[] = [];
    const edited = await loadContract(wsdl, { folder: join(dir, 'out'), note: (line) => lines.push(line) });
    t.deepEqual(edited.definition.operationNames, ['getAccounts']);
    t.true(
      lines.some((line) => /warning: .*ping.*header part authenticate is bound encoded in an operation whose body is literal/.test(line)),
      lines.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
