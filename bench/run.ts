/**
 * `make bench`: ours, ours on Node.js 20 ("ours (before)": the same build run by the runtime it left),
 * a peer (the npm soap server) and a ceiling (bare Koa, fixed answer) side by
 * side, on loopback, in interleaved rounds (bench/rounds.ts). Each server is
 * its own child process, started fresh for each measurement on a free
 * 127.0.0.1 port, its stdout and stderr read and discarded through pipes
 * (bench/servers.ts); autocannon runs here, in this process (one thread),
 * with the same settings for every server. Then ours once more under Linux
 * perf, to see which stage of a request the CPU goes to
 * (bench/perf-profile.ts). Writes bench/RESULTS.md (keeping its Analysis and
 * Soak sections as they were), bench/results.json and
 * bench/cpu-per-request.svg.
 *
 * Settings (environment):
 *   BENCH_ROUNDS           rounds; every server of every scenario is measured once a round (3)
 *   BENCH_CONNECTIONS      autocannon connections (50)
 *   BENCH_WARMUP           seconds of warm-up before each measurement (5; times N for a server of N threads)
 *   BENCH_DURATION         seconds measured, reused-secrets workload (8)
 *   BENCH_FRESH_DURATION   seconds measured, fresh-secrets workload (60)
 *   BENCH_BEFORE           git revision measured as "ours (before)" in the ValidatePin scenarios, on this Node.js;
 *                          unset: this checkout's build on Node.js 20 (bench/node-20.ts); empty: no before row
 *   BENCH_BEFORE_NODE      the Node.js 20 of the unset BENCH_BEFORE (default: the machine's, else from the registry)
 *   BENCH_PROFILES         0 skips the perf step (which otherwise needs Debian's linux-perf)
 * For development:
 *   BENCH_SCENARIOS        comma-separated scenario ids (bench/workload.ts) to run only those
 *   BENCH_SERVERS          comma-separated servers (ours, before, peer, ceiling) or row labels
 *                          (e.g. "ours --workers 2", "ours over HTTPS") to run only those; "ours" is its row with
 *                          default settings
 *   BENCH_WRITE            1: a subset writes RESULTS.md, results.json and the chart too (else they are left alone)
 *   BENCH_OURS_ARGS        settings added to every run of ours and before, e.g. `--log-level warn` (a subset only)
 *   BENCH_OURS             git revision measured as "ours" instead of this checkout (a subset only): with
 *                          BENCH_BEFORE=<the revision before it>, an interleaved A/B of one change
 *   BENCH_RERENDER         1: no measuring; RESULTS.md and the chart written again from bench/results.json
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { node20, versionOf } from './node-20';
import { buildRevision, type RevisionBuild } from './revision-build';
import { renderChart } from './chart';
import { measure, threadsOf, type LoadSettings, type Measurement, type Plan, type ServerKind } from './measure';
import { profileStages, requirePerf, type StageProfile } from './perf-profile';
import { CHART_FILE, renderResults, type RunInfo } from './report';
import { schedule, summarize } from './rounds';
import { builtService, ceilingCommand, killAllServers, peerCommand, ROOT } from './servers';
import { SCENARIOS, type Scenario, type ScenarioId } from './workload';
import { createTestCa, pemFolder } from '../test/support/certificates';

const RESULTS = join(ROOT, 'bench', 'RESULTS.md');
/** The raw figures of the last full run, from which RESULTS.md can be written again (BENCH_RERENDER=1). */
const RAW = join(ROOT, 'bench', 'results.json');
const CHART = join(ROOT, 'bench', CHART_FILE);

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

/** What ours is profiled under: the fresh workload over SOAP (the goal's), its reused counterpart, and HTTP GET. */
const PROFILED: ScenarioId[] = ['soap11-validate-fresh', 'soap11-validate', 'get-validate'];

interface Options {
  load: LoadSettings;
  rounds: number;
  duration: number;
  freshDuration: number;
  /** BENCH_BEFORE: a revision, this checkout on Node.js 20 (null), or no before row (undefined). */
  before: string | null | undefined;
  ours: string | undefined;
  profiles: boolean;
  scenarios: string[] | undefined;
  servers: string[] | undefined;
  oursArgs: string[];
}

function options(): Options {
  const scenarios = list('BENCH_SCENARIOS');
  const servers = list('BENCH_SERVERS');
  const oursArgs = list('BENCH_OURS_ARGS')?.flatMap((a) => a.split(/\s+/)) ?? [];
  if (oursArgs.length > 0 && !scenarios && !servers)
    throw new Error('BENCH_OURS_ARGS is for a subset (BENCH_SCENARIOS or BENCH_SERVERS): a full run measures the defaults');
  const unknown = scenarios?.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown?.length)
    throw new Error(`BENCH_SCENARIOS: no scenario ${unknown.join(', ')} (there are ${SCENARIOS.map((s) => s.id).join(', ')})`);
  const before = process.env.BENCH_BEFORE === undefined ? null : process.env.BENCH_BEFORE.trim() || undefined;
  const ours = process.env.BENCH_OURS?.trim() || undefined;
  if (ours && !scenarios && !servers)
    throw new Error('BENCH_OURS is for a subset (BENCH_SCENARIOS or BENCH_SERVERS): a full run measures this checkout');
  return {
    load: { connections: number('BENCH_CONNECTIONS', 50), warmup: number('BENCH_WARMUP', 5), pipelining: 1 },
    rounds: Math.round(number('BENCH_ROUNDS', 3)),
    duration: number('BENCH_DURATION', 8),
    freshDuration: number('BENCH_FRESH_DURATION', 60),
    before,
    ours,
    profiles: process.env.BENCH_PROFILES !== '0',
    scenarios,
    servers,
    oursArgs,
  };
}

/** What "ours (before)" runs: a build (this checkout's or a revision's) and the Node.js that runs it (this one's unless named). */
interface Before {
  dir: string;
  node?: string;
  revision?: RevisionBuild;
}

/** The servers of each scenario, in their base order (rounds rotate it). */
function plans(o: Options, oursDir: string, before: Before | undefined, tls: BenchCertificate): Plan[][] {
  // "ours" is the row of ours with default settings; its other rows go by their labels.
  const wanted = (server: ServerKind, label: string) =>
    !o.servers || o.servers.includes(label) || (server !== 'ours' && o.servers.includes(server));
  return SCENARIOS.filter((s) => !o.scenarios || o.scenarios.includes(s.id)).map((s: Scenario) => {
    const out: Plan[] = [];
    const seconds = s.secrets === 'fresh' ? o.freshDuration : o.duration;
    const add = (server: ServerKind, label: string, command: Plan['command'], driftWindow = 1) => {
      if (wanted(server, label)) out.push({ scenario: s.id, server, label, command: { ...command, label }, driftWindow, seconds });
    };
    // A revision from before the kept store (BENCH_OURS, BENCH_BEFORE) knows no --state-dir, and keeps nothing.
    const keeps = (dir: string) => existsSync(join(dir, 'dist', 'src', 'state', 'state-directory.js'));
    const ours = (args: string[] = []) => ({ ...builtService('ours', oursDir, [...args, ...o.oursArgs]), freshStateDir: keeps(oursDir) });
    const validate = s.operation === 'ValidatePin';
    if (before && validate) {
      // A revision of before the kept store knows no --state-dir; Node.js 20 has no node:sqlite, so this build runs
      // there with the volatile store (compare it with "ours --store memory" where that row is measured).
      const args = before.revision ? o.oursArgs : [...o.oursArgs, '--store', 'memory'];
      // A revision that keeps its store gets a new state directory each start, as ours does.
      const command = builtService('ours (before)', before.dir, args, [], before.node);
      add('before', 'ours (before)', { ...command, freshStateDir: before.revision !== undefined && keeps(before.dir) });
    }
    add('ours', 'ours', ours());
    // The kept store's cost against the volatile one (most where a new secret comes with every call), and ours with
    // the store "ours (before)" on Node.js 20 runs with.
    if (s.id === 'soap11-validate-fresh' || s.id === 'soap11-validate' || s.id === 'get-validate')
      add('ours', 'ours --store memory', ours(['--store', 'memory']));
    // Other settings of ours, with the reused secrets only (the fresh workload is long, and these are comparisons of their own).
    if (s.secrets === 'reused') {
      if (s.id === 'soap11-validate') add('ours', 'ours --drift-window 10', ours(['--drift-window', '10']), 10);
      if (s.id === 'soap11-validate')
        add('ours', 'ours over HTTPS', { ...ours(['--tls-cert', tls.cert, '--tls-key', tls.key]), https: true });
      if (s.id === 'soap11-validate' || s.id === 'get-validate' || s.id === 'soap11-pair')
        add('ours', 'ours --workers 2', ours(['--workers', '2']));
    }
    if (s.variant === 'soap11' || s.variant === 'soap12') add('peer', 'peer', peerCommand(s.variant === 'soap12' ? ['--soap12'] : []));
    add('ceiling', 'ceiling', ceilingCommand());
    // What two event loops cost here with no service work: the floor under "ours --workers 2".
    if (s.secrets === 'reused' && (s.id === 'soap11-validate' || s.id === 'get-validate'))
      add('ceiling', 'ceiling --workers 2', ceilingCommand(['--workers', '2']));
    return out;
  });
}

interface BenchCertificate {
  cert: string;
  key: string;
}

/** A certificate for "ours over HTTPS", made by a test CA of its own (test/support/certificates.ts) in a temporary folder. */
async function benchCertificate(): Promise<BenchCertificate> {
  const issued = await (await createTestCa('pin-service bench CA')).issue();
  const folder = pemFolder();
  return { cert: folder.write('cert.pem', issued.cert), key: folder.write('key.pem', issued.key) };
}

function machine(): RunInfo['machine'] {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  const cores = (cpuinfo.match(/^processor\s*:/gm) ?? []).length || cpus().length;
  return { cpu: model, cores, memoryGb: totalmem() / 2 ** 30, node: process.version, platform: `${process.platform} ${process.arch}` };
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('dist/ is missing: run `make build` (make bench does)');
  const o = options();
  // Before anything long: a run that would fail at its last step fails now.
  const profiled = o.profiles ? PROFILED.filter((id) => !o.scenarios || o.scenarios.includes(id)) : [];
  if (profiled.length) requirePerf();
  const started = Date.now();
  const loadBefore = loadavg();
  const runTag = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  const wantsBefore = o.before !== undefined && (!o.servers || o.servers.includes('before') || o.servers.includes('ours (before)'));
  const oursBuild = o.ours === undefined ? undefined : buildRevision(o.ours);
  if (oursBuild) console.log(`bench: built ${oursBuild.revision} (${oursBuild.commit.slice(0, 12)}) for "ours" in ${oursBuild.dir}`);
  let before: Before | undefined;
  if (wantsBefore && typeof o.before === 'string') {
    const revision = buildRevision(o.before);
    console.log(`bench: built ${revision.revision} (${revision.commit.slice(0, 12)}) for "ours (before)" in ${revision.dir}`);
    before = { dir: revision.dir, revision };
  } else if (wantsBefore) {
    before = { dir: ROOT, node: node20() };
  }
  try {
    const rounds = schedule(plans(o, oursBuild?.dir ?? ROOT, before, await benchCertificate()), o.rounds);
    const seconds = rounds[0].reduce((n, p) => n + o.load.warmup * threadsOf(p.command.argv) + p.seconds + 1.5, 0) * o.rounds;
    console.log(
      `bench: ${o.rounds} rounds of ${rounds[0].length} measurements, ${o.load.connections} connections, ${o.load.warmup} s warm-up + ${o.duration} s ` +
        `(fresh secrets ${o.freshDuration} s) each, about ${Math.ceil(seconds / 60)} min; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
    );
    const measurements: Measurement[] = [];
    let n = 0;
    for (const [round, plansOfRound] of rounds.entries()) {
      const position = new Map<ScenarioId, number>();
      for (const plan of plansOfRound) {
        const order = position.get(plan.scenario) ?? 0;
        position.set(plan.scenario, order + 1);
        measurements.push(await measure(plan, o.load, round, order, `${runTag}${(n++).toString(36)}`));
      }
    }
    const profiles: StageProfile[] = [];
    for (const id of profiled) profiles.push(await profileStages(id, o.load, `${runTag}p${profiles.length}`, o.oursArgs));
    const info: RunInfo = {
      date: new Date(started).toISOString(),
      machine: machine(),
      settings: { ...o.load, duration: o.duration, freshDuration: o.freshDuration, rounds: o.rounds },
      loadBefore,
      loadAfter: loadavg(),
      wallSeconds: (Date.now() - started) / 1000,
      subset: Boolean(o.scenarios || o.servers),
      ours: oursBuild && { revision: oursBuild.revision, commit: oursBuild.commit },
      before: before && {
        revision: before.revision?.revision,
        commit: before.revision?.commit,
        node: versionOf(before.node ?? process.execPath) ?? 'unknown',
      },
      oursArgs: o.oursArgs,
    };
    write(info, measurements, profiles, true);
  } finally {
    before?.revision?.cleanup();
    oursBuild?.cleanup();
  }
}

function write(info: RunInfo, measurements: Measurement[], profiles: StageProfile[], saveRaw: boolean): void {
  const previous = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const text = renderResults(info, measurements, previous, profiles);
  const subtitle = `${info.date.slice(0, 10)}, ${info.machine.cores} cores, ${info.settings.connections} connections`;
  if (info.subset && process.env.BENCH_WRITE !== '1') {
    console.log('\n(a subset: bench/RESULTS.md, results.json and the chart left as they were; BENCH_WRITE=1 writes them)\n');
    console.log(text.slice(text.indexOf('## Results'), text.indexOf('## Soak')));
    return;
  }
  writeFileSync(RESULTS, text);
  writeFileSync(CHART, renderChart(summarize(measurements), info.settings.rounds, subtitle));
  if (saveRaw) writeFileSync(RAW, `${JSON.stringify({ info, measurements, profiles }, null, 1)}\n`);
  console.log(`\nwrote bench/RESULTS.md and bench/${CHART_FILE} (${(info.wallSeconds / 60).toFixed(1)} min)\n`);
  console.log(text.slice(text.indexOf('## Goals'), text.indexOf('## Analysis')));
}

/** BENCH_RERENDER=1: RESULTS.md and the chart written again from bench/results.json (the same run, e.g. after a change to report.ts). */
function rerender(): void {
  const { info, measurements, profiles } = JSON.parse(readFileSync(RAW, 'utf8')) as {
    info: RunInfo;
    measurements: Measurement[];
    profiles: StageProfile[];
  };
  write(info, measurements, profiles, false);
}

(process.env.BENCH_RERENDER === '1' ? Promise.resolve().then(rerender) : main()).then(
  () => {
    killAllServers();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(`bench: ${(error as Error)?.stack ?? error}`);
    killAllServers();
    process.exit(1);
  },
);
