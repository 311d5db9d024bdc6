import { toBuffer } from 'qrcode';
import { qrSegments } from './matrix';
import { capacityErrorOr } from './svg';

/** Renders `text` as a PNG QR code (error correction level M, 4-module quiet zone), `pixels` wide: the symbol of qrSvg. */
export async function qrPng(text: string, pixels: number): Promise<Buffer> {
  try {
    return await toBuffer(qrSegments(text), { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: pixels });
  } catch (error) {
    throw capacityErrorOr(error);
  }
}
