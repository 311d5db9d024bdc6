/**
 * HOTP (RFC 4226): an HMAC over an 8-byte big-endian counter, dynamically truncated to decimal digits.
 */

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

  const mac = sign(message);
  // Dynamic truncation (RFC 4226 §5.3): low nibble of the last byte picks 4 bytes, top bit cleared.
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fff_ffff;

  return (binary % 10 ** digits).toString().padStart(digits, '0');
}
