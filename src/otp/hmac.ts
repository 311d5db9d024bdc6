/**
 * HMAC (RFC 2104) with the key's pad states precomputed once, so that signing
 * many messages with one key (e.g. a window of TOTP counters) costs two
 * compression-function runs per short message and no key schedule.
 *
 * SHA-1 and SHA-256 run here, in plain 32-bit integer arithmetic (FIPS 180-4):
 * for TOTP's 8-byte messages, node:crypto's per-call cost (a native object
 * per hash, copies of the pad states) is several times the hashing itself,
 * and ValidatePin computes up to 2·window + 1 of them per call. There are no
 * table look-ups indexed by secret data and no data-dependent branches.
 * SHA-512 (64-bit words) is left to node:crypto. test/otp/hmac.test.ts
 * compares every path with createHmac.
 */
import { createHash, createHmac } from 'node:crypto';

export type HashAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

interface HashInfo {
  readonly nodeName: string;
  readonly blockSize: number;
}

const HASHES: Readonly<Record<HashAlgorithm, HashInfo>> = {
  SHA1: { nodeName: 'sha1', blockSize: 64 },
  SHA256: { nodeName: 'sha256', blockSize: 64 },
  SHA512: { nodeName: 'sha512', blockSize: 128 },
};

/** A 64-byte-block hash computed here: its initial state and compression function. */
interface Engine {
  /** State words: 5 (SHA-1) or 8 (SHA-256); the digest is the state, big-endian. */
  readonly words: number;
  readonly init: readonly number[];
  /** Compresses the 16 words in w[0..15] into state (w is scratch beyond 16). */
  compress(state: Int32Array, w: Int32Array): void;
}

const SHA1: Engine = {
  words: 5,
  init: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0],
  compress(s, w) {
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = s[0], b = s[1], c = s[2], d = s[3], e = s[4];
    let t = 0;
    for (; t < 20; t++) {
      const temp = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[t]) | 0;
      e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = temp;
    }
    for (; t < 40; t++) {
      const temp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w[t]) | 0;
      e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = temp;
    }
    for (; t < 60; t++) {
      const temp = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + 0x8f1bbcdc + w[t]) | 0;
      e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = temp;
    }
    for (; t < 80; t++) {
      const temp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0xca62c1d6 + w[t]) | 0;
      e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = temp;
    }
    s[0] = (s[0] + a) | 0;
    s[1] = (s[1] + b) | 0;
    s[2] = (s[2] + c) | 0;
    s[3] = (s[3] + d) | 0;
    s[4] = (s[4] + e) | 0;
  },
};

const K256 = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const SHA256: Engine = {
  words: 8,
  init: [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19],
  compress(s, w) {
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15];
      const y = w[t - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    let a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K256[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    s[0] = (s[0] + a) | 0;
    s[1] = (s[1] + b) | 0;
    s[2] = (s[2] + c) | 0;
    s[3] = (s[3] + d) | 0;
    s[4] = (s[4] + e) | 0;
    s[5] = (s[5] + f) | 0;
    s[6] = (s[6] + g) | 0;
    s[7] = (s[7] + h) | 0;
  },
};

const ENGINES: Partial<Record<HashAlgorithm, Engine>> = { SHA1, SHA256 };

function hashInfo(algorithm: HashAlgorithm): HashInfo {
  // Runtime check too: the type does not protect plain-JS or config-driven callers.
  const info = Object.prototype.hasOwnProperty.call(HASHES, algorithm) ? HASHES[algorithm] : undefined;
  if (info === undefined) throw new RangeError('Unsupported HMAC hash algorithm.');
  return info;
}

/** Loads 16 big-endian words from bytes[offset..offset+64) into w[0..15]. */
function loadBlock(w: Int32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const o = offset + 4 * i;
    w[i] = (bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3];
  }
}

// Scratch: everything here runs synchronously, so one of each serves every signer. (An 80-word typed
// array costs more to allocate than a whole HMAC of a short message.)
const KEY_BLOCK = new Uint8Array(64);
const SCRATCH = new Int32Array(80);

/** The inner and outer pad states of an HMAC key: one compression each, done once per key. */
function padStates(engine: Engine, nodeName: string, key: Uint8Array): { inner: Int32Array; outer: Int32Array } {
  // RFC 2104: keys longer than a block are replaced by their hash, then zero-padded.
  const block = KEY_BLOCK;
  const w = SCRATCH;
  block.fill(0);
  block.set(key.length > 64 ? createHash(nodeName).update(key).digest() : key);
  const inner = new Int32Array(engine.words);
  const outer = new Int32Array(engine.words);
  for (let i = 0; i < engine.words; i++) inner[i] = outer[i] = engine.init[i];
  for (let i = 0; i < 16; i++) {
    const o = 4 * i;
    w[i] = ((block[o] << 24) | (block[o + 1] << 16) | (block[o + 2] << 8) | block[o + 3]) ^ 0x36363636;
  }
  engine.compress(inner, w);
  for (let i = 0; i < 16; i++) {
    const o = 4 * i;
    w[i] = ((block[o] << 24) | (block[o + 1] << 16) | (block[o + 2] << 8) | block[o + 3]) ^ 0x5c5c5c5c;
  }
  engine.compress(outer, w);
  // Don't leave the padded key lying around longer than needed.
  block.fill(0);
  w.fill(0);
  return { inner, outer };
}

/**
 * Hashes `message` into `state` (which holds the state after `prefixBytes`
 * bytes, whole blocks, e.g. a pad block), padding included; `w` is scratch.
 */
function finishHash(engine: Engine, state: Int32Array, message: Uint8Array, prefixBytes: number, w: Int32Array): void {
  let offset = 0;
  for (; offset + 64 <= message.length; offset += 64) {
    loadBlock(w, message, offset);
    engine.compress(state, w);
  }
  // The rest, then 0x80, zeros, and the length in bits as a 64-bit big-endian number: one or two blocks.
  const rest = message.length - offset;
  w.fill(0, 0, 16);
  for (let i = 0; i < rest; i++) w[i >> 2] |= message[offset + i] << (24 - 8 * (i & 3));
  w[rest >> 2] |= 0x80 << (24 - 8 * (rest & 3));
  if (rest > 55) {
    engine.compress(state, w);
    w.fill(0, 0, 16);
  }
  const bits = (prefixBytes + message.length) * 8;
  w[14] = Math.floor(bits / 0x1_0000_0000);
  w[15] = bits | 0;
  engine.compress(state, w);
}

function stateBytes(state: Int32Array, out: Uint8Array): Uint8Array {
  for (let i = 0; i < state.length; i++) {
    const v = state[i];
    out[4 * i] = v >>> 24;
    out[4 * i + 1] = v >>> 16;
    out[4 * i + 2] = v >>> 8;
    out[4 * i + 3] = v;
  }
  return out;
}

/** Returns a function computing HMAC-`algorithm`(key, message). */
export function createHmacSigner(algorithm: HashAlgorithm, key: Uint8Array): (message: Uint8Array) => Buffer {
  const { nodeName } = hashInfo(algorithm);
  const engine = ENGINES[algorithm];
  if (engine === undefined) {
    const copy = Buffer.from(key); // the caller may reuse its array
    return (message) => createHmac(nodeName, copy).update(message).digest();
  }
  const { inner, outer } = padStates(engine, nodeName, key);
  const state = new Int32Array(engine.words);
  const innerDigest = new Uint8Array(engine.words * 4);
  return (message: Uint8Array): Buffer => {
    state.set(inner);
    finishHash(engine, state, message, 64, SCRATCH);
    stateBytes(state, innerDigest);
    state.set(outer);
    finishHash(engine, state, innerDigest, 64, SCRATCH);
    return Buffer.from(stateBytes(state, new Uint8Array(engine.words * 4)).buffer);
  };
}

/**
 * Returns a function computing HMAC-`algorithm`(key, counter as 8 bytes
 * big-endian), the message of HOTP (RFC 4226), with no allocation per call:
 * the answer is one array, overwritten by the next call.
 */
export function createCounterSigner(algorithm: HashAlgorithm, key: Uint8Array): (counter: number) => Uint8Array {
  const { nodeName } = hashInfo(algorithm);
  const engine = ENGINES[algorithm];
  if (engine === undefined) {
    const sign = createHmacSigner(algorithm, key);
    const message = Buffer.alloc(8);
    return (counter) => {
      message.writeUInt32BE(Math.floor(counter / 0x1_0000_0000), 0);
      message.writeUInt32BE(counter % 0x1_0000_0000, 4);
      return sign(message);
    };
  }
  const { inner, outer } = padStates(engine, nodeName, key);
  const n = engine.words;
  const state = new Int32Array(n);
  const w = SCRATCH;
  const mac = new Uint8Array(n * 4);
  return (counter) => {
    // Inner hash: one block after the pad block: the counter, 0x80, zeros, the length (64 + 8 bytes) in bits.
    state.set(inner);
    w.fill(0, 0, 16);
    w[0] = Math.floor(counter / 0x1_0000_0000);
    w[1] = counter % 0x1_0000_0000 | 0;
    w[2] = 0x80000000 | 0;
    w[15] = (64 + 8) * 8;
    engine.compress(state, w);
    // Outer hash: one block after the pad block: the inner digest, 0x80, zeros, the length in bits.
    w.fill(0, 0, 16);
    for (let i = 0; i < n; i++) w[i] = state[i];
    w[n] = 0x80000000 | 0;
    w[15] = (64 + n * 4) * 8;
    state.set(outer);
    engine.compress(state, w);
    return stateBytes(state, mac);
  };
}
