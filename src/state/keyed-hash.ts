import { createHmac, randomBytes } from 'node:crypto';

/**
 * State is keyed by HMAC-SHA-256(stateKey, secret key bytes), so neither the
 * store nor anyone reading it learns a secret, and the same secret maps to
 * the same entry in every process that shares the state key.
 */
export function createStateKeyHasher(stateKey: string | undefined): (secretKey: Uint8Array) => string {
  const key = stateKey ? Buffer.from(stateKey, 'utf8') : randomBytes(32);
  return (secretKey) => createHmac('sha256', key).update(secretKey).digest('base64url');
}
