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
 * (test/qr/segments.test.ts checks that on many texts) and takes a few
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
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

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
  const chars = Array.from(text); // code points: a surrogate pair is one character of 4 UTF-8 bytes
  const n = chars.length;
  if (n === 0) return [];
  const head = [0, 1, 2].map((m) => (4 + COUNT_BITS[group][m]) * 6);
  // modeOf[i * 3 + m]: the mode character i is encoded in when the stream is in mode m after it.
  const modeOf = new Int8Array(n * 3);
  let prev = head.slice();
  const cur = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const c = chars[i];
    const code = c.codePointAt(0)!;
    const numeric = code >= 0x30 && code <= 0x39;
    const alphanumeric = numeric || ALPHANUMERIC.includes(c);
    const bytes = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    cur[0] = numeric ? prev[0] + 20 : INFINITE;
    cur[1] = alphanumeric ? prev[1] + 33 : INFINITE;
    cur[2] = prev[2] + bytes * 48;
    for (let m = 0; m < 3; m++) modeOf[i * 3 + m] = cur[m] === INFINITE ? -1 : m;
    // Switching after this character: end the run in mode `from`, start a new one in mode `to`.
    const ended = cur.map((cost) => (cost === INFINITE ? INFINITE : Math.ceil(cost / 6) * 6));
    for (let to = 0; to < 3; to++) {
      for (let from = 0; from < 3; from++) {
        if (from === to || ended[from] === INFINITE) continue;
        const cost = ended[from] + head[to];
        if (cost < cur[to]) {
          cur[to] = cost;
          modeOf[i * 3 + to] = from;
        }
      }
    }
    prev = cur.slice();
  }
  // The cheapest final state, then each character's mode, last to first.
  let state = 0;
  for (let m = 1; m < 3; m++) if (Math.ceil(prev[m] / 6) < Math.ceil(prev[state] / 6)) state = m;
  const modes = new Int8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    state = modeOf[i * 3 + state];
    modes[i] = state;
  }
  const segments: Segment[] = [];
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i === n || modes[i] !== modes[start]) {
      segments.push({ data: chars.slice(start, i).join(''), mode: MODES[modes[start]] });
      start = i;
    }
  }
  return segments;
}
