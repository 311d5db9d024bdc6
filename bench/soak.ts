/**
 * `make soak`: the built service as users run it (`node dist/src/service/main.js`, the embedded store, its log read through
 * a pipe) under a steady load, mixed over every protocol (right, wrong and replayed PINs, over secrets enough that
 * most answers are not 429), the plain pages and QR codes.
 *
 * RSS is sampled every second; the first minute after the warm-up (JIT, heap sizing, the store filling, the C
 * allocator's heap reaching its level under XML load: about three minutes at 300 requests/s) is compared with the
 * last. V8's young generation is fixed at one size (YOUNG_GENERATION): by default V8 resizes it with the allocation
 * rate, and each resize moved RSS by about a tenth at once, with the heap in use flat, which hid whether anything
 * else grew. Fails (exit 1) on an unexpected answer, a PIN accepted twice, or RSS grown by RSS_GROWTH_LIMIT or
 * more; writes its figures in bench/RESULTS.md's Soak section.
 *
 * Settings: SOAK_SECONDS (540), SOAK_WARMUP (180, at most a third of SOAK_SECONDS), SOAK_RATE (requests per second,
 * 300), SOAK_SECRETS (10000), SOAK_RESULTS (the file written, bench/RESULTS.md; `-` for none).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VARIANTS } from '../generated/routes';
import { DEFAULT_TOTP, buildRequest, isSoap, pinFor, wrongPinFor, type OutgoingRequest } from '../test/support/requests';
import { SOAP_CONTENT_TYPES } from '../test/support/xml-assertions';
import { replaceSection } from './report/results';
import { builtService, ROOT, startServer } from './servers';

const setting = (name: string, fallback: number) => {
  const text = process.env[name] || String(fallback);
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new Error(`${name} must be a positive whole number`);
  return Number(text);
};
const SECONDS = setting('SOAK_SECONDS', 540);
const WARMUP = Math.min(setting('SOAK_WARMUP', 180), Math.floor(SECONDS / 3));
const RATE = setting('SOAK_RATE', 300);
const SECRETS = setting('SOAK_SECRETS', 10_000);
const RESULTS = process.env.SOAK_RESULTS ?? join(ROOT, 'bench', 'RESULTS.md');
const MAX_IN_FLIGHT = 128;
/** It runs in CI: two default runs of the built service on a loaded machine grew by 1.0 % and 0.8 %. */
const RSS_GROWTH_LIMIT = 0.05;
const YOUNG_GENERATION = ['--min-semi-space-size=8', '--max-semi-space-size=8'];

interface Call extends OutgoingRequest {
  label: string;
  /** Statuses this call may get; anything else is an unexpected error. */
  expect: number[];
  pin?: { secret: string; step: number; kind: 'right' | 'wrong' | 'replay' };
}

/** The right PIN of `secret` at `step`, and one that is no step's PIN within two steps of it (never inside the drift window). */
const at = (step: number) => ({ clock: { now: () => step * DEFAULT_TOTP.period * 1000 } });
const pinAt = (secret: string, step: number, right: boolean) => (right ? pinFor(at(step), secret) : wrongPinFor(at(step), secret, 2));

/** A deterministic mix: 55 % ValidatePin, 25 % Pair, the rest pages, QR codes and health checks. */
function nextCall(n: number, recentlyAccepted: { secret: string; step: number }[]): Call {
  const variant = VARIANTS[n % 4];
  const r = (n * 7919) % 100;
  // SOAP 1.2 without the optional action parameter, as the README's example sends it; a throttled SOAP call is a fault, 500.
  const operation = (name: string, fields: Record<string, string>, expect: number[]): Call => ({
    label: `${name} ${variant}`,
    ...buildRequest(variant, name, fields, variant === 'soap12' ? { contentType: SOAP_CONTENT_TYPES['1.2'] } : {}),
    expect: isSoap(variant) ? expect.map((s) => (s === 429 ? 500 : s)) : expect,
  });
  let secret = `soak-secret-${String((n * 2654435761) % SECRETS).padStart(6, '0')}-xyzw`;
  let step = Math.floor(Date.now() / 1000 / DEFAULT_TOTP.period);
  if (r < 55) {
    const kind = r < 30 ? 'right' : r < 45 ? 'wrong' : 'replay';
    // A replay sends again a PIN the service accepted a moment ago.
    const again = kind === 'replay' ? recentlyAccepted[n % Math.max(1, recentlyAccepted.length)] : undefined;
    if (again) ({ secret, step } = again);
    const pin = pinAt(secret, step, kind !== 'wrong');
    return { ...operation('ValidatePin', { pin, secretCode: secret }, [200, 429]), pin: { secret, step, kind } };
  }
  if (r < 80) return operation('Pair', { appName: 'Soak', appInfo: `user${n % 1000}@example.com`, secretCode: secret }, [200]);
  const get = (label: string, path: string, expect = [200]): Call => ({ label, method: 'GET', path, headers: {}, expect });
  if (r < 86) return get('pair.aspx', `/pair.aspx?AppName=Soak&AppInfo=u%40example.com&SecretCode=${secret}`);
  if (r < 92) return get('Validate.aspx', `/Validate.aspx?Pin=000000&SecretCode=${secret}x`, [200, 429]);
  if (r < 96) return get('qr.aspx', `/qr.aspx?size=200x200&data=soak-${n % 50}`);
  return get(r < 99 ? 'healthz' : 'readyz', r < 99 ? '/healthz' : '/readyz');
}

function send(port: number, agent: Agent, call: Call): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const body = call.body === undefined ? undefined : Buffer.from(call.body);
  const headers = { ...call.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: call.method, path: call.path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1'), ms: performance.now() - started }),
      );
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/src/service/main.js'))) throw new Error('dist/ is missing: run `make build` (make soak does)');
  const service = await startServer(builtService('service', ROOT, ['--log-level', 'info', '--metrics-on-public-port'], YOUNG_GENERATION));
  // fifo: every pooled connection is used in turn, so none sits idle until the service's keep-alive timeout closes it
  // just as a request is written on it (a reset the service is not to blame for).
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT, scheduling: 'fifo' });
  const started = Date.now();
  const samples: { t: number; rss: number; heapUsed: number }[] = [];
  const latencies: number[] = [];
  const byStatus: Record<string, number> = {};
  const outcome = { right: 0, wrong: 0, replay: 0, accepted: 0, refused: 0, throttled: 0, replayRefused: 0 };
  const unexpected: string[] = [];
  const accepted = new Set<string>();
  const recentlyAccepted: { secret: string; step: number }[] = [];
  let [sent, skipped, inFlight] = [0, 0, 0];
  console.log(`soak: ${SECONDS} s at ${RATE} requests/s over ${SECRETS} secrets, service pid ${service.pid}`);
  const metrics = () =>
    fetch(`${service.url}/metrics`).then(
      (r) => r.text(),
      () => '',
    );
  // RSS from /proc every second; the V8 heap in use from the service's own metrics every fifth.
  const sampler = setInterval(async () => {
    const status = await readFile(`/proc/${service.pid}/status`, 'utf8').catch(() => '');
    const sample = { t: Date.now() - started, rss: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024, heapUsed: Number.NaN };
    if (!Number.isFinite(sample.rss)) return; // the service is gone: said below
    samples.push(sample);
    if (samples.length % 5 === 0) sample.heapUsed = Number(/^pin_nodejs_heap_size_used_bytes (\S+)/m.exec(await metrics())?.[1]);
    if (samples.length % 15 === 0)
      console.log(`soak: ${Math.round(sample.t / 1000)} s, ${sent} sent, ${unexpected.length} unexpected, RSS ${mib(sample.rss)}`);
  }, 1000);

  const handle = (call: Call, answer: { status: number; body: string; ms: number }) => {
    latencies.push(answer.ms);
    byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    if (!call.expect.includes(answer.status))
      return void unexpected.push(`${call.label}: status ${answer.status} ${answer.body.slice(0, 200)}`);
    if (!call.pin) return;
    outcome[call.pin.kind]++;
    if (answer.status !== 200) {
      if (!/[Tt]oo many failed/.test(answer.body)) unexpected.push(`${call.label}: ${answer.status} without a throttling answer`);
      outcome.throttled++;
      return;
    }
    const isTrue = />true</.test(answer.body);
    if (!isTrue && !/>false</.test(answer.body)) unexpected.push(`${call.label}: no boolean in ${answer.body.slice(0, 200)}`);
    outcome[isTrue ? 'accepted' : 'refused']++;
    if (!isTrue && call.pin.kind === 'replay') outcome.replayRefused++;
    if (!isTrue) return;
    if (call.pin.kind === 'wrong') unexpected.push(`${call.label}: a wrong PIN was accepted`);
    // The answer may come in the step before or after (the drift window): keyed by the PIN's own step.
    const key = `${call.pin.secret}|${call.pin.step}`;
    if (accepted.has(key)) unexpected.push(`${call.label}: a PIN was accepted twice`);
    accepted.add(key);
    recentlyAccepted[outcome.accepted % 64] = { secret: call.pin.secret, step: call.pin.step };
  };

  // Ticks of 20 ms, each sending its share of the rate; a call past MAX_IN_FLIGHT is skipped (and counted).
  const pending = new Set<Promise<void>>();
  for (let due = 0, n = 0; Date.now() < started + SECONDS * 1000 && service.alive(); await sleep(20)) {
    for (due += RATE / 50; due >= 1; due--) {
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
  }
  await Promise.race([Promise.all(pending), sleep(15_000)]);
  clearInterval(sampler);
  const alive = service.alive();
  const lastMetrics = alive ? await metrics() : '';
  agent.destroy();
  await service.stop();
  if (!alive) unexpected.push(`the service died: ${service.output().slice(-1000)}`);

  // The first minute after the warm-up against the last minute.
  const window = Math.min(60_000, ((SECONDS - WARMUP) * 1000) / 2);
  const first = samples.filter((s) => s.t >= WARMUP * 1000 && s.t < WARMUP * 1000 + window);
  const last = samples.filter((s) => s.t >= SECONDS * 1000 - window);
  const growth = (mean(last.map((s) => s.rss)) - mean(first.map((s) => s.rss))) / mean(first.map((s) => s.rss));
  const heap = (xs: typeof samples) => mib(mean(xs.map((s) => s.heapUsed).filter(Number.isFinite)));
  const sorted = [...latencies].sort((a, b) => a - b);
  const percentile = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1);
  const counted = [...lastMetrics.matchAll(/^pin_requests_total\{[^}]*\} (\S+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  const ok = unexpected.length === 0 && growth < RSS_GROWTH_LIMIT && alive;
  const span = window === 60_000 ? 'minute' : `${Math.round(window / 1000)} s`;
  const figures = [
    `### Soak (\`make soak\`, ${new Date().toISOString().slice(0, 10)})`,
    '',
    `${Math.round((Date.now() - started) / 1000)} s at ${RATE} requests/s (${sent} requests, ${skipped} skipped by the client for too many in flight), ` +
      `mixed over SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST, the plain pages, QR codes and health checks; ${SECRETS} secrets; embedded store; one process, ` +
      `the built service (\`node ${YOUNG_GENERATION.join(' ')} dist/src/service/main.js\`: V8's young generation at one size), its log read through a pipe, on ${process.platform}, Node ${process.version}.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| unexpected errors | ${unexpected.length} |`,
    `| RSS, first ${span} after a ${WARMUP} s warm-up / last ${span} (mean) | ${mib(mean(first.map((s) => s.rss)))} / ${mib(mean(last.map((s) => s.rss)))} |`,
    `| RSS growth, first to last ${span} | ${(growth * 100).toFixed(1)} % (limit ${(RSS_GROWTH_LIMIT * 100).toFixed(0)} %) |`,
    `| RSS at start / peak | ${mib(samples[0]?.rss ?? 0)} / ${mib(Math.max(...samples.map((s) => s.rss)))} |`,
    `| V8 heap used, first / last ${span} (mean) | ${heap(first)} / ${heap(last)} |`,
    `| latency p50 / p99 / max | ${percentile(50)} / ${percentile(99)} / ${percentile(100)} ms |`,
    `| answers by status | ${Object.entries(byStatus)
      .map(([s, c]) => `${s}: ${c}`)
      .join(', ')} |`,
    `| ValidatePin (right / wrong / replayed PINs sent) | ${outcome.right} / ${outcome.wrong} / ${outcome.replay} (${outcome.replayRefused} replays refused) |`,
    `| ValidatePin answers (true / false / throttled) | ${outcome.accepted} / ${outcome.refused} / ${outcome.throttled} |`,
    `| requests counted by the service (pin_requests_total) | ${counted} |`,
    `| result | ${ok ? 'passed' : 'FAILED'} |`,
  ].join('\n');
  console.log(figures);
  if (unexpected.length) console.log(`first unexpected errors:\n  ${unexpected.slice(0, 10).join('\n  ')}`);
  if (RESULTS !== '-') {
    writeFileSync(RESULTS, replaceSection(existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '', 'soak', figures));
    console.log(`soak: figures written to ${RESULTS}`);
  }
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(`soak: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
