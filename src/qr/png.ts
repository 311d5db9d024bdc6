import { toBuffer } from 'qrcode';
import { capacityErrorOr } from './svg';

/** Renders `text` as a PNG QR code (error correction level M, 4-module quiet zone), `pixels` wide. */
export async function qrPng(text: string, pixels: number): Promise<Buffer> {
  try {
    return await toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: pixels });
  } catch (error) {
    throw capacityErrorOr(error);
  }
}
