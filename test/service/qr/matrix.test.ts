import test from 'ava';
import { pseudoRandomText as text } from '../../support/pseudo-random-text';
import { create, type QRCode, type QRCodeSegment } from 'qrcode';
import { qrMatrix } from '../../../src/service/qr/matrix';
import { VERSION_GROUPS, optimalSegments } from '../../../src/service/qr/segments';

/**
 * qrcode's own symbol (its mask choice) for the segments qrMatrix uses: the shortest segmentation for the
 * smallest version group the text fits in.
 */
function referenceOf(input: string): QRCode {
  let last: unknown = new Error('no version group');
  for (const [group, versions] of VERSION_GROUPS.entries()) {
    try {
      const symbol = create(optimalSegments(input, group) as QRCodeSegment[], { errorCorrectionLevel: 'M' });
      if (symbol.version <= versions.highest) return symbol;
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

const ALPHABETS = [
  '0123456789', // numeric mode
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:', // alphanumeric mode
  'abcdefghijklmnopqrstuvwxyz%@&=?:/', // byte mode, like an otpauth URI
  'é€日本語ü', // multi-byte UTF-8
];

test('the same matrix as qrcode.create at level M for the same segments, for texts of every mode and many versions', (t) => {
  let compared = 0;
  const masks = new Set<number>();
  for (const [a, alphabet] of ALPHABETS.entries()) {
    for (let length = 1; length <= 400; length += 7) {
      const input = text(length, length * 7 + a, alphabet);
      let reference: QRCode;
      try {
        reference = referenceOf(input);
      } catch {
        t.throws(() => qrMatrix(input), undefined, 'too long for qrcode too');
        continue;
      }
      const ours = qrMatrix(input);
      t.is(ours.size, reference.modules.size);
      t.deepEqual(ours.data, Uint8Array.from(reference.modules.data), `${JSON.stringify(input.slice(0, 20))}… (${length} characters)`);
      masks.add(reference.maskPattern as unknown as number);
      compared++;
    }
  }
  t.true(compared > 150);
  t.true(masks.size >= 6, `the comparison covers most mask choices (${[...masks].sort().join(',')})`);
});

test('the same matrix for realistic otpauth URIs, never larger than qrcode.create(text)', (t) => {
  for (let i = 0; i < 200; i++) {
    const uri = `otpauth://totp/Example%20${i}:user${i * 7919}%40example.com?secret=${text(16 + (i % 48), i, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}&issuer=Example%20${i}`;
    t.deepEqual(qrMatrix(uri).data, Uint8Array.from(referenceOf(uri).modules.data), uri);
    t.true(
      qrMatrix(uri).size <= create(uri, { errorCorrectionLevel: 'M' }).modules.size,
      'never larger than qrcode’s own segmentation gives',
    );
  }
});
