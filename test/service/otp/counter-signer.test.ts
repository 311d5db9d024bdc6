import test from 'ava';
import { createHmac } from 'node:crypto';
import { createCounterSigner, createHmacSigner, type HashAlgorithm } from '../../../src/service/otp/hmac';
import { createHotpGenerator, hotp } from '../../../src/service/otp/hotp';

const ALGORITHMS: ReadonlyArray<readonly [HashAlgorithm, string]> = [
  ['SHA1', 'sha1'],
  ['SHA256', 'sha256'],
  ['SHA512', 'sha512'],
];
// Around 2^31 and 2^32 (both 32-bit halves of the 8-byte counter), and the largest safe integer.
const COUNTERS = [
  0,
  1,
  2,
  255,
  256,
  56_666_666,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 32 + 1,
  2 ** 40 + 12345,
  Number.MAX_SAFE_INTEGER,
];

function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = (i * 197 + seed * 31 + 11) & 0xff;
  return out;
}

/** The 8-byte big-endian counter, written independently of hmac.ts (one 64-bit write). */
function counterMessage(counter: number): Buffer {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  return message;
}

for (const [algorithm, nodeName] of ALGORITHMS) {
  test(`${algorithm}: the counter signer signs the counter as 8 bytes big-endian, across both 32-bit halves`, (t) => {
    const key = bytes(20, 3);
    const sign = createCounterSigner(algorithm, key);
    for (const counter of COUNTERS) {
      t.deepEqual(
        Buffer.from(sign(counter), 'latin1'),
        createHmac(nodeName, key).update(counterMessage(counter)).digest(),
        `counter ${counter}`,
      );
    }
  });

  test(`${algorithm}: counter signers of different keys used in turn do not disturb each other (they share one message buffer)`, (t) => {
    const a = bytes(20, 1);
    const b = bytes(70, 2);
    const signA = createCounterSigner(algorithm, a);
    const signB = createCounterSigner(algorithm, b);
    for (const counter of COUNTERS) {
      const other = counter === Number.MAX_SAFE_INTEGER ? 0 : counter + 1;
      t.deepEqual(Buffer.from(signA(counter), 'latin1'), createHmac(nodeName, a).update(counterMessage(counter)).digest());
      t.deepEqual(Buffer.from(signB(other), 'latin1'), createHmac(nodeName, b).update(counterMessage(other)).digest());
    }
  });

  test(`${algorithm}: the HOTP generator agrees with hotp() for 6, 8 and 10 digits`, (t) => {
    const key = bytes(20, 4);
    const sign = createHmacSigner(algorithm, key);
    for (const digits of [6, 8, 10]) {
      const value = createHotpGenerator(algorithm, key, digits);
      for (const counter of COUNTERS) {
        t.is(String(value(counter)).padStart(digits, '0'), hotp(sign, counter, digits), `${digits} digits, counter ${counter}`);
      }
    }
  });
}

test('the HOTP generator refuses invalid counters and digit counts', (t) => {
  const key = bytes(20, 5);
  t.throws(() => createHotpGenerator('SHA1', key, 0), { instanceOf: RangeError });
  t.throws(() => createHotpGenerator('SHA1', key, 11), { instanceOf: RangeError });
  const value = createHotpGenerator('SHA1', key, 6);
  for (const counter of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) t.throws(() => value(counter), { instanceOf: RangeError });
});

test('the counter signer refuses an unknown algorithm', (t) => {
  t.throws(() => createCounterSigner('MD5' as HashAlgorithm, bytes(20, 1)), { instanceOf: RangeError });
});
