/**
 * The two metrics every request updates, as prom-client metrics whose series
 * are bound once per set of label values: a request finds its series through
 * a few map lookups and adds to plain numbers, where prom-client's own
 * Counter and Histogram check and hash the labels object on every call. They
 * register in a prom-client Registry like prom-client's own (name, help,
 * type, aggregator, get, reset), and test/metrics.test.ts checks that they
 * read out exactly as prom-client's Counter and Histogram do after the same
 * calls, as text and as the JSON the cluster primary sums.
 */
import type { Aggregator, Registry } from 'prom-client';

/** As the registry reads it (prom-client's declarations give this field a numeric enum; its metrics hold these strings). */
type MetricType = 'counter' | 'histogram';

/** A value as prom-client's registry reads it: labels, and the name of the line when it is not the metric's. */
interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface MetricSnapshot {
  name: string;
  help: string;
  type: MetricType;
  aggregator: Aggregator;
  values: Value[];
}

/** What a Registry asks of a metric (prom-client's own metric classes are the others that have it). */
abstract class BoundMetric {
  readonly aggregator: Aggregator = 'sum';
  abstract readonly type: MetricType;

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // The Registry types accept prom-client's classes only; it reads no more than this class has.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  abstract reset(): void;
  protected abstract values(): Value[];

  async get(): Promise<MetricSnapshot> {
    return { name: this.name, help: this.help, type: this.type, values: this.values(), aggregator: this.aggregator };
  }
}

/** The value of `key` in `map`, made by `create` and kept the first time. */
function entryOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** Series found by two or three label values, in the order they first appeared (as prom-client lists them). */
class SeriesTable<S> {
  private readonly byFirst = new Map<string, Map<string, S | Map<string, S>>>();
  readonly inOrder: S[] = [];

  find2(a: string, b: string, create: () => S): S {
    const level = entryOf(this.byFirst, a, () => new Map());
    return entryOf(level as Map<string, S>, b, () => this.add(create));
  }

  find3(a: string, b: string, c: string, create: () => S): S {
    const first = entryOf(this.byFirst, a, () => new Map());
    const second = entryOf(first as Map<string, Map<string, S>>, b, () => new Map());
    return entryOf(second, c, () => this.add(create));
  }

  clear(): void {
    this.byFirst.clear();
    this.inOrder.length = 0;
  }

  private add(create: () => S): S {
    const series = create();
    this.inOrder.push(series);
    return series;
  }
}

/** pin_requests_total{operation, variant, outcome}. */
export class RequestCounter extends BoundMetric {
  readonly type = 'counter';
  private readonly series = new SeriesTable<{ labels: Record<'operation' | 'variant' | 'outcome', string>; value: number }>();

  inc(operation: string, variant: string, outcome: string): void {
    this.series.find3(operation, variant, outcome, () => ({ labels: { operation, variant, outcome }, value: 0 })).value++;
  }

  reset(): void {
    this.series.clear();
  }

  protected values(): Value[] {
    return this.series.inOrder.map(({ labels, value }) => ({ labels: { ...labels }, value }));
  }
}

/** pin_request_duration_seconds{operation, variant}, with prom-client's bucket semantics (le: value ≤ bound). */
export class DurationHistogram extends BoundMetric {
  readonly type = 'histogram';
  private readonly series = new SeriesTable<{
    labels: Record<'operation' | 'variant', string>;
    buckets: number[];
    sum: number;
    count: number;
  }>();

  constructor(
    name: string,
    help: string,
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, registry);
  }

  observe(operation: string, variant: string, seconds: number): void {
    const series = this.series.find2(operation, variant, () => ({
      labels: { operation, variant },
      buckets: this.bounds.map(() => 0),
      sum: 0,
      count: 0,
    }));
    for (let i = 0; i < this.bounds.length; i++) {
      if (seconds <= this.bounds[i]) {
        series.buckets[i]++;
        break;
      }
    }
    series.sum += seconds;
    series.count += 1;
  }

  reset(): void {
    this.series.clear();
  }

  protected values(): Value[] {
    const bucketName = `${this.name}_bucket`;
    const out: Value[] = [];
    for (const { labels, buckets, sum, count } of this.series.inOrder) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += buckets[i];
        out.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: bucketName });
      });
      out.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: bucketName });
      out.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      out.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return out;
  }
}
