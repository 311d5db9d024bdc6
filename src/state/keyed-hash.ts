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
