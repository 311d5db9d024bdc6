import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/**
 * One log line per request: method, path (never the query string, which
 * carries secrets on the GET variant), variant, operation, status, outcome
 * and duration.
 */
export function requestLog(logger: Logger) {
  return async function log(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      logger.info({
        event: 'request',
        method: ctx.method,
        path: ctx.path,
        variant: ctx.state.variant,
        operation: ctx.state.operation,
        status: ctx.status,
        outcome: ctx.state.outcome ?? (ctx.status < 400 ? 'ok' : 'refused'),
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      });
    }
  };
}
