/**
 * What codegen refuses, and how: a construct it would not serve as the WSDL
 * describes it (rpc, encoded, SOAP headers, declared faults, choice, any,
 * xsi:type polymorphism, recursion), and a malformed, hostile or
 * inconsistent contract, each get one line naming the file and the line,
 * the construct and the way forward; never a stack trace.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, theWsdlOf, contractModel } from '../../codegen/main';
import { readContract } from '../../codegen/read/contract';

const ROOT = join(__dirname, '..', '..');
const SECRETS = join(__dirname, '..', 'fixtures', 'contracts', 'generate-secret', 'SecretService.wsdl');
const ORIGINAL = readFileSync(SECRETS, 'utf8');

type Edit = readonly [from: string, to: string];

/** The GenerateSecret fixture with the first occurrence of each `from` replaced, written into a temporary folder. */
function edited(edits: Edit[], files: Record<string, string> = {}): { dir: string; wsdl: string } {
  let text = ORIGINAL;
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`the edit finds no ${from}`);
    text = text.replace(from, to);
  }
  const dir = mkdtempSync(join(tmpdir(), 'codegen-refusal-'));
  const wsdl = join(dir, 'SecretService.wsdl');
  writeFileSync(wsdl, text);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return { dir, wsdl };
}

/** The message codegen stops with for an edited contract. */
/**
 * What codegen says of an edited contract: the one line it refuses it with, or (what it skips and serves the rest
 * of: a port or an operation it cannot serve) its one warning line. Throws when it says neither.
 */
async function said(edits: Edit[], files: Record<string, string> = {}): Promise<{ text: string; skipped: boolean }> {
  const { dir, wsdl } = edited(edits, files);
  const warnings: string[] = [];
  try {
    const warn = (line: string) => warnings.push(line);
    const model = contractModel(await readContract(wsdl, { warn }), warn);
    if (warnings.length !== 1) throw new Error(`the contract was accepted with ${warnings.length} warnings: ${warnings.join(' | ')}`);
    if (model.operations.length === 0 || model.ports.length === 0) throw new Error('the contract was accepted with nothing to serve');
    return { text: warnings[0], skipped: true };
  } catch (error) {
    if ((error as Error).message.startsWith('the contract was accepted')) throw error;
    return { text: (error as Error).message, skipped: false };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The one line a contract is refused with. */
async function refusal(edits: Edit[], files: Record<string, string> = {}): Promise<string> {
  const { text, skipped } = await said(edits, files);
  if (skipped) throw new Error(`the contract was served, less what this says: ${text}`);
  return text;
}

/** The 1-based line of the first line of the edited WSDL that holds `marker`. */
function lineOf(edits: Edit[], marker: string): number {
  let text = ORIGINAL;
  for (const [from, to] of edits) text = text.replace(from, to);
  return text.split('\n').findIndex((line) => line.includes(marker)) + 1;
}

const INPUT_BODY = '<soap:body use="literal" />';
const PORT_TYPE_INPUT = '<wsdl:input message="tns:GenerateSecretSoapIn" />';
const SCHEMA_END = '    </s:schema>';

/**
 * What codegen cannot serve of a port or an operation is skipped, the rest served (a WSDL's or a schema's broken
 * text, or a contract with nothing left to serve, is refused): these rows are skipped.
 */
const SKIPPED = new Set<string>([
  'an encoding other than SOAP encoding',
  'a SOAP 1.2 binding written with SOAP 1.1 elements',
  'a document-style part naming a type',
  'a declared fault whose message names a type',
  'a message declared twice',
  "a part's undeclared prefix",
  'a part naming neither an element nor a type',
  'a style that is neither document nor rpc',
  'a header part its message does not have',
  'a header part naming a type',
  'a notification operation (output without input)',
  'a port without an address',
  'an address whose path cannot be served',
  'a SOAP 1.2 binding with an operation the SOAP 1.1 one lacks',
  'a SOAP 1.2 binding lacking an operation of the SOAP 1.1 one',
  'an HTTP answer of several parts',
  'an HTTP answer part naming a type',
  'an HTTP verb other than GET and POST',
  'a simple type that derives from itself',
  'a list of a complex type',
  'a simple type restricting a complex one',
  'a derivation from an undeclared type',
  'an attribute of a complex type',
]);

const refused: [what: string, edits: Edit[], message: RegExp, marker: string][] = [
  [
    'an encoding other than SOAP encoding',
    [[INPUT_BODY, '<soap:body use="encoded" encodingStyle="urn:example:another-encoding" />']],
    /binding SecretServiceSoap: use="encoded" with encodingStyle="urn:example:another-encoding": only SOAP encoding \(http:\/\/schemas\.xmlsoap\.org\/soap\/encoding\/ or http:\/\/www\.w3\.org\/2003\/05\/soap-encoding\) is supported$/,
    'use="encoded"',
  ],
  [
    'a SOAP 1.2 binding written with SOAP 1.1 elements',
    [['<soap12:operation soapAction="http://secrets.example.com/Ping"', '<soap:operation  soapAction="http://secrets.example.com/Ping"']],
    /binding SecretServiceSoap12 is a SOAP 1\.2 binding whose operations use <soap:operation> of SOAP 1\.1: outside WS-I Basic Profile; write each binding with its own version's elements$/,
    '<soap:operation  soapAction="http://secrets.example.com/Ping"',
  ],
  [
    'a document-style part naming a type',
    [['<wsdl:part name="parameters" element="tns:GenerateSecret" />', '<wsdl:part name="length" type="s:int" />']],
    /operation GenerateSecret: part length names a type: a document-style body part must name an element$/,
    '<wsdl:message name="GenerateSecretSoapIn">',
  ],
  [
    'a declared fault whose message names a type',
    [[PORT_TYPE_INPUT, `${PORT_TYPE_INPUT}<wsdl:fault name="Oops" message="tns:GenerateSecretHttpPostIn" />`]],
    /operation GenerateSecret: fault Oops must be a message of one part naming an element \(WS-I BP R2205\)$/,
    '<wsdl:message name="GenerateSecretHttpPostIn">',
  ],
  [
    'a wsdl:import to fetch',
    [['<wsdl:types>', '<wsdl:import namespace="urn:more" location="http://example.com/more.wsdl" /><wsdl:types>']],
    /wsdl:import location http:\/\/example\.com\/more\.wsdl: codegen never fetches a WSDL; map the URL to a file with --catalog FILE \(an OASIS XML Catalog\), or save the WSDL beside this one \(any file name: it is found by its targetNamespace urn:more\)$/,
    'wsdl:import',
  ],
];

for (const [what, edits, message, marker] of refused) {
  const skips = SKIPPED.has(what);
  test(`${skips ? 'skipped with a warning' : 'refused'} in one line naming file and line: ${what}`, async (t) => {
    const { text, skipped } = await said(edits);
    t.is(skipped, skips, text);
    t.regex(text, message);
    t.regex(text, skips ? /^codegen: warning: (port|operation) \S+ .*is not served: / : /^codegen: (?!warning)/, text);
    t.regex(text, new RegExp(`SecretService\\.wsdl:${lineOf(edits, marker)}: `), text);
    t.false(text.includes('\n'), text);
  });
}

test('a service without a SOAP port is served from its HTTP bindings; one with no port of any kind is refused', async (t) => {
  const port = (name: string, address: string): Edit => [
    `    <wsdl:port name="${name}" binding="tns:${name}">\n      <${address} location="http://localhost/SecretService.asmx" />\n    </wsdl:port>\n`,
    '',
  ];
  const { dir, wsdl } = edited([port('SecretServiceSoap', 'soap:address'), port('SecretServiceSoap12', 'soap12:address')]);
  try {
    const model = contractModel(await readContract(wsdl));
    t.deepEqual(
      model.ports.map((p) => p.variant),
      ['httpPost'],
    );
    t.deepEqual(
      model.operations.map((op) => [op.name, op.soap, op.request.type.fields.map((f) => f.xmlName)]),
      [
        ['GenerateSecret', undefined, ['length', 'alphabet']],
        ['Ping', undefined, []],
        ['SecretCount', undefined, []],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const text = await refusal([
    port('SecretServiceSoap', 'soap:address'),
    port('SecretServiceSoap12', 'soap12:address'),
    port('SecretServiceHttpPost', 'http:address'),
  ]);
  t.regex(text, /SecretService\.wsdl:\d+: the service has no SOAP 1\.1, SOAP 1\.2, HTTP GET or HTTP POST port$/);
});

test('a DOCTYPE is read past, its DTD never applied: entities declared there (the billion laughs among them) are not expanded, and a document that references one is refused', async (t) => {
  const laughs = '<!DOCTYPE wsdl:definitions [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
  const doctype: Edit = ['<wsdl:definitions ', `${laughs}\n<wsdl:definitions `];
  const { dir, wsdl } = edited([doctype]);
  try {
    const model = contractModel(await readContract(wsdl));
    t.deepEqual(
      model.operations.map((op) => op.name),
      ['GenerateSecret', 'Ping', 'SecretCount'],
      'declared and never referenced: the DTD is read past',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const inText = await refusal([doctype, ['<wsdl:types>', '<wsdl:documentation>&b;</wsdl:documentation>\n  <wsdl:types>']]);
  t.regex(
    inText,
    /^codegen: .*SecretService\.wsdl:1: references the entity &b; that its DTD defines: codegen reads no DTD \(no entity is expanded, nothing is fetched\); publish the document with the entity's text in its place$/,
  );
  const inAttribute = await refusal([doctype, ['name="SecretService"', 'name="&a;"']]);
  t.regex(inAttribute, /references the entity &a; that its DTD defines/, 'in an attribute too, where libxml2 would have put its text');
});

test("a document nested deeper than libxml2 allows, and a malformed one, are refused with libxml2's reason and the line", async (t) => {
  const deep = `${'<x>'.repeat(5000)}${'</x>'.repeat(5000)}`;
  const tooDeep = await refusal([['Creates a random secret of the given length.', deep]]);
  t.regex(tooDeep, /^codegen: .*SecretService\.wsdl:\d+: not well-formed XML: .*depth/i);
  t.false(tooDeep.includes('\n'));
  const cut = await refusal([['</wsdl:definitions>', '</wsdl:definition>']]);
  t.regex(cut, /^codegen: .*SecretService\.wsdl:\d+: not well-formed XML: /);
});

test('a schema file that is not XML Schema, or imports a namespace it does not have, is refused naming the file', async (t) => {
  const importing = (location: string): Edit => [
    SCHEMA_END,
    `<s:import namespace="urn:other" schemaLocation="${location}" />\n    </s:schema>`,
  ];
  t.regex(await refusal([importing('other.xsd')], { 'other.xsd': '<notASchema />' }), /other\.xsd:1: <notASchema> is not an XML Schema$/);
  t.regex(
    await refusal([importing('other.xsd')], {
      'other.xsd': `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:else" />`,
    }),
    /SecretService\.wsdl:\d+: the imported schema other\.xsd does not have the namespace urn:other$/,
  );
});

test('inconsistent contracts: each part that disagrees is skipped in a line (an HTTP answer to a void operation, an unknown binding, an unknown element), the rest served', async (t) => {
  const skip = async (edits: Edit[], message: RegExp) => {
    const { text, skipped } = await said(edits);
    t.true(skipped, text);
    t.regex(text, message);
  };
  await skip(
    [
      [
        '<wsdl:message name="PingHttpPostOut" />',
        '<wsdl:message name="PingHttpPostOut"><wsdl:part name="Body" element="tns:int" /></wsdl:message>',
      ],
    ],
    /^codegen: warning: operation Ping over HTTP GET and POST is not served: Ping: the HTTP answer and the SOAP result must both be there, or neither \(a void operation\)$/,
  );
  await skip(
    [['binding="tns:SecretServiceSoap12"', 'binding="tns:Missing"']],
    /^codegen: warning: port SecretServiceSoap12 is not served: \S*SecretService\.wsdl:\d+: binding Missing is not declared$/,
  );
  await skip(
    [['<wsdl:part name="parameters" element="tns:GenerateSecret" />', '<wsdl:part name="parameters" element="tns:Nothing" />']],
    /^codegen: warning: operation GenerateSecret is not served: part parameters of GenerateSecret names element Nothing of http:\/\/secrets\.example\.com\/, which no schema declares$/,
  );
  // Nothing left to serve: refused with the reason.
  t.regex(
    await refusal([
      ['<wsdl:part name="parameters" element="tns:GenerateSecret" />', '<wsdl:part name="parameters" element="tns:Nothing" />'],
      ['<wsdl:part name="parameters" element="tns:Ping" />', '<wsdl:part name="parameters" element="tns:Nothing" />'],
      ['<wsdl:part name="parameters" element="tns:SecretCount" />', '<wsdl:part name="parameters" element="tns:Nothing" />'],
    ]),
    /^codegen: part parameters of GenerateSecret names element Nothing of http:\/\/secrets\.example\.com\/, which no schema declares$/,
  );
});

test('of several services each is served (one of no port skipped in a line), the choice said in one line; --service chooses one', async (t) => {
  const { dir, wsdl } = edited([['</wsdl:definitions>', '<wsdl:service name="Another" />\n</wsdl:definitions>']]);
  try {
    const lines: string[] = [];
    const model = contractModel(await readContract(wsdl, { warn: (line) => lines.push(line) }));
    t.is(model.service, 'SecretService');
    t.is(
      model.choice,
      "the WSDL declares 2 services (SecretService, Another): each is served, every port at its address's path; serve one alone with --service NAME",
    );
    t.deepEqual(
      lines.map((line) => line.replace(/ [^ ]+\.wsdl:\d+:/, ' WSDL:')),
      ['codegen: warning: service Another is not served: WSDL: the service has no SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST port'],
    );
    await t.throwsAsync(readContract(wsdl, { service: 'Missing' }), {
      message: 'codegen: the WSDL has no service Missing (it has SecretService, Another)',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a SOAP 1.2 binding of other operations than the SOAP 1.1 one is not served; the SOAP 1.1 port and the HTTP ones are', async (t) => {
  const { dir, wsdl } = edited([
    ['<wsdl:operation name="Ping">\n      <soap12:operation', '<wsdl:operation name="Pong">\n      <soap12:operation'],
  ]);
  try {
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    const model = contractModel(await readContract(wsdl, { warn }), warn);
    t.deepEqual(
      model.ports.map((p) => p.name),
      ['SecretServiceSoap', 'SecretServiceHttpPost'],
    );
    t.deepEqual(
      model.operations.map((op) => op.name),
      ['GenerateSecret', 'Ping', 'SecretCount'],
    );
    t.is(warnings.length, 1);
    t.regex(
      warnings[0],
      /^codegen: warning: port SecretServiceSoap12 is not served: \S*SecretService\.wsdl:\d+: binding SecretServiceSoap12: operation Pong is not in the SOAP 1\.1 binding/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the one command prints the refusal as one line on stderr and exits 1, without a stack trace; what it skips, in a warning line', (t) => {
  const { dir, wsdl } = edited([
    ['<wsdl:types>', '<wsdl:import namespace="urn:more" location="http://example.com/more.wsdl" /><wsdl:types>'],
  ]);
  const skipping = edited([[INPUT_BODY, '<soap:body use="encoded" encodingStyle="urn:example:another-encoding" />']]);
  try {
    const run = spawnSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--wsdl', wsdl, '--out', join(dir, 'out')], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    t.is(run.status, 1);
    t.regex(run.stderr, /^codegen: .*SecretService\.wsdl:\d+: wsdl:import location http:\/\/example\.com\/more\.wsdl: [^\n]*\n$/);
    t.notRegex(run.stderr, /\n\s+at /);
    const skipped = spawnSync(
      process.execPath,
      ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--wsdl', skipping.wsdl, '--out', join(skipping.dir, 'out')],
      { encoding: 'utf8', cwd: ROOT },
    );
    t.is(skipped.status, 0, skipped.stderr);
    t.regex(
      skipped.stderr,
      /^codegen: warning: port SecretServiceSoap is not served: .*SecretService\.wsdl:\d+: binding SecretServiceSoap: use="encoded" [^\n]*\n$/,
    );
    rmSync(skipping.dir, { recursive: true, force: true });
    const missing = spawnSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--wsdl', wsdl], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    t.is(missing.stderr, 'codegen: --wsdl FILE needs --out DIR (generated/ is generated from schema/ only)\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const LENGTH = '<s:element minOccurs="1" maxOccurs="1" name="length" type="s:int" />';
/** Declarations added at the end of the schema. */
const declare = (text: string): Edit => [SCHEMA_END, `${text}\n    </s:schema>`];
/** The request's `length` of type `type`, so that the operations reach it. */
const lengthOf = (type: string): Edit => [LENGTH, LENGTH.replace('type="s:int"', `type="${type}"`)];
const PING_12 = [
  '    <wsdl:operation name="Ping">',
  '      <soap12:operation soapAction="http://secrets.example.com/Ping" style="document" />',
  '      <wsdl:input>',
  '        <soap12:body use="literal" />',
  '      </wsdl:input>',
  '      <wsdl:output>',
  '        <soap12:body use="literal" />',
  '      </wsdl:output>',
  '    </wsdl:operation>\n',
].join('\n');

/**
 * Every other refusal of the contract reader and the model, each with its message, construct and way forward
 * (test/codegen/codegen.test.ts holds the XSD reader's others and the HTTP answer's); `marker` finds the line it names.
 */
const more: [what: string, edits: Edit[], message: RegExp, marker: string | undefined, files?: Record<string, string>][] = [
  // The schemas
  [
    'minOccurs not a number',
    [[LENGTH, LENGTH.replace('minOccurs="1"', 'minOccurs="one"')]],
    /element GenerateSecret\/length: minOccurs="one" is not a number$/,
    'minOccurs="one"',
  ],
  [
    'a group that holds itself',
    [
      declare(
        '<s:group name="Loop"><s:sequence><s:group ref="tns:Loop" /></s:sequence></s:group><s:complexType name="Looped"><s:group ref="tns:Loop" /></s:complexType>',
      ),
    ],
    /complex type Looped: nests groups more than 32 deep \(a group that holds itself\?\)$/,
    'name="Loop"',
  ],
  [
    'a group with no content model',
    [declare('<s:group name="Empty" /><s:complexType name="UsesEmpty"><s:group ref="tns:Empty" /></s:complexType>')],
    /group Empty: holds no sequence, choice or all$/,
    'name="Empty"',
  ],
  [
    'an attribute use that is none',
    [declare('<s:complexType name="A"><s:attribute name="x" type="s:string" use="sometimes" /></s:complexType>')],
    /attribute A\/@x: use="sometimes" is not an attribute use$/,
    'use="sometimes"',
  ],
  [
    'an attribute group that holds itself',
    [
      declare(
        '<s:attributeGroup name="AG"><s:attributeGroup ref="tns:AG" /></s:attributeGroup><s:complexType name="B"><s:attributeGroup ref="tns:AG" /></s:complexType>',
      ),
    ],
    /complex type B: nests attribute groups more than 32 deep$/,
    'name="AG"',
  ],
  [
    'complexContent without a derivation',
    [declare('<s:complexType name="C"><s:complexContent /></s:complexType>')],
    /complex type C: <complexContent> holds no extension or restriction$/,
    'name="C"',
  ],
  [
    'a local element without a name',
    [[LENGTH, '<s:element minOccurs="1" maxOccurs="1" type="s:int" />']],
    /: <element> has no name attribute$/,
    'maxOccurs="1" type="s:int"',
  ],
  ['an include without schemaLocation', [declare('<s:include />')], /: an include must name its schemaLocation$/, '<s:include />'],
  [
    'an include of another namespace',
    [declare('<s:include schemaLocation="other.xsd" />')],
    /: the included schema other\.xsd must have the including schema's targetNamespace$/,
    '<s:include schemaLocation',
    { 'other.xsd': '<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:else" />' },
  ],
  // The WSDL
  [
    'a root that is not wsdl:definitions',
    [
      ['<wsdl:definitions ', '<wsdl:definition '],
      ['</wsdl:definitions>', '</wsdl:definition>'],
    ],
    /: <definition> is not a WSDL 1\.1 definitions element$/,
    '<wsdl:definition ',
  ],
  [
    'a wsdl:import of a file that is not there',
    [['<wsdl:types>', '<wsdl:import namespace="urn:more" location="../more.wsdl" /><wsdl:types>']],
    /: wsdl:import location \.\.\/more\.wsdl: .*more\.wsdl is not there$/,
    'wsdl:import',
  ],
  [
    'a message declared twice',
    [['<wsdl:message name="PingSoapIn">', '<wsdl:message name="PingSoapIn" />\n  <wsdl:message name="PingSoapIn">']],
    /: message PingSoapIn is declared more than once$/,
    undefined,
  ],
  [
    "a part's undeclared prefix",
    [['element="tns:GenerateSecret" />', 'element="zz:GenerateSecret" />']],
    /: part parameters: zz:GenerateSecret has a prefix that is not declared$/,
    'zz:GenerateSecret',
  ],
  [
    'a part naming neither an element nor a type',
    [['<wsdl:part name="parameters" element="tns:GenerateSecret" />', '<wsdl:part name="parameters" />']],
    /: part parameters must name an element or a type$/,
    '<wsdl:part name="parameters" />',
  ],
  [
    'a style that is neither document nor rpc',
    [
      [
        'soapAction="http://secrets.example.com/GenerateSecret" style="document"',
        'soapAction="http://secrets.example.com/GenerateSecret" style="message"',
      ],
    ],
    /: operation GenerateSecret: style="message" is neither document nor rpc$/,
    'style="message"',
  ],
  [
    'a header part its message does not have',
    [[INPUT_BODY, `${INPUT_BODY}<soap:header message="tns:GenerateSecretSoapIn" part="token" use="literal" />`]],
    /: operation GenerateSecret: header part token is not a part of tns:GenerateSecretSoapIn$/,
    'part="token"',
  ],
  [
    'a header part naming a type',
    [[INPUT_BODY, `${INPUT_BODY}<soap:header message="tns:GenerateSecretHttpPostIn" part="length" use="literal" />`]],
    /: operation GenerateSecret: header part length must name an element \(WS-I BP R2205\)$/,
    'part="length"',
  ],
  [
    'a notification operation (output without input)',
    [[PORT_TYPE_INPUT, '']],
    /: operation GenerateSecret has no input \(a notification operation is not WS-I Basic Profile\)$/,
    undefined,
  ],
  [
    'a port without an address',
    [['<soap:address location="http://localhost/SecretService.asmx" />', '']],
    /: port SecretServiceSoap has no address: codegen serves at the path of the port's address$/,
    '<wsdl:port name="SecretServiceSoap" ',
  ],
  [
    'an address whose path cannot be served',
    [['<soap:address location="http://localhost/SecretService.asmx" />', '<soap:address location="http://localhost/a|b" />']],
    /: port SecretServiceSoap: address http:\/\/localhost\/a\|b has a path codegen cannot serve$/,
    'a|b',
  ],
  [
    'a SOAP 1.2 binding with an operation the SOAP 1.1 one lacks',
    [['<wsdl:operation name="Ping">\n      <soap12:operation', '<wsdl:operation name="Pong">\n      <soap12:operation']],
    /: binding SecretServiceSoap12: operation Pong is not in the SOAP 1\.1 binding; both must offer the same operations$/,
    '<wsdl:operation name="Pong">',
  ],
  [
    'a SOAP 1.2 binding lacking an operation of the SOAP 1.1 one',
    [[PING_12, '']],
    /: binding SecretServiceSoap12 lacks operation Ping of the SOAP 1\.1 binding; both must offer the same operations$/,
    '<wsdl:binding name="SecretServiceSoap12"',
  ],
  [
    'an HTTP answer of several parts',
    [
      [
        '<wsdl:part name="Body" element="tns:int" />',
        '<wsdl:part name="Body" element="tns:int" /><wsdl:part name="More" element="tns:int" />',
      ],
    ],
    /: SecretCount: an HTTP output message has one part \(the answer's root element\) or none$/,
    '<wsdl:message name="SecretCountHttpPostOut">',
  ],
  [
    'an HTTP answer part naming a type',
    [['<wsdl:part name="Body" element="tns:int" />', '<wsdl:part name="Body" type="s:int" />']],
    /: SecretCount: an HTTP output part must name the answer's element$/,
    '<wsdl:message name="SecretCountHttpPostOut">',
  ],
  [
    'an HTTP verb other than GET and POST',
    [['<http:binding verb="POST" />', '<http:binding verb="PUT" />']],
    /: binding SecretServiceHttpPost: HTTP verb PUT is not supported \(GET, POST\)$/,
    'verb="PUT"',
  ],
  // The model (the types the operations reach)
  [
    'a simple type that derives from itself',
    [declare('<s:simpleType name="Self"><s:restriction base="tns:Self" /></s:simpleType>'), lengthOf('tns:Self')],
    /: simple type Self derives from itself$/,
    'name="Self"',
  ],
  [
    'a list of a complex type',
    [declare('<s:simpleType name="L"><s:list itemType="tns:SecretInfo" /></s:simpleType>'), lengthOf('tns:L')],
    /: a list's items must be of a simple type$/,
    'name="L"',
  ],
  [
    'a simple type restricting a complex one',
    [declare('<s:simpleType name="R"><s:restriction base="tns:SecretInfo" /></s:simpleType>'), lengthOf('tns:R')],
    /: a simple type must restrict a simple type$/,
    'name="R"',
  ],
  [
    'a derivation from an undeclared type',
    [
      declare('<s:complexType name="D"><s:complexContent><s:extension base="tns:Nope" /></s:complexContent></s:complexType>'),
      lengthOf('tns:D'),
    ],
    /: complex type D derives from Nope, which no schema declares$/,
    'name="D"',
  ],
  [
    'an attribute of a complex type',
    [declare('<s:complexType name="At"><s:attribute name="x" type="tns:SecretInfo" /></s:complexType>'), lengthOf('tns:At')],
    /: attribute x must have a simple type$/,
    'name="At"',
  ],
];

for (const [what, edits, message, marker, files] of more) {
  const skips = SKIPPED.has(what);
  test(`${skips ? 'skipped' : 'refused'} with its construct and way forward: ${what}`, async (t) => {
    const { text, skipped } = await said(edits, files);
    t.is(skipped, skips, text);
    t.regex(text, message);
    t.regex(
      text,
      skips
        ? /^codegen: warning: (port|operation) \S+ .*is not served: \S*SecretService\.wsdl:\d+: /
        : /^codegen: \S*SecretService\.wsdl:\d+: /,
      'names the file and the line',
    );
    if (marker) t.regex(text, new RegExp(`SecretService\\.wsdl:${lineOf(edits, marker)}: `), text);
    t.false(text.includes('\n'), text);
  });
}

test('a member of a type no built-in is, named by the type and member (the model has no line for it): its operation is skipped', async (t) => {
  const { text, skipped } = await said([lengthOf('s:integerish')]);
  t.true(skipped);
  t.regex(
    text,
    /^codegen: warning: operation GenerateSecret is not served: GenerateSecret\/length: XML Schema type integerish is not an XML Schema built-in type$/,
  );
});

test("a type named like the OpenAPI description's JSON error is refused when generated: rename it", async (t) => {
  const { dir, wsdl } = edited([
    declare('<s:complexType name="JsonError"><s:sequence /></s:complexType>'),
    ['name="Secret" type="s:string"', 'name="Secret" type="tns:JsonError"'],
  ]);
  try {
    await t.throwsAsync(generate(wsdl, join(dir, 'out')), {
      message: "codegen: the type JsonError has the name of the OpenAPI description's JSON error; rename it",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a schema folder must hold one WSDL, and each option its value: one line each', (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'codegen-refusal-'));
  try {
    t.throws(() => theWsdlOf(empty), { message: /^codegen: \S+\/ must hold one \.wsdl file \(the contract\), not 0$/ });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  for (const [option, message] of [
    ['--service', 'codegen: --service needs a name'],
    ['--schemas', 'codegen: --schemas needs a folder'],
    ['--handlers', 'codegen: --handlers needs a folder'],
    ['--wsdl', 'codegen: --wsdl needs a file'],
    ['--out', 'codegen: --out needs a folder'],
  ]) {
    const run = spawnSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), option], { encoding: 'utf8', cwd: ROOT });
    t.is(run.status, 1);
    t.is(run.stderr, `${message}\n`);
  }
});
