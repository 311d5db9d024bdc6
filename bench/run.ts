/**
 * `make bench`: ours, a peer (the npm soap server) and a ceiling (bare Koa,
 * fixed answer) side by side, on loopback, in one run. Each server is its
 * own child process, started fresh for each measurement on a free
 * 127.0.0.1 port; autocannon runs here, in this process (one thread), with
 * the same settings for every server. Writes bench/RESULTS.md, keeping its
 * Soak section (between the soak markers) as it was.
 *
 * Settings (environment): BENCH_CONNECTIONS (50), BENCH_DURATION seconds (8),
 * BENCH_WARMUP seconds (2). For development: BENCH_SCENARIOS and
 * BENCH_SERVERS (comma-separated ids) run a subset and then RESULTS.md is
 * left alone unless BENCH_WRITE=1; BENCH_PROFILE=DIR runs ours under
 * `node --cpu-prof` and leaves the profiles in DIR (see bench/profile-top.ts);
 * BENCH_OURS_ARGS (space-separated) adds settings to every run of ours, e.g.
 * `--log-level warn` to see what the request log costs (a subset only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../test/support/ports';
import { pinFor, sendRequest } from '../test/support/requests';
import { AnswerChecker, answeredBoolean, requestSource, validateRequest, type Expectation, type ScenarioId } from './workload';
import { topSelfTime } from './profile-top';
import { renderResults, type Measurement, type ProfileSummary, type RunInfo } from './report';

const ROOT = resolve(__dirname, '..');
const RESULTS = join(ROOT, 'bench', 'RESULTS.md');
/** The raw figures of the last full run, from which RESULTS.md can be written again (BENCH_RERENDER=1). */
const RAW = join(ROOT, 'bench', 'results.json');

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const SETTINGS = {
  connections: number('BENCH_CONNECTIONS', 50),
  duration: number('BENCH_DURATION', 8),
  warmup: number('BENCH_WARMUP', 2),
  pipelining: 1,
};
const list = (name: string) => process.env[name]?.split(',').map((s) => s.trim()).filter(Boolean);
const onlyScenarios = list('BENCH_SCENARIOS');
const onlyServers = list('BENCH_SERVERS');
const profileDir = process.env.BENCH_PROFILE ? resolve(process.env.BENCH_PROFILE) : undefined;
/** After the measurements, ours once more under --cpu-prof (SOAP 1.1 ValidatePin and Pair); BENCH_PROFILES=0 skips it. */
const PROFILE_STEP = process.env.BENCH_PROFILES !== '0';
const oursExtraArgs = list('BENCH_OURS_ARGS')?.flatMap((a) => a.split(/\s+/)) ?? [];
if (oursExtraArgs.length > 0 && !onlyScenarios && !onlyServers) throw new Error('BENCH_OURS_ARGS is for a subset (BENCH_SCENARIOS or BENCH_SERVERS): a full run measures the defaults');
const PROFILES = join(ROOT, 'bench', 'profiles');

export type ServerKind = 'ours' | 'peer' | 'ceiling';

interface Plan {
  scenario: ScenarioId;
  server: ServerKind;
  /** Row label: the server and any non-default setting. */
  label: string;
  args: string[];
  driftWindow: number;
}

export const SCENARIOS: { id: ScenarioId; title: string; soap: boolean }[] = [
  { id: 'soap11-validate', title: 'SOAP 1.1 ValidatePin', soap: true },
  { id: 'soap12-validate', title: 'SOAP 1.2 ValidatePin', soap: true },
  { id: 'get-validate', title: 'HTTP GET ValidatePin', soap: false },
  { id: 'post-validate', title: 'HTTP POST ValidatePin', soap: false },
  { id: 'soap11-pair', title: 'SOAP 1.1 Pair (inline SVG QR code)', soap: true },
];

function plans(): Plan[] {
  const out: Plan[] = [];
  for (const s of SCENARIOS) {
    if (onlyScenarios && !onlyScenarios.includes(s.id)) continue;
    const add = (server: ServerKind, label: string, args: string[] = [], driftWindow = 1) => {
      if (!onlyServers || onlyServers.includes(label) || onlyServers.includes(server)) out.push({ scenario: s.id, server, label, args, driftWindow });
    };
    add('ours', 'ours');
    // The drift-window and worker comparisons run right after the default, so that they see the same machine.
    if (s.id === 'soap11-validate') add('ours', 'ours --drift-window 10', ['--drift-window', '10'], 10);
    if (s.id === 'soap11-validate' || s.id === 'get-validate' || s.id === 'soap11-pair') add('ours', 'ours --workers 2', ['--workers', '2']);
    if (s.soap) add('peer', 'peer', s.id === 'soap12-validate' ? ['--soap12'] : []);
    add('ceiling', 'ceiling');
  }
  return out;
}

// ---- child processes -------------------------------------------------------

const children = new Set<ChildProcess>();

/** Kills a server and everything it started (it leads its own process group). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function killAll(): void {
  for (const child of children) killGroup(child, 'SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

interface Running {
  child: ChildProcess;
  port: number;
  stderr: () => string;
}

async function start(plan: Plan, cpuProfileDir = profileDir): Promise<Running> {
  const port = await freePort();
  const node = process.execPath;
  let args: string[];
  let ready: string;
  if (plan.server === 'ours') {
    const prof = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
    args = [...prof, 'dist/src/main.js', '--port', String(port), '--host', '127.0.0.1', ...plan.args, ...oursExtraArgs];
    ready = '/healthz';
  } else if (plan.server === 'peer') {
    args = ['--import=tsx', 'bench/peers/soap-peer.ts', '--port', String(port), ...plan.args];
    ready = '/api.asmx?wsdl';
  } else {
    args = ['--import=tsx', 'bench/peers/ceiling.ts', '--port', String(port)];
    ready = '/';
  }
  // stdout (ours: one JSON log line per request, at the default level info) goes to /dev/null.
  const child = spawn(node, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 10_000) stderr += chunk.toString();
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${plan.label} exited at start-up: ${stderr.trim()}`);
    if (await answers(port, ready)) break;
    if (Date.now() > deadline) throw new Error(`${plan.label} did not answer within 20 s: ${stderr.trim()}`);
    await sleep(100);
  }
  // --workers: the port answers once the first worker listens; give the others a moment too.
  if (plan.args.includes('--workers')) await sleep(1500);
  return { child, port, stderr: () => stderr };
}

function answers(port: number, path: string): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const req = get({ host: '127.0.0.1', port, path, timeout: 1000 }, (res) => {
      res.resume();
      resolveAnswer(true);
    });
    req.on('error', () => resolveAnswer(false));
    req.on('timeout', () => {
      req.destroy();
      resolveAnswer(false);
    });
  });
}

async function stop(running: Running, profiled = Boolean(profileDir)): Promise<void> {
  const { child } = running;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    killGroup(child, 'SIGTERM'); // ours finishes in-flight calls and writes its CPU profile
    await Promise.race([exited, sleep(profiled ? 15_000 : 5_000)]);
    killGroup(child, 'SIGKILL');
    await Promise.race([exited, sleep(2_000)]);
  }
  children.delete(child);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The processes of a tree: the server and, with --workers, the workers it forked. */
function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length && i < 1000; i++) {
    for (const [pid, ppid] of parentOf) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}

/** CPU seconds (user + system, all threads) used so far by the process tree. */
function cpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      // ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ
}

/** Peak resident memory (VmHWM, the kernel's high-water mark) per process of the tree, in MB. */
function peakRssPerProcess(root: number): number[] {
  const out: number[] = [];
  for (const pid of processTree(root)) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) out.push(Number(match[1]) / 1024);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

/** Peak resident memory (VmHWM, the kernel's high-water mark), summed over the process tree, in MB. */
function peakRssMb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) kb += Number(match[1]);
    } catch {
      // ended meanwhile
    }
  }
  return kb / 1024;
}

// ---- load --------------------------------------------------------------------

interface Context {
  expect?: Expectation;
}

function cannon(port: number, source: ReturnType<typeof requestSource>, seconds: number, checker?: AnswerChecker): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: SETTINGS.connections,
        pipelining: SETTINGS.pipelining,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (request, context) => {
              const next = source();
              (context as Context).expect = next.expect;
              return { ...request, method: next.request.method, path: next.request.path, headers: next.request.headers, body: next.request.body ?? '' };
            },
            onResponse: checker
              ? (status, body, context) => {
                  const expect = (context as Context).expect;
                  if (expect) checker.check(status, body, expect);
                }
              : undefined,
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolveRun(result)),
    );
    // autocannon stops by itself after `duration`; this is only a guard against a hung run.
    const guard = setTimeout(() => instance.stop(), (seconds + 30) * 1000);
    instance.on('done', () => clearTimeout(guard));
  });
}

/** Before measuring ours: replay protection and throttling are on and work (a handful of calls). */
async function verifyProtections(port: number): Promise<string> {
  const call = (pin: string, secret: string) => sendRequest(`http://127.0.0.1:${port}`, validateRequest('soap11-validate', pin, secret));
  const secret = `verify-${process.pid}-${Date.now()}`;
  const pin = pinFor({ clock: Date }, secret);
  const first = await call(pin, secret);
  const replay = await call(pin, secret);
  if (answeredBoolean(first.body) !== true || answeredBoolean(replay.body) !== false) {
    throw new Error('replay protection check failed: a correct PIN was not answered true once, then false');
  }
  const other = `${secret}-throttle`;
  const wrong = pin === '000000' ? '111111' : '000000';
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await call(wrong, other)).status);
  const sixth = await call(wrong, other);
  if (statuses.some((s) => s !== 200) || sixth.status !== 500 || !sixth.body.includes('Too many failed validations')) {
    throw new Error(`throttling check failed: statuses ${statuses.join(',')},${sixth.status}`);
  }
  return 'a correct PIN was answered true, then false (replay); the 6th wrong PIN for one secret was refused (throttled)';
}

// ---- the run -------------------------------------------------------------------

async function measure(plan: Plan, runTag: string, index: number): Promise<Measurement> {
  const running = await start(plan);
  try {
    let verified: string | undefined;
    if (plan.server === 'ours' && plan.scenario === 'soap11-validate' && plan.args.length === 0) verified = await verifyProtections(running.port);
    const tag = `${runTag}${index.toString(36)}`;
    // Warm-up and measurement draw from one source: no secret is ever reused across them.
    const source = requestSource(plan.scenario, tag);
    await cannon(running.port, source, SETTINGS.warmup);
    const checker = plan.server === 'ceiling' ? undefined : new AnswerChecker(plan.driftWindow);
    const cpuBefore = cpuSeconds(running.child.pid!);
    const loadBefore = process.cpuUsage();
    const result = await cannon(running.port, source, SETTINGS.duration, checker);
    const serverCpu = cpuSeconds(running.child.pid!) - cpuBefore;
    const loadCpu = process.cpuUsage(loadBefore);
    const rss = peakRssMb(running.child.pid!);
    const perProcess = peakRssPerProcess(running.child.pid!);
    const m: Measurement = {
      scenario: plan.scenario,
      server: plan.server,
      label: plan.label,
      rps: result.requests.total / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      socketErrors: result.errors,
      wrongAnswers: checker?.wrong ?? 0,
      checked: checker?.checked ?? 0,
      trues: checker?.trues ?? 0,
      accidentalMatches: checker?.accidentalMatches ?? 0,
      problems: checker?.problems ?? [],
      peakRssMb: rss,
      peakRssPerProcessMb: Math.max(...perProcess),
      processes: perProcess.length,
      serverCpuUsPerRequest: result.requests.total ? (serverCpu * 1e6) / result.requests.total : 0,
      serverCpuShare: serverCpu / result.duration,
      loadGeneratorCpuShare: (loadCpu.user + loadCpu.system) / 1e6 / result.duration,
      verified,
    };
    const errors = m.non2xx + m.socketErrors + m.wrongAnswers;
    console.log(
      `${plan.scenario.padEnd(16)} ${plan.label.padEnd(24)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ` +
        `errors ${errors}  checked ${m.checked}  RSS ${rss.toFixed(0)} MB  server ${m.serverCpuUsPerRequest.toFixed(0)} µs CPU/req (${(m.serverCpuShare * 100).toFixed(0)} % of a core)${m.problems.length ? `  PROBLEMS: ${m.problems.join('; ')}` : ''}`,
    );
    if (errors > 0 && running.stderr()) console.log(`  stderr: ${running.stderr().trim().slice(0, 500)}`);
    return m;
  } finally {
    await stop(running);
  }
}

/** Ours under `node --cpu-prof` for a few seconds of one scenario: the functions with the most self time. */
async function profileOurs(scenario: ScenarioId, runTag: string): Promise<ProfileSummary> {
  const dir = join(PROFILES, scenario);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const plan: Plan = { scenario, server: 'ours', label: 'ours', args: [], driftWindow: 1 };
  const running = await start(plan, dir);
  let rps = 0;
  try {
    const source = requestSource(scenario, `${runTag}p${scenario.length}`);
    await cannon(running.port, source, 1);
    const result = await cannon(running.port, source, Math.min(5, SETTINGS.duration));
    rps = result.requests.total / result.duration;
  } finally {
    await stop(running, true);
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile was written for ${scenario}`);
  console.log(`profiled ours, ${scenario}: ${rps.toFixed(0)} req/s under --cpu-prof; bench/profiles/${scenario}/${file}`);
  return { scenario, file: `bench/profiles/${scenario}/${file}`, rps, top: topSelfTime(join(dir, file), 15) };
}

function machine(): RunInfo['machine'] {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  const cores = (cpuinfo.match(/^processor\s*:/gm) ?? []).length || cpus().length;
  return { cpu: model, cores, memoryGb: totalmem() / 2 ** 30, node: process.version, platform: `${process.platform} ${process.arch}` };
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('dist/ is missing: run `make build` (make bench does)');
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const started = Date.now();
  const loadBefore = loadavg();
  const runTag = Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0');
  const all = plans();
  console.log(
    `bench: ${all.length} measurements, ${SETTINGS.connections} connections, ${SETTINGS.warmup} s warm-up + ${SETTINGS.duration} s each; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const measurements: Measurement[] = [];
  for (const [i, plan] of all.entries()) measurements.push(await measure(plan, runTag, i));
  const profiles: ProfileSummary[] = [];
  if (PROFILE_STEP && !profileDir) {
    for (const scenario of ['soap11-validate', 'soap11-pair'] as ScenarioId[]) {
      if (!onlyScenarios || onlyScenarios.includes(scenario)) profiles.push(await profileOurs(scenario, runTag));
    }
  }
  const info: RunInfo = {
    date: new Date(started).toISOString(),
    machine: machine(),
    settings: SETTINGS,
    loadBefore,
    loadAfter: loadavg(),
    wallSeconds: (Date.now() - started) / 1000,
    subset: Boolean(onlyScenarios || onlyServers),
    profiled: Boolean(profileDir),
  };
  write(info, measurements, profiles);
}

function write(info: RunInfo, measurements: Measurement[], profiles: ProfileSummary[]): void {
  const previous = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const text = renderResults(info, measurements, previous, profiles);
  if (info.subset && process.env.BENCH_WRITE !== '1') {
    console.log('\n(a subset: bench/RESULTS.md left as it was; BENCH_WRITE=1 writes it)\n');
    console.log(text.slice(0, text.indexOf('<!-- soak:start -->')));
  } else {
    writeFileSync(RESULTS, text);
    if (process.env.BENCH_RERENDER !== '1') writeFileSync(RAW, `${JSON.stringify({ info, measurements, profiles }, null, 1)}\n`);
    console.log(`\nwrote bench/RESULTS.md (${info.wallSeconds.toFixed(0)} s)\n`);
    console.log(text.slice(text.indexOf('## Goals'), text.indexOf('## Soak')));
  }
}

/** BENCH_RERENDER=1: RESULTS.md written again from bench/results.json (the same run, e.g. after a change to report.ts). */
async function rerender(): Promise<void> {
  const { info, measurements, profiles } = JSON.parse(readFileSync(RAW, 'utf8')) as { info: RunInfo; measurements: Measurement[]; profiles: ProfileSummary[] };
  write(info, measurements, profiles);
}

(process.env.BENCH_RERENDER === '1' ? rerender() : main()).then(
  () => {
    killAll();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(`bench: ${(error as Error)?.stack ?? error}`);
    killAll();
    process.exit(1);
  },
);
