import type { CallContext } from '../../runtime/host';
import { scrapeText, type Metrics } from './metrics';

/** GET /metrics: Prometheus text format (with --workers, of every worker). */
export function metricsEndpoint(metrics: Metrics) {
  return async function scrape(ctx: CallContext): Promise<void> {
    const text = await scrapeText(metrics);
    ctx.set('Content-Type', metrics.registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = text;
  };
}
