/**
 * Prometheus metrics (prom-client), one registry per app. Label values come
 * from the service's own vocabulary (operation, variant, outcome), never from
 * the request, so their number is bounded and no secret can become a label.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter<'operation' | 'variant' | 'outcome'>;
  duration: Histogram<'operation' | 'variant'>;
  replayRejections: Counter;
  throttled: Counter;
  storeErrors: Counter;
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'pin_' });
  return {
    registry,
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
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
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
