/**
 * Ours (the build in dist/) under Linux perf: started with
 * `node --perf-basic-prof` (so that perf can name JIT-compiled JavaScript),
 * warmed up, then sampled with `perf record -F 999 -g -p PID` while the
 * bench's load runs; `perf script` turns the samples into call chains that
 * bench/perf-stages.ts puts into stages. Everything perf writes stays in a
 * temporary folder, removed afterwards, with the /tmp/perf-PID.map node wrote.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cannon, type LoadSettings } from './measure';
import { parsePerfScript, stageReport, type StageReport } from './perf-stages';
import { builtService, cpuSeconds, ROOT, startServer } from './servers';
import { AnswerChecker, requestSource, type ScenarioId } from './workload';

/** Past the JIT's first optimisations, so that compiling is not what the profile shows. */
const WARMUP_SECONDS = 5;
const RECORD_SECONDS = 8;
const FREQUENCY = 999;

export interface StageProfile {
  scenario: ScenarioId;
  seconds: number;
  rps: number;
  /** Server CPU per request while sampled (perf costs a little). */
  cpuUsPerRequest: number;
  errors: number;
  report: StageReport;
}

/** Throws, naming the Debian package, when perf cannot run. */
export function requirePerf(): void {
  const probe = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'the profiling step needs Linux perf, which is not installed or does not run here: install the Debian package linux-perf ' +
        '(apt-get install linux-perf), or set BENCH_PROFILES=0 to skip the profiling step',
    );
  }
}

export async function profileStages(
  scenario: ScenarioId,
  settings: LoadSettings,
  tag: string,
  oursArgs: string[] = [],
): Promise<StageProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'pin-bench-perf-'));
  const data = join(dir, 'perf.data');
  const server = await startServer(builtService('ours', ROOT, oursArgs, ['--perf-basic-prof']));
  const map = `/tmp/perf-${server.pid}.map`;
  try {
    const source = requestSource(scenario, tag);
    await cannon(server.url, source, WARMUP_SECONDS, settings);
    const checker = new AnswerChecker(1);
    const cpuBefore = cpuSeconds(server.pid);
    // The load runs a little longer than the recording on both sides, so that every sample is under load.
    const load = cannon(server.url, source, RECORD_SECONDS + 2, settings, checker);
    await sleep(500);
    const record = spawn(
      'perf',
      ['record', '-F', String(FREQUENCY), '-g', '-p', String(server.pid), '-o', data, '--', 'sleep', String(RECORD_SECONDS)],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let recordErrors = '';
    record.stderr!.on('data', (d: Buffer) => (recordErrors += d.toString()));
    const recorded = new Promise<number | null>((resolve) => record.once('exit', (code) => resolve(code)));
    const result = await load;
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    if ((await recorded) !== 0) throw new Error(`perf record failed: ${recordErrors.trim()}`);
    await server.stop();
    // perf script reads the JavaScript symbols from the map node wrote while it ran.
    const text = join(dir, 'perf.txt');
    const out = openSync(text, 'w');
    const script = spawnSync('perf', ['script', '-i', data], { stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
    closeSync(out);
    if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr.trim()}`);
    const report = stageReport(parsePerfScript(readFileSync(text, 'utf8')));
    const profile: StageProfile = {
      scenario,
      seconds: RECORD_SECONDS,
      rps: result.requests.total / result.duration,
      cpuUsPerRequest: result.requests.total ? (cpu * 1e6) / result.requests.total : 0,
      errors: result.non2xx + result.errors + checker.wrong,
      report,
    };
    console.log(
      `perf: ${scenario}, ${report.samples} samples, ${profile.rps.toFixed(0)} req/s, ${profile.cpuUsPerRequest.toFixed(0)} µs CPU/req under perf; ` +
        report.stages.map((s) => `${s.stage} ${(s.share * 100).toFixed(1)} %`).join(', '),
    );
    return profile;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(map, { force: true });
  }
}
