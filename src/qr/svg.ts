/**
 * QR codes rendered locally as SVG, so the otpauth URI (which contains the secret)
 * never leaves the server for a third-party image service.
 */
import { qrMatrix, type QrMatrix } from './matrix';

/** Quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET_ZONE = 4;
/** Rendered size of one module, in pixels. */
const PIXELS_PER_MODULE = 4;

/** Decimal strings of the coordinates a path can hold (symbols are at most 177 modules a side). */
const NUMBERS = Array.from({ length: 177 + 2 * QUIET_ZONE + 1 }, (_, i) => String(i));

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

/**
 * Renders `text` as a compact, deterministic SVG QR code (error correction
 * level M), `pixels` wide and high (default: 4 pixels per module).
 */
export function qrSvg(text: string, pixels?: number): string {
  const qr = qrSymbol(text);

  const { size, data } = qr;
  const total = size + 2 * QUIET_ZONE;
  const side = pixels ?? total * PIXELS_PER_MODULE;

  // One subpath per horizontal run of dark modules: far smaller than one rect per module.
  let path = '';
  for (let row = 0; row < size; row++) {
    const y = ` ${NUMBERS[row + QUIET_ZONE]}h`;
    let col = 0;
    while (col < size) {
      if (!data[row * size + col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && data[row * size + col]) col++;
      const width = NUMBERS[col - start];
      path += 'M' + NUMBERS[start + QUIET_ZONE] + y + width + 'v1h-' + width + 'z';
    }
  }

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" ` +
    `width="${side}" height="${side}" shape-rendering="crispEdges">` +
    `<rect width="${total}" height="${total}" fill="#fff"/>` +
    `<path d="${path}" fill="#000"/>` +
    `</svg>`
  );
}

/** The same SVG as a data: URI, usable directly as an <img> src. */
export function qrSvgDataUri(text: string): string {
  // Module count is what matters for scanning; the default size keeps modules crisp.
  return 'data:image/svg+xml;base64,' + Buffer.from(qrSvg(text), 'utf8').toString('base64');
}
