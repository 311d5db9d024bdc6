/**
 * Reading QR codes back in pure npm (no Debian package): PNG pixels through
 * pngjs (installed as a dependency of qrcode), SVG rasterised by
 * @resvg/resvg-js, and the symbol decoded by jsqr: the one QR reader of the tests.
 */
import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';

interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Buffer;
}

// pngjs ships no type declarations; this is the one call used.
const { PNG } = require('pngjs') as { PNG: { sync: { read(buffer: Buffer): DecodedPng } } };

export interface PngImage {
  width: number;
  height: number;
}

/** The PNG's pixel size (throws when the bytes are not a PNG). */
export function pngSize(png: Buffer): PngImage {
  const { width, height } = PNG.sync.read(png);
  return { width, height };
}

/** The text of the QR code in a PNG image, or undefined when none is found. */
export function decodeQrPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  return jsQR(pixels, image.width, image.height, { inversionAttempts: 'dontInvert' })?.data;
}

/** An SVG rasterised to PNG, `width` pixels wide, as drawn: no background is added, so light modules must be painted by the SVG itself. */
export function rasteriseSvg(svg: string, width = 400): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: width } }).render().asPng();
}

/** The text of the QR code in an SVG image, or undefined when none is found. */
export function decodeQrSvg(svg: string): string | undefined {
  return decodeQrPng(rasteriseSvg(svg));
}

const SVG_DATA_URI_PREFIX = 'data:image/svg+xml;base64,';

/** The SVG document of a base64 SVG data URI (as the Pair Html's img src); throws for any other URI. */
export function svgOfDataUri(uri: string): string {
  if (!uri.startsWith(SVG_DATA_URI_PREFIX)) throw new Error(`not a base64 SVG data URI: ${uri.slice(0, 40)}`);
  return Buffer.from(uri.slice(SVG_DATA_URI_PREFIX.length), 'base64').toString('utf8');
}
