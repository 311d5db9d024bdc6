/**
 * Makes the suite's sample that `make test` runs (test/fixtures/xsts/): a fixed
 * choice of cases spread over every test set (the NIST datatype set in
 * proportion, every other set at least a few), each case's files copied with
 * their folders (the schema documents and all they import, include or
 * redefine, the instance, the documents its hints name) and the suite's
 * notice, and `cases.tsv` listing them. Only cases that pass are taken: the
 * sample holds what codegen keeps (a set none of whose cases pass is not in
 * it). The introspection set is left out: its schema imports W3C schemas the
 * suite does not hold.
 *   node --import=tsx codegen/harness/xsts/sample.ts SUITE OUT [SIZE]
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { loadXmlEngine, safeParseOptions, xml } from 'contract-runtime/xml';
import { schemasWithHints, type XstsCase, xstsCases } from './cases';
import { runXsts } from './main';

const LEFT_OUT = new Set(['common/introspection.testSet']);

/** The files a schema document reads: itself and, transitively, what it imports, includes or redefines by a local location. */
function schemaFiles(suite: string, path: string, into = new Set<string>()): Set<string> {
  const file = resolve(suite, path);
  if (into.has(file) || !existsSync(file)) return into;
  into.add(file);
  const doc = xml().XmlDocument.fromString(readFileSync(file, 'utf8'), { option: safeParseOptions() });
  try {
    for (const node of doc.root.find('xs:import/@schemaLocation | xs:include/@schemaLocation | xs:redefine/@schemaLocation', {
      xs: 'http://www.w3.org/2001/XMLSchema',
    })) {
      const location = (node as unknown as { value: string }).value;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(location)) schemaFiles(suite, relative(suite, resolve(dirname(file), location)), into);
    }
  } finally {
    doc.dispose();
  }
  return into;
}

/** Evenly spread picks of `count` out of `list` (all when it holds fewer). */
function spread<T>(list: T[], count: number): T[] {
  if (list.length <= count) return list;
  return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);
}

async function main(): Promise<void> {
  const [suiteArg, outArg, sizeArg] = process.argv.slice(2);
  if (!suiteArg || !outArg) throw new Error('usage: node --import=tsx codegen/harness/xsts/sample.ts SUITE OUT [SIZE]');
  const suite = resolve(suiteArg);
  const out = resolve(outArg);
  const size = Number(sizeArg ?? 420);
  await loadXmlEngine();
  const all = xstsCases(suite).filter((c) => !LEFT_OUT.has(c.set));
  const bySet = new Map<string, XstsCase[]>();
  for (const c of all) bySet.set(c.set, [...(bySet.get(c.set) ?? []), c]);
  // Twice the quota a set is run, so that passing cases can fill it.
  const quota = (count: number) => Math.min(count, Math.max(6, Math.round((count / all.length) * size)));
  const candidates = [...bySet.values()].flatMap((cases) => spread(cases, Math.min(cases.length, quota(cases.length) * 2)));
  const { results } = await runXsts(suite, candidates, { jobs: 2 });
  const passing = new Set(results.filter((r) => r.outcome === 'pass').map((r) => `${r.case.set}\t${r.case.name}\t${r.case.instance}`));
  const chosen = [...bySet.values()].flatMap((cases) =>
    spread(
      cases.filter((c) => passing.has(`${c.set}\t${c.name}\t${c.instance}`)),
      quota(cases.length),
    ),
  );
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files = new Set<string>();
  for (const c of chosen) {
    for (const schema of schemasWithHints(suite, c)) schemaFiles(suite, schema, files);
    files.add(resolve(suite, c.instance));
  }
  for (const file of files) {
    const target = join(out, relative(suite, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  copyFileSync(join(suite, '00COPYRIGHT'), join(out, '00COPYRIGHT'));
  // As the sample runs from its own folder (its hints resolved there): only what passes there is kept.
  const there = await runXsts(out, chosen, { jobs: 2 });
  const passesThere = new Set(
    there.results.filter((r) => r.outcome === 'pass').map((r) => `${r.case.set}\t${r.case.name}\t${r.case.instance}`),
  );
  const kept = chosen.filter((c) => passesThere.has(`${c.set}\t${c.name}\t${c.instance}`));
  const lines = kept.map((c) => [c.set, c.name, c.schemas.join(';'), c.instance].join('\t'));
  writeFileSync(join(out, 'cases.tsv'), `set\tcase\tschemas\tinstance\n${lines.join('\n')}\n`);
  console.log(`${kept.length} cases of ${new Set(kept.map((c) => c.set)).size} test sets, ${files.size} files, in ${out}`);
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(`xsts sample: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
