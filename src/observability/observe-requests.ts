import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { CallContext } from '../call-state';
import type { Logger } from 'pino';
import { OPERATION_NAMES, ROUTES } from '../../generated/routes';
import type { Metrics } from './metrics';
import { requestLogger } from './request-log';

/** The path of nearly every call, as most clients spell it. */
const ENDPOINT = '/api.asmx';

const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The path segments under /api.asmx: each operation's (from the contract), and the script proxy's. */
const ENDPOINT_SEGMENTS = [...OPERATION_NAMES.map((name) => ROUTES[name].httpOperation), 'js', 'jsdebug'].map((s) =>
  s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
);

/** The service's own paths, `/` included (matched in any case, as the router does, with or without a trailing slash). */
const OWN_PATH = new RegExp(
  `^/((api\\.asmx(/(${ENDPOINT_SEGMENTS.join('|')}))?|pair\\.aspx|validate\\.aspx|qr\\.aspx|healthz|readyz|metrics)/?)?$`,
  'i',
);

/**
 * A path the service does not serve is logged as `(other)`: a caller that
 * lost the `?` of a GET call sends its secret in the path (the fuzzer found
 * `/api.asmx/ValidatePin&secretCode=…` in the logs).
 */
function loggedPath(path: string): string {
  return path === ENDPOINT || OWN_PATH.test(path) ? path : '(other)';
}

/**
 * One log line and one metrics observation per request: request id, method,
 * path (never the query string, which carries secrets on the GET variant, and
 * `(other)` for a path the service does not serve),
 * variant, operation, status, outcome and duration. The request id is the
 * caller's X-Request-Id when it is a plain token, else a new one; it is sent
 * back in X-Request-Id. `answerErrors` (the error middleware) runs inside
 * it, so that the answer to an error is observed too, without a middleware
 * layer of its own.
 */
export function observeRequests(logger: Logger, metrics: Metrics, answerErrors: (ctx: CallContext, next: Next) => Promise<void>) {
  const logRequest = requestLogger(logger);
  return async function observe(ctx: CallContext, next: Next): Promise<void> {
    const started = performance.now();
    const given = ctx.get('X-Request-Id');
    const id = CALLER_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    try {
      await answerErrors(ctx, next);
    } finally {
      const ms = performance.now() - started;
      const operation: string = ctx.state.operation ?? 'none';
      const variant: string = ctx.state.variant ?? 'none';
      const outcome: string = ctx.state.outcome ?? (ctx.status < 400 ? 'ok' : 'refused');
      metrics.requests.inc(operation, variant, outcome);
      metrics.duration.observe(operation, variant, ms / 1000);
      logRequest({
        id,
        method: ctx.method,
        path: loggedPath(ctx.path),
        variant: ctx.state.variant,
        operation: ctx.state.operation,
        status: ctx.status,
        outcome,
        ms: Math.round(ms * 1e3) / 1e3,
      });
    }
  };
}
