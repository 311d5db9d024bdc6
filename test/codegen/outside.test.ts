/**
 * Constructs of published contracts found beyond the project's corpus:
 * substitution groups (Exchange Web Services, EPCIS), addresses that are no
 * URL (a placeholder host, a relative or an empty location: Workday, CICS,
 * php-ews), and schemas a WCF service names by a relative URL
 * (`Service?xsd=xsd0`). test/fixtures/outside/ holds small contracts written
 * for this project in their shape; they are generated, type-checked, served
 * and called as `npm run corpus` does.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCorpus } from '../../codegen/harness/corpus';
import { contractModel } from '../../codegen/main';
import { readContract } from '../../codegen/read/contract';
import { findAll, parseXmlText, withDocument } from '../../codegen/read/documents';
import { readXsd } from '../../codegen/read/xsd';
import { segments } from '../../codegen/emit/documents';
import { ADDRESS_MARKER } from '../../codegen/documents/wsdl';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { loadContract } from '../../codegen/harness/load-generated';
import { createContractApp } from '../../src/runtime/host';
import { serveFixture } from '../support/fixture-contract';

const OUTSIDE = join(__dirname, '..', 'fixtures', 'outside');
const SUBSTITUTION = readFileSync(join(OUTSIDE, 'substitution-group.wsdl'), 'utf8');

/** The substitution-group contract with edits, and other files, in a temporary folder; `use` gets the WSDL's path. */
async function withEdited<T>(edits: [string, string][], files: Record<string, string>, use: (wsdl: string) => Promise<T>): Promise<T> {
  let text = SUBSTITUTION;
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`the edit finds no ${from}`);
    text = text.replace(from, to);
  }
  const dir = mkdtempSync(join(tmpdir(), 'codegen-outside-'));
  try {
    const wsdl = join(dir, 'Items.wsdl');
    writeFileSync(wsdl, text);
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return await use(wsdl);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.before(async () => {
  await loadXmlEngine();
});

/** Posts a SOAP 1.1 call whose Body holds `body` (xsi, xsd and `namespaces` declared on the envelope): its status and text. */
async function postSoap11(url: string, action: string, body: string, namespaces = ''): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${action}"` },
    body:
      '<?xml version="1.0"?><e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      `xmlns:xsd="http://www.w3.org/2001/XMLSchema"${namespaces}><e:Body>${body}</e:Body></e:Envelope>`,
  });
  return { status: response.status, text: await response.text() };
}

test.serial(
  'the contracts of test/fixtures/outside generate, type-check and answer every operation with a schema-valid answer',
  async (t) => {
    t.timeout(300_000, 'generate, type-check, serve and call');
    const lines: string[] = [];
    const outcomes = await checkCorpus(OUTSIDE, (line) => lines.push(line));
    t.log(lines.join('\n'));
    t.deepEqual(
      outcomes.map((o) => [o.name, o.outcome]),
      [
        ['abstract-body', 'pass'],
        ['axis1-gsoap-encoded', 'pass'],
        ['axis1-rpc-faults', 'pass'],
        ['encoded-headers', 'pass'],
        ['ihe-xds-iti18', 'pass'],
        ['no-namespace-rpc', 'pass'],
        ['onvif-doorcontrol', 'pass'],
        ['php-labelled-enums', 'pass'],
        ['placeholder-addresses', 'pass'],
        ['schema-of-no-namespace', 'pass'],
        ['schema10-relaxed', 'pass'],
        ['several-services', 'pass'],
        ['simple-content-results', 'pass'],
        ['soapenc-simple-bases', 'pass'],
        ['substitution-group', 'pass'],
        ['twin-bindings', 'pass'],
        ['two-port-types', 'pass'],
        ['unqualified-definitions', 'pass'],
      ],
    );
  },
);

test('attributes XML Schema does not have (a PHP service’s `label`s) are taken out of a WSDL’s schemas, said in one line', async (t) => {
  const lines: string[] = [];
  const facts = await readContract(join(OUTSIDE, 'php-labelled-enums.wsdl'), { warn: (line) => lines.push(line) });
  t.deepEqual(
    lines.filter((l) => l.includes('XML Schema does not have')),
    ['codegen: warning: test/fixtures/outside/php-labelled-enums.wsdl:11: attributes XML Schema does not have are ignored: label (6×)'],
  );
  // The schema read has every declaration, and none of the attributes.
  t.true(facts.xsd.simpleTypes.has('{urn:houses}WallMaterial') && facts.xsd.complexTypes.has('{urn:houses}House'));
  for (const { schema } of facts.documents.schemas) t.is(schema.find('.//@label').length, 0);
});

test('a standard namespace a header part names unimported is read from codegen/standard; a fault of no part and a java: port are said in a line each', async (t) => {
  const lines: string[] = [];
  const facts = await readContract(join(OUTSIDE, 'axis1-gsoap-encoded.wsdl'), { warn: (line) => lines.push(line) });
  t.deepEqual(lines, [
    'codegen: warning: port calcJava: its address is one of another transport (java:), not HTTP: not served',
    'codegen: warning: fault TestFailed of operation add is not served: its message TestFailed has no part, so no detail to declare: answered as an undeclared fault',
  ]);
  t.true(facts.xsd.elements.has('{http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd}Security'));
  t.deepEqual(
    facts.wsdl.ports.map((p) => p.name),
    ['calc'],
  );
  t.deepEqual(facts.wsdl.coverage, { operations: 1, servedOperations: 1, ports: 1, completePorts: 1 });
  t.deepEqual(facts.wsdl.operations[0].faults, []);
});

test('a service binding two port types serves the operations of each at every port; a name both have is named by each port type too', async (t) => {
  const lines: string[] = [];
  const facts = await readContract(join(OUTSIDE, 'two-port-types.wsdl'), { warn: (line) => lines.push(line) });
  t.deepEqual(lines, []);
  t.deepEqual(
    facts.wsdl.ports.map((p) => [p.name, p.variant, p.path]),
    [
      ['ShopAPI', 'soap11', '/2.0'],
      ['ShopAPI12', 'soap12', '/2.0/soap12'],
      ['ShopAPIAA', 'soap11', '/2.0/aa'],
    ],
  );
  t.deepEqual(
    facts.wsdl.operations.map((op) => [op.name, op.wsdlName, op.soapActions]),
    [
      ['GetPrice', undefined, { soap11: 'urn:shop/GetPrice', soap12: 'urn:shop/GetPrice' }],
      ['ShopAPIInterface_Ping', 'Ping', { soap11: 'urn:shop/Ping', soap12: 'urn:shop/Ping' }],
      ['Capture', undefined, { soap11: 'urn:shop/Capture' }],
      ['ShopAPIAAInterface_Ping', 'Ping', { soap11: 'urn:shop/PingAA' }],
    ],
  );
  t.deepEqual(facts.wsdl.coverage, { operations: 4, servedOperations: 4, ports: 3, completePorts: 3 });
  t.regex(facts.wsdl.choice ?? '', /binds 2 port types: the operations of each are served at every port \(ShopAPI, ShopAPI12; ShopAPIAA\)/);
});

test('every service of a WSDL is served, each port at its path; a port type a second service binds answers there too; --service serves one', async (t) => {
  const lines: string[] = [];
  const wsdl = join(OUTSIDE, 'several-services.wsdl');
  const facts = await readContract(wsdl, { warn: (line) => lines.push(line) });
  t.deepEqual(lines, [
    'codegen: warning: port InProcessPort: its address is one of another transport (java:), not HTTP: not served',
    'codegen: warning: service InProcessService is not served: test/fixtures/outside/several-services.wsdl:70: the service has no SOAP 1.1, SOAP 1.2, HTTP GET or HTTP POST port',
  ]);
  t.deepEqual(
    facts.wsdl.ports.map((p) => [p.name, p.path]),
    [
      ['CurrencyConversionPort', '/kestrel/UtilService'],
      ['ReferenceDataRetrievePort', '/kestrel/ReferenceDataRetrieveService'],
      ['MemberProfilePort', '/kestrel/MemberProfileService'],
      ['CurrencyConversionTestPort', '/test/UtilService'],
    ],
  );
  t.deepEqual(facts.wsdl.services, [
    { name: 'CurrencyConversionService', ports: ['CurrencyConversionPort'] },
    { name: 'ReferenceDataRetrieveService', ports: ['ReferenceDataRetrievePort'] },
    { name: 'MemberProfileService', ports: ['MemberProfilePort'] },
    { name: 'CurrencyConversionTestService', ports: ['CurrencyConversionTestPort'] },
    { name: 'InProcessService', ports: [] },
  ]);
  t.is(facts.wsdl.service, 'CurrencyConversionService');
  // Each port type's one operation `service`, named by its port type too.
  t.deepEqual(
    facts.wsdl.operations.map((op) => [op.name, op.wsdlName, op.input?.body[0].element?.name]),
    [
      ['UtilCurrencyConversionPortType_service', 'service', 'CurrencyConversionReq'],
      ['UtilReferenceDataRetrievePortType_service', 'service', 'ReferenceDataRetrieveReq'],
      ['UtilMemberProfilePortType_service', 'service', 'MemberProfileReq'],
    ],
  );
  t.deepEqual(facts.wsdl.coverage, { operations: 3, servedOperations: 3, ports: 4, completePorts: 4 });
  t.regex(
    facts.wsdl.choice ?? '',
    /^the WSDL declares 5 services \(CurrencyConversionService, .*\): each is served, every port at its address's path/,
  );
  // The served WSDL: every service's ports, the in-process one taken out, every operation.
  const served = contractModel(facts).wsdl;
  for (const port of ['CurrencyConversionPort', 'ReferenceDataRetrievePort', 'MemberProfilePort', 'CurrencyConversionTestPort']) {
    t.regex(served, new RegExp(`<wsdl:port name="${port}"`));
  }
  t.notRegex(served, /InProcessPort/);
  t.is(served.match(/<wsdl:operation name="service"/g)?.length, 6, 'three port types and three bindings keep their operation');
  // --service: that one alone.
  const one = await readContract(wsdl, { service: 'MemberProfileService' });
  t.deepEqual(
    one.wsdl.operations.map((op) => op.name),
    ['service'],
  );
  t.deepEqual(one.wsdl.services, [{ name: 'MemberProfileService', ports: ['MemberProfilePort'] }]);
});

test('an encoded struct whose schema qualifies its members is read qualified or not, and answered qualified', async (t) => {
  const loaded = await loadContract(join(OUTSIDE, 'php-labelled-enums.wsdl'));
  // biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
  const types: any = require(join(loaded.folder, 'types.js'));
  const seen: unknown[] = [];
  const handlers = {
    GetHouse: async (r: { id: number }) => new types.House({ id: r.id, address: 'Lenina 1', walls: 'brick' }),
    SaveHouse: async (r: { house: { id: number; address?: string; walls?: string } }) => {
      seen.push(`${r.house.id} ${r.house.address} ${r.house.walls}`);
      return r.house.id;
    },
    FindHouses: async (r: { walls: string }) => {
      seen.push(r.walls);
      return new types.HouseArray({ item: [new types.House({ id: 1, address: null, walls: r.walls })] });
    },
  };
  const app = createContractApp(
    loaded.definition,
    handlers as never,
    { namespace: undefined, publicUrl: undefined, trustProxy: false, maxBodyBytes: 1 << 20 },
    pino({ level: 'silent' }),
  );
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/soap.php`;
    const call = async (action: string, body: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"urn:houses#${action}"` },
        body:
          '<?xml version="1.0"?><e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
          `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:h="urn:houses"><e:Body>${body}</e:Body></e:Envelope>`,
      });
      return { status: response.status, text: await response.text() };
    };
    const house = await call('GetHouse', '<h:GetHouse><id xsi:type="xsd:int">7</id></h:GetHouse>');
    t.is(house.status, 200, house.text);
    // The answer's members are in the schema's namespace, as elementFormDefault="qualified" says.
    const member = /<(\w+):address xsi:type="[^"]*">Lenina 1<\/\1:address>/.exec(house.text);
    t.truthy(member, house.text);
    t.regex(house.text, new RegExp(`xmlns:${member?.[1]}="urn:houses"`));
    t.notRegex(house.text, /<address[ >]/);
    t.is((await call('FindHouses', '<h:FindHouses><walls xsi:type="h:WallMaterial">wood</walls></h:FindHouses>')).status, 200);
    // A struct's members read whether the client qualifies them (as the schema says) or not (as SOAP encoding's accessors).
    for (const [prefix, declared] of [
      ['', ''],
      ['h:', ''],
      ['q:', ' xmlns:q="urn:houses"'],
    ]) {
      const saved = await call(
        'SaveHouse',
        `<h:SaveHouse><house xsi:type="h:House"${declared}><${prefix}id xsi:type="xsd:int">9</${prefix}id>` +
          `<${prefix}address xsi:type="xsd:string">Mira ${prefix || 'none'}</${prefix}address><${prefix}walls xsi:nil="true"/></house></h:SaveHouse>`,
      );
      t.is(saved.status, 200, saved.text);
    }
    t.deepEqual(seen, ['wood', '9 Mira none null', '9 Mira h: null', '9 Mira q: null']);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    loaded.remove();
  }
});

test('a reference to the head of a substitution group is a choice of the head unless abstract, its members, and their members', async (t) => {
  const model = await withEdited([], {}, async (wsdl) => contractModel(await readContract(wsdl)));
  const fields = (name: string) =>
    model.types.find((type) => type.name === name)!.fields.map((f) => [f.xmlName, f.minOccurs, f.maxOccurs, f.tsType]);
  // Path is abstract: only its members stand in its place; a repeated reference is a repeated choice of them, an
  // array of groups that keeps their order (each group one member).
  t.deepEqual(fields('AdditionalProperties'), [['AdditionalPropertiesGroup', 1, 'unbounded', 'AdditionalPropertiesGroup[]']]);
  t.deepEqual(fields('AdditionalPropertiesGroup'), [
    ['FieldURI', 0, 1, 'UnindexedPath'],
    ['ExtendedFieldURI', 0, 1, 'ExtendedPath'],
  ]);
  // SearchExpression is abstract; Exists is not, and IsSet stands for Exists.
  t.deepEqual(
    fields('FindItems').map(([name]) => name),
    ['AdditionalProperties', 'Exists', 'IsSet'],
  );
  t.deepEqual(fields('FindItemsResponse'), [
    ['Count', 1, 1, 'number'],
    ['FieldURI', 0, 1, 'UnindexedPath'],
    ['ExtendedFieldURI', 0, 1, 'ExtendedPath'],
  ]);
});

test('a reference to a head no element substitutes stays an element', (t) => {
  const doc = `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
    <s:element name="Head" type="s:string" />
    <s:element name="Holder"><s:complexType><s:sequence><s:element ref="tns:Head" /></s:sequence></s:complexType></s:element>
  </s:schema>`;
  withDocument(parseXmlText(doc, 'fixture.xsd'), (parsed) => {
    const facts = readXsd([{ schema: parsed.root, file: 'fixture.xsd' }]);
    const holder = facts.elements.get('{urn:t}Holder')!.type;
    t.is(holder.kind, 'complex');
    if (holder.kind !== 'complex') return;
    t.like(holder.type.particle, { kind: 'sequence', particles: [{ kind: 'element', element: { name: 'Head' } }] });
  });
});

test("a port's address that is no URL is served at the path it writes: a placeholder host, a relative location, none, a build tool's placeholder", async (t) => {
  const address = 'location="http://localhost/items.svc"';
  const cases: [location: string, path: string][] = [
    ['http://server:port/CICS/CWBA/DFHWSDSH/DQ5006', '/CICS/CWBA/DFHWSDSH/DQ5006'],
    ['Revenue_Management', '/Revenue_Management'],
    ['', '/service'],
    ['https://example.com/v5/adgroups/', '/v5/adgroups'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a build tool's placeholder, as the WSDL holds it
    ['${url.query}', '/service'],
    ['@SERVICE_URL@', '/service'],
  ];
  for (const [location, path] of cases) {
    const model = await withEdited([[address, `location="${location}"`]], {}, async (wsdl) => contractModel(await readContract(wsdl)));
    t.deepEqual(model.endpointPaths, [path], location);
  }
  await t.throwsAsync(
    withEdited([[address, 'location="urn:items"']], {}, async (wsdl) => contractModel(await readContract(wsdl))),
    { message: /^codegen: .*Items\.wsdl:\d+: port ItemsPort: address urn:items has a path codegen cannot serve$/ },
  );
});

test("a placeholder a deployment fills in (`{partner_Service_EndPoint}`, a host's, `@HOST@`, `$URL$`) is left out of the port's path, said in a warning line", async (t) => {
  const notes: string[] = [];
  const model = contractModel(await readContract(join(OUTSIDE, 'placeholder-addresses.wsdl'), { warn: (line) => notes.push(line) }));
  t.deepEqual(model.endpointPaths, ['/Greeter', '/ws/Greeter', '/greeter/v2', '/service']);
  t.deepEqual(
    notes.map((n) => n.replace(/^codegen: warning: .*placeholder-addresses\.wsdl:\d+: /, '')),
    [
      'port GreeterPartner: address {partner_Service_EndPoint}/Greeter holds a placeholder a deployment fills in ({partner_Service_EndPoint}): served at /Greeter',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholders, as the WSDL holds them
      'port GreeterHost: address http://${host}:${port}/ws/Greeter holds a placeholder a deployment fills in (${host}, ${port}): served at /ws/Greeter',
      'port GreeterToken: address @HOST@/greeter/v2 holds a placeholder a deployment fills in (@HOST@): served at /greeter/v2',
      'port GreeterSoap12: address $URL$ holds a placeholder a deployment fills in ($URL$): served at /service',
    ],
  );
  // Within a path, a placeholder is left out; an escape (`%C3%A9`) is no placeholder.
  const address = 'location="http://localhost/items.svc"';
  const cases: [location: string, path: string][] = [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder, as a WSDL holds it
    ['http://localhost/ws/${context}/Items', '/ws/Items'],
    ['https://example.com/caf%C3%A9/Items', '/caf%C3%A9/Items'],
    ['%SERVICE_URL%', '/service'],
  ];
  for (const [location, path] of cases) {
    const edited = await withEdited([[address, `location="${location}"`]], {}, async (wsdl) => contractModel(await readContract(wsdl)));
    t.deepEqual(edited.endpointPaths, [path], location);
  }
});

test('a wsdl:import of a schema document is read as that schema (Travelport), and served inline, the import left out', async (t) => {
  const importing: [string, string][] = [
    ['<wsdl:types>', '<wsdl:import namespace="urn:example:core" location="core.xsd" /><wsdl:types>'],
    ['<s:element name="Count" type="s:int" />', '<s:element name="Count" type="core:Count" xmlns:core="urn:example:core" />'],
  ];
  const core = `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:example:core"><s:simpleType name="Count"><s:restriction base="s:int" /></s:simpleType></s:schema>`;
  const model = await withEdited(importing, { 'core.xsd': core }, async (wsdl) => contractModel(await readContract(wsdl)));
  t.true(model.schemas.some((s) => s.namespace === 'urn:example:core'));
  t.notRegex(model.wsdl, /<wsdl:import/);
  t.regex(model.wsdl, /targetNamespace="urn:example:core"/);
});

test('a binding operation without soap:operation has the binding style and an empty SOAPAction (OASIS WS-Notification)', async (t) => {
  const model = await withEdited([['<soap:operation soapAction="urn:example:items/FindItems" style="document" />', '']], {}, async (wsdl) =>
    contractModel(await readContract(wsdl)),
  );
  t.deepEqual(
    model.operations.map((op) => [op.name, op.soap?.style, op.soap?.actions]),
    [['FindItems', 'document', { soap11: { literal: '' } }]],
  );
});

test("a WSDL of bindings and no service written with WSDL's namespace as the default one (vSphere) gets a service whose attributes are in no namespace", async (t) => {
  const text = readFileSync(join(OUTSIDE, 'substitution-group.wsdl'), 'utf8');
  const start = text.indexOf('<wsdl:service');
  const end = text.indexOf('</wsdl:service>') + '</wsdl:service>'.length;
  // The same contract with WSDL's namespace as the default one, no service.
  const unprefixed = (text.slice(0, start) + text.slice(end))
    .replace('xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"', 'xmlns="http://schemas.xmlsoap.org/wsdl/"')
    .replace(/<(\/?)wsdl:/g, '<$1');
  await withEdited([], {}, async (wsdl) => {
    writeFileSync(wsdl, unprefixed);
    const model = contractModel(await readContract(wsdl));
    t.deepEqual(model.endpointPaths, ['/ItemsBinding']);
    t.regex(model.wsdl, /<wsdl\d*:port name="ItemsBinding" binding="tns:ItemsBinding">/);
  });
});

test('a schema a WCF service names by a relative URL (`Service?xsd=xsd0`) is the file beside the WSDL declaring its namespace, or refused with the way forward', async (t) => {
  const importing: [string, string][] = [
    [
      '<s:schema elementFormDefault="qualified" targetNamespace="urn:example:items">',
      '<s:schema elementFormDefault="qualified" targetNamespace="urn:example:items"><s:import namespace="urn:example:core" schemaLocation="ItemService?xsd=xsd0" />',
    ],
    ['<s:element name="Count" type="s:int" />', '<s:element name="Count" type="core:Count" xmlns:core="urn:example:core" />'],
  ];
  const core = `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:example:core"><s:simpleType name="Count"><s:restriction base="s:int" /></s:simpleType></s:schema>`;
  const model = await withEdited(importing, { 'ItemService.core.xsd': core }, async (wsdl) => contractModel(await readContract(wsdl)));
  t.true(model.schemas.some((s) => s.namespace === 'urn:example:core'));
  await t.throwsAsync(
    withEdited(importing, {}, async (wsdl) => contractModel(await readContract(wsdl))),
    {
      message:
        /^codegen: .*Items\.wsdl:\d+: schemaLocation ItemService\?xsd=xsd0: codegen never fetches a schema; map the URL to a file with --catalog FILE \(an OASIS XML Catalog\), or save the schema beside the WSDL \(any file name: it is found by its targetNamespace urn:example:core\), or name its folder with --schemas DIR$/,
    },
  );
});

test('an unprefixed QName where no default namespace is declared names a declaration of no namespace (a WCF contract without one)', (t) => {
  const doc = `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
    <s:complexType name="LongReq"><s:sequence><s:element name="Value" type="s:long" /></s:sequence></s:complexType>
    <s:element name="LongReqM" type="LongReq" />
  </s:schema>`;
  withDocument(parseXmlText(doc, 'fixture.xsd'), (parsed) => {
    const facts = readXsd([{ schema: parsed.root, file: 'fixture.xsd' }]);
    t.deepEqual(facts.elements.get('{}LongReqM')?.type, { kind: 'named', qname: { namespace: '', name: 'LongReq' } });
  });
});

test('the served texts of a contract of no target namespace have no namespace hole: only the address is filled in', (t) => {
  const text = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><port><address location="${ADDRESS_MARKER}/svc"/></port></definitions>`;
  t.deepEqual(segments(text, ''), [
    { text: text.slice(0, text.indexOf(ADDRESS_MARKER)) },
    { hole: 'address' },
    { text: text.slice(text.indexOf(ADDRESS_MARKER) + ADDRESS_MARKER.length) },
  ]);
  // With a namespace, each occurrence of it is a hole; a longer namespace that starts with it is text.
  t.deepEqual(segments('a urn:x b urn:xy', 'urn:x', ['urn:xy']), [{ text: 'a ' }, { hole: 'namespace' }, { text: ' b urn:xy' }]);
});

test('a contract of no target namespace whose elements need prefixes declares none for no namespace, and answers', async (t) => {
  t.timeout(120_000, 'generate, type-check, serve and call');
  // A wildcard makes codegen write elements with prefixes; the contract's own elements are in no namespace.
  const wsdl = `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:s="http://www.w3.org/2001/XMLSchema">
  <wsdl:types><s:schema>
    <s:element name="Echo"><s:complexType><s:sequence><s:element name="Text" type="s:string" /><s:any minOccurs="0" processContents="lax" /></s:sequence></s:complexType></s:element>
    <s:element name="EchoResponse"><s:complexType><s:sequence><s:element name="Text" type="s:string" /></s:sequence></s:complexType></s:element>
  </s:schema></wsdl:types>
  <wsdl:message name="In"><wsdl:part name="parameters" element="Echo" /></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="parameters" element="EchoResponse" /></wsdl:message>
  <wsdl:portType name="Port"><wsdl:operation name="Echo"><wsdl:input message="In" /><wsdl:output message="Out" /></wsdl:operation></wsdl:portType>
  <wsdl:binding name="Binding" type="Port"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
    <wsdl:operation name="Echo"><soap:operation soapAction="Echo" /><wsdl:input><soap:body use="literal" /></wsdl:input><wsdl:output><soap:body use="literal" /></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="NoNamespace"><wsdl:port name="Port" binding="Binding"><soap:address location="http://localhost/echo" /></wsdl:port></wsdl:service>
</wsdl:definitions>`;
  const dir = mkdtempSync(join(tmpdir(), 'codegen-no-namespace-'));
  try {
    writeFileSync(join(dir, 'NoNamespace.wsdl'), wsdl);
    const model = contractModel(await readContract(join(dir, 'NoNamespace.wsdl')));
    t.truthy(model.prefixes);
    t.false(Object.hasOwn(model.prefixes ?? {}, ''), 'no prefix for no namespace');
    const lines: string[] = [];
    const outcomes = await checkCorpus(dir, (line) => lines.push(line));
    t.deepEqual(
      outcomes.map((o) => [o.name, o.outcome]),
      [['NoNamespace', 'pass']],
      lines.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a WSDL of bindings and no service is served at one port per binding, /{binding}, named in the served WSDL', async (t) => {
  const lines: string[] = [];
  const wsdl = join(OUTSIDE, 'onvif-doorcontrol', 'doorcontrol.wsdl');
  const model = contractModel(await readContract(wsdl, { warn: (line) => lines.push(line) }), (line) => lines.push(line));
  t.deepEqual(
    model.ports.map((p) => [p.name, p.variant, p.path]),
    [['DoorControlBinding', 'soap12', '/DoorControlBinding']],
  );
  t.is(
    model.choice,
    'the WSDL declares no service: its bindings are served each at /{its name} (DoorControlBinding at /DoorControlBinding), the ports of a service DoorControlService added to the served WSDL',
  );
  const served = model.wsdl;
  t.regex(
    served,
    /<wsdl:service name="DoorControlService">\s*<wsdl:port name="DoorControlBinding" binding="tdc:DoorControlBinding">\s*<soap:address location="[^"]*\/DoorControlBinding"\/>/,
  );
  // A WSDL with neither a service nor a binding codegen serves is refused in one line.
  await t.throwsAsync(
    withEdited(
      [[SUBSTITUTION.slice(SUBSTITUTION.indexOf('<wsdl:binding'), SUBSTITUTION.indexOf('</wsdl:definitions>')), '']],
      {},
      async (file) => contractModel(await readContract(file)),
    ),
    { message: /^codegen: .*Items\.wsdl:\d+: the WSDL declares no service, and no SOAP 1\.1, SOAP 1\.2, HTTP GET or HTTP POST binding$/ },
  );
});

test('of two bindings of one port type, the second is served only where it says what the first says', async (t) => {
  const twin = readFileSync(join(OUTSIDE, 'twin-bindings.wsdl'), 'utf8');
  const portsOf = async (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'codegen-twins-'));
    try {
      writeFileSync(join(dir, 'Phonebook.wsdl'), text);
      const notes: string[] = [];
      const facts = await readContract(join(dir, 'Phonebook.wsdl'), { warn: (line) => notes.push(line) });
      return { ports: facts.wsdl.ports.map((p) => `${p.name} ${p.path}`), notes: [...notes, facts.wsdl.choice ?? ''] };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const same = await portsOf(twin);
  t.deepEqual(same.ports, ['Phonebook1 /axis/services/Phonebook1', 'Phonebook2 /axis/services/Phonebook2']);
  // Another action in the second binding: its port would answer otherwise, and is not served.
  const other = await portsOf(twin.replace(/(PhonebookBinding2[\s\S]*?)soapAction=""/, '$1soapAction="urn:phonebook#lookup2"'));
  t.deepEqual(other.ports, ['Phonebook1 /axis/services/Phonebook1']);
  t.true(
    other.notes.some((n) => /2 SOAP 1\.1 ports of different bindings of one port type: serving Phonebook1/.test(n)),
    other.notes.join('\n'),
  );
});

test("what XML Schema 1.0 forbids in the toolkits' published schemas is read as they read it, said in a line; a struct member of its own type may be nil", async (t) => {
  const lines: string[] = [];
  const facts = await readContract(join(OUTSIDE, 'schema10-relaxed.wsdl'), { warn: (line) => lines.push(line) });
  t.deepEqual(
    lines.filter((l) => l.includes('XML Schema 1.0 forbids') || l.includes('nillable')),
    [
      'codegen: warning: test/fixtures/outside/schema10-relaxed.wsdl:16: what XML Schema 1.0 forbids: ' +
        'occurrence attributes on a global element are ignored (1×); ' +
        "a content model directly in complexContent is read as the type's content (1×); " +
        'a content model after the attributes is read before them (1×); ' +
        'several content models of one type are read as one sequence of them (1×); ' +
        'an all group extended with content or of a member that repeats is read as a sequence (3×)',
      "codegen: warning: test/fixtures/outside/schema10-relaxed.wsdl:65: a struct's required member of its own type is read as nillable (SOAP encoding's nil), else no value is finite: next",
    ],
  );
  const [{ schema }] = facts.documents.schemas;
  const groups = (type: string) =>
    findAll(schema, `s:complexType[@name='${type}']//*[self::s:all or self::s:sequence or self::s:complexContent]`).map((g) => g.name);
  // Extended by an all: both the base's and the derivation's are sequences.
  t.deepEqual(groups('Item'), ['sequence']);
  t.deepEqual(groups('PricedItem'), ['complexContent', 'sequence']);
  t.deepEqual(groups('Shelf'), ['sequence']);
  // An all extending a type of empty content is XML Schema 1.0's: kept.
  t.deepEqual(groups('Label'), ['complexContent', 'all']);
  t.deepEqual(groups('Reference'), ['sequence']);
  t.deepEqual(groups('Summary'), ['sequence']);
  t.deepEqual(
    findAll(schema, "s:complexType[@name='Summary']/s:sequence/s:element").map((e) => e.attr('name')?.value),
    ['count', 'width', 'remark'],
  );
  t.deepEqual(
    findAll(schema, "s:complexType[@name='Stamp']/*").map((e) => e.name),
    ['sequence', 'attribute'],
  );
  t.is(findAll(schema, "s:element[@name='shelfNote'][@maxOccurs or @minOccurs]").length, 0);
  t.is(findAll(schema, "s:complexType[@name='Shelf']//s:element[@name='next'][@nillable='true']").length, 1);

  // An encoded call whose struct members come in another order than declared reaches the handler: the literal form
  // is written in the order the sequence declares.
  const loaded = await loadContract(join(OUTSIDE, 'schema10-relaxed.wsdl'));
  const seen: unknown[] = [];
  const served = await serveFixture(loaded.definition, {
    stock: async (r: { shelf: { name: string; item?: { code: string; price: number }[] } }) => {
      seen.push(r.shelf.name);
      return (r.shelf.item ?? []).reduce((sum, item) => sum + item.price, 0);
    },
  } as never);
  try {
    const { status, text } = await postSoap11(
      served.endpoint.replace(/Notes$/, 'Catalogue'),
      '',
      '<c:stock><shelf xsi:type="c:Shelf">' +
        '<item xsi:type="c:PricedItem"><currency>EUR</currency><price>2.5</price><code>a</code></item>' +
        '<name>top</name><item xsi:type="c:PricedItem"><code>b</code><price>1</price><currency>EUR</currency></item>' +
        '<next xsi:nil="true"/></shelf></c:stock>',
      ' xmlns:c="urn:catalogue"',
    );
    t.is(status, 200, text);
    t.deepEqual(seen, ['top']);
    t.regex(text, /<total xsi:type="xsd:double">3.5<\/total>/);
  } finally {
    await served.close();
    loaded.remove();
  }
});

test('two document operations called alike (an empty body, the same action) serve the first, the other said in a line; other actions serve both', async (t) => {
  const wsdl = (second: string) => `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:twins" targetNamespace="urn:twins">
  <types><xsd:schema targetNamespace="urn:twins"><xsd:element name="token" type="xsd:string"/></xsd:schema></types>
  <message name="empty"/>
  <message name="tokenMessage"><part name="token" element="tns:token"/></message>
  <portType name="Twins">
    <operation name="ping"><input message="tns:empty"/><output message="tns:empty"/></operation>
    <operation name="echo"><input message="tns:tokenMessage"/><output message="tns:tokenMessage"/></operation>
  </portType>
  <binding name="TwinsBinding" type="tns:Twins">
    <soap12:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="ping">
      <soap12:operation soapAction=""/>
      <input><soap12:body use="literal"/><soap12:header message="tns:tokenMessage" part="token" use="literal"/></input>
      <output><soap12:body use="literal"/></output>
    </operation>
    <operation name="echo">
      <soap12:operation soapAction="${second}"/>
      <input><soap12:body use="literal" parts=""/><soap12:header message="tns:tokenMessage" part="token" use="literal"/></input>
      <output><soap12:body use="literal"/></output>
    </operation>
  </binding>
  <service name="TwinsService"><port name="Twins" binding="tns:TwinsBinding"><soap12:address location="http://localhost/twins"/></port></service>
</definitions>`;
  const dir = mkdtempSync(join(tmpdir(), 'codegen-empty-twins-'));
  try {
    const read = async (action: string) => {
      const file = join(dir, 'twins.wsdl');
      writeFileSync(file, wsdl(action));
      const lines: string[] = [];
      const facts = await readContract(file, { warn: (line) => lines.push(line) });
      return { lines, names: facts.wsdl.operations.map((o) => o.name) };
    };
    const alike = await read('');
    t.deepEqual(alike.names, ['ping']);
    t.true(
      alike.lines.some((l) =>
        /operation echo of port Twins is not served: its call is operation ping's on the wire \(an empty body and the same action\)/.test(
          l,
        ),
      ),
      alike.lines.join('\n'),
    );
    const apart = await read('urn:twins#echo');
    t.deepEqual(apart.names, ['ping', 'echo']);
    t.false(apart.lines.some((l) => l.includes('on the wire')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a body element of an abstract or a base type names its value's type with xsi:type: read into the derived class, answered with it, and by the typed client", async (t) => {
  const loaded = await loadContract(join(OUTSIDE, 'abstract-body.wsdl'));
  // biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
  const types: any = require(join(loaded.folder, 'types.js'));
  const seen: string[] = [];
  const served = await serveFixture(loaded.definition, {
    find: async (author: { name: string; constructor: { name: string } }) => {
      seen.push(`${author.constructor.name} ${author.name}`);
      // The served contract's classes are its own module's (loaded from TypeScript): told by name.
      return author.constructor.name === 'Person' ? new types.DetailedListing({ shelf: 'P', row: 3 }) : new types.Listing({ shelf: 'C' });
    },
  } as never);
  try {
    const call = (body: string) => postSoap11(served.endpoint, 'urn:library#find', body, ' xmlns:l="urn:library"');
    const person = await call('<l:author xsi:type="l:Person"><l:name>Ann</l:name><l:born>1950</l:born></l:author>');
    t.is(person.status, 200, person.text);
    t.regex(person.text, /<(\w+:)?listing [^>]*xsi:type="(\w+:)?DetailedListing"/);
    t.regex(person.text, /<(\w+:)?row>3<\/(\w+:)?row>/);
    const collective = await call(
      '<l:author xsi:type="l:Collective" registered="true"><l:name>Bee</l:name><l:members>4</l:members></l:author>',
    );
    t.is(collective.status, 200, collective.text);
    t.notRegex(collective.text, /xsi:type=/);
    t.deepEqual(seen, ['Person Ann', 'Collective Bee']);
    // Without xsi:type the element is of the abstract type: refused, as the schema says.
    const bare = await call('<l:author><l:name>Cy</l:name></l:author>');
    t.is(bare.status, 500);
    t.regex(bare.text, /<faultcode>\w+:Client<\/faultcode>/);

    const generated = require(join(loaded.folder, 'client.js'));
    const client = new generated.LibraryServiceClient({ baseUrl: served.url });
    const answer = await client.find(new types.Collective({ name: 'Dee', members: 2, registered: false }));
    t.true(answer instanceof types.Listing);
    t.false(answer instanceof types.DetailedListing);
    const detailed = await client.find(new types.Person({ name: 'Eve', born: 1990 }));
    t.true(detailed instanceof types.DetailedListing);
    t.is(detailed.row, 3);
    t.deepEqual(seen.slice(2), ['Collective Dee', 'Person Eve']);
  } finally {
    await served.close();
    loaded.remove();
  }
});

test("a WSDL and a schema document in no namespace for want of a default one, a template placeholder address and Apache SOAP's DataHandler are read, each said in a line", async (t) => {
  const lines: string[] = [];
  const facts = await readContract(join(OUTSIDE, 'unqualified-definitions', 'transactions.wsdl'), { warn: (line) => lines.push(line) });
  t.deepEqual(
    lines.filter((l) => l.includes('no namespace') || l.includes('placeholder')),
    [
      "codegen: warning: test/fixtures/outside/unqualified-definitions/transactions.wsdl:14: <definitions> is in no namespace (the document declares no default one): read as WSDL 1.1's, as PHP's SoapClient reads it",
      'codegen: warning: test/fixtures/outside/unqualified-definitions/transactions.wsdl:43: port TransactionsPort: address {{var wsdl.url}} holds a placeholder a deployment fills in ({{var wsdl.url}}): served at /service',
      "codegen: warning: test/fixtures/outside/unqualified-definitions/types.xsd:4: <schema> is in no namespace (the document declares no default one): read as XML Schema's, as Axis 1 reads it",
    ],
  );
  t.deepEqual(
    facts.wsdl.operations.map((o) => o.name),
    ['getTransaction', 'getReceipt'],
  );
  // DataHandler, named and declared nowhere, is declared as base64 bytes.
  t.truthy(facts.xsd.simpleTypes.get('{http://xml.apache.org/xml-soap}DataHandler'));

  const loaded = await loadContract(join(OUTSIDE, 'unqualified-definitions', 'transactions.wsdl'));
  // biome-ignore lint/suspicious/noExplicitAny: the generated module of a contract loaded at run time
  const types: any = require(join(loaded.folder, 'types.js'));
  const served = await serveFixture(loaded.definition, {
    getReceipt: async (r: { id: number }) => new Uint8Array([r.id, 2, 3]),
    getTransaction: async (r: { id: number }) => new types.Transaction({ amount: r.id / 2, receipt: null }),
  } as never);
  try {
    const call = (operation: string, id: number) =>
      postSoap11(
        served.endpoint,
        `urn:transactions#${operation}`,
        `<t:${operation}><id xsi:type="xsd:int">${id}</id></t:${operation}>`,
        ' xmlns:t="urn:transactions"',
      );
    const receipt = await call('getReceipt', 1);
    t.is(receipt.status, 200, receipt.text);
    t.regex(receipt.text, />AQID<\/return>/);
    const transaction = await call('getTransaction', 5);
    t.is(transaction.status, 200, transaction.text);
    t.regex(transaction.text, /<amount xsi:type="xsd:double">2.5<\/amount>/);
    t.regex(transaction.text, /<receipt xsi:nil="true"\/>/);
  } finally {
    await served.close();
    loaded.remove();
  }
});

test("an inline schema of no namespace whose element the messages name in the WSDL's is read in the WSDL's; an encoded part naming it is that element", async (t) => {
  const lines: string[] = [];
  const facts = await readContract(join(OUTSIDE, 'schema-of-no-namespace.wsdl'), { warn: (line) => lines.push(line) });
  t.deepEqual(lines, [
    "codegen: warning: test/fixtures/outside/schema-of-no-namespace.wsdl:10: a schema of no targetNamespace whose declarations the messages name in the WSDL's namespace (Header) is read as a schema of urn:dispatch",
  ]);
  t.truthy(facts.xsd.elements.get('{urn:dispatch}Header'));
  const loaded = await loadContract(join(OUTSIDE, 'schema-of-no-namespace.wsdl'));
  const seen: unknown[] = [];
  const served = await serveFixture(loaded.definition, {
    send: async (r: { header: { origin: string; sequence: number } }) => {
      seen.push(`${r.header.origin} ${r.header.sequence}`);
      return r.header.sequence + 1;
    },
  } as never);
  try {
    // As an encoded client writes the part: an accessor named by the element, unqualified, its members too.
    const { status, text } = await postSoap11(
      served.endpoint,
      '',
      '<r:send xmlns:r="urn:dispatch:rpc"><Header><origin xsi:type="xsd:string">north</origin><sequence xsi:type="xsd:int">41</sequence></Header></r:send>',
    );
    t.is(status, 200, text);
    t.deepEqual(seen, ['north 41']);
    t.regex(text, /<return xsi:type="xsd:int">42<\/return>/);
  } finally {
    await served.close();
    loaded.remove();
  }
});

test('encoded header blocks in a namespace no schema has (soap:header namespace, as the SOAPBuilders round 3 group C binds them) are written with a prefix of their own, and answer', async (t) => {
  const published = readFileSync(join(OUTSIDE, 'encoded-headers.wsdl'), 'utf8');
  const edited = published.replace(/(<soap:header [^>]*?)namespace="urn:accounts"/g, '$1namespace="urn:accounts:headers"');
  t.not(edited, published);
  const dir = mkdtempSync(join(tmpdir(), 'codegen-header-namespace-'));
  try {
    writeFileSync(join(dir, 'encoded-headers.wsdl'), edited);
    const lines: string[] = [];
    const outcomes = await checkCorpus(dir, (line) => lines.push(line));
    t.deepEqual(
      outcomes.map((o) => [o.name, o.outcome]),
      [['encoded-headers', 'pass']],
      lines.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
