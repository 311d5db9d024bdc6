import test from 'ava';
import { createHmac } from 'node:crypto';
import { createHmacSigner, type HashAlgorithm } from '../../src/otp/hmac';

const ALGORITHMS: ReadonlyArray<readonly [HashAlgorithm, string]> = [
  ['SHA1', 'sha1'],
  ['SHA256', 'sha256'],
  ['SHA512', 'sha512'],
];
// Around both block sizes (64 and 128): empty, short, typical, exact, one over, and hashed keys.
const KEY_LENGTHS = [0, 1, 20, 64, 65, 128, 200];

function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = (i * 131 + seed * 17 + 7) & 0xff;
  return out;
}

const MESSAGES = [Buffer.alloc(0), bytes(8, 1), bytes(8, 2), bytes(1, 3), bytes(64, 4), bytes(300, 5)];

for (const [algorithm, nodeName] of ALGORITHMS) {
  for (const keyLength of KEY_LENGTHS) {
    test(`${algorithm} with a ${keyLength}-byte key equals createHmac, signer reused`, (t) => {
      const key = bytes(keyLength, keyLength);
      const sign = createHmacSigner(algorithm, key);
      // Same signer, several messages, and a repeat: the precomputed state must not be consumed.
      for (const message of [...MESSAGES, ...MESSAGES]) {
        t.deepEqual(sign(message), createHmac(nodeName, key).update(message).digest());
      }
    });
  }
}

test('the signer does not depend on later changes to the key array', (t) => {
  const key = bytes(20, 9);
  const expected = createHmac('sha1', key).update('abc').digest();
  const sign = createHmacSigner('SHA1', key);
  key.fill(0);
  t.deepEqual(sign(Buffer.from('abc')), expected);
});

test('an unknown algorithm is refused', (t) => {
  t.throws(() => createHmacSigner('MD5' as HashAlgorithm, bytes(20, 1)), { instanceOf: RangeError });
});
