/**
 * One measurement: a server started fresh, warmed up, then loaded with autocannon (in this process, one thread) for
 * a fixed time while its CPU time and peak RSS are read from /proc and every answer is checked.
 */
import autocannon from 'autocannon';
import { pinFor, sendRequest } from '../test/support/requests';
import { cpuSeconds, peakRssMb, startServer, type Command } from './servers';
import {
  AnswerChecker,
  answeredBoolean,
  requestSource,
  validateRequest,
  type Expectation,
  type Generated,
  type ScenarioId,
} from './workload';

/** ours: the build measured; before: the baseline build, run the same way. */
export type ServerKind = 'ours' | 'before' | 'peer' | 'ceiling';

/** One server of one scenario, as every round measures it: `label` names the server and any non-default setting. */
export interface Plan {
  scenario: ScenarioId;
  server: ServerKind;
  label: string;
  command: Command;
  seconds: number;
}

export type LoadSettings = { connections: number; warmup: number };

export interface Measurement {
  scenario: ScenarioId;
  server: ServerKind;
  label: string;
  /** 0-based round. */
  round: number;
  rps: number;
  p99: number;
  /** Non-2xx answers, socket errors and wrong answers. */
  errors: number;
  checked: number;
  trues: number;
  accidentalMatches: number;
  problems: string[];
  peakRssMb: number;
  /** Server CPU time (all its processes and threads) per answered request, in µs. */
  serverCpuUsPerRequest: number;
  /** Server and load generator CPU time over the measured seconds: 1 = one core busy all the time. */
  serverCpuShare: number;
  loadGeneratorCpuShare: number;
}

/** autocannon against `url` for `seconds`, every request drawn from `source`, its answer checked when a checker is given. */
export function cannon(url: string, source: () => Generated, seconds: number, settings: LoadSettings, checker?: AnswerChecker) {
  return autocannon({
    url,
    connections: settings.connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        setupRequest: (request, context) => {
          const next = source();
          (context as { expect?: Expectation }).expect = next.expect;
          return { ...request, ...next.request, body: next.request.body ?? '' };
        },
        onResponse: checker && ((status, body, context) => checker.check(status, body, (context as { expect: Expectation }).expect)),
      },
    ],
  });
}

/** Before ours is measured: replay protection and throttling are on and work. */
async function verifyProtections(url: string): Promise<void> {
  const call = (pin: string, secret: string) => sendRequest(url, validateRequest('soap11', pin, secret));
  const secret = `verify-${process.pid}-${Date.now()}`;
  const pin = pinFor({ clock: Date }, secret);
  if (answeredBoolean((await call(pin, secret)).body) !== true || answeredBoolean((await call(pin, secret)).body) !== false)
    throw new Error('replay protection check failed: a correct PIN was not answered true once, then false');
  const wrong = pin === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i++) await call(wrong, `${secret}-throttle`);
  const sixth = await call(wrong, `${secret}-throttle`);
  if (sixth.status !== 500 || !sixth.body.includes('Too many failed validations')) throw new Error('throttling check failed');
}

/** The event loops a server command runs: its --workers, else 1. */
export const threadsOf = (argv: string[]) => (argv.includes('--workers') ? Number(argv[argv.indexOf('--workers') + 1]) || 1 : 1);

/** Starts the plan's server, warms it up, measures it, stops it. `tag` keeps its secrets apart from every other measurement's. */
export async function measure(plan: Plan, settings: LoadSettings, round: number, tag: string): Promise<Measurement> {
  const server = await startServer(plan.command);
  try {
    if (plan.label === 'ours' && plan.scenario === 'soap11-validate') await verifyProtections(server.url);
    // Warm-up and measurement draw from one source: no secret is reused across them.
    const source = requestSource(plan.scenario, tag);
    // Every event loop gets the same warm-up: each of N threads has a JIT of its own and sees 1/N of the requests.
    await cannon(server.url, source, settings.warmup * threadsOf(plan.command.argv), settings);
    const checker = plan.server === 'ceiling' ? undefined : new AnswerChecker();
    const cpuBefore = cpuSeconds(server.pid);
    const loadBefore = process.cpuUsage();
    const result = await cannon(server.url, source, plan.seconds, settings, checker);
    const serverCpu = cpuSeconds(server.pid) - cpuBefore;
    const loadCpu = process.cpuUsage(loadBefore);
    const m: Measurement = {
      scenario: plan.scenario,
      server: plan.server,
      label: plan.label,
      round,
      rps: result.requests.total / result.duration,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors + (checker?.wrong ?? 0),
      checked: checker?.checked ?? 0,
      trues: checker?.trues ?? 0,
      accidentalMatches: checker?.accidentalMatches ?? 0,
      problems: checker?.problems ?? [],
      peakRssMb: peakRssMb(server.pid),
      serverCpuUsPerRequest: result.requests.total ? (serverCpu * 1e6) / result.requests.total : 0,
      serverCpuShare: serverCpu / result.duration,
      loadGeneratorCpuShare: (loadCpu.user + loadCpu.system) / 1e6 / result.duration,
    };
    console.log(
      `round ${round + 1} ${plan.scenario.padEnd(22)} ${plan.label.padEnd(22)} ${m.rps.toFixed(0).padStart(6)} req/s  p99 ${m.p99} ms  ` +
        `errors ${m.errors}  RSS ${m.peakRssMb.toFixed(0)} MB  ${m.serverCpuUsPerRequest.toFixed(0)} µs CPU/req ${m.problems.join('; ')}`,
    );
    if (m.errors > 0) console.log(`  output: ${server.output().trim().slice(-500)}`);
    return m;
  } finally {
    await server.stop();
  }
}
