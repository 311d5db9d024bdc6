/**
 * The otpauth:// Key URI Format read by authenticator apps when scanning a QR code.
 */
import type { HashAlgorithm } from './hmac';

export interface OtpauthUriParams {
  issuer?: string;
  /** May be empty or blank: the label is then the issuer alone, or `unnamed` without an issuer. */
  account: string;
  /** The label when neither issuer nor account is named; required then, as a label cannot be empty. */
  unnamed?: string;
  /** Base32, without padding. */
  secret: string;
  algorithm?: HashAlgorithm;
  digits?: number;
  period?: number;
}

const DEFAULT_ALGORITHM: HashAlgorithm = 'SHA1';
const DEFAULT_DIGITS = 6;
const DEFAULT_PERIOD = 30;

/**
 * RFC 3986 percent-encoding of the UTF-8 bytes, leaving only unreserved characters.
 * encodeURIComponent also leaves !'()* alone, and apps disagree on those, so they are escaped too.
 */
function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A name that shows as nothing (empty, or white space alone, which apps trim away) is no name. */
const named = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

/**
 * Builds `otpauth://totp/LABEL?secret=…[&issuer=…]`, adding only non-default parameters. The label is
 * `ISSUER:ACCOUNT`, `ACCOUNT` without an issuer, `ISSUER` without an account: the Key URI Format's
 * label is never empty (apps refuse such a URI), and an issuer prefix needs an account name after it.
 */
export function otpauthUri(p: OtpauthUriParams): string {
  const issuer = named(p.issuer) ? percentEncode(p.issuer) : undefined;
  let label: string;
  // The issuer goes both in the label (older apps) and as a parameter (preferred by newer ones).
  if (named(p.account)) label = issuer === undefined ? percentEncode(p.account) : `${issuer}:${percentEncode(p.account)}`;
  else if (issuer !== undefined) label = issuer;
  else if (named(p.unnamed)) label = percentEncode(p.unnamed);
  else throw new RangeError('An otpauth label needs an issuer, an account or an unnamed label.');

  let uri = `otpauth://totp/${label}?secret=${percentEncode(p.secret)}`;
  if (issuer !== undefined) uri += `&issuer=${issuer}`;
  // Defaults are left out: some apps mishandle explicit parameters even when they are the defaults.
  if (p.algorithm !== undefined && p.algorithm !== DEFAULT_ALGORITHM) uri += `&algorithm=${p.algorithm}`;
  if (p.digits !== undefined && p.digits !== DEFAULT_DIGITS) uri += `&digits=${positiveInteger(p.digits, 'digits')}`;
  if (p.period !== undefined && p.period !== DEFAULT_PERIOD) uri += `&period=${positiveInteger(p.period, 'period')}`;
  return uri;
}

function positiveInteger(value: number, name: string): string {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`The otpauth ${name} must be a positive integer.`);
  }
  return String(value);
}
