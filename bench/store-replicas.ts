/**
 * `make bench-store-replicas`: what --store-replicas costs. The service runs as a child process on a replicated set
 * under Sentinel (one master, two replicas, three Sentinels, all on loopback: test/support/redis-topologies.ts),
 * once with --store-replicas 0 and once with 1, in interleaved rounds; each round sends HTTP GET ValidatePin calls
 * with the right PIN of a new secret (every call accepted: a countAttempt, an accepted step, with WAIT under
 * --store-replicas 1, and a clearAttempts) from one client, then from several at once, and records each call's
 * latency (p50, p90, p99) and the calls answered per second. Every answer must be true.
 *
 * Bounded: REPLICAS_BENCH_SECONDS per measurement (default 5), REPLICAS_BENCH_ROUNDS rounds (default 2),
 * REPLICAS_BENCH_CLIENTS concurrent clients (default 16).
 */
import { randomBytes } from 'node:crypto';
import { pinFor } from '../test/support/requests';
import { startChildService, type ChildService } from '../test/support/child-service';
import { startReplicatedSet } from '../test/support/redis-topologies';

const setting = (name: string, fallback: number) => {
  const text = process.env[name] || String(fallback);
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new Error(`${name} must be a positive whole number`);
  return Number(text);
};
const SECONDS = setting('REPLICAS_BENCH_SECONDS', 5);
const ROUNDS = setting('REPLICAS_BENCH_ROUNDS', 2);
const CLIENTS = setting('REPLICAS_BENCH_CLIENTS', 16);
const STATE_KEY = randomBytes(32).toString('hex');

/** One call with the right PIN of `secret` (fetch keeps its connections alive): its latency and answer. */
async function validate(port: number, secret: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api.asmx/ValidatePin?pin=${pinFor({ clock: Date }, secret)}&secretCode=${secret}`);
  const body = `${res.status} ${await res.text()}`;
  return { ms: performance.now() - started, body };
}

/** `clients` loops of calls for `SECONDS`: the latencies, in ms. */
async function measure(service: ChildService, clients: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const { ms, body } = await validate(service.port, `bench-replicas-${randomBytes(6).toString('hex')}-${n++}`);
        if (!body.startsWith('200 ') || !body.includes('>true<')) throw new Error(`not accepted: ${body.slice(0, 200)}`);
        latencies.push(ms);
      }
    }),
  );
  return latencies;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

(async () => {
  const set = await startReplicatedSet();
  const services: ChildService[] = [];
  try {
    for (const replicas of [0, 1]) {
      services[replicas] = await startChildService({
        args: ['--store', set.url, '--state-key', STATE_KEY, '--store-replicas', String(replicas), '--log-level', 'warn'],
      });
    }
    const samples = new Map<string, number[]>();
    // Warm-up: JIT, connections, scripts loaded.
    for (const service of services) await measure(service, 4);
    for (let round = 0; round < ROUNDS; round++) {
      for (const clients of [1, CLIENTS]) {
        for (const replicas of round % 2 ? [1, 0] : [0, 1]) {
          const key = `${replicas}:${clients}`;
          samples.set(key, [...(samples.get(key) ?? []), ...(await measure(services[replicas], clients))]);
        }
      }
    }
    const rows = [...samples].map(([key, latencies]) => {
      const [replicas, clients] = key.split(':').map(Number);
      const sorted = [...latencies].sort((x, y) => x - y);
      const f = (ms: number) => ms.toFixed(2);
      return `| ${replicas} | ${clients} | ${sorted.length} | ${Math.round(sorted.length / (SECONDS * ROUNDS))} | ${f(quantile(sorted, 0.5))} | ${f(quantile(sorted, 0.9))} | ${f(quantile(sorted, 0.99))} |`;
    });
    console.log(
      `ValidatePin (HTTP GET, every PIN accepted) on a master with 2 replicas under Sentinel, loopback; ${ROUNDS} rounds of ${SECONDS} s each\n`,
    );
    console.log('| --store-replicas | clients | calls | calls/s | p50 ms | p90 ms | p99 ms |\n|---:|---:|---:|---:|---:|---:|---:|');
    console.log(rows.sort().join('\n'));
  } finally {
    for (const service of services) await service?.kill();
    await set.stop();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
