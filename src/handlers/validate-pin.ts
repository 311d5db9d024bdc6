import type { Config } from '../config';
import { matchTotp } from '../otp/totp';
import type { ValidatePin } from '../../generated/types';
import { secretKey } from './fields';

export type ValidatePinSettings = Pick<Config, 'secretEncoding' | 'algorithm' | 'digits' | 'period' | 'driftWindow'>;

/**
 * ValidatePin: true for the PIN of a time step within the drift window.
 * Surrounding white space is ignored; anything but exactly `digits` decimal
 * digits is simply false. The secret is checked before the PIN, so a missing
 * secret is a client error even when the PIN is malformed.
 */
export function validatePin(request: ValidatePin, settings: ValidatePinSettings, nowMs: number): boolean {
  const key = secretKey(request.secretCode, settings.secretEncoding);
  const pin = (request.pin ?? '').trim();
  const step = matchTotp(key, settings, pin, Math.floor(nowMs / 1000), settings.driftWindow);
  return step !== null;
}
