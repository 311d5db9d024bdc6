/**
 * TOTP (RFC 6238): HOTP over the number of whole periods since the Unix epoch (T0 = 0).
 */
import { createHmacSigner, type HashAlgorithm } from './hmac';
import { createHotpGenerator, hotp } from './hotp';

export interface TotpParams {
  algorithm: HashAlgorithm;
  digits: number;
  period: number;
}

/** The time step containing `unixSeconds`: floor(unixSeconds / period). */
export function timeStep(unixSeconds: number, period: number): number {
  if (!Number.isSafeInteger(period) || period <= 0) {
    throw new RangeError('The TOTP period must be a positive integer number of seconds.');
  }
  if (!Number.isFinite(unixSeconds)) throw new RangeError('The time must be a finite number of seconds.');
  return Math.floor(unixSeconds / period);
}

/** The TOTP value at `unixSeconds`. */
export function totp(key: Uint8Array, params: TotpParams, unixSeconds: number): string {
  const step = timeStep(unixSeconds, params.period);
  return hotp(createHmacSigner(params.algorithm, key), step, params.digits);
}

/**
 * Looks for `pin` among the steps within `window` of the current one and
 * returns the matching step (the closest to now wins), or null.
 */
export function matchTotp(key: Uint8Array, params: TotpParams, pin: string, unixSeconds: number, window: number): number | null {
  if (!Number.isSafeInteger(window) || window < 0) {
    throw new RangeError('The TOTP window must be a non-negative integer.');
  }
  const current = timeStep(unixSeconds, params.period);
  // Cheap rejection first: a malformed PIN can never match, so don't spend HMACs on it.
  if (pin.length !== params.digits || !DIGITS.test(pin)) return null;
  const given = Number(pin);

  const value = createHotpGenerator(params.algorithm, key, params.digits); // one key schedule for the whole window
  for (let distance = 0; distance <= window; distance++) {
    // Current step, then -1, +1, -2, +2 …: the first hit is the one closest to now.
    for (let side = distance === 0 ? 1 : -1; side <= 1; side += 2) {
      const step = current + side * distance;
      if (step < 0 || !Number.isSafeInteger(step)) continue;
      // Whole numbers compared at once (one machine comparison): the time taken does not tell how many
      // leading digits of a guess were right, as a digit-by-digit string comparison could.
      if (value(step) === given) return step;
    }
  }
  return null;
}

const DIGITS = /^[0-9]+$/;
