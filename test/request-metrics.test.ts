/**
 * The per-request metrics (src/observability/request-metrics.ts) read out as
 * prom-client's own Counter and Histogram do after the same calls: the
 * Prometheus text, the JSON a cluster worker sends, and the primary's sum of
 * two workers.
 */
import test from 'ava';
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS } from '../src/observability/metrics';
import { DurationHistogram, RequestCounter } from '../src/observability/request-metrics';

const HELP = { requests: 'requests help', duration: 'duration help' };

function ours() {
  const registry = new Registry();
  const requests = new RequestCounter('pin_requests_total', HELP.requests, registry);
  const duration = new DurationHistogram('pin_request_duration_seconds', HELP.duration, registry, DURATION_BUCKETS);
  return {
    registry,
    reset: () => registry.resetMetrics(),
    call: (operation: string, variant: string, outcome: string, seconds: number) => {
      requests.inc(operation, variant, outcome);
      duration.observe(operation, variant, seconds);
    },
  };
}

function promClients() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'pin_requests_total',
    help: HELP.requests,
    labelNames: ['operation', 'variant', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'pin_request_duration_seconds',
    help: HELP.duration,
    labelNames: ['operation', 'variant'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    reset: () => registry.resetMetrics(),
    call: (operation: string, variant: string, outcome: string, seconds: number) => {
      requests.inc({ operation, variant, outcome });
      duration.observe({ operation, variant }, seconds);
    },
  };
}

/** Label sets that come and go in turn, durations on, between and beyond the bounds, and label values that need escaping. */
function calls(seed: number): [string, string, string, number][] {
  const operations = ['ValidatePin', 'Pair', 'none'];
  const variants = ['soap11', 'httpGet', 'json', 'page', 'none', 'odd "variant"\\\n'];
  const outcomes = ['ok', 'refused', 'throttled', 'client'];
  const seconds = [0, 0.0001, 0.0005, 0.00051, 0.003, 0.01, 0.7, 2.5, 2.6, 30];
  const out: [string, string, string, number][] = [];
  let x = seed;
  for (let i = 0; i < 500; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push([
      operations[x % 3],
      variants[(x >> 3) % variants.length],
      outcomes[(x >> 7) % 4],
      seconds[(x >> 11) % seconds.length] * (1 + (x % 7) / 1000),
    ]);
  }
  return out;
}

/** The JSON without the exemplar slots prom-client adds (always empty here). */
function withoutExemplars(json: unknown): unknown {
  return JSON.parse(JSON.stringify(json, (key, value) => (key === 'exemplar' || key === 'sharedLabels' ? undefined : value)));
}

test('the same calls read out as prom-client’s Counter and Histogram: text and JSON, before and after a reset', async (t) => {
  const a = ours();
  const b = promClients();
  for (const phase of [1, 2]) {
    for (const c of calls(phase)) {
      a.call(...c);
      b.call(...c);
    }
    t.is(await a.registry.metrics(), await b.registry.metrics(), `text, phase ${phase}`);
    t.deepEqual(
      withoutExemplars(await a.registry.getMetricsAsJSON()),
      withoutExemplars(await b.registry.getMetricsAsJSON()),
      `JSON, phase ${phase}`,
    );
    a.reset();
    b.reset();
    t.is(await a.registry.metrics(), await b.registry.metrics(), `text after a reset, phase ${phase}`);
  }
});

test('two workers summed by the cluster primary read out as with prom-client’s metrics', async (t) => {
  const workers = [ours(), ours()];
  const references = [promClients(), promClients()];
  for (const [i, seed] of [7, 8].entries()) {
    for (const c of calls(seed)) {
      workers[i].call(...c);
      references[i].call(...c);
    }
  }
  const sum = async (registries: Registry[]) =>
    (await AggregatorRegistry.aggregate(await Promise.all(registries.map((r) => r.getMetricsAsJSON())))).metrics();
  t.is(await sum(workers.map((w) => w.registry)), await sum(references.map((r) => r.registry)));
});
