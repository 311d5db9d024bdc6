/**
 * Prometheus metrics (prom-client), one registry per app. Label values come
 * from the service's own vocabulary (operation, variant, outcome), never from
 * the request, so their number is bounded and no secret can become a label.
 */
import { AggregatorRegistry, Counter, Histogram, Registry, collectDefaultMetrics, type RegistryContentType } from 'prom-client';

/** The request duration histogram's bucket bounds, in seconds. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface Metrics {
  registry: Registry;
  /** Updated once per request (observe-requests.ts). */
  requests: Counter<'operation' | 'variant' | 'outcome'>;
  duration: Histogram<'operation' | 'variant'>;
  replayRejections: Counter;
  throttled: Counter;
  storeErrors: Counter;
  /** A cluster worker's metrics are scraped through the primary, summed over all workers. */
  clusterWorker?: boolean;
}

export function createMetrics(options: { processMetrics?: boolean; clusterWorker?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'pin_' });
  if (options.clusterWorker) {
    // prom-client's worker side of AggregatorRegistry: the primary collects this registry (scrapeText).
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  return {
    registry,
    clusterWorker: options.clusterWorker,
    requests: new Counter({
      name: 'pin_requests_total',
      help: 'Requests answered, by operation (none: not an operation call), variant and outcome',
      labelNames: ['operation', 'variant', 'outcome'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'pin_request_duration_seconds',
      help: 'Time from request to answer, by operation and variant',
      labelNames: ['operation', 'variant'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    replayRejections: new Counter({
      name: 'pin_replay_rejections_total',
      help: 'Correct PINs refused because they (or a later step) were already accepted for the secret',
      registers: [registry],
    }),
    throttled: new Counter({
      name: 'pin_throttled_total',
      help: 'ValidatePin calls refused because the secret had too many failures',
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: 'pin_store_errors_total',
      help: 'ValidatePin calls that failed closed because the state store could not be reached',
      registers: [registry],
    }),
  };
}

interface MetricsRequest {
  kind: 'pin-metrics';
  id: number;
}
interface MetricsReply {
  kind: 'pin-metrics-reply';
  id: number;
  text?: string;
}
const isMetricsReply = (m: unknown): m is MetricsReply => (m as MetricsReply)?.kind === 'pin-metrics-reply';
export const isMetricsRequest = (m: unknown): m is MetricsRequest => (m as MetricsRequest)?.kind === 'pin-metrics';

let nextScrape = 1;

/**
 * The text /metrics answers. In a cluster worker (`--workers N`), the
 * counters of every worker summed by the primary (cluster.ts answers with
 * prom-client's AggregatorRegistry), so a scrape never shows one worker's
 * share only; elsewhere, this process's registry.
 */
export function scrapeText(metrics: Metrics, clusterWorker: boolean): Promise<string> {
  if (!clusterWorker || !process.send) return metrics.registry.metrics();
  return new Promise((resolve, reject) => {
    const id = nextScrape++;
    const onMessage = (message: unknown) => {
      if (!isMetricsReply(message) || message.id !== id) return;
      done();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error('the primary could not collect the workers’ metrics'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the primary did not answer the metrics request in time'));
    }, 6000);
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ kind: 'pin-metrics', id } satisfies MetricsRequest);
  });
}

/**
 * In the cluster primary: answers a worker's metrics request with the sum
 * over all workers, followed by the primary's own metrics (those of the
 * embedded store it holds for them), whose names no worker uses.
 */
export function answerMetricsRequests(
  aggregator: AggregatorRegistry<RegistryContentType>,
  primary: Registry,
  worker: { send(m: unknown): boolean; isConnected(): boolean },
  message: unknown,
): void {
  if (!isMetricsRequest(message)) return;
  Promise.all([aggregator.clusterMetrics(), primary.metrics()]).then(
    ([workers, own]) =>
      worker.isConnected() && worker.send({ kind: 'pin-metrics-reply', id: message.id, text: workers + own } satisfies MetricsReply),
    () => worker.isConnected() && worker.send({ kind: 'pin-metrics-reply', id: message.id } satisfies MetricsReply),
  );
}
