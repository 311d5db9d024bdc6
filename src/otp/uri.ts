/**
 * The otpauth:// Key URI Format read by authenticator apps when scanning a QR code.
 */
import type { HashAlgorithm } from './hmac';

export interface OtpauthUriParams {
  issuer?: string;
  account: string;
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
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

/** Builds `otpauth://totp/[ISSUER:]ACCOUNT?secret=…[&issuer=…]`, adding only non-default parameters. */
export function otpauthUri(p: OtpauthUriParams): string {
  const issuer = p.issuer === undefined || p.issuer === '' ? undefined : percentEncode(p.issuer);
  // The issuer goes both in the label (older apps) and as a parameter (preferred by newer ones).
  const label = issuer === undefined ? percentEncode(p.account) : `${issuer}:${percentEncode(p.account)}`;

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
