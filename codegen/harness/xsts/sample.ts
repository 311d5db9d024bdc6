/**
 * Makes the suite's sample that `make test` runs (test/fixtures/xsts/): a fixed
 * choice of cases drawn from all of them, passing or not, spread over every test set (the NIST datatype set in
 * proportion, every other set at least a few), with every case a run of the whole suite did not pass (its output,
 * `npm run xsts -- SUITE > FILE`, named by --known FILE); each case's files copied with their folders (the schema
 * documents and all they import, include or redefine, the instance, the documents its hints name) and the suite's
 * notice. `cases.tsv` lists the cases; `expected.tsv` those that do not pass in the sample, each with its outcome
 * (fail or skip), step and reason: the expected failures test/codegen/harness/xsts.test.ts holds the run to.
 *   node --import=tsx codegen/harness/xsts/sample.ts SUITE OUT [SIZE] [--known FILE]
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { loadXmlEngine, safeParseOptions, xml } from 'contract-runtime/xml';
import { schemasWithHints, type XstsCase, xstsCases } from './cases';
import { runXsts } from './main';

/** The files a schema document reads: itself and, transitively, what it imports, includes or redefines by a local location. */
function schemaFiles(suite: string, path: string, into = new Set<string>()): Set<string> {
  const file = resolve(suite, path);
  if (into.has(file) || !existsSync(file)) return into;
  into.add(file);
  let doc: ReturnType<ReturnType<typeof xml>['XmlDocument']['fromString']>;
  try {
    doc = xml().XmlDocument.fromString(readFileSync(file, 'utf8'), { option: safeParseOptions() });
  } catch {
    return into; // A document libxml2 cannot parse is copied, and names nothing it reads.
  }
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

/** A case's key: its set, schema documents and instance (neither a case's name nor its instance is unique in its set). */
export const caseKey = (c: XstsCase) => `${c.set}\t${c.schemas.join(';')}\t${c.instance}`;

/** The cases a run of the whole suite did not pass (by set and instance): its FAIL and SKIP lines, `set case instance [step] message`. */
function knownFailures(file: string | undefined): Set<string> {
  const known = new Set<string>();
  if (file === undefined) return known;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^(?:FAIL|SKIP) (\S+) \S+ (\S+) \[/.exec(line);
    if (match) known.add(`${match[1]}\t${match[2]}`);
  }
  return known;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const knownAt = args.indexOf('--known');
  const knownFile = knownAt >= 0 ? args.splice(knownAt, 2)[1] : undefined;
  const [suiteArg, outArg, sizeArg] = args;
  if (!suiteArg || !outArg) throw new Error('usage: node --import=tsx codegen/harness/xsts/sample.ts SUITE OUT [SIZE] [--known FILE]');
  const suite = resolve(suiteArg);
  const out = resolve(outArg);
  const size = Number(sizeArg ?? 520);
  await loadXmlEngine();
  const all = xstsCases(suite);
  const known = knownFailures(knownFile);
  const bySet = new Map<string, XstsCase[]>();
  for (const c of all) bySet.set(c.set, [...(bySet.get(c.set) ?? []), c]);
  const quota = (count: number) => Math.min(count, Math.max(6, Math.round((count / all.length) * size)));
  const picked = new Set([...bySet.values()].flatMap((cases) => spread(cases, quota(cases.length))));
  // And every case the whole suite's run did not pass.
  const chosen = all.filter((c) => picked.has(c) || known.has(`${c.set}\t${c.instance}`));
  // The folder is made anew; its README stays.
  const readme = existsSync(join(out, 'README.md')) ? readFileSync(join(out, 'README.md'), 'utf8') : undefined;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  if (readme !== undefined) writeFileSync(join(out, 'README.md'), readme);
  const files = new Set<string>();
  for (const c of chosen) {
    for (const schema of schemasWithHints(suite, c)) schemaFiles(suite, schema, files);
    if (existsSync(resolve(suite, c.instance))) files.add(resolve(suite, c.instance));
  }
  for (const file of files) {
    const target = join(out, relative(suite, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  copyFileSync(join(suite, '00COPYRIGHT'), join(out, '00COPYRIGHT'));
  // As the sample runs from its own folder (its hints resolved there): what does not pass there is expected not to.
  const { results } = await runXsts(out, chosen, { jobs: 2 });
  const lines = chosen.map((c) => [c.set, c.name, c.schemas.join(';'), c.instance].join('\t'));
  writeFileSync(join(out, 'cases.tsv'), `set\tcase\tschemas\tinstance\n${lines.join('\n')}\n`);
  const expected = results
    .filter((r) => r.outcome !== 'pass')
    .map((r) => [caseKey(r.case), r.outcome, r.step ?? '', (r.message ?? '').replace(/\s+/g, ' ')].join('\t'));
  writeFileSync(join(out, 'expected.tsv'), `set\tschemas\tinstance\toutcome\tstep\treason\n${expected.join('\n')}\n`);
  console.log(
    `${chosen.length} cases of ${new Set(chosen.map((c) => c.set)).size} test sets (${expected.length} expected not to pass), ${files.size} files, in ${out}`,
  );
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
