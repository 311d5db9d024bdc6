import type { CallContext } from '../../runtime/host';
import type { StateStore } from '../state/store';
import type { AuditTrail } from './audit';

export { liveness } from '../../runtime/host';

/**
 * GET /readyz: the state store can be reached, so ValidatePin can answer
 * (200); what the store warns of (a Redis that would evict records) follows
 * on lines of their own, still 200: the service answers, but its promise
 * may not hold under pressure. An audit file that cannot be written is 503
 * with --audit-required (ValidatePin then fails closed), else a warning line.
 */
export function readiness(store: StateStore, trail?: Pick<AuditTrail, 'failure' | 'required'>) {
  return async function ready(ctx: CallContext): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const auditFailure = trail?.failure();
    if (auditFailure !== undefined && trail?.required) {
      ctx.status = 503;
      ctx.body = `not ready: ${auditFailure} (--audit-required)\n`;
      return;
    }
    try {
      await store.ping();
      const warnings = [
        ...(await store.warnings()),
        ...(auditFailure === undefined ? [] : [`${auditFailure}: audit lines go to the log only`]),
      ];
      ctx.body = `${['ready', ...warnings.map((w) => `warning: ${w}`)].join('\n')}\n`;
    } catch {
      ctx.status = 503;
      ctx.body = 'not ready: the state store cannot be reached\n';
    }
  };
}
