/**
 * Codegen measured on the W3C XML Schema Test Suite, as `npm run xsts` runs it
 * (codegen/harness/xsts/): a fixed sample of its cases, spread over every test set
 * (test/fixtures/xsts/, copied from the suite with its notice; made by
 * codegen/harness/xsts/sample.ts), each read into the generated class of its root
 * element, written back, validated with libxml2 and compared by value, the cases that do not pass each expected
 * not to (expected.tsv, with its reason: one that starts to pass fails the test until its line goes); and the
 * suite's rules for which cases count for XML Schema 1.0, on a suite made here.
 */
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';
import { type XstsCase, xstsCases } from '../../../codegen/harness/xsts/cases';
import { runXsts, tableBySet } from '../../../codegen/harness/xsts/main';
import { caseKey } from '../../../codegen/harness/xsts/sample';

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

/** The cases of the sample expected not to pass, by set, schema documents and instance: each one's outcome, step and reason. */
function expectedFailures(): Map<string, { outcome: string; step: string; reason: string }> {
  const [, ...lines] = readFileSync(join(SAMPLE, 'expected.tsv'), 'utf8').trim().split('\n');
  return new Map(
    lines.map((line) => {
      const [set, schemas, instance, outcome, step, reason] = line.split('\t');
      return [`${set}\t${schemas}\t${instance}`, { outcome, step, reason }];
    }),
  );
}

test("the sample holds at least 500 cases of every test set, with the suite's notice, and its expected failures each with a reason", (t) => {
  const cases = sampleCases();
  t.true(cases.length >= 500, `${cases.length} cases`);
  const sets = new Set(cases.map((c) => c.set));
  t.true(sets.size >= 40, `${sets.size} test sets`);
  for (const set of [
    'nistMeta/NISTXMLSchemaDatatypes.testSet',
    'msMeta/Particles_w3c.xml',
    'sunMeta/ElemDecl.testSet',
    'boeingMeta/BoeingXSDTestSet.testSet',
    'common/introspection.testSet',
  ])
    t.true(sets.has(set), set);
  t.true(readFileSync(join(SAMPLE, '00COPYRIGHT'), 'utf8').includes('W3C DOCUMENT NOTICE AND LICENSE'));
  const expected = expectedFailures();
  t.true(expected.size > 0, 'failing and skipped cases are in the sample too');
  for (const [key, { outcome, step, reason }] of expected) {
    t.true(['fail', 'skip'].includes(outcome), `${key}: ${outcome}`);
    t.true(step !== '' && reason.length > 10, `${key}: a step and a reason`);
  }
  for (const c of cases)
    for (const file of [...c.schemas, c.instance]) t.true(existsSync(join(SAMPLE, file)) || expected.has(caseKey(c)), file);
});

test('every case of the sample passes (read into its classes, written back valid, equal by value) but those expected.tsv lists, each as it says', async (t) => {
  const cases = sampleCases();
  const expected = expectedFailures();
  const { results } = await runXsts(SAMPLE, cases, { jobs: 2 });
  t.is(results.length, cases.length, 'every case ran');
  const wrong: string[] = [];
  for (const r of results) {
    const key = caseKey(r.case);
    const failure = expected.get(key);
    const line = `${r.case.set} ${r.case.name} ${r.case.instance} [${r.step ?? ''}] ${r.message ?? ''}`;
    if (!failure && r.outcome !== 'pass') wrong.push(`does not pass: ${line}`);
    else if (failure && r.outcome === 'pass') wrong.push(`passes now, remove its line from expected.tsv: ${r.case.set} ${r.case.instance}`);
    else if (failure && (r.outcome !== failure.outcome || r.step !== failure.step))
      wrong.push(`expected to ${failure.outcome} at ${failure.step}, but: ${r.outcome} ${line}`);
  }
  t.deepEqual(wrong, [], tableBySet(results));
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
