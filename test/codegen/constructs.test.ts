/**
 * The schema constructs of published contracts, each served end to end: the
 * constructs fixture (test/fixtures/contracts/constructs/, one operation per
 * construct, SOAP 1.1 and SOAP 1.2 ports) generated and loaded as the mock
 * loads it, served with handlers that echo what they are given, and called
 * with hand-written envelopes over both versions. Each answer is validated
 * against the contract's schema, decoded with the generated classes, and
 * compared with what the handler was handed: the values round-trip. The
 * wsdl-import fixture (WCF's split definitions) is served the same way.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyOperations, loadContract } from '../../codegen/harness/load-generated';
import type { ContractDefinition, Handlers } from '../../src/runtime/definition';
import { HOST_SETTINGS, serveContract } from '../../src/runtime/host';
import { SOAP11, SOAP12, type SoapVersion, soapEnvelope } from '../../src/runtime/wire/soap-envelope';
import { writeOtherAttributes } from '../../src/runtime/xml/xml-codec';
import { loadXmlEngine, type XmlElement, type XsdValidator, xml } from '../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../src/runtime/xml/xml-schema';

const WSDL = join(__dirname, '..', 'fixtures', 'contracts', 'constructs', 'Constructs.wsdl');
const NS = 'urn:example:constructs';
const work = mkdtempSync(join(tmpdir(), 'codegen-constructs-'));
const closers: (() => Promise<void>)[] = [];
test.after.always(async () => {
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

type Classes = Record<string, { fromXml(element: XmlElement): object } & (new (fields: object) => object)>;

interface Served {
  definition: ContractDefinition<AnyOperations>;
  types: Classes;
  /** What each handler was last handed, by operation. */
  seen: Record<string, unknown>;
  schemas: XsdValidator;
  url: string;
}

let served: Promise<Served> | undefined;
/** The fixture generated, loaded and served once for every test: each handler records its request and echoes its item. */
function serve(): Promise<Served> {
  served ??= (async () => {
    await loadXmlEngine();
    const { definition, folder } = await loadContract(WSDL, { folder: mkdtempSync(join(work, 'g-')) });
    const types = require(join(folder, 'types.js')) as Classes;
    const seen: Record<string, unknown> = {};
    const handlers: Record<string, (request: never) => Promise<unknown>> = {};
    for (const name of definition.operationNames) {
      handlers[name] = async (request: { item?: unknown }) => {
        seen[name] = request;
        return request.item;
      };
    }
    handlers.Notify = async (request) => {
      seen.Notify = request;
      return undefined;
    };
    handlers.AddBare = async (request: { Left: number; Right: number }) => {
      seen.AddBare = request;
      return request.Left + request.Right;
    };
    handlers.GetDataSet = async (request: { table?: string }) => {
      seen.GetDataSet = request;
      return new types.GetDataSetResult({
        any:
          '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="Rows"><xs:element name="Rows" /></xs:schema>' +
          `<diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><Rows><Row><Name>${request.table}</Name></Row></Rows></diffgr:diffgram>`,
      });
    };
    // The host's defaults (its limits and timeouts), on a free loopback port, silent.
    const listener = await serveContract(definition, handlers as unknown as Handlers<AnyOperations>, {
      ...HOST_SETTINGS.defaults(),
      port: 0,
      logLevel: 'silent',
    });
    closers.push(() => listener.close());
    const schemas = compileSchemaSet(definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(NS)]);
    return { definition, types, seen, schemas, url: `${listener.url}${definition.endpointPath}` };
  })();
  return served;
}

/** Posts `body` (the Body's content) to `operation` over `version`. */
async function post(s: Served, version: SoapVersion, operation: string, body: string) {
  const action = `${NS}/${operation}`;
  const answer = await fetch(s.url, {
    method: 'POST',
    headers:
      version === SOAP11
        ? { 'Content-Type': version.contentType, SOAPAction: `"${action}"` }
        : { 'Content-Type': `${version.contentType}; action="${action}"` },
    body: soapEnvelope(version, body),
  });
  return { status: answer.status, text: await answer.text() };
}

/** The answer's body elements, each validated against the contract's schema, decoded by `decode`. */
function bodyOf<T>(t: ExecutionContext, s: Served, version: SoapVersion, text: string, decode: (body: XmlElement[]) => T): T {
  const doc = xml().XmlDocument.fromString(text);
  try {
    t.is(doc.root.namespaceUri, version.envelopeNamespace);
    const [body] = doc.root.find(`*[local-name()='Body']`) as XmlElement[];
    const children = body.find('*') as XmlElement[];
    for (const child of children) t.notThrows(() => s.schemas.validate(child), `${child.name} is valid against the schema`);
    return decode(children);
  } finally {
    doc.dispose();
  }
}

/**
 * Calls an echo operation with `item` (the item element's attributes and content) over SOAP 1.1 and 1.2: the answer
 * is valid and holds what the handler was handed (decoded by the response class, compared field by field).
 */
async function echo(t: ExecutionContext, operation: string, item: string, expected: (seen: unknown, text: string) => void) {
  const s = await serve();
  for (const version of [SOAP11, SOAP12]) {
    const answer = await post(s, version, operation, `<${operation} xmlns="${NS}"><item${item}</item></${operation}>`);
    t.is(answer.status, 200, answer.text);
    const seen = (s.seen[operation] as { item: unknown }).item;
    const back = bodyOf(t, s, version, answer.text, ([response]) => {
      t.is(response.name, `${operation}Response`);
      return (s.types[`${operation}Response`].fromXml(response) as { item: unknown }).item;
    });
    t.deepEqual(back, seen, 'the answer decodes to what the handler was handed');
    expected(seen, answer.text);
  }
}

test.serial('xs:union: the value is its text, written back as it came', async (t) => {
  for (const value of ['42', 'B']) await echo(t, 'EchoUnion', `>${value}`, (seen) => t.is(seen, value));
  const s = await serve();
  const wrong = await post(s, SOAP11, 'EchoUnion', `<EchoUnion xmlns="${NS}"><item>C</item></EchoUnion>`);
  t.is(wrong.status, 500, 'a value of no member type is refused by the schema');
  t.regex(wrong.text, /<faultcode>soap:Client<\/faultcode>/);
});

test.serial('xs:list: an array of its item type, written space-separated', async (t) => {
  await echo(t, 'EchoList', '>  1 -2\n3 ', (seen, text) => {
    t.deepEqual(seen, [1, -2, 3]);
    t.regex(text, /<(tns:)?item>1 -2 3<\/(tns:)?item>/);
  });
});

test.serial('attributeGroup: its attributes are the type’s; anyAttribute keeps the others, by name, and writes them back', async (t) => {
  await echo(
    t,
    'EchoAudited',
    ` by="ann" at="2024-02-03T04:05:06Z" o:trace="t-1" xmlns:o="urn:example:other" xml:lang="en"><Text>hi</Text>`,
    (seen, text) => {
      const audited = seen as { by: string; at: string; Text: string; otherAttributes?: Record<string, string> };
      t.is(audited.by, 'ann');
      t.is(audited.at, '2024-02-03T04:05:06Z', 'a dateTime is its text');
      t.is(audited.Text, 'hi');
      t.deepEqual(audited.otherAttributes, {
        '{urn:example:other}trace': 't-1',
        '{http://www.w3.org/XML/1998/namespace}lang': 'en',
      });
      t.regex(text, / by="ann" at="2024-02-03T04:05:06(\.000)?Z" any0:trace="t-1" xmlns:any0="urn:example:other" xml:lang="en">/);
    },
  );
  await echo(t, 'EchoAudited', ` by="bo"><Text>x</Text>`, (seen) =>
    t.is((seen as { otherAttributes?: unknown }).otherAttributes, undefined),
  );
});

test.serial('names XmlSerializer escaped (_x0020_) and dotted ones: valid identifiers, written back with the XML name', async (t) => {
  await echo(t, 'EchoEscaped', ` Home_x0020_Town="Ghent"><First_x0020_Name>Ada</First_x0020_Name><Ver1.0>7</Ver1.0>`, (seen, text) => {
    t.deepEqual({ ...(seen as object) }, { First_Name: 'Ada', Ver1_0: 7, Home_Town: 'Ghent' });
    t.regex(text, /<(tns:)?item Home_x0020_Town="Ghent"><(tns:)?First_x0020_Name>Ada<\/(tns:)?First_x0020_Name><(tns:)?Ver1\.0>7</);
  });
  const s = await serve();
  t.regex(s.definition.routes.EchoEscaped.sampleRequest().toXml(), /<(tns:)?First_x0020_Name>/, 'the sample fills the escaped member');
});

test.serial('choice (through a group) and all: the branch sent is the branch kept; all in any order', async (t) => {
  await echo(t, 'EchoContact', `><Name>n</Name><Phone>123</Phone><Flags><Blue>false</Blue><Red>true</Red></Flags>`, (seen, text) => {
    const contact = seen as { Name: string; Email?: string; Phone?: string; Flags: { Red: boolean; Blue?: boolean } };
    t.is(contact.Phone, '123');
    t.is(contact.Email, undefined);
    t.deepEqual({ ...contact.Flags }, { Red: true, Blue: false });
    t.regex(text, /<(tns:)?Name>n<\/(tns:)?Name><(tns:)?Phone>123<\/(tns:)?Phone><(tns:)?Flags>/);
  });
  await echo(t, 'EchoContact', `><Name>n</Name><Email>a@b</Email>`, (seen) => t.is((seen as { Email?: string }).Email, 'a@b'));
});

test.serial('element refs: the global element’s name, namespace and type (a list, repeated)', async (t) => {
  await echo(t, 'EchoNoted', `><Note>a</Note><Note>b</Note><Tags>4 5</Tags>`, (seen, text) => {
    t.deepEqual({ ...(seen as object) }, { Note: ['a', 'b'], Tags: [4, 5] });
    t.regex(text, /<(tns:)?Note>a<\/(tns:)?Note><(tns:)?Note>b<\/(tns:)?Note><(tns:)?Tags>4 5</);
  });
});

test.serial('simpleContent: the text as value, its attributes beside it', async (t) => {
  await echo(t, 'EchoMoney', ` currency="EUR">12.50`, (seen, text) => {
    t.deepEqual({ ...(seen as object) }, { value: '12.50', currency: 'EUR' });
    t.regex(text, /<(tns:)?item currency="EUR">12\.50<\/(tns:)?item>/);
  });
});

test.serial('any: the elements the wildcard admits are kept as XML, each self-contained, and written back', async (t) => {
  await echo(
    t,
    'EchoAny',
    `><Kind>k</Kind><x:Extra xmlns:x="urn:example:other" a="1"><x:In>z</x:In></x:Extra><y:More xmlns:y="urn:y"/>`,
    (seen, text) => {
      const envelope = seen as { Kind: string; any?: string };
      t.is(envelope.Kind, 'k');
      t.is(envelope.any, '<x:Extra xmlns:x="urn:example:other" a="1"><x:In>z</x:In></x:Extra><y:More xmlns:y="urn:y"></y:More>');
      t.true(text.includes(envelope.any!), 'written back as it was kept');
    },
  );
});

test.serial('a sequence that repeats several elements: an array of groups, each item its elements, the order kept', async (t) => {
  await echo(t, 'EchoPairs', `><Key>a</Key><Value>1</Value><Key>b</Key><Key>c</Key><Value>3</Value>`, (seen, text) => {
    const groups = (seen as { group: object[] }).group.map((item) => ({ ...item }));
    t.deepEqual(groups, [
      { Key: 'a', Value: '1' },
      { Key: 'b', Value: undefined },
      { Key: 'c', Value: '3' },
    ]);
    t.regex(
      text,
      /<(tns:)?Key>a<\/(tns:)?Key><(tns:)?Value>1<\/(tns:)?Value><(tns:)?Key>b<\/(tns:)?Key><(tns:)?Key>c<\/(tns:)?Key><(tns:)?Value>3</,
    );
  });
});

test.serial(
  'the other built-ins: integer as bigint, hexBinary as bytes, NMTOKENS as an array, anyURI, gYear, language as text',
  async (t) => {
    await echo(
      t,
      'EchoBuiltins',
      `><Big>-123456789012345678901234567890</Big><Count>7</Count><Link>http://example.com/a?b=c</Link><Year>2024</Year><Hash>0fA0</Hash><Words> a  b-c </Words><Lang>en-GB</Lang>`,
      (seen, text) => {
        const b = seen as Record<string, unknown>;
        t.is(b.Big, -123456789012345678901234567890n);
        t.is(b.Count, 7n);
        t.is(b.Link, 'http://example.com/a?b=c');
        t.is(b.Year, '2024');
        t.deepEqual([...(b.Hash as Uint8Array)], [0x0f, 0xa0]);
        t.deepEqual(b.Words, ['a', 'b-c']);
        t.is(b.Lang, 'en-GB');
        t.regex(text, /<(tns:)?Hash>0FA0<\/(tns:)?Hash><(tns:)?Words>a b-c<\/(tns:)?Words>/i);
      },
    );
  },
);

test.serial('mixed content is kept whole as XML, its text and elements in order', async (t) => {
  await echo(t, 'EchoMixed', `>one <b>two</b> three &amp; four`, (seen, text) => {
    const content = (seen as { content: string }).content;
    t.is(content, 'one <b xmlns="urn:example:constructs">two</b> three &amp; four');
    t.true(text.includes(content));
  });
});

test.serial(
  "ASMX's DataSet (s:schema + s:any) is handed over as XML: the schema and the diffgram, valid against the contract",
  async (t) => {
    const s = await serve();
    for (const version of [SOAP11, SOAP12]) {
      const answer = await post(s, version, 'GetDataSet', `<GetDataSet xmlns="${NS}"><table>T1</table></GetDataSet>`);
      t.is(answer.status, 200, answer.text);
      t.deepEqual({ ...(s.seen.GetDataSet as object) }, { table: 'T1' });
      const kept = bodyOf(t, s, version, answer.text, ([response]) => {
        const decoded = s.types.GetDataSetResponse.fromXml(response) as { GetDataSetResult?: { any: string } };
        return decoded.GetDataSetResult?.any;
      });
      t.regex(
        kept!,
        /^<xs:schema xmlns:xs="http:\/\/www\.w3\.org\/2001\/XMLSchema" id="Rows">.*<\/xs:schema><diffgr:diffgram [^>]*><Rows><Row><Name>T1<\/Name>/,
      );
    }
  },
);

test.serial('a bare message: the body is the parts’ elements, the answer one element of a simple type', async (t) => {
  const s = await serve();
  for (const version of [SOAP11, SOAP12]) {
    const answer = await post(s, version, 'AddBare', `<Left xmlns="${NS}">2</Left><Right xmlns="${NS}">40</Right>`);
    t.is(answer.status, 200, answer.text);
    t.deepEqual({ ...(s.seen.AddBare as object) }, { Left: 2, Right: 40 });
    const sum = bodyOf(t, s, version, answer.text, (body) => body.map((e) => `${e.name}=${e.content}`));
    t.deepEqual(sum, ['Sum=42']);
  }
});

test.serial('a one-way operation is answered 202 with no envelope, over SOAP 1.1 and 1.2, its handler called', async (t) => {
  const s = await serve();
  t.true(s.definition.routes.Notify.oneWay);
  for (const [i, version] of [SOAP11, SOAP12].entries()) {
    const answer = await post(s, version, 'Notify', `<Notify xmlns="${NS}"><message>m${i}</message></Notify>`);
    t.is(answer.status, 202);
    t.is(answer.text, '');
    t.deepEqual({ ...(s.seen.Notify as object) }, { message: `m${i}` });
  }
  const invalid = await post(s, SOAP11, 'Notify', `<Notify xmlns="${NS}"><nothing /></Notify>`);
  t.is(invalid.status, 500, 'an invalid one-way request is still refused with a fault');
  t.regex(invalid.text, /<faultcode>soap:Client<\/faultcode>/);
});

test('anyAttribute: a name a handler made up is written only when it is an XML name', (t) => {
  t.is(writeOtherAttributes({ plain: 'a"<', '{urn:x}q': 'v' }), ' plain="a&quot;&lt;" any0:q="v" xmlns:any0="urn:x"');
  t.throws(() => writeOtherAttributes({ 'a="1" b': 'v' }), { message: /is not an attribute name/ });
  t.throws(() => writeOtherAttributes({ '{urn:x}><x': 'v' }), { message: /is not an attribute name/ });
});

test.serial(
  'wsdl:import: the imported WSDL is served at ?wsdl=wsdl0, the main one names it there, and its operations answer',
  async (t) => {
    await loadXmlEngine();
    const wsdl = join(__dirname, '..', 'fixtures', 'contracts', 'wsdl-import', 'Service.wsdl');
    const { definition } = await loadContract(wsdl, { folder: mkdtempSync(join(work, 'g-')) });
    // The host's defaults (its limits and timeouts), on a free loopback port, silent.
    const listener = await serveContract(
      definition,
      { Greet: async (request: { name?: string }) => `Hello, ${request.name}` } as unknown as Handlers<AnyOperations>,
      { ...HOST_SETTINGS.defaults(), port: 0, logLevel: 'silent' },
    );
    closers.push(() => listener.close());
    const url = `${listener.url}/Greeter.svc`;
    const main = await (await fetch(`${url}?wsdl`)).text();
    t.regex(main, new RegExp(`<wsdl:import namespace="urn:example:greeter" location="${url.replace(/[.?]/g, '\\$&')}\\?wsdl=wsdl0"`));
    const imported = await fetch(`${url}?wsdl=wsdl0`);
    t.is(imported.status, 200);
    const importedText = await imported.text();
    t.regex(importedText, /<wsdl:portType name="Greeter">/);
    t.regex(importedText, /<soap:binding transport=/);
    t.is((await fetch(`${url}?wsdl=wsdl1`)).status, 404, 'a WSDL the contract does not import is not found');
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': SOAP11.contentType, SOAPAction: '"urn:example:greeter/Greeter/Greet"' },
      body: soapEnvelope(SOAP11, '<Greet xmlns="urn:example:greeter"><name>Ada</name></Greet>'),
    });
    t.is(answer.status, 200);
    const text = await answer.text();
    const schemas = compileSchemaSet(
      definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)],
    );
    const doc = xml().XmlDocument.fromString(text);
    try {
      const [response] = doc.root.find(`*[local-name()='Body']/*`) as XmlElement[];
      t.notThrows(() => schemas.validate(response));
      t.is(response.content, 'Hello, Ada');
    } finally {
      doc.dispose();
    }
  },
);
