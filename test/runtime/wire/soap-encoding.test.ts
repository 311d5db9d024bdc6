/**
 * SOAP encoding (rpc/encoded) served end to end, on test/fixtures/contracts/rpc-encoded/Tracker.wsdl with echo
 * handlers: calls as the encoded clients write them — Axis 1's multi-reference values, PHP SoapClient's inline
 * SOAP-ENC:Array values, SOAP::Lite's 1999 schema namespace, partially transmitted and two-dimensional arrays, nil
 * — are read into the typed request; each answer is written encoded (xsi:type on every value, soapenc:Array with
 * its arrayType) and reads back, into literal form, valid against the contract's schemas and equal to what was
 * sent; what is wrong (a reference to no id, a cycle, an arrayType its items disagree with, a wrong xsi:type) is a
 * client fault.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pino from 'pino';
import { loadContract, type LoadedContract } from '../../../codegen/harness/load-generated';
import { createContractApp, literalAnswer } from '../../../src/runtime/host';
import { loadXmlEngine, safeParseOptions, xml, type XmlElement } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../../src/runtime/xml/xml-schema';
import type { XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { childElements } from '../../../src/runtime/xml/xml-codec';

const WSDL = join(__dirname, '..', '..', 'fixtures', 'contracts', 'rpc-encoded', 'Tracker.wsdl');
const ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENC = 'http://schemas.xmlsoap.org/soap/encoding/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let loaded: LoadedContract;
let server: Server;
let url: string;
let schemas: XsdValidator;

type Request = Record<string, unknown>;
const handlers = {
  echoIssue: async (r: Request) => r.issue,
  echoIssues: async (r: Request) => r.issues,
  echoStrings: async (r: Request) => r.values,
  echoMatrix: async (r: Request) => r.matrix,
  echoRows: async (r: Request) => r.rows,
  describe: async (r: Request) =>
    [r.count, r.ratio, r.flag, r.when, Buffer.from(r.data as Uint8Array).toString('base64'), String(r.amount)].join('|'),
  version: async () => 'tracker 1.0',
  touch: async () => undefined,
  echoMap: async (r: Request) => r.map,
};

test.before(async () => {
  await loadXmlEngine();
  loaded = await loadContract(WSDL);
  const { definition } = loaded;
  schemas = compileSchemaSet(
    definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)],
  );
  const app = createContractApp(
    definition,
    handlers as never,
    { namespace: undefined, publicUrl: undefined, trustProxy: false, maxBodyBytes: 1 << 20 },
    pino({ level: 'silent' }),
  );
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tracker/api.php`;
});
test.after.always(async () => {
  await new Promise((resolve) => server?.close(resolve));
  loaded?.remove();
});

const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI}" xmlns:soapenc="${ENC}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;

async function call(operation: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"urn:tracker#${operation}"` },
    body: envelope(body),
  });
  return { status: response.status, text: await response.text() };
}

/** Runs `use` on the answer's body element and Body; the answer's literal form must be valid against the schemas. */
function answerOf<T>(operation: string, text: string, use: (element: XmlElement, literal: XmlElement) => T): T {
  const doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  try {
    const body = doc.get('/*[local-name()="Envelope"]/*[local-name()="Body"]') as XmlElement;
    const [element] = childElements(body);
    const route = loaded.definition.routes[operation] as { soapEncoding: Parameters<typeof literalAnswer>[2] };
    const literalText = literalAnswer(element, body, route.soapEncoding);
    const literal = xml().XmlDocument.fromString(literalText, { option: safeParseOptions() });
    try {
      schemas.validate(literal.root);
      return use(element, literal.root);
    } finally {
      literal.dispose();
    }
  } finally {
    doc.dispose();
  }
}

const attribute = (element: XmlElement, name: string, ns: string) =>
  element.attrs.find((a) => a.name === name && a.namespaceUri === ns)?.value;

/** A literal element as plain data: text, or its children by name (repeated ones as arrays), nil as null. */
function plain(element: XmlElement): unknown {
  if (attribute(element, 'nil', XSI) === 'true') return null;
  const children = childElements(element);
  if (children.length === 0) return element.content;
  if (children.every((c) => c.name === 'item')) return children.map(plain);
  return Object.fromEntries(children.map((c) => [c.name, plain(c)]));
}

test('Axis 1: multi-reference values (href to multiRef siblings) are read, and the struct echoed encoded', async (t) => {
  const { status, text } = await call(
    'echoIssue',
    `<ns1:echoIssue soapenv:encodingStyle="${ENC}" xmlns:ns1="urn:tracker"><issue href="#id0"/></ns1:echoIssue>` +
      `<multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="${ENC}" xsi:type="ns2:IssueData" xmlns:ns2="urn:tracker">` +
      `<id xsi:type="xsd:integer">7</id><summary xsi:type="xsd:string">Crash &amp; burn</summary><reporter href="#id1"/><handler href="#id1"/>` +
      `<notes xsi:type="soapenc:Array" soapenc:arrayType="ns2:NoteData[2]"><item href="#id2"/><item href="#id3"/></notes>` +
      `<due_date xsi:type="xsd:dateTime" xsi:nil="true"/><rating xsi:type="xsd:double">2.5</rating><sticky xsi:type="xsd:boolean">true</sticky></multiRef>` +
      `<multiRef id="id1" soapenc:root="0" xsi:type="ns3:AccountData" xmlns:ns3="urn:tracker"><id xsi:type="xsd:integer">3</id><name xsi:type="xsd:string">ada</name></multiRef>` +
      `<multiRef id="id2" soapenc:root="0" xsi:type="ns4:NoteData" xmlns:ns4="urn:tracker"><id xsi:type="xsd:integer">1</id><text xsi:type="xsd:string">first</text><reporter href="#id1"/></multiRef>` +
      `<multiRef id="id3" soapenc:root="0" xsi:type="ns5:NoteData" xmlns:ns5="urn:tracker"><id xsi:type="xsd:integer">2</id><text xsi:type="xsd:string">second</text></multiRef>`,
  );
  t.is(status, 200, text);
  answerOf('echoIssue', text, (element, literal) => {
    t.is(attribute(element, 'encodingStyle', ENV), ENC);
    const [ret] = childElements(element);
    t.is(ret.name, 'return');
    t.regex(attribute(ret, 'type', XSI)!, /:IssueData$/);
    const notes = childElements(ret).find((c) => c.name === 'notes')!;
    t.regex(attribute(notes, 'type', XSI)!, /:NoteDataArray$/);
    t.regex(attribute(notes, 'arrayType', ENC)!, /:NoteData\[2\]$/);
    t.deepEqual(plain(childElements(literal)[0]), {
      id: '7',
      summary: 'Crash & burn',
      reporter: { id: '3', name: 'ada' },
      handler: { id: '3', name: 'ada' },
      notes: [
        { id: '1', text: 'first', reporter: { id: '3', name: 'ada' } },
        { id: '2', text: 'second' },
      ],
      due_date: null,
      rating: '2.5',
      sticky: 'true',
    });
  });
});

test('PHP SoapClient: an inline SOAP-ENC:Array of structs, items named item, with a nil member', async (t) => {
  const { status, text } = await call(
    'echoIssues',
    `<ns1:echoIssues xmlns:ns1="urn:tracker"><issues SOAP-ENC:arrayType="ns1:IssueData[2]" xsi:type="ns1:IssueDataArray" xmlns:SOAP-ENC="${ENC}">` +
      `<item xsi:type="ns1:IssueData"><id xsi:type="xsd:integer">1</id><summary xsi:type="xsd:string">one</summary><handler xsi:nil="true"/></item>` +
      `<item xsi:type="ns1:IssueData"><summary xsi:type="xsd:string">two</summary><id xsi:type="xsd:integer">2</id></item>` +
      `</issues></ns1:echoIssues>`,
  );
  t.is(status, 200, text);
  answerOf('echoIssues', text, (element, literal) => {
    const [ret] = childElements(element);
    t.regex(attribute(ret, 'arrayType', ENC)!, /:IssueData\[2\]$/);
    t.deepEqual(plain(childElements(literal)[0]), [
      { id: '1', summary: 'one', handler: null },
      { id: '2', summary: 'two' },
    ]);
  });
});

test('SOAP::Lite: the 1999 schema namespace, soapenc:string, any item names, numbers typed where strings are declared', async (t) => {
  const { status, text } = await call(
    'echoStrings',
    `<namesp1:echoStrings xmlns:namesp1="urn:tracker" xmlns:xsd99="http://www.w3.org/1999/XMLSchema" xmlns:xsi99="http://www.w3.org/1999/XMLSchema-instance">` +
      `<values xsi99:type="soapenc:Array" soapenc:arrayType="xsd99:anyType[3]"><c-gensym1 xsi99:type="xsd99:string">a</c-gensym1><c-gensym2 xsi99:type="xsd99:int">42</c-gensym2><c-gensym3 xsi99:type="soapenc:string">c</c-gensym3></values>` +
      `<label xsi99:type="soapenc:string">l</label></namesp1:echoStrings>`,
  );
  t.is(status, 200, text);
  answerOf('echoStrings', text, (_element, literal) => t.deepEqual(plain(childElements(literal)[0]), ['a', '42', 'c']));
});

test('a partially transmitted array (offset) and a sparse one (position) are read with nil where no item was sent', async (t) => {
  const partial = await call(
    'echoStrings',
    `<t:echoStrings xmlns:t="urn:tracker"><values xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[4]" soapenc:offset="[2]"><item>c</item><item>d</item></values><label>x</label></t:echoStrings>`,
  );
  t.is(partial.status, 200, partial.text);
  answerOf('echoStrings', partial.text, (_e, literal) => t.deepEqual(plain(childElements(literal)[0]), [null, null, 'c', 'd']));
  const sparse = await call(
    'echoStrings',
    `<t:echoStrings xmlns:t="urn:tracker"><values xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[3]"><item soapenc:position="[2]">z</item><item soapenc:position="[0]">a</item></values><label>x</label></t:echoStrings>`,
  );
  t.is(sparse.status, 200, sparse.text);
  answerOf('echoStrings', sparse.text, (_e, literal) => t.deepEqual(plain(childElements(literal)[0]), ['a', null, 'z']));
});

test('a two-dimensional array is read as its rows and written back with both sizes; an array of arrays as nested arrays', async (t) => {
  const matrix = await call(
    'echoMatrix',
    `<t:echoMatrix xmlns:t="urn:tracker"><matrix xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[2,3]">${[1, 2, 3, 4, 5, 6].map((n) => `<item>${n}</item>`).join('')}</matrix></t:echoMatrix>`,
  );
  t.is(matrix.status, 200, matrix.text);
  answerOf('echoMatrix', matrix.text, (element, literal) => {
    const [ret] = childElements(element);
    t.regex(attribute(ret, 'arrayType', ENC)!, /^\w+:int\[2,3\]$/);
    t.is(childElements(ret).length, 6);
    t.deepEqual(plain(childElements(literal)[0]), [
      ['1', '2', '3'],
      ['4', '5', '6'],
    ]);
  });
  const rows = await call(
    'echoRows',
    `<t:echoRows xmlns:t="urn:tracker"><rows xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[][2]"><item xsi:type="soapenc:Array" soapenc:arrayType="xsd:int[1]"><item>1</item></item><item soapenc:arrayType="xsd:int[2]"><item>2</item><item>3</item></item></rows></t:echoRows>`,
  );
  t.is(rows.status, 200, rows.text);
  answerOf('echoRows', rows.text, (element, literal) => {
    const [ret] = childElements(element);
    t.regex(attribute(ret, 'arrayType', ENC)!, /^\w+:int\[\]\[2\]$/);
    t.deepEqual(plain(childElements(literal)[0]), [['1'], ['2', '3']]);
  });
});

test('simple parts of every kind are decoded to their types, and a part-less call and a void answer work', async (t) => {
  const described = await call(
    'describe',
    `<t:describe xmlns:t="urn:tracker"><count xsi:type="xsd:int">5</count><ratio xsi:type="xsd:double">0.25</ratio><flag xsi:type="xsd:boolean">1</flag>` +
      `<when xsi:type="xsd:dateTime">2026-12-01T10:00:00Z</when><data xsi:type="soapenc:base64">aGk=</data><amount xsi:type="xsd:long">9007199254740993</amount></t:describe>`,
  );
  t.is(described.status, 200, described.text);
  answerOf('describe', described.text, (element) => {
    const [ret] = childElements(element);
    t.regex(attribute(ret, 'type', XSI)!, /:string$/);
    t.is(ret.content, '5|0.25|true|2026-12-01T10:00:00Z|aGk=|9007199254740993');
  });
  // suds types a Python int as xsd:long, a float as xsd:float: a number of the declared type's range is taken.
  const suds = await call(
    'describe',
    `<t:describe xmlns:t="urn:tracker"><count xsi:type="xsd:long">5</count><ratio xsi:type="xsd:float">0.25</ratio><flag xsi:type="xsd:boolean">false</flag>` +
      `<when xsi:type="xsd:dateTime">2026-12-01T10:00:00Z</when><data xsi:type="xsd:base64Binary">aGk=</data><amount xsi:type="xsd:int">7</amount></t:describe>`,
  );
  t.is(suds.status, 200, suds.text);
  answerOf('describe', suds.text, (element) => t.is(childElements(element)[0].content, '5|0.25|false|2026-12-01T10:00:00Z|aGk=|7'));
  const version = await call('version', `<t:version xmlns:t="urn:tracker"/>`);
  t.is(version.status, 200, version.text);
  answerOf('version', version.text, (element) => t.is(childElements(element)[0].content, 'tracker 1.0'));
  const touched = await call('touch', `<t:touch xmlns:t="urn:tracker"><id xsi:type="xsd:int">1</id></t:touch>`);
  t.is(touched.status, 200, touched.text);
  answerOf('touch', touched.text, (element) => t.is(childElements(element).length, 0));
});

test("Apache SOAP's Map, which the contract names and declares nowhere, is read and echoed as Axis 1 writes it", async (t) => {
  const { status, text } = await call(
    'echoMap',
    `<ns1:echoMap xmlns:ns1="urn:tracker"><map xsi:type="ns2:Map" xmlns:ns2="http://xml.apache.org/xml-soap">` +
      `<item><key xsi:type="xsd:string">colour</key><value xsi:type="xsd:string">red</value></item>` +
      `<item><key xsi:type="xsd:string">size</key><value xsi:type="xsd:int">3</value></item></map></ns1:echoMap>`,
  );
  t.is(status, 200, text);
  answerOf('echoMap', text, (element, literal) => {
    const [ret] = childElements(element);
    t.regex(attribute(ret, 'type', XSI)!, /:Map$/);
    const items = childElements(childElements(literal)[0]);
    t.deepEqual(
      items.map((item) => childElements(item).map((c) => [c.name, c.content, attribute(c, 'type', XSI)?.replace(/^\w+:/, '')])),
      [
        [
          ['key', 'colour', 'string'],
          ['value', 'red', 'string'],
        ],
        [
          ['key', 'size', 'string'],
          ['value', '3', 'int'],
        ],
      ],
    );
  });
  const wsdl = await (await fetch(`${url}?wsdl`)).text();
  t.regex(wsdl, /targetNamespace="http:\/\/xml\.apache\.org\/xml-soap"/);
});

const faults: [string, string, string, RegExp][] = [
  ['an href to no id', 'echoIssue', `<t:echoIssue xmlns:t="urn:tracker"><issue href="#nowhere"/></t:echoIssue>`, /names no element/],
  [
    'a cycle of references',
    'echoIssue',
    `<t:echoIssue xmlns:t="urn:tracker"><issue href="#a"/></t:echoIssue><multiRef id="a"><reporter href="#b"/></multiRef><multiRef id="b"><name href="#a"/></multiRef>`,
    /cycle/,
  ],
  [
    'an arrayType whose size its items disagree with',
    'echoStrings',
    `<t:echoStrings xmlns:t="urn:tracker"><values soapenc:arrayType="xsd:string[3]"><item>a</item></values><label>x</label></t:echoStrings>`,
    /declares 3 items; 1 are sent/,
  ],
  [
    'an arrayType of another item type',
    'echoIssues',
    `<t:echoIssues xmlns:t="urn:tracker"><issues soapenc:arrayType="xsd:int[1]"><item>1</item></issues></t:echoIssues>`,
    /items are int/,
  ],
  [
    "an array of arrays whose arrayType names the innermost items' type (as gSOAP writes it)",
    'echoRows',
    `<t:echoRows xmlns:t="urn:tracker"><rows soapenc:arrayType="xsd:int[1]"><item soapenc:arrayType="xsd:int[1]"><item>1</item></item></rows></t:echoRows>`,
    /items are int/,
  ],
  [
    'more items than the arrayType declares',
    'echoStrings',
    `<t:echoStrings xmlns:t="urn:tracker"><values soapenc:arrayType="xsd:string[1]"><item>a</item><item>b</item></values><label>x</label></t:echoStrings>`,
    /more items/,
  ],
  [
    'a wrong xsi:type',
    'describe',
    `<t:describe xmlns:t="urn:tracker"><count xsi:type="xsd:boolean">true</count><ratio>1</ratio><flag>true</flag><when>2026-12-01T10:00:00Z</when><data>aGk=</data><amount>1</amount></t:describe>`,
    /xsi:type boolean of count is not the contract's type int/,
  ],
  [
    'a struct where an array is declared',
    'echoStrings',
    `<t:echoStrings xmlns:t="urn:tracker"><values xsi:type="t:AccountData"><id>1</id></values><label>x</label></t:echoStrings>`,
    /not the contract's array type StringArray/,
  ],
  [
    "a number typed by another number type (as suds types a Python int) outside the declared type's range",
    'describe',
    `<t:describe xmlns:t="urn:tracker"><count xsi:type="xsd:long">99999999999</count><ratio>1</ratio><flag>true</flag><when>2026-12-01T10:00:00Z</when><data>aGk=</data><amount>1</amount></t:describe>`,
    /does not match the schema/,
  ],
  [
    'a value the schema refuses once read',
    'describe',
    `<t:describe xmlns:t="urn:tracker"><count xsi:type="xsd:int">many</count><ratio>1</ratio><flag>true</flag><when>2026-12-01T10:00:00Z</when><data>aGk=</data><amount>1</amount></t:describe>`,
    /does not match the schema/,
  ],
];
for (const [what, operation, body, reason] of faults) {
  test(`${what} is a client fault, said in one line`, async (t) => {
    const { status, text } = await call(operation, body);
    t.is(status, 500);
    t.regex(text, /<faultcode>\w+:Client<\/faultcode>/);
    const faultstring = /<faultstring>([^<]*)<\/faultstring>/.exec(text)?.[1] ?? '';
    t.regex(faultstring, reason);
    t.notRegex(text, /at \w+ \(|\.ts:\d+/);
  });
}

test('references that expand beyond the limit are refused, not followed', async (t) => {
  // 400 rows, each a reference to one row of 400 items: 160,000 values from 801 elements.
  const rows = Array.from({ length: 400 }, () => '<item href="#row"/>').join('');
  const row = Array.from({ length: 400 }, (_, i) => `<item>${i}</item>`).join('');
  const { status, text } = await call(
    'echoRows',
    `<t:echoRows xmlns:t="urn:tracker"><rows soapenc:arrayType="xsd:int[][400]">${rows}</rows></t:echoRows><multiRef id="row" soapenc:arrayType="xsd:int[400]">${row}</multiRef>`,
  );
  t.is(status, 500);
  t.regex(text, /expand to more than 100000 values/);
});

test('the typed client calls encoded: a struct with an array of structs and nil, simple parts, no parts, a void answer', async (t) => {
  // biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
  const generated: any = require(join(loaded.folder, 'client.js'));
  // biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
  const types: any = require(join(loaded.folder, 'types.js'));
  const client = new generated.TrackerServiceClient({ baseUrl: url.replace(/\/tracker\/api\.php$/, '') });
  const reporter = new types.AccountData({ id: 3n, name: null });
  const issue = new types.IssueData({
    id: 9n,
    summary: '<&>',
    reporter,
    handler: null,
    notes: new types.NoteDataArray({ item: [new types.NoteData({ id: 1n, text: 'n', reporter }), null] }),
    rating: 0.5,
    sticky: false,
  });
  const echoed = await client.echoIssue({ issue });
  t.is(echoed.summary, '<&>');
  t.is(echoed.id, 9n);
  t.is(echoed.reporter.name, null);
  t.is(echoed.handler, null);
  t.is(echoed.notes.item.length, 2);
  t.is(echoed.notes.item[0].reporter.id, 3n);
  t.is(echoed.notes.item[1], null);
  t.is(echoed.rating, 0.5);
  t.false(echoed.sticky);
  const described = await client.describe({
    count: 2,
    ratio: 1.5,
    flag: true,
    when: '2026-12-01T00:00:00Z',
    data: new Uint8Array([1, 2]),
    amount: 5n,
  });
  t.is(described, '2|1.5|true|2026-12-01T00:00:00Z|AQI=|5');
  t.is(await client.version({}), 'tracker 1.0');
  t.is(await client.touch({ id: 4 }), undefined);
});

test('the served WSDL keeps the contract as published (encoded bodies, soapenc arrays), and the help page shows encoded samples', async (t) => {
  const wsdl = await (await fetch(`${url}?wsdl`)).text();
  t.regex(wsdl, /use="encoded"/);
  t.regex(wsdl, /base="SOAP-ENC:Array"/);
  t.regex(wsdl, /wsdl:arrayType="tns:IssueData\[\]"/);
  const help = await (await fetch(`${url}?op=echoIssues`)).text();
  t.regex(help, /arrayType(=|&#x3D;)&quot;\w+:IssueData\[\d+\]&quot;/);
  t.regex(help, /encodingStyle(=|&#x3D;)&quot;http:\/\/schemas\.xmlsoap\.org\/soap\/encoding\/&quot;/);
});
