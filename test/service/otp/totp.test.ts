import test from 'ava';
import type { HashAlgorithm } from '../../../src/service/otp/hmac';
import { matchTotp, timeStep, totp, type TotpParams } from '../../../src/service/otp/totp';
import { totpVectors } from '../../support/vectors';

// RFC 6238 Appendix B: each algorithm has its own seed length.
const SEEDS: Readonly<Record<HashAlgorithm, Buffer>> = {
  SHA1: Buffer.from('12345678901234567890', 'ascii'),
  SHA256: Buffer.from('12345678901234567890123456789012', 'ascii'),
  SHA512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii'),
};

const RFC6238: ReadonlyArray<readonly [number, HashAlgorithm, string]> = [
  [59, 'SHA1', '94287082'],
  [59, 'SHA256', '46119246'],
  [59, 'SHA512', '90693936'],
  [1111111109, 'SHA1', '07081804'],
  [1111111109, 'SHA256', '68084774'],
  [1111111109, 'SHA512', '25091201'],
  [1111111111, 'SHA1', '14050471'],
  [1111111111, 'SHA256', '67062674'],
  [1111111111, 'SHA512', '99943326'],
  [1234567890, 'SHA1', '89005924'],
  [1234567890, 'SHA256', '91819424'],
  [1234567890, 'SHA512', '93441116'],
  [2000000000, 'SHA1', '69279037'],
  [2000000000, 'SHA256', '90698825'],
  [2000000000, 'SHA512', '38618901'],
  [20000000000, 'SHA1', '65353130'],
  [20000000000, 'SHA256', '77737706'],
  [20000000000, 'SHA512', '47863826'],
];

test('RFC 6238 Appendix B, all 18 rows', (t) => {
  t.is(RFC6238.length, 18);
  for (const [time, algorithm, expected] of RFC6238) {
    const params: TotpParams = { algorithm, digits: 8, period: 30 };
    t.is(totp(SEEDS[algorithm], params, time), expected, `${algorithm} at ${time}`);
    t.is(matchTotp(SEEDS[algorithm], params, expected, time, 0), timeStep(time, 30), `${algorithm} at ${time}`);
  }
});

test('timeStep is floor(time / period), T0 = 0', (t) => {
  // Step values from the RFC 6238 Appendix B table.
  t.is(timeStep(59, 30), 0x1);
  t.is(timeStep(1111111109, 30), 0x23523ec);
  t.is(timeStep(1111111111, 30), 0x23523ed);
  t.is(timeStep(20000000000, 30), 0x27bc86aa);
  t.is(timeStep(60, 30), 2);
  t.is(timeStep(89.9, 30), 2);
  t.is(timeStep(119, 60), 1);
  t.throws(() => timeStep(59, 0), { instanceOf: RangeError });
  t.throws(() => timeStep(Number.NaN, 30), { instanceOf: RangeError });
});

test('service reference vectors (UTF-8 key bytes, SHA1, 6 digits, 30 s)', (t) => {
  const vectors = totpVectors();
  const params: TotpParams = { algorithm: 'SHA1', digits: 6, period: 30 };
  for (const { secretCode, unixTime, pin } of vectors) {
    const key = Buffer.from(secretCode, 'utf8');
    t.is(totp(key, params, unixTime), pin, `${JSON.stringify(secretCode)} at ${unixTime}`);
  }
});

// Adjacent published steps: 1111111109 is step 0x23523EC, 1111111111 is step 0x23523ED.
const KEY = SEEDS.SHA1;
const P8: TotpParams = { algorithm: 'SHA1', digits: 8, period: 30 };
const STEP_A = 0x23523ec; // PIN 07081804
const STEP_B = 0x23523ed; // PIN 14050471
const PIN_A = '07081804';
const PIN_B = '14050471';
const timeOf = (step: number): number => step * 30 + 7;

test('matchTotp accepts the current step and returns it', (t) => {
  t.is(matchTotp(KEY, P8, PIN_B, 1111111111, 1), STEP_B);
  t.is(matchTotp(KEY, P8, PIN_A, 1111111109, 1), STEP_A);
  t.is(matchTotp(KEY, P8, '94287082', 59, 1), 1);
});

test('matchTotp with window 1 accepts the previous and next step', (t) => {
  t.is(matchTotp(KEY, P8, PIN_A, timeOf(STEP_A + 1), 1), STEP_A); // PIN from one step ago
  t.is(matchTotp(KEY, P8, PIN_B, timeOf(STEP_B - 1), 1), STEP_B); // PIN from one step ahead
});

test('matchTotp with window 1 refuses ±2 steps, window 2 accepts them', (t) => {
  t.is(matchTotp(KEY, P8, PIN_A, timeOf(STEP_A + 2), 1), null);
  t.is(matchTotp(KEY, P8, PIN_B, timeOf(STEP_B - 2), 1), null);
  t.is(matchTotp(KEY, P8, PIN_A, timeOf(STEP_A + 2), 2), STEP_A);
  t.is(matchTotp(KEY, P8, PIN_B, timeOf(STEP_B - 2), 2), STEP_B);
  t.is(matchTotp(KEY, P8, PIN_A, timeOf(STEP_A + 3), 2), null);
});

test('matchTotp with window 0 accepts only the current step', (t) => {
  t.is(matchTotp(KEY, P8, PIN_A, timeOf(STEP_A), 0), STEP_A);
  t.is(matchTotp(KEY, P8, PIN_A, timeOf(STEP_A + 1), 0), null);
  t.is(matchTotp(KEY, P8, PIN_B, timeOf(STEP_B - 1), 0), null);
});

test('matchTotp returns null for a wrong PIN', (t) => {
  t.is(matchTotp(KEY, P8, '14050472', 1111111111, 1), null);
  t.is(matchTotp(KEY, P8, '00000000', 1111111111, 1), null);
  // The PIN of another algorithm at the same time.
  t.is(matchTotp(KEY, P8, '67062674', 1111111111, 1), null);
});

test('matchTotp refuses malformed PINs (no trimming, ASCII digits only)', (t) => {
  for (const pin of [
    '',
    '1405047', // too short
    '140504710', // too long
    ' 14050471',
    '14050471 ',
    '1405 0471',
    '1405047a',
    '+4050471',
    '-4050471',
    '1.405047',
    '１４０５０４７１', // full-width digits
    '١٤٠٥٠٤٧١', // Arabic-Indic digits
  ]) {
    t.is(matchTotp(KEY, P8, pin, 1111111111, 2), null, JSON.stringify(pin));
  }
  // At 6 digits the PIN is the last six digits of the published 8-digit one; the full 8 are too long.
  const P6: TotpParams = { algorithm: 'SHA1', digits: 6, period: 30 };
  t.is(matchTotp(KEY, P6, '050471', 1111111111, 0), STEP_B);
  t.is(matchTotp(KEY, P6, '14050471', 1111111111, 0), null);
  t.is(matchTotp(KEY, P6, '\t050471', 1111111111, 0), null);
});

test('matchTotp skips steps below zero', (t) => {
  // At time 0, window 3 would reach steps -3..-1; they must be skipped, not throw.
  t.is(matchTotp(KEY, P8, '94287082', 0, 3), 1);
  t.is(matchTotp(KEY, P8, '00000000', 0, 3), null);
});

test('matchTotp refuses a negative or fractional window', (t) => {
  t.throws(() => matchTotp(KEY, P8, PIN_B, 1111111111, -1), { instanceOf: RangeError });
  t.throws(() => matchTotp(KEY, P8, PIN_B, 1111111111, 1.5), { instanceOf: RangeError });
});
