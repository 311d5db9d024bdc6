/**
 * HOTP (RFC 4226): an HMAC over an 8-byte big-endian counter, dynamically truncated to decimal digits.
 */
import { createCounterSigner, type HashAlgorithm } from './hmac';

/** Computes the HOTP value for `counter`, zero-padded to `digits` characters. */
export function hotp(sign: (m: Uint8Array) => Buffer, counter: number, digits: number): string {
  if (!Number.isSafeInteger(counter) || counter < 0) {
    throw new RangeError('The HOTP counter must be a non-negative safe integer.');
  }
  // Truncation yields a 31-bit number, so more than 10 digits would add only leading zeros.
  if (!Number.isInteger(digits) || digits < 1 || digits > 10) {
    throw new RangeError('The number of HOTP digits must be an integer from 1 to 10.');
  }

  const message = Buffer.alloc(8);
  // Two 32-bit writes: bitwise operators alone would truncate counters ≥ 2^32.
  message.writeUInt32BE(Math.floor(counter / 0x1_0000_0000), 0);
  message.writeUInt32BE(counter % 0x1_0000_0000, 4);

  return (truncate(sign(message)) % 10 ** digits).toString().padStart(digits, '0');
}

/** Dynamic truncation (RFC 4226 §5.3): the low nibble of the last byte picks 4 bytes, top bit cleared. */
function truncate(mac: Uint8Array): number {
  const offset = mac[mac.length - 1] & 0x0f;
  return ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
}

/** The same truncation of a MAC given as a latin1 string (one character per byte). */
function truncateLatin1(mac: string): number {
  const offset = mac.charCodeAt(mac.length - 1) & 0x0f;
  return (
    ((mac.charCodeAt(offset) & 0x7f) << 24) |
    (mac.charCodeAt(offset + 1) << 16) |
    (mac.charCodeAt(offset + 2) << 8) |
    mac.charCodeAt(offset + 3)
  );
}

/**
 * HOTP values of one key as numbers (below 10^digits; the PIN is the value
 * zero-padded to `digits`): for checking many counters of one key, without
 * building strings or buffers per counter.
 */
export function createHotpGenerator(algorithm: HashAlgorithm, key: Uint8Array, digits: number): (counter: number) => number {
  if (!Number.isInteger(digits) || digits < 1 || digits > 10) {
    throw new RangeError('The number of HOTP digits must be an integer from 1 to 10.');
  }
  const sign = createCounterSigner(algorithm, key);
  const modulus = 10 ** digits;
  return (counter) => {
    if (!Number.isSafeInteger(counter) || counter < 0) {
      throw new RangeError('The HOTP counter must be a non-negative safe integer.');
    }
    return truncateLatin1(sign(counter)) % modulus;
  };
}
