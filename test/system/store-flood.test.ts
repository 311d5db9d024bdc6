/**
 * A flood of made-up secrets against the built service (dist/, as users run
 * it) with its default embedded store (100 000 entries): 200 000 HTTP GET
 * ValidatePin calls, each with a new secret and a wrong PIN, on loopback,
 * bounded in time. Before it a secret is locked (five wrong PINs) and a PIN
 * accepted; after it the lock must still hold and the PIN must still be a
 * replay, the eviction metrics must say that only unprotective records went,
 * and the service's CPU per call must stay flat from the first third of the
 * flood to the last (the store costs the same full as empty).
 *
 * This machine is shared, and the service's CPU per call moves by up to
 * 1.8× for stretches of ten seconds or more with nothing in the service
 * changing (seen here with the request log on and off). So the flood is
 * measured against a control: a second service, the same but with room for
 * every secret (its store never evicts), gets the same calls with other
 * made-up secrets, in chunks that alternate with the flooded service's, a
 * second or so apart. Each chunk's CPU is the flooded service's ÷ the
 * control's; a third of the flood is the median of its ten chunks, and the
 * last third (the store full, evicting on every call) may cost at most 1.3×
 * the first (the store filling, as the control's does throughout).
 *
 * The request log is off (`--log-level warn`: a store-full warning would
 * still show), so that this test, the reader of both services' output,
 * does not read 400 000 request lines besides making the calls.
 *
 * The drift window is 10 steps (±5 minutes) so that the accepted PIN is
 * still inside the window after the flood: refused then, it is refused as a
 * replay, not as a PIN of a step gone by.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { startChildService, type ChildService } from '../support/child-service';
import { pinFor } from '../support/requests';

const FLOOD = 200_000;
const WARM_UP = 10_000;
const CONNECTIONS = 32;
const DEADLINE_MS = 300_000;
const DRIFT_WINDOW = 10;

/** Chunks of calls per third of the flood (each measured on both services). */
const CHUNKS_PER_THIRD = 10;
/** The control's store holds every secret of the warm-up and the flood, so it never evicts. */
const CONTROL_ENTRIES = 1_000_000;

let service: ChildService;
let control: ChildService;
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

test.before(async () => {
  const args = ['--drift-window', String(DRIFT_WINDOW), '--log-level', 'warn', '--metrics-on-public-port'];
  service = await startChildService({ built: true, args, keepOutputChars: 1_000_000 });
  control = await startChildService({ built: true, args: [...args, '--store-max-entries', String(CONTROL_ENTRIES)] });
});

test.after.always(async () => {
  agent.destroy();
  await service?.kill();
  await control?.kill();
});

function get(target: ChildService, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: target.port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end();
  });
}

const validateAt = (target: ChildService, pin: string, secret: string) =>
  get(target, `/api.asmx/ValidatePin?pin=${pin}&secretCode=${encodeURIComponent(secret)}`);
const validate = (pin: string, secret: string) => validateAt(service, pin, secret);
const pinOf = (secret: string) => pinFor({ clock: Date }, secret);
const wrongPinOf = (secret: string) => (pinOf(secret) === '000000' ? '000001' : '000000');

/** CPU time (user + system) of a service's process so far, in clock ticks (Linux /proc). */
function cpuTicks(target: ChildService): number {
  const stat = readFileSync(`/proc/${target.child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * `count` calls to `target`, each with a new made-up secret (`prefix` and a
 * number from `first` on) and a wrong PIN, `CONNECTIONS` at a time, before
 * `deadline`; the statuses of the answers are counted into `statuses`.
 * Returns the CPU ticks `target` spent meanwhile.
 */
async function calls(
  target: ChildService,
  prefix: string,
  first: number,
  count: number,
  deadline: number,
  statuses: Map<number, number>,
): Promise<number> {
  const before = cpuTicks(target);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      if (Date.now() > deadline) throw new Error(`the flood did not finish in time (${prefix}${first + next})`);
      const secret = `${prefix}${first + next++}`;
      const { status } = await validateAt(target, wrongPinOf(secret), secret);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return cpuTicks(target) - before;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function metric(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  if (!found) throw new Error(`no ${line} in /metrics`);
  return Number(found.slice(line.length + 1));
}

test('200 000 made-up secrets: the locked secret stays locked, the accepted PIN stays a replay, only unprotective records are evicted, CPU per call stays flat', async (t) => {
  t.timeout(DEADLINE_MS + 60_000);
  const deadline = Date.now() + DEADLINE_MS;
  const locked = 'flood-locked-secret';
  for (let i = 0; i < 5; i++) t.regex((await validate(wrongPinOf(locked), locked)).body, />false</);
  t.is((await validate(pinOf(locked), locked)).status, 429, 'the sixth call is refused');
  const accepted = 'flood-accepted-secret';
  const acceptedPin = pinOf(accepted);
  t.regex((await validate(acceptedPin, accepted)).body, />true</);

  // Both services compile their hot path before anything is measured.
  const statuses = new Map<number, number>();
  const controlStatuses = new Map<number, number>();
  await calls(service, 'flood-made-up-secret-', 0, WARM_UP, deadline, statuses);
  await calls(control, 'control-made-up-secret-', 0, WARM_UP, deadline, controlStatuses);

  // The flood, in chunks that alternate between the flooded service and the control.
  const chunk = Math.ceil(FLOOD / (3 * CHUNKS_PER_THIRD));
  const floodCalls = chunk * 3 * CHUNKS_PER_THIRD; // 200 010
  const ratios: number[] = [];
  const flooded: number[] = [];
  for (let i = 0; i < 3 * CHUNKS_PER_THIRD; i++) {
    const first = WARM_UP + i * chunk;
    const ticks = await calls(service, 'flood-made-up-secret-', first, chunk, deadline, statuses);
    const controlTicks = await calls(control, 'control-made-up-secret-', first, chunk, deadline, controlStatuses);
    flooded.push(ticks);
    ratios.push(ticks / Math.max(1, controlTicks));
  }
  t.deepEqual([...statuses.keys()], [200], 'every call of the flood was answered 200');
  t.deepEqual([...controlStatuses.keys()], [200], 'every call to the control was answered 200');

  t.is((await validate(pinOf(locked), locked)).status, 429, 'still locked after the flood');
  const replay = await validate(acceptedPin, accepted);
  t.is(replay.status, 200);
  t.regex(replay.body, />false</, 'the accepted PIN is still refused as a replay');

  const metrics = (await get(service, '/metrics')).body;
  t.is(metric(metrics, 'pin_store_entries'), 100_000);
  t.is(metric(metrics, 'pin_store_evictions_total{kind="protective"}'), 0);
  // Every call but the two protective records' made one entry; a made-up PIN that happens to be right (one in 50 000
  // per secret with this window) makes a replay record, which stays: so at least this many went.
  t.true(metric(metrics, 'pin_store_evictions_total{kind="unprotective"}') >= WARM_UP + floodCalls - 100_000);
  t.is(metric(metrics, 'pin_store_refusals_total'), 0);
  t.false(service.output().includes('"event":"store-full"'), 'nothing protective was at risk: no warning');
  const controlMetrics = (await get(control, '/metrics')).body;
  t.is(metric(controlMetrics, 'pin_store_entries'), WARM_UP + floodCalls, 'the control held every secret');
  t.is(metric(controlMetrics, 'pin_store_evictions_total{kind="unprotective"}'), 0, 'the control evicted nothing');

  const perThird = [0, 1, 2].map((third) => median(ratios.slice(third * CHUNKS_PER_THIRD, (third + 1) * CHUNKS_PER_THIRD)));
  t.log(`flooded service's CPU per chunk of ${chunk} calls, in clock ticks: ${flooded.join(' ')}`);
  t.log(`÷ the control's, per chunk: ${ratios.map((r) => r.toFixed(2)).join(' ')}`);
  t.log(
    `median of each third: ${perThird.map((r) => r.toFixed(2)).join(', ')} (the first third fills the store, the last evicts on every call)`,
  );
  t.true(
    perThird[2] <= 1.3 * perThird[0],
    `the last third cost ${perThird[2].toFixed(2)}× the control, the first ${perThird[0].toFixed(2)}×`,
  );
});
