/**
 * What the handlers tell of their outcomes (handlers/by-convention.ts,
 * Outcomes), turned into what an operator reads: one audit line each, the
 * metrics, and the request line's `outcome` (accepted, wrong or replay
 * rather than `ok`). On the path of every ValidatePin: the fingerprint is
 * cut from the keyed hash the store already computed, no hash of its own.
 */
import type { Outcomes, PinOutcome } from '../handlers/by-convention';
import type { CallContext, CallState } from '../../runtime/call-state';
import type { Caller } from '../../runtime/definition';
import { fingerprintOf } from '../state/keyed-hash';
import type { AuditOutcome, AuditTrail } from './audit';
import type { Metrics } from './metrics';

/** A call's state with what its handler's answer meant, for the request line (observe-requests.ts). */
export interface AnsweredCallState extends CallState {
  answered?: PinOutcome;
}

/** The word the request line and `pin_requests_total` give a call its handler answered: its PIN outcome, if any. */
export const answeredOutcome = (ctx: CallContext): string | undefined => (ctx.state as AnsweredCallState).answered;

export function auditedOutcomes(trail: AuditTrail, metrics: Metrics): Outcomes {
  // One object a line, its fields in the line's order: an undefined one is left out of the line.
  const record = (outcome: AuditOutcome, stateKeyHash: string, caller: Caller | undefined, attempts?: number, lockedUntilMs?: number) =>
    trail.record({
      outcome,
      fingerprint: fingerprintOf(stateKeyHash),
      address: caller?.ip,
      variant: caller?.state.variant,
      operation: caller?.state.operation,
      id: caller?.state.requestId,
      attempts,
      until: lockedUntilMs === undefined ? undefined : new Date(lockedUntilMs).toISOString(),
    });
  return {
    ready: () => trail.ready(),
    validated(outcome, stateKeyHash, caller, attempts, lockedUntilMs) {
      // `locked` follows the call's own outcome (wrong or replay); `throttled` is the error answer's.
      if (caller && outcome !== 'locked' && outcome !== 'throttled') (caller.state as AnsweredCallState).answered = outcome;
      if (outcome === 'replay') metrics.replayRejections.inc();
      else if (outcome === 'throttled') metrics.throttled.inc();
      record(outcome, stateKeyHash, caller, attempts, lockedUntilMs);
    },
    paired: (stateKeyHash, caller) => record('paired', stateKeyHash, caller),
  };
}
