import type { CallContext } from '../runtime/call-state';
import type { StateStore } from '../state/store';

export { liveness } from '../runtime/request-log';

/**
 * GET /readyz: the state store can be reached, so ValidatePin can answer
 * (200); what the store warns of (a Redis that would evict records) follows
 * on lines of their own, still 200: the service answers, but its promise
 * may not hold under pressure.
 */
export function readiness(store: StateStore) {
  return async function ready(ctx: CallContext): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    try {
      await store.ping();
      const warnings = await store.warnings();
      ctx.body = `${['ready', ...warnings.map((w) => `warning: ${w}`)].join('\n')}\n`;
    } catch {
      ctx.status = 503;
      ctx.body = 'not ready: the state store cannot be reached\n';
    }
  };
}
