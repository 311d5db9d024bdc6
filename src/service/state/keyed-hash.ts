import { createHmac, createSecretKey, randomBytes } from 'node:crypto';

/**
 * State is keyed by HMAC-SHA-256(stateKey, secret key bytes), so neither the
 * store nor anyone reading it learns a secret, and the same secret maps to
 * the same entry in every process that shares the state key. The state key
 * is fixed for the process, so it is made a KeyObject once: each HMAC then
 * starts from it without importing the key again.
 */
export function createStateKeyHasher(stateKey: string | undefined): (secretKey: Uint8Array) => string {
  const key = createSecretKey(stateKey ? Buffer.from(stateKey, 'utf8') : randomBytes(32));
  return (secretKey) => createHmac('sha256', key).update(secretKey).digest('base64url');
}

/**
 * A secret's fingerprint, the name an operator sees for it (audit lines,
 * secret-status, unlock): the first 72 bits of its keyed hash, in hex. It
 * says nothing of the secret without the state key, it is the same in every
 * process sharing the state key, and it costs no hash of its own: 12
 * base64url characters of the store key are exactly 9 bytes.
 */
export function fingerprintOf(stateKeyHash: string): string {
  return Buffer.from(stateKeyHash.slice(0, FINGERPRINT_KEY_CHARACTERS), 'base64url').toString('hex');
}

/** The characters of a store key a fingerprint stands for. */
const FINGERPRINT_KEY_CHARACTERS = 12;

/** What a fingerprint looks like: 18 lower-case hex digits. */
export const FINGERPRINT = /^[0-9a-f]{18}$/;

/** The start of the store keys a fingerprint stands for (store.keysStartingWith); the fingerprint must match FINGERPRINT. */
export function keyPrefixOf(fingerprint: string): string {
  return Buffer.from(fingerprint, 'hex').toString('base64url');
}
