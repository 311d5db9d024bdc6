/**
 * `npm run xsts -- DIR [--save-output OUT] [--filter REGEX] [--jobs N] [--catalog FILE]`: codegen measured on the
 * W3C XML Schema Test Suite in DIR (the W3C schemas its own schema imports by URL read through an OASIS XML
 * Catalog: w3c.catalog.xml beside this file unless --catalog names another). Every case that holds for XML Schema 1.0 (cases.ts) is run as run-set.ts says, each schema
 * set generated once, the sets shared among worker processes (one per core by default). It prints a progress line
 * at least every 10 seconds, one line per failing or skipped case (set, case, instance, step, first message), a table by
 * test set (with the typed share of the passing instances' values), and `xsts: N passed, N failed, N skipped of N (P %
 * passing; …); typed share S % (…)`; it exits 1 when a case fails.
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { typeCheckInBatches } from '../corpus';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadXmlEngine } from 'contract-runtime/xml';
import { schemasWithHints, type XstsCase, xstsCases } from './cases';
import { type Catalog, readCatalog } from '../../read/catalog';
import type { CaseResult } from './run-set';

/** The catalog that maps the W3C schemas the suite's own schema imports by URL to local copies. */
export const DEFAULT_CATALOG = join(__dirname, 'w3c.catalog.xml');

interface Options {
  suite: string;
  catalog: string;
  typecheck: boolean;
  saveOutput?: string;
  filter?: RegExp;
  jobs: number;
  /** How many of the cases holding the most untyped values to list (0: none). */
  untyped: number;
}

/** What a worker is sent: a schema set's cases; what it answers: their results. */
type Job = { index: number; cases: XstsCase[]; keepOutput: boolean; catalog: string; typecheck?: string };
type Answer = { index: number; results: CaseResult[] };

export interface XstsSummary {
  results: CaseResult[];
  seconds: number;
}

/** Runs the cases (already counted and filtered) in `jobs` worker processes; `progress` is called every few seconds. */
export async function runXsts(
  suite: string,
  cases: XstsCase[],
  {
    jobs,
    keepOutput = false,
    catalog = DEFAULT_CATALOG,
    typecheck,
    progress = () => {},
  }: {
    jobs: number;
    keepOutput?: boolean;
    catalog?: string;
    /** A folder to write each schema set's generated files into, and type-check them there in batches. */
    typecheck?: string;
    progress?: (done: number, total: number) => void;
  },
): Promise<XstsSummary> {
  const started = Date.now();
  // A case's schema set: its test's documents, and those its instance names by hint (cases.ts).
  const sets = new Map<string, XstsCase[]>();
  for (const c of cases) {
    const schemas = schemasWithHints(suite, c);
    const key = schemas.join(';');
    sets.set(key, [...(sets.get(key) ?? []), { ...c, schemas }]);
  }
  const queue = [...sets.values()].map((setCases, index) => ({ index, cases: setCases, keepOutput, catalog, typecheck }));
  const answers: CaseResult[][] = [];
  let done = 0;
  const timer = setInterval(() => progress(done, cases.length), 5_000);
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(jobs, queue.length)) }, () =>
        worker(suite, queue, (answer) => {
          answers[answer.index] = answer.results;
          done += answer.results.length;
        }),
      ),
    );
  } finally {
    clearInterval(timer);
  }
  if (typecheck !== undefined) typeCheckGenerated(typecheck, answers, progress);
  return { results: answers.flat(), seconds: (Date.now() - started) / 1000 };
}

/**
 * Type-checks every generated folder under `work` (one per schema set, by its index) with the repository's strict
 * settings, 200 folders a TypeScript program, and no more code in one than corpus.ts's typeCheckInBatches puts in
 * one (a UBL document schema is 8 MB of TypeScript): a case whose set's code does not type-check fails at `typecheck`.
 */
function typeCheckGenerated(work: string, answers: CaseResult[][], progress: (done: number, total: number) => void): void {
  const folders = answers.flatMap((_, index) => (existsSync(join(work, String(index), 'types.ts')) ? [join(work, String(index))] : []));
  for (let start = 0; start < folders.length; start += 200) {
    const batch = folders.slice(start, start + 200);
    for (const [folder, errors] of typeCheckInBatches(batch, work)) {
      if (errors === '') continue;
      const results = answers[Number(basename(folder))];
      for (const r of results) {
        if (r.outcome === 'pass') Object.assign(r, { outcome: 'fail', step: 'typecheck', message: errors.split('\n')[0] });
      }
    }
    progress(start + batch.length, folders.length);
  }
}

/** One worker process: takes the next set from the queue until none is left (a new process after 400 sets, to bound memory). */
async function worker(suite: string, queue: Job[], answered: (answer: Answer) => void): Promise<void> {
  while (queue.length > 0) {
    const child = fork(__filename, ['--worker', suite], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((done, failed) => {
      let sent = 0;
      let current: Job | undefined;
      const next = () => {
        current = sent++ < 400 ? queue.shift() : undefined;
        if (current) child.send(current);
        else child.disconnect();
      };
      child.on('message', (answer: Answer) => {
        answered(answer);
        next();
      });
      child.on('exit', (code, signal) => {
        if (current && (code !== 0 || signal)) {
          // The process died on this set: its cases fail, and the others go on in a new process.
          const job = current;
          answered({
            index: job.index,
            results: job.cases.map((c) => ({
              case: c,
              outcome: 'fail',
              step: 'load',
              message: `the worker process ended (${signal ?? code})`,
            })),
          });
        }
        done();
      });
      child.on('error', failed);
      next();
    });
  }
}

async function workerMain(suite: string): Promise<void> {
  await loadXmlEngine();
  const { runSchemaSet } = require('./run-set') as typeof import('./run-set');
  const catalogs = new Map<string, Catalog>();
  process.on('message', async (job: Job) => {
    if (!catalogs.has(job.catalog)) catalogs.set(job.catalog, readCatalog(job.catalog));
    const results = await runSchemaSet(
      suite,
      job.cases,
      catalogs.get(job.catalog),
      job.typecheck === undefined ? undefined : join(job.typecheck, String(job.index)),
    );
    if (!job.keepOutput) for (const r of results) delete r.output;
    process.send!({ index: job.index, results } satisfies Answer);
  });
  process.on('disconnect', () => process.exit(0));
}

/** A share as a percentage, rounded down to `digits` decimals ("–" of none). */
export function share(part: number, all: number, digits = 1): string {
  const scale = 10 ** (digits + 2);
  return all === 0 ? '–' : `${(Math.floor((part / all) * scale) / 10 ** digits).toFixed(digits)} %`;
}

/** The values of the passing cases, and those read into a typed field (compare.ts's typedValues). */
export function typedShare(results: CaseResult[]): { all: number; typed: number } {
  const total = { all: 0, typed: 0 };
  for (const r of results) {
    if (r.outcome !== 'pass' || !r.values) continue;
    total.all += r.values.all;
    total.typed += r.values.typed;
  }
  return total;
}

/** The table by test set: cases, passed, failed, skipped, the passing cases' values and the typed share of them. */
export function tableBySet(results: CaseResult[]): string {
  const rows = new Map<string, CaseResult[]>();
  for (const r of results) rows.set(r.case.set, [...(rows.get(r.case.set) ?? []), r]);
  const lines = ['| test set | cases | passed | failed | skipped | values | typed share |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const [set, rs] of [...rows].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = (outcome: CaseResult['outcome']) => rs.filter((r) => r.outcome === outcome).length;
    const { all, typed } = typedShare(rs);
    lines.push(`| ${set} | ${rs.length} | ${n('pass')} | ${n('fail')} | ${n('skip')} | ${all} | ${share(typed, all)} |`);
  }
  return lines.join('\n');
}

/** The `n` passing cases that hold the most values not read into a typed field, most first. */
export function mostUntyped(results: CaseResult[], n: number): string {
  const untyped = (r: CaseResult) => (r.values ? r.values.all - r.values.typed : 0);
  const ranked = results.filter((r) => r.outcome === 'pass' && untyped(r) > 0).sort((a, b) => untyped(b) - untyped(a));
  return ranked
    .slice(0, n)
    .map((r) => `untyped ${untyped(r)} of ${r.values!.all}: ${r.case.set} ${r.case.name} ${r.case.instance}`)
    .join('\n');
}

/** The closing line: the counts, the share passing, the typed share and the time. */
export function closingLine(results: CaseResult[], seconds: number): string {
  const count = (outcome: CaseResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
  const { all, typed } = typedShare(results);
  const judged = results.filter((r) => r.outcome === 'pass' && r.refused).length;
  return (
    `xsts: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped of ${results.length} ` +
    `(${share(count('pass'), results.length, 2)} passing; ${judged} of the passes against libxml2's messages on an instance it refuses); ` +
    `typed share ${share(typed, all)} (${typed} of ${all} values of the passing instances) (${Math.round(seconds)} s)`
  );
}

function parseOptions(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'save-output': { type: 'string' },
      filter: { type: 'string' },
      jobs: { type: 'string' },
      catalog: { type: 'string' },
      typecheck: { type: 'boolean' },
      untyped: { type: 'string' },
    },
  });
  if (positionals.length !== 1)
    throw new Error('usage: npm run xsts -- DIR [--save-output OUT] [--filter REGEX] [--jobs N] [--catalog FILE] [--untyped N]');
  const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs ${values.jobs}: a number of processes, 1 or more`);
  return {
    suite: resolve(positionals[0]),
    catalog: values.catalog ? resolve(values.catalog) : DEFAULT_CATALOG,
    ...(values['save-output'] ? { saveOutput: resolve(values['save-output']) } : {}),
    ...(values.filter ? { filter: new RegExp(values.filter) } : {}),
    jobs,
    typecheck: values.typecheck === true,
    untyped: values.untyped === undefined ? 0 : Number(values.untyped),
  };
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`xsts: ${(error as Error).message.replace(/^xsts: /, '')}`);
    process.exit(2);
  }
  await loadXmlEngine();
  const all = xstsCases(options.suite);
  const cases = options.filter ? all.filter((c) => options.filter!.test(`${c.set} ${c.name} ${c.instance}`)) : all;
  console.log(
    `xsts: ${cases.length} of the suite's ${all.length} XML Schema 1.0 cases, in ${new Set(cases.map((c) => c.schemas.join(';'))).size} schema sets, ${options.jobs} processes`,
  );
  const work = options.typecheck ? mkdtempSync(join(tmpdir(), 'xsts-typecheck-')) : undefined;
  const { results, seconds } = await runXsts(options.suite, cases, {
    jobs: options.jobs,
    catalog: options.catalog,
    ...(work ? { typecheck: work } : {}),
    keepOutput: options.saveOutput !== undefined,
    progress: (done, total) => console.log(`xsts: ${done} of ${total} cases run`),
  });
  for (const r of results) {
    if (r.outcome !== 'pass')
      console.log(`${r.outcome === 'fail' ? 'FAIL' : 'SKIP'} ${r.case.set} ${r.case.name} ${r.case.instance} [${r.step}] ${r.message}`);
    if (options.saveOutput && r.output !== undefined) {
      const file = join(options.saveOutput, r.case.instance);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, r.output);
    }
  }
  if (work) rmSync(work, { recursive: true, force: true });
  if (options.untyped > 0) console.log(`\n${mostUntyped(results, options.untyped)}`);
  console.log(`\n${tableBySet(results)}\n`);
  console.log(closingLine(results, seconds));
  process.exitCode = results.some((r) => r.outcome === 'fail') ? 1 : 0;
}

if (require.main === module) {
  if (process.argv[2] === '--worker') void workerMain(process.argv[3]);
  else void main();
}
