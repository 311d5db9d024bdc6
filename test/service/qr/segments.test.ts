import test from 'ava';
import { pseudoRandomText as text } from '../../support/pseudo-random-text';
import { create } from 'qrcode';
import {
  VERSION_GROUPS,
  dataBits,
  headerBits,
  optimalSegments,
  streamBits,
  type Segment,
  type SegmentMode,
} from '../../../src/service/qr/segments';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const canEncode = (mode: SegmentMode, c: string) => mode === 'byte' || (mode === 'numeric' ? /^[0-9]$/.test(c) : ALPHANUMERIC.includes(c));

/** The fewest bits over every assignment of modes to characters (3^n of them), runs of one mode merged. */
function bruteForceBits(input: string, group: number): number {
  const chars = Array.from(input);
  const modes: SegmentMode[] = ['numeric', 'alphanumeric', 'byte'];
  let best = Infinity;
  const assign = (i: number, chosen: SegmentMode[]) => {
    if (i === chars.length) {
      const segments: Segment[] = [];
      chosen.forEach((mode, k) => {
        const last = segments[segments.length - 1];
        if (last && last.mode === mode) last.data += chars[k];
        else segments.push({ data: chars[k], mode });
      });
      best = Math.min(best, streamBits(segments, group));
      return;
    }
    for (const mode of modes) if (canEncode(mode, chars[i])) assign(i + 1, [...chosen, mode]);
  };
  assign(0, []);
  return best;
}

function checkWellFormed(t: import('ava').ExecutionContext, input: string, segments: Segment[]): void {
  t.is(segments.map((s) => s.data).join(''), input, 'the segments spell the text');
  for (const [i, s] of segments.entries()) {
    t.true(s.data.length > 0);
    t.true(
      Array.from(s.data).every((c) => canEncode(s.mode, c)),
      `${s.mode} can encode ${JSON.stringify(s.data)}`,
    );
    if (i > 0) t.not(s.mode, segments[i - 1].mode, 'adjacent segments differ in mode');
  }
}

test('optimal: as few bits as the best of every mode assignment, for short mixed texts in each version group', (t) => {
  const alphabets = ['0123456789', '09AZ:/', 'a0B1%é', '12AB?x€😀'];
  let checked = 0;
  for (const [a, alphabet] of alphabets.entries()) {
    for (let length = 1; length <= 8; length++) {
      for (let seed = 0; seed < 6; seed++) {
        const input = text(length, seed * 31 + length + a * 7, alphabet);
        for (const group of [0, 1, 2]) {
          const segments = optimalSegments(input, group);
          checkWellFormed(t, input, segments);
          t.is(streamBits(segments, group), bruteForceBits(input, group), `${JSON.stringify(input)} in group ${group}`);
          checked++;
        }
      }
    }
  }
  t.true(checked > 500);
});

test('never more bits than qrcode’s own segmentation, and so never a larger symbol, for texts of every kind', (t) => {
  const alphabets = [
    '0123456789',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:',
    'abcdefghijklmnopqrstuvwxyz%@&=?:/',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567abc%@&=?0123456789',
    'é€日本語ü0A',
  ];
  let compared = 0;
  for (const [a, alphabet] of alphabets.entries()) {
    for (let length = 1; length <= 600; length += 13) {
      const input = text(length, length * 3 + a, alphabet);
      let theirs: ReturnType<typeof create>;
      try {
        theirs = create(input, { errorCorrectionLevel: 'M' });
      } catch {
        continue;
      }
      const group = VERSION_GROUPS.findIndex((g) => theirs.version <= g.highest);
      const ours = optimalSegments(input, group);
      checkWellFormed(t, input, ours);
      const theirBits = theirs.segments.reduce(
        (sum, s) => sum + headerBits(s.mode.id.toLowerCase() as SegmentMode, group) + s.getBitsLength(),
        0,
      );
      t.true(
        streamBits(ours, group) <= theirBits,
        `${JSON.stringify(input.slice(0, 24))}… (${length}): ${streamBits(ours, group)} ≤ ${theirBits}`,
      );
      t.true(create(ours as never, { errorCorrectionLevel: 'M' }).version <= theirs.version);
      compared++;
    }
  }
  t.true(compared > 150);
});

test('an otpauth URI: its Base32 secret in alphanumeric mode, the rest in bytes, fewer bits than bytes alone', (t) => {
  const uri = 'otpauth://totp/Example:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Example';
  const segments = optimalSegments(uri, 0);
  checkWellFormed(t, uri, segments);
  t.true(segments.some((s) => s.mode === 'alphanumeric' && s.data.includes('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')));
  t.true(streamBits(segments, 0) < headerBits('byte', 0) + dataBits({ data: uri, mode: 'byte' }));
});

test('one mode throughout when one mode is cheapest; the empty text has no segments', (t) => {
  t.deepEqual(optimalSegments('0123456789', 0), [{ data: '0123456789', mode: 'numeric' }]);
  t.deepEqual(optimalSegments('HELLO WORLD', 0), [{ data: 'HELLO WORLD', mode: 'alphanumeric' }]);
  t.deepEqual(optimalSegments('hello, world', 0), [{ data: 'hello, world', mode: 'byte' }]);
  t.deepEqual(optimalSegments('a1b', 0), [{ data: 'a1b', mode: 'byte' }], 'a short run is not worth a mode switch');
  t.deepEqual(optimalSegments('', 0), []);
});

test('bit lengths of ISO/IEC 18004 §7.4: headers per version group, data per mode, UTF-8 bytes', (t) => {
  t.deepEqual(
    [0, 1, 2].map((g) => headerBits('numeric', g)),
    [14, 16, 18],
  );
  t.deepEqual(
    [0, 1, 2].map((g) => headerBits('alphanumeric', g)),
    [13, 15, 17],
  );
  t.deepEqual(
    [0, 1, 2].map((g) => headerBits('byte', g)),
    [12, 20, 20],
  );
  t.deepEqual(
    ['1', '12', '123', '1234'].map((d) => dataBits({ data: d, mode: 'numeric' })),
    [4, 7, 10, 14],
  );
  t.deepEqual(
    ['A', 'AB', 'ABC'].map((d) => dataBits({ data: d, mode: 'alphanumeric' })),
    [6, 11, 17],
  );
  t.deepEqual(
    ['a', 'é', '€', '😀'].map((d) => dataBits({ data: d, mode: 'byte' })),
    [8, 16, 24, 32],
  );
});
