/**
 * Published schema sets with their publishers' own samples (test/fixtures/schema-sets/: ISO 20022 payments and
 * cash management, CycloneDX, the EU's eForms, IPTC's NewsML-G2, the DMN TCK's models, SAA's EAD3, each with its
 * source and licence): every sample is read into the class of its root element, written back, valid against the
 * schema by libxml2 and equal to the sample by the W3C suite's rule, as `npm run schemas` runs them.
 */
import test from 'ava';
import { join } from 'node:path';
import { catalogOf, schemaSetsOf, setCases, STANDARD_CATALOG } from '../../../codegen/harness/schema-sets';
import { runXsts, typedShare } from '../../../codegen/harness/xsts/main';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const SETS = join(__dirname, '..', '..', 'fixtures', 'schema-sets');

test.before(async () => {
  await loadXmlEngine();
});

test('every folder of test/fixtures/schema-sets is a set of schemas and samples, each sample’s root declared by one', (t) => {
  const sets = schemaSetsOf(SETS);
  t.deepEqual(sets, ['cyclonedx-1.6', 'eu-eforms-sdk', 'iptc-newsml-g2-2.35', 'iso20022-payments', 'omg-dmn-1.5-tck', 'saa-ead3']);
  for (const set of sets) {
    const { cases, undeclared } = setCases(SETS, set);
    t.true(cases.length >= 4, `${set}: ${cases.length} samples`);
    t.deepEqual(undeclared, [], set);
    t.true(existsSync(join(SETS, set, 'LICENSE')) && existsSync(join(SETS, set, 'SOURCE.md')), `${set}: its licence and source`);
  }
  // ISO 20022: each message's sample by its own message schema.
  const iso = setCases(SETS, 'iso20022-payments').cases.map((c) => [c.name, c.schemas[0].split('/').pop()]);
  t.deepEqual(iso, [
    ['samples/camt052_001_02.xml', 'camt.052.001.02.xsd'],
    ['samples/camt053_001_02.xml', 'camt.053.001.02.xsd'],
    ['samples/pain001_001_08.xml', 'pain.001.001.08.xsd'],
    ['samples/remt_001_001_06.xml', 'remt.001.001.06.xsd'],
  ]);
});

for (const set of schemaSetsOf(SETS)) {
  test.serial(`${set}: every sample generates, type-checks, reads, writes back valid and equal`, async (t) => {
    t.timeout(600_000, 'generate, type-check and run a published schema set');
    const work = mkdtempSync(join(tmpdir(), 'schema-sets-'));
    try {
      const { cases } = setCases(SETS, set);
      const { results } = await runXsts(SETS, cases, { jobs: 1, catalog: catalogOf(join(SETS, set)) ?? STANDARD_CATALOG, typecheck: work });
      const failed = results.filter((r) => r.outcome !== 'pass').map((r) => `${r.case.name} [${r.step}] ${r.message}`);
      t.deepEqual(failed, []);
      t.is(results.length, cases.length);
      const { all, typed } = typedShare(results);
      t.true(all > 0 && typed / all > 0.9, `${set}: ${typed} of ${all} values typed`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}

test('a sample is of the document that reaches its root and every member its content may hold, not only of the one that declares the root (FpML)', async (t) => {
  // test/fixtures/xsd-mode/substitution-across-documents: msg.xsd declares requestConfirmation, main.xsd includes
  // it and the products that substitute for the trade's abstract product; the samples name main.xsd.
  const shapes = join(__dirname, '..', '..', 'fixtures', 'xsd-mode');
  const { cases, undeclared } = setCases(shapes, 'substitution-across-documents');
  t.deepEqual(undeclared, []);
  t.deepEqual(
    cases.map((c) => [c.name, c.schemas[0].split('/').pop()]),
    [
      ['samples/data.xml', 'main.xsd'],
      ['samples/request.xml', 'main.xsd'],
    ],
  );
  const work = mkdtempSync(join(tmpdir(), 'schema-sets-'));
  try {
    const { results } = await runXsts(shapes, cases, { jobs: 1, catalog: STANDARD_CATALOG, typecheck: work });
    t.deepEqual(
      results.map((r) => `${r.case.name} ${r.outcome}${r.outcome === 'pass' ? '' : ` [${r.step}] ${r.message}`}`),
      ['samples/data.xml pass', 'samples/request.xml pass'],
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
