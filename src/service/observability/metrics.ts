/**
 * Prometheus metrics (prom-client), one registry per app. Label values come
 * from the service's own vocabulary (operation, variant, outcome), never from
 * the request, so their number is bounded and no secret can become a label.
 */
import { parentPort, type Worker } from 'node:worker_threads';
import { AggregatorRegistry, Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

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
  /** Audit lines written (audit.ts), by outcome. */
  auditEvents: Counter<'outcome'>;
  auditFileFailures: Counter;
  auditLinesDropped: Counter;
  /** A worker thread's metrics are scraped through the main thread, summed over all worker threads. */
  workerThread?: boolean;
}

export function createMetrics(options: { processMetrics?: boolean; workerThread?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'pin_' });
  if (options.workerThread) answerCollections(registry);
  return {
    registry,
    workerThread: options.workerThread,
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
    auditEvents: new Counter({
      name: 'pin_audit_events_total',
      help: 'Audit lines, by outcome: ValidatePin (accepted, wrong, replay, throttled, locked), Pair (paired), the admin endpoints (inspected, unlocked, admin-not-found, admin-refused, admin-throttled)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    auditFileFailures: new Counter({
      name: 'pin_audit_file_failures_total',
      help: 'Times the audit file (--audit-file) began failing to be opened or written',
      registers: [registry],
    }),
    auditLinesDropped: new Counter({
      name: 'pin_audit_lines_dropped_total',
      help: 'Audit lines that could not be written to the audit file (they are still in the log)',
      registers: [registry],
    }),
  };
}

/** A registry's metrics as getMetricsAsJSON() gives them, as they cross between threads. */
type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** A worker thread's /metrics asks the main thread for the whole process's text. */
interface ScrapeRequest {
  kind: 'pin-metrics';
  id: number;
}
interface ScrapeReply {
  kind: 'pin-metrics-reply';
  id: number;
  text?: string;
}
/** The main thread asks each worker thread for its registry. */
interface Collection {
  kind: 'pin-metrics-collect';
  id: number;
}
interface Collected {
  kind: 'pin-metrics-collected';
  id: number;
  metrics: MetricsJson;
}
const isScrapeReply = (m: unknown): m is ScrapeReply => (m as ScrapeReply)?.kind === 'pin-metrics-reply';
const isScrapeRequest = (m: unknown): m is ScrapeRequest => (m as ScrapeRequest)?.kind === 'pin-metrics';
const isCollection = (m: unknown): m is Collection => (m as Collection)?.kind === 'pin-metrics-collect';
const isCollected = (m: unknown): m is Collected => (m as Collected)?.kind === 'pin-metrics-collected';

/** How long a scrape waits for the threads' registries. */
const SCRAPE_TIMEOUT_MS = 5000;
let nextId = 1;

/**
 * The text /metrics answers. In a worker thread of `--workers N`, the
 * counters of every worker thread summed by the main thread (prom-client's
 * AggregatorRegistry.aggregate, each metric by its own rule), so a scrape
 * never shows one thread's share only; elsewhere, this registry's.
 */
export function scrapeText(metrics: Metrics): Promise<string> {
  if (!metrics.workerThread || !parentPort) return metrics.registry.metrics();
  const request: ScrapeRequest = { kind: 'pin-metrics', id: nextId++ };
  return ask(
    parentPort,
    request,
    isScrapeReply,
    SCRAPE_TIMEOUT_MS + 1000,
    'the main thread did not answer the metrics request in time',
  ).then((reply) => reply.text ?? Promise.reject(new Error('the main thread could not collect the worker threads’ metrics')));
}

/** Either end of a thread's message channel: a worker thread's parentPort, or the main thread's Worker. */
interface Channel {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  postMessage(message: unknown): void;
}

/** Sends `request` and answers the reply with its id, or rejects with `late` after `timeoutMs`. */
function ask<Reply extends { id: number }>(
  channel: Channel,
  request: { kind: string; id: number },
  isReply: (message: unknown) => message is Reply,
  timeoutMs: number,
  late: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isReply(message) || message.id !== request.id) return;
      done();
      resolve(message);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(late));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      channel.off('message', onMessage);
    };
    channel.on('message', onMessage);
    channel.postMessage(request);
  });
}

/** In a worker thread: answers the main thread's collections with this registry. */
function answerCollections(registry: Registry): void {
  parentPort?.on('message', (message: unknown) => {
    if (!isCollection(message)) return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) => parentPort?.postMessage({ kind: 'pin-metrics-collected', id: message.id, metrics } satisfies Collected));
  });
}

/**
 * In the main thread of `--workers`: answers a worker thread's scrape
 * request with the metrics of every worker thread and of `shared` (the
 * embedded store's, held here), aggregated, then `own` (the process's:
 * CPU, memory, the runtime), which exist once for the whole process.
 */
export function answerScrapeRequests(requester: Worker, message: unknown, workers: () => Worker[], shared: Registry, own: Registry): void {
  if (!isScrapeRequest(message)) return;
  Promise.all([Promise.all(workers().map(collect)), shared.getMetricsAsJSON(), own.metrics()])
    .then(([threads, store, processText]) =>
      AggregatorRegistry.aggregate([...threads, store])
        .metrics()
        .then((sum) => requester.postMessage({ kind: 'pin-metrics-reply', id: message.id, text: sum + processText } satisfies ScrapeReply)),
    )
    .catch(() => requester.postMessage({ kind: 'pin-metrics-reply', id: message.id } satisfies ScrapeReply));
}

/** One worker thread's registry, or a rejection after SCRAPE_TIMEOUT_MS. */
function collect(worker: Worker): Promise<MetricsJson> {
  const request: Collection = { kind: 'pin-metrics-collect', id: nextId++ };
  return ask(worker, request, isCollected, SCRAPE_TIMEOUT_MS, 'a worker thread did not give its metrics in time').then(
    (reply) => reply.metrics,
  );
}
