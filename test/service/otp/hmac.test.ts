/**
 * createHmacSigner against the RFCs' published HMAC values: RFC 2202 for HMAC-SHA-1 and RFC 4231 for
 * HMAC-SHA-256 and -512 (test case 5, a truncated output, left out), keys shorter than, equal to and longer
 * than a hash block. PINs go through createCounterSigner, checked by the RFC 4226 and 6238 vectors of
 * hotp.test.ts and totp.test.ts.
 */
import test from 'ava';
import { createHmacSigner, type HashAlgorithm } from '../../../src/service/otp/hmac';

const text = (s: string) => Buffer.from(s, 'utf8');
const repeated = (byte: number, length: number) => Buffer.alloc(length, byte);
const LONG_KEY_TEXT = 'Test Using Larger Than Block-Size Key - Hash Key First';
const LONG_DATA =
  'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.';
const COUNTING_KEY = Buffer.from('0102030405060708090a0b0c0d0e0f10111213141516171819', 'hex');

const VECTORS: ReadonlyArray<readonly [source: string, algorithm: HashAlgorithm, key: Buffer, data: Buffer, mac: string]> = [
  ['RFC 2202 1', 'SHA1', repeated(0x0b, 20), text('Hi There'), 'b617318655057264e28bc0b6fb378c8ef146be00'],
  ['RFC 2202 2', 'SHA1', text('Jefe'), text('what do ya want for nothing?'), 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79'],
  ['RFC 2202 6', 'SHA1', repeated(0xaa, 80), text(LONG_KEY_TEXT), 'aa4ae5e15272d00e95705637ce8a3b55ed402112'],
  ['RFC 4231 1', 'SHA256', repeated(0x0b, 20), text('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
  [
    'RFC 4231 2',
    'SHA256',
    text('Jefe'),
    text('what do ya want for nothing?'),
    '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  ],
  ['RFC 4231 3', 'SHA256', repeated(0xaa, 20), repeated(0xdd, 50), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
  ['RFC 4231 4', 'SHA256', COUNTING_KEY, repeated(0xcd, 50), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
  ['RFC 4231 6', 'SHA256', repeated(0xaa, 131), text(LONG_KEY_TEXT), '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
  ['RFC 4231 7', 'SHA256', repeated(0xaa, 131), text(LONG_DATA), '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2'],
  [
    'RFC 4231 1',
    'SHA512',
    repeated(0x0b, 20),
    text('Hi There'),
    '87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854',
  ],
  [
    'RFC 4231 2',
    'SHA512',
    text('Jefe'),
    text('what do ya want for nothing?'),
    '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
  ],
  [
    'RFC 4231 3',
    'SHA512',
    repeated(0xaa, 20),
    repeated(0xdd, 50),
    'fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb',
  ],
  [
    'RFC 4231 4',
    'SHA512',
    COUNTING_KEY,
    repeated(0xcd, 50),
    'b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd',
  ],
  [
    'RFC 4231 6',
    'SHA512',
    repeated(0xaa, 131),
    text(LONG_KEY_TEXT),
    '80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598',
  ],
  [
    'RFC 4231 7',
    'SHA512',
    repeated(0xaa, 131),
    text(LONG_DATA),
    'e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58',
  ],
];

test('RFC 2202 and RFC 4231 test cases, each signed twice with one signer', (t) => {
  for (const [source, algorithm, key, data, mac] of VECTORS) {
    const sign = createHmacSigner(algorithm, key);
    t.is(sign(data).toString('hex'), mac, `${source}, ${algorithm}`);
    t.is(sign(data).toString('hex'), mac, `${source}, ${algorithm}, again`);
  }
});

test('the signer does not depend on later changes to the key array', (t) => {
  const key = Buffer.from('Jefe');
  const sign = createHmacSigner('SHA256', key);
  key.fill(0);
  t.is(sign(text('what do ya want for nothing?')).toString('hex'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
});

test('an unknown algorithm is refused', (t) => {
  for (const algorithm of ['MD5', 'sha1', 'toString']) {
    t.throws(() => createHmacSigner(algorithm as HashAlgorithm, repeated(1, 20)), { instanceOf: RangeError }, algorithm);
  }
});
