/**
 * HMAC (RFC 2104) with the key's pad states precomputed once, so that signing
 * many messages with one key (e.g. a window of TOTP counters) costs two
 * compression-function runs fewer per message than createHmac.
 */
import { createHash, type Hash } from 'node:crypto';

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

/** Returns a function computing HMAC-`algorithm`(key, message). */
export function createHmacSigner(algorithm: HashAlgorithm, key: Uint8Array): (message: Uint8Array) => Buffer {
  // Runtime check too: the type does not protect plain-JS or config-driven callers.
  const info = Object.prototype.hasOwnProperty.call(HASHES, algorithm) ? HASHES[algorithm] : undefined;
  if (info === undefined) throw new RangeError('Unsupported HMAC hash algorithm.');
  const { nodeName, blockSize } = info;

  // RFC 2104: keys longer than a block are replaced by their hash, then zero-padded.
  const block = Buffer.alloc(blockSize);
  if (key.length > blockSize) createHash(nodeName).update(key).digest().copy(block);
  else block.set(key);

  const ipad = Buffer.alloc(blockSize);
  const opad = Buffer.alloc(blockSize);
  for (let i = 0; i < blockSize; i++) {
    ipad[i] = block[i] ^ 0x36;
    opad[i] = block[i] ^ 0x5c;
  }
  block.fill(0); // don't leave the padded key lying around longer than needed

  const inner: Hash = createHash(nodeName).update(ipad);
  const outer: Hash = createHash(nodeName).update(opad);

  // copy() forks the hash state after the pad block, leaving the originals reusable.
  return (message: Uint8Array): Buffer =>
    outer.copy().update(inner.copy().update(message).digest()).digest();
}
