import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { CallContext } from '../runtime/call-state';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';
import { requestLogger } from './request-log';

const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** What @koa/router leaves on the context: the route that answered, and the routes whose path matched. */
interface RoutedContext {
  _matchedRoute?: string | RegExp;
  matched?: Array<{ path: string | RegExp }>;
}

/**
 * The path logged: the router's route that matched the request (its pattern,
 * as app.ts writes it, e.g. `/api.asmx/:operation`), the request's own path
 * never; `(other)` when no route matched, since a caller that lost the `?` of
 * a GET call sends its secret in the path.
 */
function loggedPath(ctx: CallContext): string {
  const routed = ctx as CallContext & RoutedContext;
  const route = routed._matchedRoute ?? routed.matched?.at(-1)?.path;
  return typeof route === 'string' ? route : '(other)';
}

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
        path: loggedPath(ctx),
        variant: ctx.state.variant,
        operation: ctx.state.operation,
        status: ctx.status,
        outcome,
        ms: Math.round(ms * 1e3) / 1e3,
      });
    }
  };
}
