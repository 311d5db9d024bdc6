/**
 * A store key (a keyed hash in base64url, keyed-hash.ts) as its record in
 * the table holds it (layout.ts: its length, then 30 bits a lane), the hash
 * that places it, and back; and a key prefix as the lanes' bits it fixes.
 * Nothing is allocated but the key a record is read back as.
 */
import { MIN_KEY_PREFIX } from '../store';
import { LANES, MAX_KEY_LENGTH, RECORD } from './layout';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const SIXBITS = new Int8Array(128).fill(-1);
for (const [i, c] of [...BASE64URL].entries()) SIXBITS[c.charCodeAt(0)] = i;

/** Writes `key`'s record into `probe` (RECORD Int32s) and answers its hash; a key that is no store key throws TypeError. */
export function encodeKey(key: string, probe: Int32Array): number {
  const length = key.length;
  if (length === 0 || length > MAX_KEY_LENGTH) throw new TypeError(`a store key is 1 to ${MAX_KEY_LENGTH} base64url characters`);
  let hash = length;
  probe[0] = hash;
  for (let lane = 0, i = 0; lane < LANES; lane++) {
    let bits = 0;
    for (const end = i + 5; i < end; i++) {
      const code = i < length ? key.charCodeAt(i) : 65; // past the end: 'A', 0 bits
      const sixBits = code < 128 ? SIXBITS[code] : -1;
      if (sixBits < 0) throw new TypeError(`a store key is 1 to ${MAX_KEY_LENGTH} base64url characters`);
      bits = (bits << 6) | sixBits;
    }
    probe[lane + 1] = bits;
    hash = Math.imul(hash ^ bits, 0x9e3779b1);
    hash ^= hash >>> 15;
  }
  return hash;
}

/** The key whose record is `slot`'s. */
export function keyOf(records: Int32Array, slot: number): string {
  const base = slot * RECORD;
  const length = records[base];
  let key = '';
  for (let lane = 0; lane < LANES && key.length < length; lane++) {
    const bits = records[base + 1 + lane];
    for (let shift = 24; shift >= 0 && key.length < length; shift -= 6) key += BASE64URL[(bits >>> shift) & 63];
  }
  return key;
}

/**
 * Writes into `wanted` the lanes' bits of a key that starts with `prefix`, as encodeKey writes a key, and into
 * `masks` which of them the prefix fixes (each LANES long, zeroed); answers how many lanes it reaches.
 * A prefix that cannot start a key throws TypeError.
 */
export function encodePrefix(prefix: string, wanted: Int32Array, masks: Int32Array): number {
  if (prefix.length < MIN_KEY_PREFIX || prefix.length > MAX_KEY_LENGTH) {
    throw new TypeError(`a key prefix is ${MIN_KEY_PREFIX} to ${MAX_KEY_LENGTH} base64url characters`);
  }
  for (let i = 0; i < prefix.length; i++) {
    const code = prefix.charCodeAt(i);
    const sixBits = code < 128 ? SIXBITS[code] : -1;
    if (sixBits < 0) throw new TypeError(`a key prefix is ${MIN_KEY_PREFIX} to ${MAX_KEY_LENGTH} base64url characters`);
    const shift = 24 - 6 * (i % 5);
    wanted[Math.floor(i / 5)] |= sixBits << shift;
    masks[Math.floor(i / 5)] |= 63 << shift;
  }
  return Math.ceil(prefix.length / 5);
}

/** Whether `slot`'s record is of a key at least `length` long whose first `lanes` lanes match the prefix's bits. */
export function startsWithPrefix(
  records: Int32Array,
  slot: number,
  length: number,
  lanes: number,
  wanted: Int32Array,
  masks: Int32Array,
): boolean {
  const base = slot * RECORD;
  if (records[base] < length) return false;
  let lane = 0;
  while (lane < lanes && (records[base + 1 + lane] & masks[lane]) === wanted[lane]) lane++;
  return lane === lanes;
}
