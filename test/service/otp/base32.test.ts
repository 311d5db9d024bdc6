import test from 'ava';
import { Base32Error, decodeBase32, encodeBase32 } from '../../../src/service/otp/base32';

// RFC 4648 §10 test vectors, with the `=` padding removed.
const RFC_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ['', ''],
  ['f', 'MY'],
  ['fo', 'MZXQ'],
  ['foo', 'MZXW6'],
  ['foob', 'MZXW6YQ'],
  ['fooba', 'MZXW6YTB'],
  ['foobar', 'MZXW6YTBOI'],
];

// RFC 4648 §10 with the padding as published.
const PADDED: Readonly<Record<string, string>> = {
  f: 'MY======',
  fo: 'MZXQ====',
  foo: 'MZXW6===',
  foob: 'MZXW6YQ=',
  fooba: 'MZXW6YTB',
  foobar: 'MZXW6YTBOI======',
};

test('encodeBase32 matches the RFC 4648 vectors, without padding', (t) => {
  for (const [plain, encoded] of RFC_VECTORS) {
    t.is(encodeBase32(Buffer.from(plain, 'ascii')), encoded, plain);
  }
});

test('decodeBase32 matches the RFC 4648 vectors', (t) => {
  for (const [plain, encoded] of RFC_VECTORS) {
    if (plain === '') continue; // empty result is an error, tested below
    t.deepEqual(decodeBase32(encoded), Buffer.from(plain, 'ascii'), encoded);
  }
});

test('decodeBase32 accepts lower case, spaces and = padding anywhere', (t) => {
  for (const [plain, padded] of Object.entries(PADDED)) {
    t.is(decodeBase32(padded).toString('ascii'), plain, padded);
    t.is(decodeBase32(padded.toLowerCase()).toString('ascii'), plain, padded.toLowerCase());
  }
  t.is(decodeBase32('mzxw 6ytb oi').toString('ascii'), 'foobar');
  t.is(decodeBase32(' MzXw6YtBoI ').toString('ascii'), 'foobar');
  t.is(decodeBase32('MZ=XW6=YTBOI==').toString('ascii'), 'foobar');
});

test('decodeBase32 rejects characters outside the alphabet', (t) => {
  for (const bad of ['MZXW1YTB', 'MZXW0YTB', 'MZXW8YTB', 'MZXW!YTB', 'MZXW-YTB', 'MZXW\tYTB', 'MZXWéYTB']) {
    t.throws(() => decodeBase32(bad), { instanceOf: Base32Error }, JSON.stringify(bad));
  }
});

test('decodeBase32 rejects impossible lengths', (t) => {
  // Trailing groups of 1, 3 or 6 characters cannot encode whole bytes.
  for (const bad of ['M', 'MZX', 'MZXW6Y', 'MZXW6YTBM', 'MZXW6YTBOIA', 'MZXW6YTBOIAAAA', 'MZX=====']) {
    t.throws(() => decodeBase32(bad), { instanceOf: Base32Error }, bad);
  }
});

test('decodeBase32 rejects an empty result', (t) => {
  for (const bad of ['', '   ', '========', ' = = ']) {
    t.throws(() => decodeBase32(bad), { instanceOf: Base32Error }, JSON.stringify(bad));
  }
});

test('Base32Error is an Error whose message does not repeat the input', (t) => {
  for (const input of ['SUPERSECRETKEY1XYZ', 'SUPERSECRETKEYXYZ', 'SUPER!SECRET']) {
    const error = t.throws(() => decodeBase32(input), { instanceOf: Base32Error });
    t.true(error instanceof Error);
    t.false(error!.message.includes(input));
    t.false(error!.message.toUpperCase().includes('SECRET'));
    t.regex(error!.message, /^[A-Z][^\n]*\.$/); // one short sentence
  }
});

test('encode then decode round-trips every byte value at every tail length', (t) => {
  for (let length = 1; length <= 21; length++) {
    const bytes = Buffer.alloc(length);
    for (let i = 0; i < length; i++) bytes[i] = (i * 97 + length * 31 + 255) & 0xff;
    const encoded = encodeBase32(bytes);
    t.regex(encoded, /^[A-Z2-7]*$/);
    t.is(encoded.length, Math.ceil((length * 8) / 5));
    t.deepEqual(decodeBase32(encoded), bytes);
  }
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  t.deepEqual(decodeBase32(encodeBase32(all)), all);
});
