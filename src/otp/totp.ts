/**
 * TOTP (RFC 6238): HOTP over the number of whole periods since the Unix epoch (T0 = 0).
 */
import { timingSafeEqual } from 'node:crypto';
import { createHmacSigner, type HashAlgorithm } from './hmac';
import { hotp } from './hotp';

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
export function matchTotp(
  key: Uint8Array,
  params: TotpParams,
  pin: string,
  unixSeconds: number,
  window: number,
): number | null {
  if (!Number.isSafeInteger(window) || window < 0) {
    throw new RangeError('The TOTP window must be a non-negative integer.');
  }
  const current = timeStep(unixSeconds, params.period);
  // Cheap rejection first: a malformed PIN can never match, so don't spend HMACs on it.
  if (pin.length !== params.digits || !/^[0-9]+$/.test(pin)) return null;
  const given = Buffer.from(pin, 'ascii');

  const sign = createHmacSigner(params.algorithm, key); // one key schedule for the whole window
  for (let distance = 0; distance <= window; distance++) {
    // Current step, then -1, +1, -2, +2 …: the first hit is the one closest to now.
    const candidates = distance === 0 ? [current] : [current - distance, current + distance];
    for (const step of candidates) {
      if (step < 0 || !Number.isSafeInteger(step)) continue;
      const expected = Buffer.from(hotp(sign, step, params.digits), 'ascii');
      // Constant-time: don't leak how many leading digits of a guess were right.
      if (timingSafeEqual(given, expected)) return step;
    }
  }
  return null;
}
