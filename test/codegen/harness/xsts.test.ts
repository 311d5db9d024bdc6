/**
 * Codegen measured on the W3C XML Schema Test Suite, as `npm run xsts` runs it
 * (codegen/harness/xsts/): a fixed sample of its cases, spread over every test set
 * (test/fixtures/xsts/, copied from the suite with its notice; made by
 * codegen/harness/xsts/sample.ts), each read into the generated class of its root
 * element, written back, validated with libxml2 and compared by value; and the
 * suite's rules for which cases count for XML Schema 1.0, on a suite made here.
 */
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';
import { type XstsCase, xstsCases } from '../../../codegen/harness/xsts/cases';
import { runXsts, tableBySet } from '../../../codegen/harness/xsts/main';

const SAMPLE = join(__dirname, '..', '..', 'fixtures', 'xsts');

function sampleCases(): XstsCase[] {
  const [, ...lines] = readFileSync(join(SAMPLE, 'cases.tsv'), 'utf8').trim().split('\n');
  return lines.map((line) => {
    const [set, name, schemas, instance] = line.split('\t');
    return { set, name, schemas: schemas.split(';'), instance };
  });
}

test.before(async () => {
  await loadXmlEngine();
});

test("the sample holds at least 400 cases of every test set but the introspection one, with the suite's notice", (t) => {
  const cases = sampleCases();
  t.true(cases.length >= 400, `${cases.length} cases`);
  const sets = new Set(cases.map((c) => c.set));
  t.true(sets.size >= 36, `${sets.size} test sets`);
  for (const set of [
    'nistMeta/NISTXMLSchemaDatatypes.testSet',
    'msMeta/Particles_w3c.xml',
    'sunMeta/ElemDecl.testSet',
    'boeingMeta/BoeingXSDTestSet.testSet',
  ])
    t.true(sets.has(set), set);
  t.true(readFileSync(join(SAMPLE, '00COPYRIGHT'), 'utf8').includes('W3C DOCUMENT NOTICE AND LICENSE'));
  for (const c of cases) for (const file of [...c.schemas, c.instance]) t.true(existsSync(join(SAMPLE, file)), file);
});

test('every case of the sample is read into its classes, written back valid, and equal by value', async (t) => {
  const cases = sampleCases();
  const { results } = await runXsts(SAMPLE, cases, { jobs: 2 });
  t.is(results.length, cases.length, 'every case ran');
  const notPassing = results.filter((r) => r.outcome !== 'pass').map((r) => `${r.case.set} ${r.case.name} [${r.step}] ${r.message}`);
  t.deepEqual(notPassing, [], tableBySet(results));
});

test('a case counts for XML Schema 1.0 when its expectations are valid and the nearest version attribute names 1.0, or there is none', (t) => {
  const suite = mkdtempSync(join(tmpdir(), 'xsts-suite-'));
  try {
    const ts = 'http://www.w3.org/XML/2004/xml-schema-test-suite/';
    mkdirSync(join(suite, 'meta'));
    writeFileSync(
      join(suite, 'suite.xml'),
      `<testSuite xmlns="${ts}" xmlns:xlink="http://www.w3.org/1999/xlink"><testSetRef xlink:href="meta/one.testSet"/><testSetRef xlink:href="nistMeta/NISTXMLSchemaDatatypes.testSet"/></testSuite>`,
    );
    const group = (name: string, schema: string, instances: string) =>
      `<testGroup name="${name}"><schemaTest name="${name}"><schemaDocument xlink:href="../data/${name}.xsd"/>${schema}</schemaTest>${instances}</testGroup>`;
    const instance = (name: string, expected: string, version = '') =>
      `<instanceTest name="${name}"${version}><instanceDocument xlink:href="../data/${name}.xml"/>${expected}</instanceTest>`;
    writeFileSync(
      join(suite, 'meta', 'one.testSet'),
      `<testSet xmlns="${ts}" xmlns:xlink="http://www.w3.org/1999/xlink" name="one" version="1.1">${[
        group('plain', '<expected validity="valid" version="1.0"/>', instance('a', '<expected validity="valid"/>', ' version="1.0"')),
        group(
          'both',
          '<expected validity="valid" version="1.0 1.1"/>',
          instance('b', '<expected validity="valid" version="1.0"/><expected validity="invalid" version="1.1"/>'),
        ),
        group('later', '<expected validity="valid"/>', instance('c', '<expected validity="valid"/>')),
        group('invalid', '<expected validity="invalid" version="1.0"/>', instance('d', '<expected validity="valid" version="1.0"/>')),
        group('refused', '<expected validity="valid" version="1.0"/>', instance('e', '<expected validity="invalid" version="1.0"/>')),
      ].join('')}</testSet>`,
    );
    const nist = join(suite, 'nistData', 'atomic', 'int', 'Schema+Instance');
    mkdirSync(nist, { recursive: true });
    for (const file of ['NISTSchema-SV-IV-atomic-int-x-1.xsd', 'NISTXML-SV-IV-atomic-int-x-1-1.xml', 'NISTXML-SV-II-atomic-int-x-1-1.xml'])
      writeFileSync(join(nist, file), '<x/>');
    const cases = xstsCases(suite);
    t.deepEqual(
      cases.map((c) => [c.set, c.name, c.schemas.join(';'), c.instance]),
      [
        ['meta/one.testSet', 'a', 'data/plain.xsd', 'data/a.xml'],
        ['meta/one.testSet', 'b', 'data/both.xsd', 'data/b.xml'],
        [
          'nistMeta/NISTXMLSchemaDatatypes.testSet',
          'NISTXML-SV-IV-atomic-int-x-1-1',
          'nistData/atomic/int/Schema+Instance/NISTSchema-SV-IV-atomic-int-x-1.xsd',
          'nistData/atomic/int/Schema+Instance/NISTXML-SV-IV-atomic-int-x-1-1.xml',
        ],
      ],
      'the set is 1.1 but each test says 1.0; "later" takes the set\'s 1.1; an invalid schema or instance is no case; NIST by file name',
    );
  } finally {
    rmSync(suite, { recursive: true, force: true });
  }
});
