/**
 * The module matrix of a QR code (error correction level M): exactly the one
 * the qrcode package's `create()` builds for the same segments, in a fraction
 * of its time. The segments are the shortest (segments.ts), so the
 * symbol is never larger than the one qrcode's own segmentation gives.
 *
 * qrcode chooses the data mask the way ISO/IEC 18004 §7.8.3 says: it applies
 * each of the 8 masks and scores the result (penalty rules N1–N4), which is
 * four fifths of its run time (per-module function calls). Here qrcode
 * builds the symbol with mask 0 (everything but the mask choice), and the 8
 * candidates are scored over flat arrays with the same rules, the same
 * quirks and the same tie-break, so the chosen mask and the matrix are the
 * same; test/service/qr/matrix.test.ts compares them with qrcode's own on many texts.
 */
import { create, type QRCode, type QRCodeSegment } from 'qrcode';
import { VERSION_GROUPS, optimalSegments, type Segment } from './segments';

export interface QrMatrix {
  /** Modules per side. */
  size: number;
  /** size × size modules, row by row: 1 dark, 0 light. */
  data: Uint8Array;
}

/**
 * Per symbol version, for each mask p: the modules that differ between mask 0
 * and mask p (never the reserved function patterns), so that a symbol built
 * with mask 0 becomes the mask-p candidate by one XOR.
 */
const FLIPS_BY_VERSION = new Map<number, Uint8Array[]>();

/** ISO/IEC 18004 Table 10, as qrcode's getMaskAt has it: does mask `p` flip the module at (i, j)? */
function maskAt(p: number, i: number, j: number): boolean {
  switch (p) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

function flipsFor(version: number, size: number, reserved: Uint8Array): Uint8Array[] {
  let flips = FLIPS_BY_VERSION.get(version);
  if (flips === undefined) {
    flips = [];
    for (let p = 0; p < 8; p++) {
      const flip = new Uint8Array(size * size);
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          const i = row * size + col;
          flip[i] = !reserved[i] && maskAt(0, row, col) !== maskAt(p, row, col) ? 1 : 0;
        }
      }
      flips.push(flip);
    }
    // The reserved layout depends on the version alone, so 40 entries at most.
    FLIPS_BY_VERSION.set(version, flips);
  }
  return flips;
}

/** The 15 format bits (BCH(15,5), masked) of level M (bits 00) with data mask `p`. */
function formatBits(p: number): number {
  const G15 = 0b10100110111;
  const data = (0b00 << 3) | p;
  let d = data << 10;
  for (let bit = 14; bit >= 10; bit--) if (d & (1 << bit)) d ^= G15 << (bit - 10);
  return ((data << 10) | d) ^ 0b101010000010010;
}

/** Writes the format information of mask `p` (and the dark module) where qrcode's setupFormatInfo writes it. */
function writeFormat(d: Uint8Array, size: number, p: number): void {
  const bits = formatBits(p);
  for (const { row, col, bit } of formatPositions(size)) d[row * size + col] = bit < 0 ? 1 : (bits >> bit) & 1;
}

/*
 * Penalty tables, indexed by the last modules of a row or column read so far
 * (bit 0 the newest), so that each module costs one table look-up instead of
 * branches that track runs and patterns (lineScore still stops early once a
 * candidate cannot win):
 * - N1 (3 + (run - 5) for each run of five or more modules of one colour) is
 *   counted as 1 for every window of five equal modules, plus 2 where such a
 *   run begins: a run of L ≥ 5 has L - 4 windows, and (L - 4) + 2 = 3 + (L - 5).
 * - N3 (40 for each 1:1:3:1:1 pattern with four light modules on one side) is
 *   qrcode's test of the last 11 modules against 0x5D0 and 0x05D.
 */
const WINDOW_OF_5 = (bits: number) => ((bits & 0x1f) === 0 || (bits & 0x1f) === 0x1f ? 1 : 0);
const RUN_BEGINS = (bits: number) => (WINDOW_OF_5(bits) && ((bits >> 5) & 1) !== ((bits >> 4) & 1) ? 2 : 0);
/** From the 6th module of a line (index 5) to the 10th: N1 only. */
const SCORE_6 = Uint8Array.from({ length: 64 }, (_, bits) => WINDOW_OF_5(bits) + RUN_BEGINS(bits));
/** From the 11th module of a line on: N1 and N3. */
const SCORE_11 = Uint8Array.from({ length: 2048 }, (_, bits) => SCORE_6[bits & 0x3f] + (bits === 0x5d0 || bits === 0x05d ? 40 : 0));

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * A matrix packed 32 modules to a word, row by row (`stride` words a row;
 * the module in column c is bit 31 - c % 32 of word c / 32), for scoring
 * N2 and N4 32 modules at a time.
 */
function pack(d: Uint8Array, size: number, stride: number): Int32Array {
  const words = new Int32Array(size * stride);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) words[row * stride + (col >>> 5)] |= d[row * size + col] << (31 - (col & 31));
  }
  return words;
}

/** N4 + N2 of qrcode's getBestMask over a packed matrix: the cheap part of the score. */
function blockAndBalanceScore(words: Int32Array, size: number, stride: number): number {
  // N4: the proportion of dark modules away from 50 %, in steps of 5 %: 10 per step.
  let dark = 0;
  for (let i = 0; i < words.length; i++) dark += popcount(words[i]);
  const points = Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * 10;
  // N2: 2×2 blocks of one colour. For each column c of a row pair: row a, row b, and each shifted by one
  // column (c + 1 brought to c, the next word's first module filling in), all equal.
  let blocks = 0;
  for (let row = 0; row < size - 1; row++) {
    const a0 = row * stride;
    const b0 = a0 + stride;
    for (let w = 0; w < stride; w++) {
      const a = words[a0 + w];
      const b = words[b0 + w];
      const last = w === stride - 1;
      const a1 = (a << 1) | (last ? 0 : words[a0 + w + 1] >>> 31);
      const b1 = (b << 1) | (last ? 0 : words[b0 + w + 1] >>> 31);
      // Columns 0 … size - 2 have a right-hand neighbour; in the last word, the bits past them do not count.
      const valid = last ? ~(-1 >>> (size - 1 - 32 * w)) : -1;
      blocks += popcount(~(a ^ b) & ~(a ^ a1) & ~(b ^ b1) & valid);
    }
  }
  return points + blocks * 3;
}

/**
 * `points` plus N1 + N3 (along every row and every column), or `bound` as
 * soon as the total reaches it: every rule only adds, so such a candidate
 * cannot win any more.
 */
function lineScore(d: Uint8Array, size: number, points: number, bound: number): number {
  if (points >= bound) return bound;
  for (let a = 0; a < size; a++) {
    let row = 0;
    let col = 0;
    for (let b = 0; b < 5; b++) {
      row = (row << 1) | d[a * size + b];
      col = (col << 1) | d[b * size + a];
    }
    // A line that begins with five equal modules begins a run there.
    points += WINDOW_OF_5(row) * 3 + WINDOW_OF_5(col) * 3;
    for (let b = 5; b < 10 && b < size; b++) {
      row = ((row << 1) & 0x7ff) | d[a * size + b];
      col = ((col << 1) & 0x7ff) | d[b * size + a];
      points += SCORE_6[row & 0x3f] + SCORE_6[col & 0x3f];
    }
    for (let b = 10; b < size; b++) {
      row = ((row << 1) & 0x7ff) | d[a * size + b];
      col = ((col << 1) & 0x7ff) | d[b * size + a];
      points += SCORE_11[row] + SCORE_11[col];
    }
    if (points >= bound) return bound;
  }
  return points;
}

/**
 * The shortest segmentation of `text` (segments.ts) for the smallest version group it fits in,
 * and its symbol with mask 0: optimised for the smallest group first, and for the next only when it does
 * not fit there. Throws qrcode's errors (e.g. text too long).
 */
function chosen(text: string): { segments: Segment[]; symbol: QRCode } {
  if (text === '') create(text, { errorCorrectionLevel: 'M', maskPattern: 0 }); // throws qrcode's own error
  let last: unknown;
  for (const [group, versions] of VERSION_GROUPS.entries()) {
    try {
      const segments = optimalSegments(text, group);
      const symbol = create(segments as QRCodeSegment[], { errorCorrectionLevel: 'M', maskPattern: 0 });
      if (symbol.version <= versions.highest) return { segments, symbol };
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

/**
 * The segments qrMatrix encodes `text` with, for qrcode's other renderers (PNG, terminal): given them,
 * qrcode draws the very matrix qrMatrix returns (test/service/qr/png.test.ts).
 */
export function qrSegments(text: string): QRCodeSegment[] {
  return chosen(text).segments as QRCodeSegment[];
}

/** The QR code of `text` at error correction level M. Throws qrcode's errors (e.g. text too long). */
export function qrMatrix(text: string): QrMatrix {
  const { symbol } = chosen(text);
  const { size, data, reservedBit } = symbol.modules;
  const n = size * size;
  const flips = flipsFor(symbol.version, size, reservedBit);
  const stride = (size + 31) >>> 5;
  const packedData = pack(data, size, stride);
  const packedFlips = packedFlipsFor(symbol.version, flips, size, stride);
  const positions = formatPositions(size);
  // N4 + N2 of the 8 candidates, on packed matrices: each is mask 0's symbol with the flips of its mask and its format bits.
  const candidate = new Int32Array(packedData.length);
  const partial: number[] = [];
  for (let p = 0; p < 8; p++) {
    const flip = packedFlips[p];
    for (let i = 0; i < candidate.length; i++) candidate[i] = packedData[i] ^ flip[i];
    const bits = formatBits(p);
    for (let i = 0; i < positions.length; i++) {
      const { row, col, bit } = positions[i];
      const word = row * stride + (col >>> 5);
      const mask = 1 << (31 - (col & 31));
      candidate[word] = (bit < 0 ? 1 : (bits >> bit) & 1) ? candidate[word] | mask : candidate[word] & ~mask;
    }
    partial.push(blockAndBalanceScore(candidate, size, stride));
  }
  // The lowest score wins, the lower mask on a tie (qrcode's rule). The candidates that look best so far
  // are scored first, so that the others can be given up on as soon as they can no longer win.
  const order = [0, 1, 2, 3, 4, 5, 6, 7].sort((a, b) => partial[a] - partial[b] || a - b);
  const flat = new Uint8Array(n);
  let best = -1;
  let lowest = Infinity;
  for (const p of order) {
    // A lower mask also wins with an equal score, a higher one only with a lower score.
    const bound = best < 0 ? Infinity : p < best ? lowest + 1 : lowest;
    if (partial[p] >= bound) continue;
    const flip = flips[p];
    for (let i = 0; i < n; i++) flat[i] = data[i] ^ flip[i];
    writeFormat(flat, size, p);
    const score = lineScore(flat, size, partial[p], bound);
    if (score < bound) {
      lowest = score;
      best = p;
    }
  }
  const flip = flips[best];
  for (let i = 0; i < n; i++) flat[i] = data[i] ^ flip[i];
  writeFormat(flat, size, best);
  return { size, data: flat };
}

const PACKED_FLIPS_BY_VERSION = new Map<number, Int32Array[]>();

function packedFlipsFor(version: number, flips: Uint8Array[], size: number, stride: number): Int32Array[] {
  let packed = PACKED_FLIPS_BY_VERSION.get(version);
  if (packed === undefined) {
    packed = flips.map((flip) => pack(flip, size, stride));
    PACKED_FLIPS_BY_VERSION.set(version, packed);
  }
  return packed;
}

const FORMAT_POSITIONS_BY_SIZE = new Map<number, { row: number; col: number; bit: number }[]>();

/** Where the format information goes (qrcode's setupFormatInfo): each format bit (0–14) twice, and the dark module (bit -1, always 1). */
function formatPositions(size: number): { row: number; col: number; bit: number }[] {
  const known = FORMAT_POSITIONS_BY_SIZE.get(size);
  if (known) return known;
  const out: { row: number; col: number; bit: number }[] = [];
  for (let i = 0; i < 15; i++) {
    out.push({ row: i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, col: 8, bit: i });
    out.push({ row: 8, col: i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1, bit: i });
  }
  out.push({ row: size - 8, col: 8, bit: -1 });
  FORMAT_POSITIONS_BY_SIZE.set(size, out);
  return out;
}
