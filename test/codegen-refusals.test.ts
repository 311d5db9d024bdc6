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
import { buildContractModel } from '../codegen/build-model';
import { readContract } from '../codegen/read/contract';

const ROOT = join(__dirname, '..');
const SECRETS = join(__dirname, 'fixtures', 'contracts', 'generate-secret', 'SecretService.wsdl');
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
async function refusal(edits: Edit[], files: Record<string, string> = {}): Promise<string> {
  const { dir, wsdl } = edited(edits, files);
  try {
    buildContractModel(await readContract(wsdl));
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('the contract was accepted');
}

/** The 1-based line of the first line of the edited WSDL that holds `marker`. */
function lineOf(edits: Edit[], marker: string): number {
  let text = ORIGINAL;
  for (const [from, to] of edits) text = text.replace(from, to);
  return text.split('\n').findIndex((line) => line.includes(marker)) + 1;
}

const INPUT_BODY = '<soap:body use="literal" />';
const SOAP_BINDING = '<soap:binding transport="http://schemas.xmlsoap.org/soap/http" />';
const PORT_TYPE_INPUT = '<wsdl:input message="tns:GenerateSecretSoapIn" />';
const SCHEMA_END = '    </s:schema>';

const refused: [what: string, edits: Edit[], message: RegExp, marker: string][] = [
  [
    'an rpc binding',
    [[SOAP_BINDING, '<soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="rpc" />']],
    /binding SecretServiceSoap: style="rpc" is not supported: codegen serves document\/literal \(ASMX's default\); republish the service with \[SoapDocumentService\]$/,
    'style="rpc"',
  ],
  [
    'an rpc operation',
    [['soapAction="http://secrets.example.com/Ping" style="document"', 'soapAction="http://secrets.example.com/Ping" style="rpc"']],
    /binding SecretServiceSoap: style="rpc" is not supported: .*\[SoapDocumentMethod\]$/,
    'style="rpc"',
  ],
  [
    'SOAP encoding',
    [[INPUT_BODY, '<soap:body use="encoded" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" />']],
    /binding SecretServiceSoap: use="encoded" is not supported: codegen serves literal XML/,
    'use="encoded"',
  ],
  [
    'a SOAP header',
    [[INPUT_BODY, `${INPUT_BODY}<soap:header message="tns:GenerateSecretSoapIn" part="parameters" use="literal" />`]],
    /binding SecretServiceSoap: SOAP headers \(<soap:header>\) are not supported: generated code would ignore them; remove the SoapHeader from the contract$/,
    'soap:header',
  ],
  [
    'a declared fault',
    [[PORT_TYPE_INPUT, `${PORT_TYPE_INPUT}<wsdl:fault name="Oops" message="tns:GenerateSecretSoapOut" />`]],
    /operation GenerateSecret: declared faults \(<wsdl:fault>\) are not supported: generated code answers the standard SOAP faults only/,
    'wsdl:fault',
  ],
  [
    'a SOAP message whose part names a type (rpc style)',
    [['<wsdl:part name="parameters" element="tns:GenerateSecret" />', '<wsdl:part name="length" type="s:int" />']],
    /GenerateSecret: a SOAP input message must have one part naming an element \(document\/literal wrapped\)$/,
    '<wsdl:part name="length" type="s:int" />',
  ],
  [
    'wsdl:import',
    [['<wsdl:types>', '<wsdl:import namespace="urn:more" location="more.wsdl" /><wsdl:types>']],
    /wsdl:import is not supported: put the imported definitions into one WSDL file$/,
    'wsdl:import',
  ],
  [
    'a choice',
    [
      [
        SCHEMA_END,
        '<s:complexType name="Either"><s:choice><s:element name="a" type="s:string" /></s:choice></s:complexType>\n    </s:schema>',
      ],
    ],
    /complex type Either: <s:choice> is not supported/,
    's:choice',
  ],
  [
    'any',
    [[SCHEMA_END, '<s:complexType name="Open"><s:sequence><s:any /></s:sequence></s:complexType>\n    </s:schema>']],
    /complex type Open: <s:any> is not supported/,
    's:any',
  ],
];

for (const [what, edits, message, marker] of refused) {
  test(`refused in one line naming file and line: ${what}`, async (t) => {
    const text = await refusal(edits);
    t.regex(text, message);
    t.true(text.startsWith(`codegen: `), text);
    t.regex(text, new RegExp(`SecretService\\.wsdl:${lineOf(edits, marker)}: `), text);
    t.false(text.includes('\n'), text);
  });
}

test('a service without a SOAP port is refused: the operations are read from a SOAP binding', async (t) => {
  const port = (name: string, address: string): Edit => [
    `    <wsdl:port name="${name}" binding="tns:${name}">\n      <${address} location="http://localhost/SecretService.asmx" />\n    </wsdl:port>\n`,
    '',
  ];
  const text = await refusal([port('SecretServiceSoap', 'soap:address'), port('SecretServiceSoap12', 'soap12:address')]);
  t.regex(
    text,
    /SecretService\.wsdl:\d+: the service has no SOAP 1\.1 or SOAP 1\.2 port: codegen takes the operations from a SOAP binding$/,
  );
});

test('a DOCTYPE (and with it every entity, the billion laughs among them) is refused before anything is read', async (t) => {
  const laughs = '<!DOCTYPE wsdl:definitions [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
  const text = await refusal([['<wsdl:definitions ', `${laughs}\n<wsdl:definitions `]]);
  t.regex(text, /^codegen: .*SecretService\.wsdl:1: has a DOCTYPE, which a WSDL or XSD does not need \(DTDs and entities are refused\)$/);
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
  t.regex(
    await refusal([[SCHEMA_END, '<s:import namespace="urn:nowhere" />\n    </s:schema>']]),
    /imports namespace urn:nowhere, which no schema of the WSDL declares$/,
  );
});

test('a base type used as a type (a derived value there needs xsi:type) and a type that holds itself are refused with the way forward', async (t) => {
  const derived =
    '<s:complexType name="Special"><s:complexContent mixed="false"><s:extension base="tns:SecretInfo"><s:sequence><s:element minOccurs="0" maxOccurs="1" name="Extra" type="s:string" /></s:sequence></s:extension></s:complexContent></s:complexType>';
  t.is(
    await refusal([[SCHEMA_END, `${derived}\n    </s:schema>`]]),
    'codegen: GenerateSecretResponse/GenerateSecretResult has type SecretInfo, which other types extend: a derived value there needs xsi:type, which codegen does not support yet; name the derived type instead',
  );
  const node =
    '<s:complexType name="Node"><s:sequence><s:element minOccurs="0" maxOccurs="unbounded" name="Child" type="tns:Node" /></s:sequence></s:complexType>';
  t.is(
    await refusal([[SCHEMA_END, `${node}\n    </s:schema>`]]),
    'codegen: complex type Node holds itself (Node → Node): recursive types are not supported yet',
  );
});

test('inconsistent contracts: a void SOAP answer with an HTTP answer, an unknown binding, two services', async (t) => {
  t.regex(
    await refusal([
      [
        '<wsdl:message name="PingHttpPostOut" />',
        '<wsdl:message name="PingHttpPostOut"><wsdl:part name="Body" element="tns:int" /></wsdl:message>',
      ],
    ]),
    /^codegen: Ping: the HTTP answer and the SOAP result must both be there, or neither \(a void operation\)$/,
  );
  t.regex(
    await refusal([['binding="tns:SecretServiceSoap12"', 'binding="tns:Missing"']]),
    /SecretService\.wsdl:\d+: port SecretServiceSoap12 names unknown binding Missing$/,
  );
  t.regex(
    await refusal([['</wsdl:definitions>', '<wsdl:service name="Another" />\n</wsdl:definitions>']]),
    /SecretService\.wsdl:\d+: a WSDL must declare one service, not 2$/,
  );
});

test('SOAP 1.1 and SOAP 1.2 bindings that offer different operations are refused', async (t) => {
  t.regex(
    await refusal([
      ['<soap12:operation soapAction="http://secrets.example.com/Ping"', '<soap12:operation soapAction="http://secrets.example.com/Pong"'],
    ]),
    /SecretService\.wsdl:\d+: binding SecretServiceSoap12: operation Ping has SOAPAction http:\/\/secrets\.example\.com\/Pong, the SOAP 1\.1 binding http:\/\/secrets\.example\.com\/Ping; both must offer the same operations$/,
  );
});

test('the one command prints the refusal as one line on stderr and exits 1, without a stack trace', (t) => {
  const { dir, wsdl } = edited([[SOAP_BINDING, '<soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="rpc" />']]);
  try {
    const run = spawnSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--wsdl', wsdl, '--out', join(dir, 'out')], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    t.is(run.status, 1);
    t.regex(run.stderr, /^codegen: .*SecretService\.wsdl:\d+: binding SecretServiceSoap: style="rpc" is not supported: [^\n]*\n$/);
    t.notRegex(run.stderr, /\n\s+at /);
    const missing = spawnSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--wsdl', wsdl], {
      encoding: 'utf8',
      cwd: ROOT,
    });
    t.is(missing.stderr, 'codegen: --wsdl FILE needs --out DIR (generated/ is generated from schema/ only)\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
