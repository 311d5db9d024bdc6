import test from 'ava';
import { createHmac } from 'node:crypto';
import { createHmacSigner } from '../../../src/service/otp/hmac';
import { hotp } from '../../../src/service/otp/hotp';

const SECRET = Buffer.from('12345678901234567890', 'ascii');

test('RFC 4226 Appendix D test values', (t) => {
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
  const sign = createHmacSigner('SHA1', SECRET);
  for (const [counter, value] of expected.entries()) t.is(hotp(sign, counter, 6), value, `counter ${counter}`);
});

/** HOTP written out independently: BigInt counter, createHmac, RFC 4226 §5.3 truncation. */
function referenceHotp(key: Buffer, counter: bigint, digits: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[19]! & 0xf;
  const code = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(code % 10 ** digits).padStart(digits, '0');
}

test('counters of 2^32 and above use all 8 bytes', (t) => {
  const sign = createHmacSigner('SHA1', SECRET);
  for (const counter of [2 ** 32, 2 ** 32 + 1, 2 ** 40 + 12345, Number.MAX_SAFE_INTEGER]) {
    t.is(hotp(sign, counter, 6), referenceHotp(SECRET, BigInt(counter), 6), `counter ${counter}`);
    t.is(hotp(sign, counter, 8), referenceHotp(SECRET, BigInt(counter), 8), `counter ${counter}`);
  }
  // Sanity: the high word matters, so 2^32 must not collide with counter 0.
  t.not(hotp(sign, 2 ** 32, 6), '755224');
});

test('invalid counters and digit counts are refused', (t) => {
  const sign = createHmacSigner('SHA1', SECRET);
  for (const counter of [-1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, Infinity]) {
    t.throws(() => hotp(sign, counter, 6), { instanceOf: RangeError }, String(counter));
  }
  for (const digits of [0, 11, 6.5]) {
    t.throws(() => hotp(sign, 0, digits), { instanceOf: RangeError }, String(digits));
  }
});
