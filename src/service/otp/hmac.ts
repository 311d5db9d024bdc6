/**
 * HMAC (RFC 2104) from node:crypto (OpenSSL): no hashing is written here;
 * each message costs one createHmac. test/service/otp/hmac.test.ts checks it with
 * the test cases of RFC 2202 and RFC 4231.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

export type HashAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

const NODE_NAMES: Readonly<Record<HashAlgorithm, string>> = { SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };

function nodeName(algorithm: HashAlgorithm): string {
  // Runtime check too: the type does not protect plain-JS or config-driven callers.
  const name = Object.hasOwn(NODE_NAMES, algorithm) ? NODE_NAMES[algorithm] : undefined;
  if (name === undefined) throw new RangeError('Unsupported HMAC hash algorithm.');
  return name;
}

/**
 * The key as a KeyObject, which holds a copy (the caller may reuse its
 * array). With OpenSSL 3.5 (Node 24), an HMAC started from a Buffer key
 * imports the key again each time, at several times the cost of the HMAC
 * itself; started from a KeyObject it does not.
 */
function secretKeyOf(key: Uint8Array): KeyObject {
  return createSecretKey(key);
}

/** Returns a function computing HMAC-`algorithm`(key, message). */
export function createHmacSigner(algorithm: HashAlgorithm, key: Uint8Array): (message: Uint8Array) => Buffer {
  const name = nodeName(algorithm);
  const secret = secretKeyOf(key);
  return (message) => createHmac(name, secret).update(message).digest();
}

/** The 8-byte counter message, written just before each use: signing is synchronous, so one buffer serves every signer. */
const COUNTER_MESSAGE = Buffer.alloc(8);

/**
 * Returns a function computing HMAC-`algorithm`(key, counter as 8 bytes
 * big-endian), the message of HOTP (RFC 4226), as a 'binary' (latin1) string (one
 * character per byte): the MAC is read, never kept, so it needs no Buffer.
 */
export function createCounterSigner(algorithm: HashAlgorithm, key: Uint8Array): (counter: number) => string {
  const name = nodeName(algorithm);
  const secret = secretKeyOf(key);
  return (counter) => {
    COUNTER_MESSAGE.writeUInt32BE(Math.floor(counter / 0x1_0000_0000), 0);
    COUNTER_MESSAGE.writeUInt32BE(counter % 0x1_0000_0000, 4);
    return createHmac(name, secret).update(COUNTER_MESSAGE).digest('binary');
  };
}
