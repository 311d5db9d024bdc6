/**
 * `make bench`: ours, "ours (before)" (this build on Node.js 20, or another revision), the peer (the npm soap
 * server) and the ceiling (bare Koa, a fixed answer) in interleaved rounds (bench/rounds.ts), each server a child
 * process started fresh for each measurement (bench/servers.ts), autocannon here in this process; then ours under
 * Linux perf (bench/perf/). Writes bench/RESULTS.md (bench/report/: its Analysis and Soak sections kept as they
 * were) and bench/results.json (every figure, raw; not kept in git).
 *
 * Settings (environment):
 *   BENCH_ROUNDS           rounds: every server of every scenario is measured once a round (3)
 *   BENCH_CONNECTIONS      autocannon connections (50)
 *   BENCH_WARMUP           seconds of warm-up before each measurement (5; times N for a server of N threads)
 *   BENCH_DURATION         seconds measured (8)
 *   BENCH_FRESH_DURATION   seconds measured with fresh secrets (60)
 *   BENCH_BEFORE           git revision measured as "ours (before)", on this Node.js; unset: this checkout's build on
 *                          Node.js 20 (BENCH_BEFORE_NODE, else the machine's own); empty: none
 *   BENCH_PROFILES         0 skips the perf step (which needs Debian's linux-perf)
 * For a part of the run (an A/B, docs/performance.md):
 *   BENCH_SCENARIOS        scenario ids (bench/workload.ts), comma-separated
 *   BENCH_SERVERS          servers (ours, before, peer, ceiling) or row labels ("ours --workers 2"); "ours" is its default row
 *   BENCH_OURS             git revision measured as "ours" instead of this checkout
 *   BENCH_WRITE            1: a part writes RESULTS.md and results.json too (else it prints its tables only)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildRevision, previousNode, versionOf, type RevisionBuild } from './builds';
import { measure, threadsOf, type LoadSettings, type Measurement, type Plan, type ServerKind } from './measure';
import { profileStages, requirePerf, type StageProfile } from './perf/profile';
import { renderResults, type RunInfo } from './report/results';
import { schedule } from './rounds';
import { builtService, ceilingCommand, peerCommand, ROOT } from './servers';
import { SCENARIOS, type ScenarioId } from './workload';

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const list = (name: string) =>
  process.env[name]
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** What ours is profiled under: the two efficiency goals' scenarios. */
const PROFILED: ScenarioId[] = ['soap11-validate', 'get-validate'];

const scenarios = list('BENCH_SCENARIOS');
const servers = list('BENCH_SERVERS');
const unknown = scenarios?.filter((id) => !SCENARIOS.some((s) => s.id === id));
if (unknown?.length)
  throw new Error(`BENCH_SCENARIOS: no scenario ${unknown.join(', ')} (there are ${SCENARIOS.map((s) => s.id).join(', ')})`);
const subset = Boolean(scenarios || servers);
const oursRevision = process.env.BENCH_OURS?.trim() || undefined;
if (oursRevision && !subset) throw new Error('BENCH_OURS is for a part of the run (BENCH_SCENARIOS or BENCH_SERVERS)');
const beforeRevision = process.env.BENCH_BEFORE?.trim();
const load: LoadSettings = { connections: number('BENCH_CONNECTIONS', 50), warmup: number('BENCH_WARMUP', 5) };
const rounds = Math.round(number('BENCH_ROUNDS', 3));
const duration = number('BENCH_DURATION', 8);
const freshDuration = number('BENCH_FRESH_DURATION', 60);

/** What "ours (before)" runs: a build, and the Node.js that runs it (this one's unless named). */
type Before = { dir: string; node?: string; revision?: RevisionBuild };

/** The servers of each scenario, in their base order (rounds rotate it). */
function plans(oursDir: string, before: Before | undefined): Plan[][] {
  const wanted = (server: ServerKind, label: string) =>
    !servers || servers.includes(label) || (server !== 'ours' && servers.includes(server));
  return SCENARIOS.filter((s) => !scenarios || scenarios.includes(s.id)).map((s) => {
    const out: Plan[] = [];
    const add = (server: ServerKind, label: string, command: Plan['command']) => {
      if (wanted(server, label))
        out.push({ scenario: s.id, server, label, command: { ...command, label }, seconds: s.fresh ? freshDuration : duration });
    };
    const ours = (...args: string[]) => builtService('ours', oursDir, args);
    const validate = s.operation === 'ValidatePin';
    const twoThreads = s.id === 'soap11-validate' || s.id === 'get-validate';
    // Node.js 20 has no node:sqlite: this build runs there with the volatile store ("ours --store memory" is its peer on 24).
    if (before)
      add('before', 'ours (before)', builtService('ours (before)', before.dir, before.node ? ['--store', 'memory'] : [], [], before.node));
    add('ours', 'ours', ours());
    if (validate) add('ours', 'ours --store memory', ours('--store', 'memory'));
    if (twoThreads) add('ours', 'ours --workers 2', ours('--workers', '2'));
    if (s.variant === 'soap11' && validate) add('peer', 'peer', peerCommand());
    if (validate) add('ceiling', 'ceiling', ceilingCommand());
    // What two event loops cost here with no service work: the floor under "ours --workers 2".
    if (twoThreads) add('ceiling', 'ceiling --workers 2', ceilingCommand(['--workers', '2']));
    return out;
  });
}

const machine = (): RunInfo['machine'] => ({
  cpu: cpus()[0]?.model.trim() ?? 'unknown',
  cores: cpus().length,
  memoryGb: totalmem() / 2 ** 30,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
});

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/src/service/main.js'))) throw new Error('dist/ is missing: run `make build` (make bench does)');
  const profiled = process.env.BENCH_PROFILES === '0' ? [] : PROFILED.filter((id) => !scenarios || scenarios.includes(id));
  // Before anything long: a run that would fail at its last step fails now.
  if (profiled.length) requirePerf();
  const started = Date.now();
  const loadBefore = loadavg();
  const runTag = Math.floor(Math.random() * 36 ** 4).toString(36);
  const oursBuild = oursRevision === undefined ? undefined : buildRevision(oursRevision);
  let before: Before | undefined;
  if (beforeRevision !== '' && (!servers || servers.includes('before') || servers.includes('ours (before)'))) {
    const revision = beforeRevision === undefined ? undefined : buildRevision(beforeRevision);
    before = revision ? { dir: revision.dir, revision } : { dir: ROOT, node: previousNode() };
  }
  try {
    const planned = schedule(plans(oursBuild?.dir ?? ROOT, before), rounds);
    const seconds = planned[0].reduce((n, p) => n + load.warmup * threadsOf(p.command.argv) + p.seconds + 1.5, 0) * rounds;
    console.log(
      `bench: ${rounds} rounds of ${planned[0].length} measurements, about ${Math.ceil(seconds / 60)} min; load average ${loadBefore.join(' ')}`,
    );
    const measurements: Measurement[] = [];
    for (const [round, plansOfRound] of planned.entries())
      for (const plan of plansOfRound) measurements.push(await measure(plan, load, round, `${runTag}${measurements.length.toString(36)}`));
    const profiles: StageProfile[] = [];
    for (const id of profiled) profiles.push(await profileStages(id, load, `${runTag}p${profiles.length}`));
    const build = (b: RevisionBuild | undefined) => b && { revision: b.revision, commit: b.commit };
    const info: RunInfo = {
      date: new Date(started).toISOString(),
      machine: machine(),
      settings: { ...load, duration, freshDuration, rounds },
      loadBefore,
      loadAfter: loadavg(),
      wallSeconds: (Date.now() - started) / 1000,
      subset,
      ours: build(oursBuild),
      before: before && { ...build(before.revision), node: versionOf(before.node ?? process.execPath) ?? 'unknown' },
    };
    write(info, measurements, profiles);
  } finally {
    before?.revision?.cleanup();
    oursBuild?.cleanup();
  }
}

function write(info: RunInfo, measurements: Measurement[], profiles: StageProfile[]): void {
  const file = join(ROOT, 'bench', 'RESULTS.md');
  const text = renderResults(info, measurements, existsSync(file) ? readFileSync(file, 'utf8') : '', profiles);
  if (info.subset && process.env.BENCH_WRITE !== '1') {
    const between = (from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));
    console.log(
      `\n(RESULTS.md left as it was; BENCH_WRITE=1 writes it)\n\n${between('## Results', '## Analysis')}${between('## Fresh', '## Soak')}`,
    );
    return;
  }
  writeFileSync(file, text);
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify({ info, measurements, profiles }, null, 1)}\n`);
  console.log(
    `\nwrote bench/RESULTS.md (${(info.wallSeconds / 60).toFixed(1)} min)\n\n${text.slice(text.indexOf('## Goals'), text.indexOf('## Analysis'))}`,
  );
}

// Exiting kills every server still running (bench/servers.ts).
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  },
);
