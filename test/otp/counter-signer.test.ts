import test from 'ava';
import { createHmac } from 'node:crypto';
import { createCounterSigner, createHmacSigner, type HashAlgorithm } from '../../src/otp/hmac';
import { createHotpGenerator, hotp } from '../../src/otp/hotp';

const ALGORITHMS: ReadonlyArray<readonly [HashAlgorithm, string]> = [
  ['SHA1', 'sha1'],
  ['SHA256', 'sha256'],
  ['SHA512', 'sha512'],
];
const KEY_LENGTHS = [0, 1, 10, 20, 32, 63, 64, 65, 128, 129, 256];
// Around 2^31 and 2^32 (both 32-bit halves of the 8-byte counter), and the largest safe integer.
const COUNTERS = [0, 1, 2, 255, 256, 56_666_666, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 40 + 12345, Number.MAX_SAFE_INTEGER];

function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = (i * 197 + seed * 31 + 11) & 0xff;
  return out;
}

function counterMessage(counter: number): Buffer {
  const message = Buffer.alloc(8);
  message.writeUInt32BE(Math.floor(counter / 0x1_0000_0000), 0);
  message.writeUInt32BE(counter % 0x1_0000_0000, 4);
  return message;
}

for (const [algorithm, nodeName] of ALGORITHMS) {
  test(`${algorithm}: the counter signer equals createHmac over the 8-byte counter, for every key length`, (t) => {
    for (const keyLength of KEY_LENGTHS) {
      const key = bytes(keyLength, keyLength);
      const sign = createCounterSigner(algorithm, key);
      for (const counter of COUNTERS) {
        t.deepEqual(Buffer.from(sign(counter), 'latin1'), createHmac(nodeName, key).update(counterMessage(counter)).digest(), `key ${keyLength}, counter ${counter}`);
      }
    }
  });

  test(`${algorithm}: signers of different keys used in turn do not disturb each other`, (t) => {
    const a = bytes(20, 1);
    const b = bytes(70, 2);
    const signA = createCounterSigner(algorithm, a);
    const signB = createHmacSigner(algorithm, b);
    for (const counter of COUNTERS) {
      t.deepEqual(Buffer.from(signA(counter), 'latin1'), createHmac(nodeName, a).update(counterMessage(counter)).digest());
      t.deepEqual(signB(counterMessage(counter)), createHmac(nodeName, b).update(counterMessage(counter)).digest());
    }
  });

  test(`${algorithm}: createHmacSigner equals createHmac for messages of every length up to three blocks`, (t) => {
    const key = bytes(20, 3);
    const sign = createHmacSigner(algorithm, key);
    for (let length = 0; length <= 3 * 128 + 1; length++) {
      const message = bytes(length, length);
      t.deepEqual(sign(message), createHmac(nodeName, key).update(message).digest(), `message of ${length} bytes`);
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
