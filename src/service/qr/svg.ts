/**
 * QR codes rendered locally as SVG, so the otpauth URI (which contains the secret)
 * never leaves the server for a third-party image service.
 */
import { qrMatrix, type QrMatrix } from './matrix';

/** Quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET_ZONE = 4;
/** Rendered size of one module, in pixels. */
const PIXELS_PER_MODULE = 4;

/** Thrown when a text does not fit in the largest QR code at the chosen error-correction level. */
export class QrCapacityError extends Error {
  constructor() {
    super('The text is too long to fit in a QR code.');
    this.name = 'QrCapacityError';
  }
}

/** qrcode reports capacity overflow only through its message text: that one becomes a QrCapacityError. */
export function capacityErrorOr(error: unknown): unknown {
  return error instanceof Error && /too big/i.test(error.message) ? new QrCapacityError() : error;
}

/** The QR symbol (error correction level M) of `text`; QrCapacityError when it does not fit. */
export function qrSymbol(text: string): QrMatrix {
  try {
    return qrMatrix(text);
  } catch (error) {
    throw capacityErrorOr(error);
  }
}

/** The ASCII bytes of a string of ASCII characters. */
const ascii = (text: string) => Buffer.from(text, 'latin1');
const [CHAR_M, CHAR_SPACE, CHAR_H, CHAR_V, CHAR_1, CHAR_MINUS, CHAR_Z, CHAR_0] = Array.from('M hv1-z0', (c) => c.charCodeAt(0));

/**
 * The SVG as ASCII bytes, written straight into one buffer (no string
 * building): one subpath per horizontal run of dark modules, far smaller
 * than one rect per module.
 */
function svgBytes(text: string, pixels?: number): Buffer {
  const { size, data } = qrSymbol(text);
  const total = size + 2 * QUIET_ZONE;
  const side = pixels ?? total * PIXELS_PER_MODULE;
  const open = ascii(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" ` +
      `width="${side}" height="${side}" shape-rendering="crispEdges">` +
      `<rect width="${total}" height="${total}" fill="#fff"/><path d="`,
  );
  const close = ascii('" fill="#000"/></svg>');
  // A run takes at most 1 + 3 + 1 + 3 + 1 + 3 + 4 + 3 + 1 = 20 bytes, and a row holds at most (size + 1) / 2 runs.
  const out = Buffer.allocUnsafe(open.length + close.length + size * ((size + 1) >> 1) * 20);
  let at = open.copy(out, 0);
  /** A number of at most 3 digits (coordinates stay below 186). */
  const number = (n: number) => {
    if (n >= 100) out[at++] = CHAR_0 + Math.floor(n / 100);
    if (n >= 10) out[at++] = CHAR_0 + (Math.floor(n / 10) % 10);
    out[at++] = CHAR_0 + (n % 10);
  };
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      // M<x> <y>h<width>v1h-<width>z
      out[at++] = CHAR_M;
      number(start + QUIET_ZONE);
      out[at++] = CHAR_SPACE;
      number(row + QUIET_ZONE);
      out[at++] = CHAR_H;
      number(col - start);
      out[at++] = CHAR_V;
      out[at++] = CHAR_1;
      out[at++] = CHAR_H;
      out[at++] = CHAR_MINUS;
      number(col - start);
      out[at++] = CHAR_Z;
    }
  }
  at += close.copy(out, at);
  return out.subarray(0, at);
}

/**
 * Renders `text` as a compact, deterministic SVG QR code (error correction
 * level M), `pixels` wide and high (default: 4 pixels per module).
 */
export function qrSvg(text: string, pixels?: number): string {
  return svgBytes(text, pixels).toString('latin1');
}

/** The same SVG as a data: URI, usable directly as an <img> src. */
export function qrSvgDataUri(text: string): string {
  // Module count is what matters for scanning; the default size keeps modules crisp.
  return `data:image/svg+xml;base64,${svgBytes(text).toString('base64')}`;
}
