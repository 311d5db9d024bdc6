/**
 * Ours (the build in dist/) under Linux perf: started with `node --perf-basic-prof` (so that perf can name
 * JIT-compiled JavaScript), warmed up, then sampled with `perf record -F 999 -g -p PID` under the bench's load;
 * `perf script` turns the samples into call chains that stages.ts puts into stages. What perf writes stays in a
 * temporary folder, removed afterwards with the /tmp/perf-PID.map node wrote.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cannon, type LoadSettings } from '../measure';
import { builtService, cpuSeconds, ROOT, startServer } from '../servers';
import { requestSource, type ScenarioId } from '../workload';
import { parsePerfScript, stageReport, type StageReport } from './stages';

/** Past the JIT's first optimisations, so that compiling is not what the profile shows. */
const WARMUP_SECONDS = 5;
const RECORD_SECONDS = 8;

export interface StageProfile {
  scenario: ScenarioId;
  seconds: number;
  rps: number;
  /** Server CPU per request while sampled (perf costs a little). */
  cpuUsPerRequest: number;
  report: StageReport;
}

/** Throws, naming the Debian package, when perf cannot run. */
export function requirePerf(): void {
  const probe = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new Error('the profiling step needs Linux perf: apt-get install linux-perf, or BENCH_PROFILES=0 to leave the step out');
}

export async function profileStages(scenario: ScenarioId, settings: LoadSettings, tag: string): Promise<StageProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'pin-bench-perf-'));
  const data = join(dir, 'perf.data');
  const server = await startServer(builtService('ours', ROOT, [], ['--perf-basic-prof']));
  try {
    const source = requestSource(scenario, tag);
    await cannon(server.url, source, WARMUP_SECONDS, settings);
    const cpuBefore = cpuSeconds(server.pid);
    // The load runs a little longer than the recording on both sides, so that every sample is under load.
    const load = cannon(server.url, source, RECORD_SECONDS + 2, settings);
    await sleep(500);
    const args = ['record', '-F', '999', '-g', '-p', String(server.pid), '-o', data, '--', 'sleep', String(RECORD_SECONDS)];
    const record = spawn('perf', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let recordErrors = '';
    record.stderr!.on('data', (d: Buffer) => (recordErrors += d.toString()));
    const recorded = new Promise<number | null>((resolve) => record.once('exit', resolve));
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
    const rps = result.requests.total / result.duration;
    const cpuUsPerRequest = result.requests.total ? (cpu * 1e6) / result.requests.total : 0;
    console.log(`perf: ${scenario}, ${report.samples} samples, ${cpuUsPerRequest.toFixed(0)} µs CPU/req under perf`);
    return { scenario, seconds: RECORD_SECONDS, rps, cpuUsPerRequest, report };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(`/tmp/perf-${server.pid}.map`, { force: true });
  }
}
