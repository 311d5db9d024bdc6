/**
 * `make soak`: a steady, mixed load on the service running as a child
 * process, built, as users run it (`node dist/src/main.js`, embedded store;
 * `make soak` builds it first), for a few
 * minutes: Pair and ValidatePin over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP
 * POST, the plain pages, QR codes, health and metrics scrapes. Secrets are
 * drawn from a pool large enough that replay protection and throttling do
 * work (right, wrong and replayed PINs) without most answers being 429.
 *
 * Samples the child's RSS every second and compares the first minute after
 * a warm-up (SOAK_WARMUP, default 180 s: JIT, heap sizing, the store filling,
 * and the C allocator's heap reaching its level under XML load, which takes
 * about three minutes at 300 requests/s)
 * with the last minute. V8's young generation is fixed at two 8 MiB
 * semi-spaces (YOUNG_GENERATION): by default V8 grows and shrinks it with
 * the allocation rate (a semi-space of 4, 8 or 16 MiB), and each step moved
 * RSS by about 11 MiB in one second, up or down, with the heap in use flat
 * (a 17 % "growth" in one run, 1 % in the next): that is V8's sizing, not a
 * leak, and it hid whether anything else grew. Bounded either way (V8 caps
 * it), so fixing it changes no answer.
 *
 * Counts unexpected errors (transport errors, statuses a call
 * should not get, a wrong PIN accepted, a PIN accepted twice). Writes its
 * figures between `<!-- soak:start -->` and `<!-- soak:end -->` in
 * bench/RESULTS.md (only there: the rest of that file belongs to the
 * benchmark). Exits 1 when an unexpected error happened or RSS grew by
 * RSS_GROWTH_LIMIT (5 %) or more.
 *
 * Settings: SOAK_SECONDS (default 540), SOAK_WARMUP (180, at most a third of SOAK_SECONDS), SOAK_RATE (requests per second,
 * default 300), SOAK_SECRETS (pool size, default 10000), SOAK_RESULTS (the
 * file to write, default bench/RESULTS.md; `-` for none).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VARIANTS, type OperationName } from '../generated/routes';
import type { Variant } from '../src/runtime/definition';
import { totp } from '../src/otp/totp';
import { builtService, ROOT, startServer, type Server } from './servers';
import { DEFAULT_TOTP, buildRequest, isSoap, type OutgoingRequest } from '../test/support/requests';
import { SOAP_CONTENT_TYPES } from '../test/support/xml-assertions';

const START = '<!-- soak:start -->';
const END = '<!-- soak:end -->';

const setting = (name: string, fallback: number) => {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new Error(`${name} must be a positive whole number`);
  return Number(text);
};

const SECONDS = setting('SOAK_SECONDS', 540);
const WARMUP = Math.min(setting('SOAK_WARMUP', 180), Math.floor(SECONDS / 3));
const RATE = setting('SOAK_RATE', 300);
const SECRETS = setting('SOAK_SECRETS', 10_000);
const MAX_IN_FLIGHT = 128;
const RESULTS = process.env.SOAK_RESULTS ?? join(__dirname, 'RESULTS.md');
/**
 * RSS may grow by less than this from the first to the last minute. It runs in CI, where a limit that a healthy
 * service crosses now and then would fail builds. The built service grew by 1.0 % and 0.8 % in two default runs
 * (540 s) on a shared, loaded machine, so 5 % leaves room; under tsx (before the soak ran the build) growth was
 * 3.6–6.4 %, which is why the limit had been 10 %.
 */
const RSS_GROWTH_LIMIT = 0.05;
/** Node flags of the service: the young generation at one fixed size (see the header). */
const YOUNG_GENERATION = ['--min-semi-space-size=8', '--max-semi-space-size=8'];

interface Call extends Pick<OutgoingRequest, 'method' | 'path' | 'body'> {
  label: string;
  headers?: Record<string, string>;
  /** Statuses this call may get; anything else is an unexpected error. */
  expect: number[];
  /** For ValidatePin: how the answer is checked. */
  pin?: { secret: string; step: number; kind: 'right' | 'wrong' | 'replay' };
}

const secretOf = (n: number) => `soak-secret-${String(n).padStart(6, '0')}-xyzw`;
const pinAt = (secret: string, step: number) => totp(Buffer.from(secret), DEFAULT_TOTP, step * DEFAULT_TOTP.period);

/** A PIN that is no step's PIN within two steps of `step` (so never inside the drift window). */
function wrongPin(secret: string, step: number): string {
  const near = new Set([-2, -1, 0, 1, 2].map((d) => pinAt(secret, step + d)));
  for (let k = 1; ; k++) {
    const candidate = String((Number(pinAt(secret, step)) + k * 100_003) % 1_000_000).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

function operationCall(variant: Variant, operation: OperationName, fields: Record<string, string>, expect: number[]): Call {
  // SOAP 1.2 without the optional action parameter, as the README's SOAP 1.2 example sends it.
  const request = buildRequest(variant, operation, fields, variant === 'soap12' ? { contentType: SOAP_CONTENT_TYPES['1.2'] } : {});
  // A throttled secret is a SOAP fault, HTTP 500, instead of 429.
  return { label: `${operation} ${variant}`, ...request, expect: isSoap(variant) ? expect.map((s) => (s === 429 ? 500 : s)) : expect };
}

/** A deterministic mix: 55 % ValidatePin, 25 % Pair, the rest pages, QR codes, health and metrics. */
function nextCall(n: number, recentlyAccepted: { secret: string; step: number }[]): Call {
  const variant = VARIANTS[n % 4];
  const r = (n * 7919) % 100;
  let secret = secretOf((n * 2654435761) % SECRETS);
  let step = Math.floor(Date.now() / 1000 / DEFAULT_TOTP.period);
  if (r < 55) {
    const kind = r < 30 ? 'right' : r < 45 ? 'wrong' : 'replay';
    // A replay sends again a PIN the service accepted a moment ago (it must now say false).
    const again = kind === 'replay' ? recentlyAccepted[n % Math.max(1, recentlyAccepted.length)] : undefined;
    if (again) ({ secret, step } = again);
    const right = pinAt(secret, step);
    const pin = kind === 'wrong' ? wrongPin(secret, step) : right;
    // A secret throttled by earlier wrong PINs answers 429 (a SOAP fault, 500) until its window ends.
    const call = operationCall(variant, 'ValidatePin', { pin, secretCode: secret }, [200, 429]);
    return { ...call, pin: { secret, step, kind } };
  }
  if (r < 80) return operationCall(variant, 'Pair', { appName: 'Soak', appInfo: `user${n % 1000}@example.com`, secretCode: secret }, [200]);
  if (r < 86)
    return {
      label: 'pair.aspx',
      method: 'GET',
      path: `/pair.aspx?AppName=Soak&AppInfo=u%40example.com&SecretCode=${secret}`,
      expect: [200],
    };
  if (r < 92) return { label: 'Validate.aspx', method: 'GET', path: `/Validate.aspx?Pin=000000&SecretCode=${secret}x`, expect: [200, 429] };
  if (r < 96) return { label: 'qr.aspx', method: 'GET', path: `/qr.aspx?size=200x200&data=soak-${n % 50}`, expect: [200] };
  if (r < 99) return { label: 'healthz', method: 'GET', path: '/healthz', expect: [200] };
  return { label: 'readyz', method: 'GET', path: '/readyz', expect: [200] };
}

interface Answer {
  status: number;
  body: string;
  ms: number;
}

function send(port: number, agent: Agent, call: Call): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const body = call.body === undefined ? undefined : Buffer.from(call.body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: call.method,
        path: call.path,
        agent,
        headers: { ...call.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1'), ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!kb) throw new Error('no VmRSS in /proc/PID/status');
  return Number(kb[1]) * 1024;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('dist/ is missing: run `make build` (make soak does)');
  const service: Server = await startServer(
    builtService('service', ROOT, ['--log-level', 'info', '--metrics-on-public-port'], YOUNG_GENERATION),
  );
  // fifo: every pooled connection is used in turn, so none sits idle until the service's keep-alive timeout closes it
  // just as a request is written on it (a read ECONNRESET the service is not to blame for, seen on a loaded machine).
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT, scheduling: 'fifo' });
  const pid = service.pid;
  const rss: { t: number; bytes: number }[] = [];
  const latencies: number[] = [];
  const byStatus: Record<string, number> = {};
  const byOutcome: Record<string, number> = { right: 0, wrong: 0, replay: 0, accepted: 0, refused: 0, throttled: 0, replayRefused: 0 };
  const unexpected: string[] = [];
  const accepted = new Map<string, number>(); // secret|step → trues
  const recentlyAccepted: { secret: string; step: number }[] = [];
  let acceptedCount = 0;
  let sent = 0;
  let skipped = 0;
  let inFlight = 0;
  const started = Date.now();
  const endAt = started + SECONDS * 1000;
  console.log(`soak: ${SECONDS} s at ${RATE} requests/s over ${SECRETS} secrets, service pid ${pid}`);

  const sampler = setInterval(() => {
    try {
      rss.push({ t: Date.now() - started, bytes: rssOf(pid) });
    } catch {
      /* the child is gone: reported below */
    }
  }, 1000);
  // The V8 heap and memory outside it (libxml2's documents among it), from the service's own metrics.
  const heap: { t: number; used: number; external: number }[] = [];
  const gauge = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  const heapSampler = setInterval(() => {
    fetch(`${service.url}/metrics`)
      .then((r) => r.text())
      .then(
        (text) =>
          heap.push({
            t: Date.now() - started,
            used: gauge(text, 'pin_nodejs_heap_size_used_bytes'),
            external: gauge(text, 'pin_nodejs_external_memory_bytes'),
          }),
        () => {},
      );
  }, 5000);
  const progress = setInterval(() => {
    const last = rss[rss.length - 1];
    const h = heap[heap.length - 1];
    console.log(
      `soak: ${Math.round((Date.now() - started) / 1000)} s, ${sent} sent, ${unexpected.length} unexpected, RSS ${last ? mib(last.bytes) : '?'}` +
        (h ? `, heap used ${mib(h.used)}, external ${mib(h.external)}` : ''),
    );
  }, 15_000);

  const handle = (call: Call, answer: Answer) => {
    latencies.push(answer.ms);
    byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    if (!call.expect.includes(answer.status)) {
      unexpected.push(`${call.label}: status ${answer.status} ${answer.body.slice(0, 200)}`);
      return;
    }
    if (!call.pin) return;
    byOutcome[call.pin.kind]++;
    if (answer.status !== 200) {
      if (!/[Tt]oo many failed/.test(answer.body))
        unexpected.push(`${call.label}: ${answer.status} without a throttling answer: ${answer.body.slice(0, 200)}`);
      byOutcome.throttled++;
      return;
    }
    const isTrue = />true</.test(answer.body);
    if (!isTrue && !/>false</.test(answer.body)) unexpected.push(`${call.label}: no boolean in ${answer.body.slice(0, 200)}`);
    byOutcome[isTrue ? 'accepted' : 'refused']++;
    if (isTrue && call.pin.kind === 'wrong') unexpected.push(`${call.label}: a wrong PIN was accepted`);
    if (!isTrue && call.pin.kind === 'replay') byOutcome.replayRefused++;
    if (isTrue) {
      // The answer may belong to the step before or after (the drift window): key by the PIN's own step.
      recentlyAccepted[acceptedCount++ % 64] = { secret: call.pin.secret, step: call.pin.step };
      const key = `${call.pin.secret}|${call.pin.step}`;
      accepted.set(key, (accepted.get(key) ?? 0) + 1);
      if (accepted.get(key)! > 1) unexpected.push(`${call.label}: a PIN was accepted twice`);
    }
  };

  // Ticks of 20 ms, each sending its share of the rate; a call that would exceed MAX_IN_FLIGHT is skipped (and counted).
  const tickMs = 20;
  let due = 0;
  let n = 0;
  const pending = new Set<Promise<void>>();
  while (Date.now() < endAt && service.alive()) {
    due += (RATE * tickMs) / 1000;
    while (due >= 1) {
      due--;
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
        continue;
      }
      const call = nextCall(n++, recentlyAccepted);
      sent++;
      inFlight++;
      const p: Promise<void> = send(service.port, agent, call)
        .then(
          (answer) => handle(call, answer),
          (error: Error) => void unexpected.push(`${call.label}: ${error.message}`),
        )
        .finally(() => {
          inFlight--;
          pending.delete(p);
        });
      pending.add(p);
    }
    await sleep(tickMs);
  }
  await Promise.race([Promise.all(pending), sleep(15_000)]);
  clearInterval(sampler);
  clearInterval(heapSampler);
  clearInterval(progress);
  const alive = service.alive();
  const metrics = alive
    ? await fetch(`${service.url}/metrics`).then(
        (r) => r.text(),
        () => '',
      )
    : '';
  agent.destroy();
  await service.stop();
  if (!alive) unexpected.push(`the service died: ${service.output().slice(-1000)}`);

  const elapsed = (Date.now() - started) / 1000;
  // The first minute after the warm-up (JIT, heap sizing, the store filling) against the last minute.
  const measured = SECONDS * 1000 - WARMUP * 1000;
  const window = Math.min(60_000, measured / 2);
  const first = rss.filter((s) => s.t >= WARMUP * 1000 && s.t < WARMUP * 1000 + window).map((s) => s.bytes);
  const last = rss.filter((s) => s.t >= SECONDS * 1000 - window).map((s) => s.bytes);
  const growth = (average(last) - average(first)) / average(first);
  const sorted = [...latencies].sort((a, b) => a - b);
  const heapIn = (from: number, to: number) => heap.filter((h) => h.t >= from && h.t < to && Number.isFinite(h.used)).map((h) => h.used);
  const peak = Math.max(...rss.map((s) => s.bytes));
  const served = Number(
    /^pin_requests_total\{[^}]*\} /m.test(metrics)
      ? metrics
          .split('\n')
          .filter((l) => l.startsWith('pin_requests_total{'))
          .reduce((a, l) => a + Number(l.split(' ').pop()), 0)
      : 0,
  );
  const ok = unexpected.length === 0 && growth < RSS_GROWTH_LIMIT && alive;
  const windowLabel = window === 60_000 ? 'minute' : `${Math.round(window / 1000)} s`;
  const firstLabel = `${windowLabel} after a ${WARMUP} s warm-up`;

  const date = new Date().toISOString().slice(0, 10);
  const figures = [
    `### Soak (\`make soak\`, ${date})`,
    '',
    `${Math.round(elapsed)} s at ${RATE} requests/s (${sent} requests, ${skipped} skipped by the client for too many in flight), ` +
      `mixed over SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST, the plain pages, QR codes and health checks; ` +
      `${SECRETS} secrets; embedded store; one process, the built service (\`node ${YOUNG_GENERATION.join(' ')} dist/src/main.js\`: V8's young generation at one size), its log read through a pipe, on ${process.platform}, Node ${process.version}.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| unexpected errors | ${unexpected.length} |`,
    `| RSS, first ${firstLabel} (mean) | ${mib(average(first))} |`,
    `| RSS, last ${windowLabel} (mean) | ${mib(average(last))} |`,
    `| RSS growth, first to last ${windowLabel} | ${(growth * 100).toFixed(1)} % (limit ${(RSS_GROWTH_LIMIT * 100).toFixed(0)} %) |`,
    `| RSS peak | ${mib(peak)} |`,
    `| V8 heap used, first / last ${windowLabel} (mean) | ${mib(average(heapIn(WARMUP * 1000, WARMUP * 1000 + window)))} / ${mib(average(heapIn(SECONDS * 1000 - window, Infinity)))} |`,
    `| RSS at start / lowest after the warm-up | ${mib(rss[0]?.bytes ?? 0)} / ${mib(Math.min(...rss.filter((x) => x.t >= WARMUP * 1000).map((x) => x.bytes)))} |`,
    `| latency p50 / p99 / max | ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} / ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} ms |`,
    `| answers by status | ${Object.entries(byStatus)
      .map(([s, c]) => `${s}: ${c}`)
      .join(', ')} |`,
    `| ValidatePin (right / wrong / replayed PINs sent) | ${byOutcome.right} / ${byOutcome.wrong} / ${byOutcome.replay} (${byOutcome.replayRefused} replays refused) |`,
    `| ValidatePin answers (true / false / throttled) | ${byOutcome.accepted} / ${byOutcome.refused} / ${byOutcome.throttled} |`,
    `| requests counted by the service (pin_requests_total) | ${served} |`,
    `| result | ${ok ? 'passed' : 'FAILED'} |`,
  ].join('\n');
  console.log(figures);
  if (unexpected.length) console.log(`first unexpected errors:\n  ${unexpected.slice(0, 10).join('\n  ')}`);
  if (RESULTS !== '-') writeSection(RESULTS, figures);
  process.exit(ok ? 0 : 1);
}

/** Replaces only what is between the soak markers (creating the file, or the section, when missing). */
function writeSection(file: string, figures: string): void {
  const section = `${START}\n${figures}\n${END}`;
  if (!existsSync(file)) {
    writeFileSync(file, `${section}\n`);
    return;
  }
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  const next =
    from >= 0 && to > from ? text.slice(0, from) + section + text.slice(to + END.length) : `${text.replace(/\n*$/, '\n\n')}${section}\n`;
  writeFileSync(file, next);
  console.log(`soak: figures written to ${file}`);
}

main().catch((error: unknown) => {
  console.error(`soak: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
