import type { Logger } from 'pino';
import { requestLog } from '../../runtime/host';
import type { Metrics } from './metrics';

/**
 * The runtime's request log line (runtime/request-log.ts), and one metrics
 * observation per request: its count by operation, variant and outcome
 * (a ValidatePin answered `accepted`, `wrong` or `replay`), and its
 * duration. The error middleware comes next in app.ts, so the answer to an
 * error is what is observed.
 */
export function observeRequests(logger: Logger, metrics: Metrics) {
  return requestLog(logger, ({ operation = 'none', variant = 'none', outcome, ms }) => {
    metrics.requests.inc({ operation, variant, outcome });
    metrics.duration.observe({ operation, variant }, ms / 1000);
  });
}
