import type { Config } from '../config';
import { type Call, ServiceError } from '../../runtime/handler';
import { matchTotp } from '../otp/totp';
import { StoreUnavailableError } from '../state/store';
import type { ValidatePin } from '../../../generated/types';
import type { Clock, OperationHandler, ServiceState } from './by-convention';
import { secretKey } from './fields';

export type ValidatePinSettings = Pick<
  Config,
  'secretEncoding' | 'algorithm' | 'digits' | 'period' | 'driftWindow' | 'replayProtection' | 'throttleAttempts' | 'throttleWindowSeconds'
>;

/** Where ValidatePin keeps what it must remember: replay and throttle state, keyed by a keyed hash. */
export type ValidationState = ServiceState;

/**
 * ValidatePin: true only for the PIN of a time step within the drift window,
 * not accepted before for this secret (replay protection, RFC 6238 §5.2),
 * while the secret is not throttled.
 *
 * Every call is counted before the PIN is checked and a success clears the
 * count, so no more than `throttleAttempts` PINs are ever checked per window,
 * however many calls race. Surrounding white space is ignored; anything but
 * exactly `digits` decimal digits is simply false.
 */
export async function checkPin(
  request: ValidatePin,
  settings: ValidatePinSettings,
  nowMs: number,
  state: ValidationState,
  call?: Call,
): Promise<boolean> {
  const key = secretKey(request.secretCode, settings.secretEncoding);
  const id = state.stateKeyOf(key);
  const outcomes = state.outcomes;
  outcomes?.ready();
  let attempts: number | undefined;
  let lockedUntilMs = 0;
  if (settings.throttleAttempts > 0) {
    const count = await state.store.countAttempt(id, settings.throttleWindowSeconds * 1000, settings.throttleAttempts);
    attempts = count.attempts;
    lockedUntilMs = nowMs + count.resetInMs;
    if (count.attempts > settings.throttleAttempts) {
      outcomes?.validated('throttled', id, call, attempts, lockedUntilMs);
      const retryAfter = Math.max(1, Math.ceil(count.resetInMs / 1000));
      throw new ServiceError('throttled', `Too many failed validations for this secret; try again in ${retryAfter} seconds.`, retryAfter);
    }
  }
  const pin = (request.pin ?? '').trim();
  const step = matchTotp(key, settings, pin, Math.floor(nowMs / 1000), settings.driftWindow);
  const refused = (outcome: 'wrong' | 'replay') => {
    outcomes?.validated(outcome, id, call, attempts);
    // The count reached the limit with this call: from the next one on, the secret is refused until the window ends.
    if (attempts === settings.throttleAttempts) outcomes?.validated('locked', id, call, attempts, lockedUntilMs);
    return false;
  };
  if (step === null) return refused('wrong');
  if (settings.replayProtection && !(await state.store.acceptStep(id, step, replayTtlMs(settings)))) return refused('replay');
  if (settings.throttleAttempts > 0) await state.store.clearAttempts(id);
  outcomes?.validated('accepted', id, call);
  return true;
}

/** Long enough that every step up to the accepted one has left the drift window before the record expires. */
function replayTtlMs(settings: Pick<Config, 'period' | 'driftWindow'>): number {
  return (2 * settings.driftWindow + 2) * settings.period * 1000;
}

/** What ValidatePin's handler is made from: the settings it reads, the clock, its state. */
export interface ValidatePinDependencies {
  settings: ValidatePinSettings;
  clock: Clock;
  state: ValidationState;
}

/** The ValidatePin operation, failing closed: without its state, it cannot say true safely. */
export function validatePin({ settings, clock, state }: ValidatePinDependencies): OperationHandler<'ValidatePin'> {
  return async (request, call) => {
    try {
      return await checkPin(request, settings, clock.now(), state, call);
    } catch (error) {
      if (error instanceof StoreUnavailableError) {
        state.unavailable?.();
        throw new ServiceError('unavailable', 'The service cannot validate PINs right now; try again later.', undefined, error.message);
      }
      throw error;
    }
  };
}

declare module './by-convention' {
  interface HandlerModules {
    ValidatePin: typeof validatePin;
  }
}
