/**
 * Contracts as they are published (test/fixtures/published/): folders side by
 * side, WSDLs and schemas named by URL and mapped by a catalog or found
 * beside, a DOCTYPE'd W3C schema, standards named by their web address and
 * read from the copies codegen carries (codegen/standard/), ports that cannot
 * be served beside one that can. Each generates, type-checks, and answers
 * every operation over every SOAP port it keeps, as `npm run corpus` checks;
 * what codegen says of each is checked too.
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCorpus, contractsOf } from '../../../codegen/harness/corpus';
import { contractModel, generate } from '../../../codegen/main';
import { readCatalog, standardCatalog, STANDARD_FOLDER } from '../../../codegen/read/catalog';
import { readContract } from '../../../codegen/read/contract';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const PUBLISHED = join(__dirname, '..', '..', 'fixtures', 'published');
const work = mkdtempSync(join(tmpdir(), 'codegen-published-'));

test.before(async () => {
  await loadXmlEngine();
});
test.after.always(() => rmSync(work, { recursive: true, force: true }));

test.serial('each published layout generates, type-checks and answers every operation over every SOAP port it keeps', async (t) => {
  t.timeout(300_000, 'generate, type-check, serve and call');
  const lines: string[] = [];
  const outcomes = await checkCorpus(PUBLISHED, (line) => lines.push(line));
  t.log(lines.join('\n'));
  t.deepEqual(
    outcomes.map((o) => [o.name, o.outcome]),
    [
      ['doctype-xmldsig', 'pass'],
      ['sibling-folders', 'pass'],
      ['standard-by-url', 'pass'],
      ['unservable-port', 'partial'],
      ['wcf-cycle', 'pass'],
      ['wcf-saved', 'pass'],
      ['wsn-by-url', 'pass'],
    ],
  );
  const line = (name: string) => outcomes.find((o) => o.name === name)!.line;
  t.regex(line('sibling-folders'), /^1 operations × 2 SOAP ports, 2 calls$/);
  t.regex(line('wcf-saved'), /^1 operations × 2 SOAP ports, 2 calls$/);
  t.regex(line('wsn-by-url'), /^2 operations × 1 SOAP port, 2 calls$/);
  t.regex(line('wcf-cycle'), /^1 operations × 2 SOAP ports, 2 calls$/);
  // The encoded port (a second SOAP 1.1 port, of another port type whose one rpc operation has the literal one's
  // name: an operation of its own, not served) and the HTTP GET port's operation are not served: partial, not a pass.
  t.regex(
    line('unservable-port'),
    /^1 of 2 operations, 1 of 3 ports served whole; 1 operations × 1 SOAP port, 1 calls \(2 skipped: see codegen's warnings\)$/,
  );
});

test('the WSDL of a multi-folder tree is the one no other imports; a folder catalog is found beside it', (t) => {
  const found = Object.fromEntries(contractsOf(PUBLISHED).map((c) => [c.name, c]));
  t.regex(found['sibling-folders'].wsdl, /services\/orders\/wsdl\/OrderService\.wsdl$/);
  t.regex(found['wcf-saved'].wsdl, /Orders\.svc\.wsdl$/);
  t.regex(found['wcf-saved'].catalog ?? '', /wcf-saved\/catalog\.xml$/);
  t.is(found['sibling-folders'].catalog, undefined);
});

test("WSDLs that import each other (WCF's `?wsdl` and `?wsdl=wsdl0`) are read once each, whichever is named, by file or by URL, and served with the schemas in the one as served importing none", async (t) => {
  const folder = join(PUBLISHED, 'wcf-cycle');
  t.regex(contractsOf(PUBLISHED).find((c) => c.name === 'wcf-cycle')!.wsdl, /Orders\.svc\.wsdl$/);
  const byUrl = join(work, 'wcf-cycle-by-url');
  mkdirSync(byUrl, { recursive: true });
  writeFileSync(join(byUrl, 'Orders.svc.wsdl'), readFileSync(join(folder, 'Orders.svc.wsdl'), 'utf8'));
  const contract = readFileSync(join(folder, 'Orders.svc.wsdl0.wsdl'), 'utf8');
  t.true(contract.includes('location="Orders.svc.wsdl"'));
  writeFileSync(
    join(byUrl, 'Orders.svc.wsdl0.wsdl'),
    contract.replace('location="Orders.svc.wsdl"', 'location="https://orders.example.com/Orders.svc?wsdl"'),
  );
  for (const wsdl of [
    join(folder, 'Orders.svc.wsdl'),
    join(folder, 'Orders.svc.wsdl0.wsdl'),
    join(byUrl, 'Orders.svc.wsdl'),
    join(byUrl, 'Orders.svc.wsdl0.wsdl'),
  ]) {
    const model = contractModel(await readContract(wsdl));
    t.deepEqual(
      model.operations.map((o) => o.name),
      ['CountOrders'],
      wsdl,
    );
    t.deepEqual(model.endpointPaths, ['/Orders.svc', '/Orders.svc/ws'], wsdl);
    // One served WSDL imports the other, which imports none back and holds the schemas.
    t.is(model.importedWsdls.length, 1, wsdl);
    const served = [model.wsdl, ...model.importedWsdls];
    t.is(served.filter((text) => /<wsdl:import /.test(text)).length, 1, wsdl);
    t.is(served.filter((text) => /name="CountOrdersResponse"/.test(text)).length, 1, wsdl);
  }
});

test('a port that cannot be served is skipped in one warning line naming it, its line and the reason', async (t) => {
  const notes: string[] = [];
  await generate(join(PUBLISHED, 'unservable-port', 'Quotes.wsdl'), join(work, 'quotes'), { runtime: 'path', note: (l) => notes.push(l) });
  t.deepEqual(
    notes.map((n) => n.replace(/^(codegen: warning: \S+ \S+).*?Quotes\.wsdl:(\d+): (.*)$/, '$1 @$2: $3')),
    [
      "codegen: warning: operation GetQuote @26: GetQuote: an HTTP output part must name the answer's element",
      'codegen: warning: operation GetQuote of port QuotesEncoded is not served: an operation of another port type served here has its name',
    ],
  );
});

test('the schemas named by URL are read from the catalog, the WSDL from beside by its namespace; without the catalog the URL is refused with the way forward', async (t) => {
  const wsdl = join(PUBLISHED, 'wcf-saved', 'Orders.svc.wsdl');
  const facts = await readContract(wsdl, { catalog: readCatalog(join(PUBLISHED, 'wcf-saved', 'catalog.xml')) });
  t.deepEqual(
    facts.wsdl.operations.map((o) => o.name),
    ['GetOrder'],
  );
  await t.throwsAsync(readContract(wsdl), {
    message:
      /contract\.wsdl:\d+: schemaLocation http:\/\/orders\.example\.com\/Orders\.svc\?xsd=xsd0: codegen never fetches a schema; map the URL to a file with --catalog FILE/,
  });
});

test('standard documents named by URL are read from codegen/standard/, last: a catalog of the contract or a file beside comes first', async (t) => {
  // The copies and their catalog are codegen's own.
  t.is(
    standardCatalog().resolve('http://docs.oasis-open.org/wsn/bw-2.wsdl'),
    join(STANDARD_FOLDER, 'docs.oasis-open.org', 'wsn', 'bw-2.wsdl'),
  );
  t.is(standardCatalog().resolve('http://example.com/unknown.xsd'), undefined);
  // A contract's own copy of WS-Addressing (a different one, declaring what the standard's does not) is the one read.
  const dir = join(work, 'own-copy');
  mkdirSync(dir, { recursive: true });
  const wsdl = readFileSync(join(PUBLISHED, 'standard-by-url', 'Notices.wsdl'), 'utf8');
  writeFileSync(join(dir, 'Notices.wsdl'), wsdl);
  writeFileSync(
    join(dir, 'addressing.xsd'),
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/2005/08/addressing">
      <xs:complexType name="EndpointReferenceType"><xs:sequence><xs:element name="OwnCopy" type="xs:string"/></xs:sequence></xs:complexType>
    </xs:schema>`,
  );
  const own = await readContract(join(dir, 'Notices.wsdl'));
  t.truthy(own.xsd.complexTypes.get('{http://www.w3.org/2005/08/addressing}EndpointReferenceType'));
  t.regex(JSON.stringify(contractModel(own).schemas), /OwnCopy/);
  const standard = contractModel(await readContract(join(PUBLISHED, 'standard-by-url', 'Notices.wsdl')));
  t.notRegex(JSON.stringify(standard.schemas), /OwnCopy/);
  t.regex(JSON.stringify(standard.schemas), /ReferenceParameters/);
});

test('xml:lang referenced without an import of the XML namespace is served with that namespace imported, so that libxml2 compiles it', async (t) => {
  const served = contractModel(await readContract(join(PUBLISHED, 'standard-by-url', 'Notices.wsdl')));
  const namespaces = served.schemas.map((s) => s.namespace);
  t.true(namespaces.includes('http://www.w3.org/XML/1998/namespace'));
  const own = served.schemas.find((s) => s.namespace === 'urn:example:notices')!;
  t.regex(
    own.text,
    new RegExp(
      `<xs:import [^>]*namespace="http://www\\.w3\\.org/XML/1998/namespace" schemaLocation="${namespaces.indexOf('http://www.w3.org/XML/1998/namespace')}\\.xsd"`,
    ),
  );
  // The served WSDL holds the XML namespace's schema inline, and no location-less import of it (zeep would fetch it).
  t.regex(served.wsdl, /targetNamespace="http:\/\/www\.w3\.org\/XML\/1998\/namespace"/);
  t.notRegex(served.wsdl, /<(\w+:)?import [^>]*namespace="http:\/\/www\.w3\.org\/XML\/1998\/namespace"/);
});

test('schemas libxml2 does not compile (a content model that breaks Unique Particle Attribution) are refused when generated, in one line', async (t) => {
  const dir = join(work, 'upa');
  mkdirSync(dir, { recursive: true });
  const wsdl = readFileSync(join(PUBLISHED, 'unservable-port', 'Quotes.wsdl'), 'utf8').replace(
    '<xs:sequence><xs:element name="symbol" type="xs:string"/></xs:sequence>',
    '<xs:sequence><xs:element name="symbol" type="xs:string" minOccurs="0"/><xs:any namespace="##any" processContents="lax" minOccurs="0"/></xs:sequence>',
  );
  t.not(wsdl, readFileSync(join(PUBLISHED, 'unservable-port', 'Quotes.wsdl'), 'utf8'));
  writeFileSync(join(dir, 'Quotes.wsdl'), wsdl);
  const error = await t.throwsAsync(generate(join(dir, 'Quotes.wsdl'), join(dir, 'out'), { runtime: 'path', note: () => {} }));
  t.regex(
    error!.message,
    /^codegen: .*Quotes\.wsdl: libxml2 refuses the contract's schemas \(XML Schema 1\.0\), which the service validates every call with: .*not determinist/,
  );
  t.false(error!.message.includes('\n'));
});
