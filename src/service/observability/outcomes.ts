/**
 * What the handlers tell of their outcomes (handlers/by-convention.ts,
 * Outcomes), turned into what an operator reads: one audit line each, the
 * metrics, and the request line's `outcome` (accepted, wrong or replay
 * rather than `ok`, told to the runtime through the call's `answered`).
 * On the path of every ValidatePin: the fingerprint is cut from the keyed
 * hash the store already computed, no hash of its own.
 */
import type { Outcomes } from '../handlers/by-convention';
import type { Call } from '../../runtime/handler';
import { fingerprintOf } from '../state/keyed-hash';
import type { AuditOutcome, AuditTrail } from './audit';
import type { Metrics } from './metrics';

export function auditedOutcomes(trail: AuditTrail, metrics: Metrics): Outcomes {
  // One object a line, its fields in the line's order: an undefined one is left out of the line.
  const record = (outcome: AuditOutcome, stateKeyHash: string, call: Call | undefined, attempts?: number, lockedUntilMs?: number) =>
    trail.record({
      outcome,
      fingerprint: fingerprintOf(stateKeyHash),
      address: call?.address,
      variant: call?.variant,
      operation: call?.operation,
      id: call?.requestId,
      attempts,
      until: lockedUntilMs === undefined ? undefined : new Date(lockedUntilMs).toISOString(),
    });
  return {
    ready: () => trail.ready(),
    validated(outcome, stateKeyHash, call, attempts, lockedUntilMs) {
      // `locked` follows the call's own outcome (wrong or replay); `throttled` is the error answer's.
      if (call && outcome !== 'locked' && outcome !== 'throttled') call.answered(outcome);
      if (outcome === 'replay') metrics.replayRejections.inc();
      else if (outcome === 'throttled') metrics.throttled.inc();
      record(outcome, stateKeyHash, call, attempts, lockedUntilMs);
    },
    paired: (stateKeyHash, call) => record('paired', stateKeyHash, call),
  };
}
