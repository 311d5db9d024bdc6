/** Checks shared by the handlers: presence, length and character set of the text fields. */
import { Base32Error, decodeBase32 } from '../otp/base32';
import type { SecretEncoding } from '../config';
import { clientError } from '../errors';

export const LIMITS = { appName: 100, appInfo: 256, secretCodeBytes: 256 } as const;

// C0 and C1 controls and DEL; tab, CR and LF are controls too and are refused as well.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A required text field: present, non-empty, no control characters, at most `max` characters. */
export function requiredText(name: string, value: string | undefined, max: number): string {
  if (value === undefined || value === '') throw clientError(`${name} is required.`);
  return checkedText(name, value, max);
}

/** An optional text field: absent or empty means none. */
export function optionalText(name: string, value: string | undefined, max: number): string | undefined {
  return value === undefined || value === '' ? undefined : checkedText(name, value, max);
}

function checkedText(name: string, value: string, max: number): string {
  if ([...value].length > max) throw clientError(`${name} must be at most ${max} characters long.`);
  if (CONTROL.test(value)) throw clientError(`${name} must not contain control characters.`);
  return value;
}

/** The TOTP key a secretCode stands for, per the configured encoding. */
export function secretKey(secretCode: string | undefined, encoding: SecretEncoding): Buffer {
  if (secretCode === undefined || secretCode === '') throw clientError('secretCode is required.');
  if (Buffer.byteLength(secretCode, 'utf8') > LIMITS.secretCodeBytes) {
    throw clientError(`secretCode must be at most ${LIMITS.secretCodeBytes} bytes long.`);
  }
  if (CONTROL.test(secretCode)) throw clientError('secretCode must not contain control characters.');
  if (encoding === 'utf8') return Buffer.from(secretCode, 'utf8');
  try {
    return decodeBase32(secretCode);
  } catch (error) {
    if (error instanceof Base32Error) throw clientError('secretCode is not valid Base32.');
    throw error;
  }
}
