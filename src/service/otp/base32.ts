/**
 * RFC 4648 Base32 (alphabet A-Z 2-7), as used for TOTP secrets in authenticator apps.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Reverse lookup: character code (upper case) -> 5-bit value, -1 when not in the alphabet. */
const DECODE_TABLE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** Thrown when a text is not valid Base32; the message never repeats the input (it may be a secret). */
export class Base32Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Base32Error';
  }
}

/** Encodes bytes as upper-case Base32 without `=` padding (authenticator apps do not want it). */
export function encodeBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0; // pending bits, at most 12 at any time so it never overflows
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >>> bits) & 31];
    }
    buffer &= (1 << bits) - 1; // drop already emitted bits
  }
  // The last group is zero-filled on the right, as RFC 4648 §6 requires.
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * Decodes Base32, case-insensitively, ignoring spaces and `=` wherever they are
 * (people type secrets in groups and copy them with or without padding).
 */
export function decodeBase32(text: string): Buffer {
  const values: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x3d) continue; // space, '='
    // Fold a-z onto A-Z; anything outside ASCII fails the table lookup.
    const upper = code >= 0x61 && code <= 0x7a ? code - 0x20 : code;
    const value = upper < 128 ? DECODE_TABLE[upper] : -1;
    if (value < 0) {
      throw new Base32Error('The text contains a character that is not valid in Base32.');
    }
    values.push(value);
  }
  // A trailing group of 1, 3 or 6 characters cannot come from whole bytes.
  const rest = values.length % 8;
  if (rest === 1 || rest === 3 || rest === 6) {
    throw new Base32Error('The Base32 text has an impossible length.');
  }
  const out = Buffer.alloc(Math.floor((values.length * 5) / 8));
  if (out.length === 0) throw new Base32Error('The Base32 text decodes to nothing.');
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const value of values) {
    buffer = ((buffer << 5) | value) & 0xfff; // keep 12 bits: enough for 7 pending + 5 new
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >>> bits) & 0xff;
    }
  }
  // Leftover bits (< 5) are the zero fill of the last group; non-zero fill is tolerated.
  return out;
}
