/**
 * What the handlers tell of their outcomes (handlers/by-convention.ts,
 * Outcomes), turned into what an operator reads: one audit line each, the
 * metrics, and the request line's `outcome` (accepted, wrong or replay
 * rather than `ok`). On the path of every ValidatePin: the fingerprint is
 * cut from the keyed hash the store already computed, no hash of its own.
 */
import type { Outcomes, PinOutcome } from '../handlers/by-convention';
import type { CallContext, CallState } from '../runtime/call-state';
import { fingerprintOf } from '../state/keyed-hash';
import { type AuditTrail, callFields, currentCall } from './audit';
import type { Metrics } from './metrics';

/** A call's state with what its handler's answer meant, for the request line (observe-requests.ts). */
export interface AnsweredCallState extends CallState {
  answered?: PinOutcome;
}

/** The word the request line and `pin_requests_total` give a call its handler answered: its PIN outcome, if any. */
export const answeredOutcome = (ctx: CallContext): string | undefined => (ctx.state as AnsweredCallState).answered;

export function auditedOutcomes(trail: AuditTrail, metrics: Metrics): Outcomes {
  return {
    ready: () => trail.ready(),
    validated(outcome, stateKeyHash, detail = {}) {
      const call = currentCall();
      // `locked` follows the call's own outcome (wrong or replay); `throttled` is the error answer's.
      if (call && outcome !== 'locked' && outcome !== 'throttled') (call.state as AnsweredCallState).answered = outcome;
      if (outcome === 'replay') metrics.replayRejections.inc();
      else if (outcome === 'throttled') metrics.throttled.inc();
      trail.record({
        outcome,
        fingerprint: fingerprintOf(stateKeyHash),
        ...callFields(call),
        attempts: detail.attempts,
        until: detail.lockedUntilMs === undefined ? undefined : new Date(detail.lockedUntilMs).toISOString(),
      });
    },
    paired(stateKeyHash) {
      trail.record({ outcome: 'paired', fingerprint: fingerprintOf(stateKeyHash), ...callFields(currentCall()) });
    },
  };
}
