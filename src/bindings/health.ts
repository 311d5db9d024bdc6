import type { CallContext } from '../call-state';
import type { StateStore } from '../state/store';

/** GET /healthz: the process answers. */
export async function liveness(ctx: CallContext): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.body = 'ok\n';
}

/** GET /readyz: the state store can be reached, so ValidatePin can answer. */
export function readiness(store: StateStore) {
  return async function ready(ctx: CallContext): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    try {
      await store.ping();
      ctx.body = 'ready\n';
    } catch {
      ctx.status = 503;
      ctx.body = 'not ready: the state store cannot be reached\n';
    }
  };
}
