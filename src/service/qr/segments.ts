/**
 * The segments of a QR code's data: which runs of the text are encoded in
 * numeric, alphanumeric or byte mode (ISO/IEC 18004 §7.4), chosen so that
 * the bit stream is as short as possible.
 *
 * qrcode's own choice (its `create(text)`) builds a graph of the runs its
 * regular expressions find and searches it with Dijkstra's algorithm: about
 * two thirds of the time of a Pair call's QR code. This is the classic
 * dynamic programme over characters instead (each character's cost in each
 * mode, plus a mode switch's header), which is optimal over every assignment
 * of modes to characters, so it never needs more bits than qrcode's choice
 * (test/service/qr/segments.test.ts checks that on many texts) and takes a few
 * microseconds. Kanji mode is left out, as qrcode leaves it out by default.
 */

export type SegmentMode = 'numeric' | 'alphanumeric' | 'byte';

export interface Segment {
  data: string;
  mode: SegmentMode;
}

/** Version ranges whose character count indicators have the same widths. */
export const VERSION_GROUPS = [
  { lowest: 1, highest: 9 },
  { lowest: 10, highest: 26 },
  { lowest: 27, highest: 40 },
] as const;

const MODES: SegmentMode[] = ['numeric', 'alphanumeric', 'byte'];
/** Character count indicator widths, per mode, per version group. */
const COUNT_BITS = [
  [10, 9, 8],
  [12, 11, 16],
  [14, 13, 16],
];
const IS_ALPHANUMERIC = new Uint8Array(128);
for (const c of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:') IS_ALPHANUMERIC[c.charCodeAt(0)] = 1;

/** Bits of a segment's header (mode indicator and character count) in one version group, per mode. */
export function headerBits(mode: SegmentMode, group: number): number {
  return 4 + COUNT_BITS[group][MODES.indexOf(mode)];
}

/** Bits of a segment's data. */
export function dataBits(segment: Segment): number {
  const n = segment.data.length;
  switch (segment.mode) {
    case 'numeric':
      return 10 * Math.floor(n / 3) + [0, 4, 7][n % 3];
    case 'alphanumeric':
      return 11 * Math.floor(n / 2) + 6 * (n % 2);
    case 'byte':
      return 8 * Buffer.byteLength(segment.data, 'utf8');
  }
}

/** Total bits of the segments in a version group. */
export function streamBits(segments: Segment[], group: number): number {
  let bits = 0;
  for (const segment of segments) bits += headerBits(segment.mode, group) + dataBits(segment);
  return bits;
}

const INFINITE = Number.MAX_SAFE_INTEGER;

/**
 * The shortest segmentation of `text` for versions of `group` (0: 1–9,
 * 1: 10–26, 2: 27–40). Costs are counted in sixths of a bit, so that a
 * digit (10/3 bits) and an alphanumeric character (11/2 bits) cost whole
 * numbers; a run's cost is rounded up to whole bits where the mode changes,
 * which is exactly its encoded length.
 */
export function optimalSegments(text: string, group: number): Segment[] {
  // Characters are code points: a surrogate pair is one character of 4 UTF-8 bytes.
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    starts.push(i);
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  const n = starts.length;
  if (n === 0) return [];
  const head0 = (4 + COUNT_BITS[group][0]) * 6;
  const head1 = (4 + COUNT_BITS[group][1]) * 6;
  const head2 = (4 + COUNT_BITS[group][2]) * 6;
  // modeOf[i * 3 + m]: the mode character i is encoded in when the stream is in mode m after it.
  const modeOf = new Int8Array(n * 3);
  let prev0 = head0;
  let prev1 = head1;
  let prev2 = head2;
  for (let i = 0; i < n; i++) {
    const code = text.codePointAt(starts[i])!;
    const numeric = code >= 0x30 && code <= 0x39;
    const alphanumeric = code < 0x80 && IS_ALPHANUMERIC[code] === 1;
    const bytes = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    // Staying in each mode …
    let cur0 = numeric ? prev0 + 20 : INFINITE;
    let cur1 = alphanumeric ? prev1 + 33 : INFINITE;
    let cur2 = prev2 + bytes * 48;
    let from0 = 0;
    let from1 = 1;
    let from2 = 2;
    // … or switching after this character: end the run in one mode (whole bits), start one in another.
    const end0 = numeric ? Math.ceil(cur0 / 6) * 6 : INFINITE;
    const end1 = alphanumeric ? Math.ceil(cur1 / 6) * 6 : INFINITE;
    const end2 = Math.ceil(cur2 / 6) * 6;
    if (end1 + head0 < cur0) [cur0, from0] = [end1 + head0, 1];
    if (end2 + head0 < cur0) [cur0, from0] = [end2 + head0, 2];
    if (end0 + head1 < cur1) [cur1, from1] = [end0 + head1, 0];
    if (end2 + head1 < cur1) [cur1, from1] = [end2 + head1, 2];
    if (end0 + head2 < cur2) [cur2, from2] = [end0 + head2, 0];
    if (end1 + head2 < cur2) [cur2, from2] = [end1 + head2, 1];
    modeOf[i * 3] = cur0 === INFINITE ? -1 : from0;
    modeOf[i * 3 + 1] = cur1 === INFINITE ? -1 : from1;
    modeOf[i * 3 + 2] = from2;
    prev0 = cur0;
    prev1 = cur1;
    prev2 = cur2;
  }
  // The cheapest final state, then each character's mode, last to first.
  const finals = [Math.ceil(prev0 / 6), Math.ceil(prev1 / 6), Math.ceil(prev2 / 6)];
  let state = 0;
  for (let m = 1; m < 3; m++) if (finals[m] < finals[state]) state = m;
  const modes = new Int8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    state = modeOf[i * 3 + state];
    modes[i] = state;
  }
  const segments: Segment[] = [];
  let first = 0;
  for (let i = 1; i <= n; i++) {
    if (i === n || modes[i] !== modes[first]) {
      segments.push({ data: text.slice(starts[first], i === n ? text.length : starts[i]), mode: MODES[modes[first]] });
      first = i;
    }
  }
  return segments;
}
