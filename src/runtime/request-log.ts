/**
 * One log line per request, and its request id: the id is the caller's
 * X-Request-Id when it is a plain token, else a new one, and is sent back in
 * X-Request-Id. The line holds the method, the route that answered (its
 * pattern, never the path asked for nor the query string, which carry input
 * when a GET caller gets them wrong), the variant, operation, status,
 * outcome and duration. The error answers run inside it, so the answer to an
 * error is what is logged; `observe` sees every record too (metrics).
 */
import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { Logger } from 'pino';
import type { CallContext } from './call-state';

const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The fields of the one line logged per request (undefined fields are left out, as pino does). */
export interface RequestLogFields {
  id: string;
  method: string;
  /** The pattern of the route that answered (`/Service.asmx/:operation`), `(other)` when none did. */
  path: string;
  variant?: string;
  operation?: string;
  status: number;
  /**
   * An error kind (`client`, `throttled`, …); for a call answered without
   * error, the service's own word for what its answer meant (Call.answered),
   * else `ok`; `refused` for another status of 400 or more.
   */
  outcome: string;
  ms: number;
}

/** The request log line, at level info, through the logger's own settings (level, redaction, destination). */
export function requestLogger(logger: Logger): (fields: RequestLogFields) => void {
  return (fields) => logger.info({ event: 'request', ...fields });
}

/**
 * The middleware: the call's id first, its line when it ends. A handler that
 * told what its answer meant (Call.answered, into the call's state) has that
 * word as the line's outcome, so the line and `observe` tell one answer from
 * another where the status alone cannot.
 */
export function requestLog(logger: Logger, observe?: (record: RequestLogFields) => void) {
  const log = requestLogger(logger);
  return async function logRequest(ctx: CallContext, next: Next): Promise<void> {
    const started = performance.now();
    const given = ctx.get('X-Request-Id');
    const id = CALLER_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const record: RequestLogFields = {
        id,
        method: ctx.method,
        // A caller that lost the `?` of a GET call sends its input in the path: only a route's pattern is logged.
        path: ctx.state.route ?? '(other)',
        variant: ctx.state.variant,
        operation: ctx.state.operation,
        status: ctx.status,
        outcome: ctx.state.outcome ?? (ctx.status < 400 ? (ctx.state.answered ?? 'ok') : 'refused'),
        ms: Math.round(ms * 1e3) / 1e3,
      };
      observe?.(record);
      log(record);
    }
  };
}

/** GET /healthz: the process answers. */
export async function liveness(ctx: CallContext): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = 'ok\n';
}
