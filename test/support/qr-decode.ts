/**
 * Reading QR codes back in pure npm (no Debian package): PNG pixels through
 * pngjs (installed as a dependency of qrcode), SVG rasterised by
 * @resvg/resvg-js, and the symbol decoded by jsqr.
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

/** An SVG rasterised to PNG, `width` pixels wide, on white. */
export function rasteriseSvg(svg: string, width = 400): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render().asPng();
}

/** The text of the QR code in an SVG image, or undefined when none is found. */
export function decodeQrSvg(svg: string): string | undefined {
  return decodeQrPng(rasteriseSvg(svg));
}
