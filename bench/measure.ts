/**
 * One measurement: a server started fresh, warmed up, then loaded with
 * autocannon (in this process, one thread) for a fixed time while its CPU
 * time and peak RSS are read from /proc and every answer is checked.
 */
import autocannon from 'autocannon';
import { pinFor, sendRequest } from '../test/support/requests';
import { cpuSeconds, peakRssPerProcessMb, startServer, type Command } from './servers';
import { AnswerChecker, answeredBoolean, requestSource, validateRequest, type Expectation, type ScenarioId } from './workload';

/** ours: this checkout's build; before: the baseline revision's build, run the same way. */
export type ServerKind = 'ours' | 'before' | 'peer' | 'ceiling';

/** One server of one scenario, as every round measures it. */
export interface Plan {
  scenario: ScenarioId;
  server: ServerKind;
  /** Row label: the server and any non-default setting. */
  label: string;
  command: Command;
  /** The drift window the server runs with, for re-checking a "wrong" PIN that was answered true. */
  driftWindow: number;
  /** Measured seconds (after the warm-up). */
  seconds: number;
}

export interface LoadSettings {
  connections: number;
  warmup: number;
  pipelining: number;
}

export interface Measurement {
  scenario: ScenarioId;
  server: ServerKind;
  label: string;
  /** 0-based round, and the position in the round among this scenario's servers. */
  round: number;
  order: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  socketErrors: number;
  wrongAnswers: number;
  checked: number;
  trues: number;
  accidentalMatches: number;
  problems: string[];
  peakRssMb: number;
  /** The largest peak of one process (with --workers: of the primary or one worker). */
  peakRssPerProcessMb: number;
  processes: number;
  /** Server CPU time (all its processes and threads) per answered request, in µs. */
  serverCpuUsPerRequest: number;
  /** Server CPU time over the measured seconds: 1 = one core busy all the time. */
  serverCpuShare: number;
  loadGeneratorCpuShare: number;
  verified?: string;
}

export const errorsOf = (m: Measurement) => m.non2xx + m.socketErrors + m.wrongAnswers;

interface Context {
  expect?: Expectation;
}

/** autocannon against `url` (http:// or https://, connections kept alive) for `seconds`, every request drawn from `source`, its answer checked when a checker is given. */
export function cannon(
  url: string,
  source: ReturnType<typeof requestSource>,
  seconds: number,
  settings: LoadSettings,
  checker?: AnswerChecker,
): Promise<autocannon.Result> {
  return new Promise((resolveRun, reject) => {
    const instance = autocannon(
      {
        url,
        connections: settings.connections,
        pipelining: settings.pipelining,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (request, context) => {
              const next = source();
              (context as Context).expect = next.expect;
              return {
                ...request,
                method: next.request.method,
                path: next.request.path,
                headers: next.request.headers,
                body: next.request.body ?? '',
              };
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
async function verifyProtections(url: string): Promise<string> {
  const call = (pin: string, secret: string) => sendRequest(url, validateRequest('soap11-validate', pin, secret));
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

/** Starts the plan's server, warms it up, measures it, stops it. `tag` keeps its secrets apart from every other measurement's. */
export async function measure(plan: Plan, settings: LoadSettings, round: number, order: number, tag: string): Promise<Measurement> {
  const server = await startServer(plan.command);
  try {
    const defaults = plan.label === 'ours' || plan.label === 'ours (before)';
    const verified = defaults && plan.scenario === 'soap11-validate' ? await verifyProtections(server.url) : undefined;
    // Warm-up and measurement draw from one source: no secret is ever reused across them.
    const source = requestSource(plan.scenario, tag, plan.driftWindow);
    // Every event loop gets the same warm-up: with --workers N, each thread sees 1/N of the requests, and its JIT (its
    // own, one per isolate) needs N times as long to see as many as one process does.
    await cannon(server.url, source, settings.warmup * threadsOf(plan.command.argv), settings);
    const checker = plan.server === 'ceiling' ? undefined : new AnswerChecker(plan.driftWindow);
    const cpuBefore = cpuSeconds(server.pid);
    const loadBefore = process.cpuUsage();
    const result = await cannon(server.url, source, plan.seconds, settings, checker);
    const serverCpu = cpuSeconds(server.pid) - cpuBefore;
    const loadCpu = process.cpuUsage(loadBefore);
    const perProcess = peakRssPerProcessMb(server.pid);
    const m: Measurement = {
      scenario: plan.scenario,
      server: plan.server,
      label: plan.label,
      round,
      order,
      seconds: plan.seconds,
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
      peakRssMb: perProcess.reduce((a, b) => a + b, 0),
      peakRssPerProcessMb: Math.max(...perProcess),
      processes: perProcess.length,
      serverCpuUsPerRequest: result.requests.total ? (serverCpu * 1e6) / result.requests.total : 0,
      serverCpuShare: serverCpu / result.duration,
      loadGeneratorCpuShare: (loadCpu.user + loadCpu.system) / 1e6 / result.duration,
      verified,
    };
    const errors = errorsOf(m);
    console.log(
      `round ${round + 1} ${plan.scenario.padEnd(22)} ${plan.label.padEnd(24)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  ` +
        `errors ${errors}  checked ${m.checked}  RSS ${m.peakRssMb.toFixed(0)} MB  server ${m.serverCpuUsPerRequest.toFixed(0)} µs CPU/req (${(m.serverCpuShare * 100).toFixed(0)} % of a core)` +
        `${m.problems.length ? `  PROBLEMS: ${m.problems.join('; ')}` : ''}`,
    );
    if (errors > 0 && server.output()) console.log(`  output: ${server.output().trim().slice(-500)}`);
    return m;
  } finally {
    await server.stop();
  }
}

/** The event loops a server command runs: its --workers, else 1. */
export function threadsOf(argv: string[]): number {
  const at = argv.indexOf('--workers');
  return at < 0 ? 1 : Number(argv[at + 1]) || 1;
}
