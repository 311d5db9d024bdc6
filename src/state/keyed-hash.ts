import { randomBytes } from 'node:crypto';
import { createHmacSigner } from '../otp/hmac';

/**
 * State is keyed by HMAC-SHA-256(stateKey, secret key bytes), so neither the
 * store nor anyone reading it learns a secret, and the same secret maps to
 * the same entry in every process that shares the state key. The state key
 * is fixed for the process, so its HMAC pad states are computed once here,
 * not once per call.
 */
export function createStateKeyHasher(stateKey: string | undefined): (secretKey: Uint8Array) => string {
  const sign = createHmacSigner('SHA256', stateKey ? Buffer.from(stateKey, 'utf8') : randomBytes(32));
  return (secretKey) => sign(secretKey).toString('base64url');
}
