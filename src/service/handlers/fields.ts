/** Checks shared by the handlers: presence, length and character set of the text fields. */
import { Base32Error, decodeBase32 } from '../otp/base32';
import type { SecretEncoding } from '../config';
import { clientError } from '../../runtime/handler';

export const LIMITS = { appName: 100, appInfo: 256, secretCodeBytes: 256 } as const;

// What XML 1.0 cannot carry (its Char production): C0 controls other than tab, LF and CR, U+FFFE and
// U+FFFF, and unpaired surrogates (strict UTF-8 decoding already refuses those in bytes). Tab, LF and CR
// are legal in XML, forms and queries, and are part of the key bytes, as in the original.
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML cannot carry, matched to be refused
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds a character that no XML document can carry. */
export function hasNonXmlCharacter(value: string): boolean {
  return NOT_XML_CHAR.test(value);
}

function notXmlMessage(name: string): string {
  return `${name} must not contain characters XML cannot carry (control characters other than tab, line feed and carriage return).`;
}

/** A text field that must be given but may be empty (Pair's appInfo, as the original takes it). */
export function presentText(name: string, value: string | undefined, max: number): string {
  if (value === undefined) throw clientError(`${name} is required.`);
  return checkedText(name, value, max);
}

/** An optional text field: absent or empty means none. */
export function optionalText(name: string, value: string | undefined, max: number): string | undefined {
  return value === undefined || value === '' ? undefined : checkedText(name, value, max);
}

function checkedText(name: string, value: string, max: number): string {
  if ([...value].length > max) throw clientError(`${name} must be at most ${max} characters long.`);
  if (hasNonXmlCharacter(value)) throw clientError(notXmlMessage(name));
  return value;
}

/** The TOTP key a secretCode stands for, per the configured encoding. */
export function secretKey(secretCode: string | undefined, encoding: SecretEncoding): Buffer {
  if (secretCode === undefined || secretCode === '') throw clientError('secretCode is required.');
  if (Buffer.byteLength(secretCode, 'utf8') > LIMITS.secretCodeBytes) {
    throw clientError(`secretCode must be at most ${LIMITS.secretCodeBytes} bytes long.`);
  }
  if (hasNonXmlCharacter(secretCode)) throw clientError(notXmlMessage('secretCode'));
  if (encoding === 'utf8') return Buffer.from(secretCode, 'utf8');
  try {
    return decodeBase32(secretCode);
  } catch (error) {
    if (error instanceof Base32Error) throw clientError('secretCode is not valid Base32.');
    throw error;
  }
}
