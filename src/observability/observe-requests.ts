import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { CallContext } from '../runtime/call-state';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';
import { requestLogger } from './request-log';

const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * One log line and one metrics observation per request: request id, method,
 * the route the path matched (never the path itself nor the query string,
 * which carry secrets when a GET caller gets them wrong),
 * variant, operation, status, outcome and duration. The request id is the
 * caller's X-Request-Id when it is a plain token, else a new one; it is sent
 * back in X-Request-Id. The error middleware comes next in app.ts, so the
 * answer to an error is what is observed.
 */
export function observeRequests(logger: Logger, metrics: Metrics) {
  const logRequest = requestLogger(logger);
  return async function observe(ctx: CallContext, next: Next): Promise<void> {
    const started = performance.now();
    const given = ctx.get('X-Request-Id');
    const id = CALLER_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const operation: string = ctx.state.operation ?? 'none';
      const variant: string = ctx.state.variant ?? 'none';
      const outcome: string = ctx.state.outcome ?? (ctx.status < 400 ? 'ok' : 'refused');
      metrics.requests.inc({ operation, variant, outcome });
      metrics.duration.observe({ operation, variant }, ms / 1000);
      logRequest({
        id,
        method: ctx.method,
        // The route that answered (its pattern, e.g. `/api.asmx/:operation`), never the request's own path; `(other)`
        // when none did, since a caller that lost the `?` of a GET call sends its secret in the path.
        path: ctx.state.route ?? '(other)',
        variant: ctx.state.variant,
        operation: ctx.state.operation,
        status: ctx.status,
        outcome,
        ms: Math.round(ms * 1e3) / 1e3,
      });
    }
  };
}
