import type { Context } from 'koa';
import type { Metrics } from '../observability/metrics';

/** GET /metrics: Prometheus text format. */
export function metricsEndpoint(metrics: Metrics) {
  return async function scrape(ctx: Context): Promise<void> {
    ctx.set('Content-Type', metrics.registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await metrics.registry.metrics();
  };
}
