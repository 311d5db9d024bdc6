/**
 * /qr.aspx's PNG and the command line's terminal code are drawn by qrcode
 * from the segments qrMatrix uses (qrSegments), so every rendering of a text
 * is the same symbol as Pair's inline SVG: read back module by module here.
 */
import test from 'ava';
import { toString as qrToString } from 'qrcode';
import { qrMatrix, qrSegments } from '../../../src/service/qr/matrix';
import { qrPng } from '../../../src/service/qr/png';
import { QrCapacityError } from '../../../src/service/qr/svg';
import { decodeQrPng } from '../../support/qr-decode';

// pngjs ships no type declarations; this is the one call used.
const { PNG } = require('pngjs') as { PNG: { sync: { read(buffer: Buffer): { width: number; height: number; data: Buffer } } } };

const TEXTS = [
  'otpauth://totp/Example:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Example',
  'otpauth://totp/Soci%C3%A9t%C3%A9:jos%C3%A9%40example.fr?secret=GEZDGNBVGY3TQQSYLFKAJBSWY3DPEHPK&issuer=Soci%C3%A9t%C3%A9',
  'HELLO WORLD 0123456789',
  'x'.repeat(300),
  // qrcode's own segmentation encodes these differently: the same size, and a larger symbol (53 modules, not 49).
  '742a2a226a6a62a6a622',
  'aa2aa1a21a1aa211a22aa2aa111a221a1222a1211aa2122aaaa21aa1a1aa2aaa2a2122a2a2a221222221aaa21211aa222a2aa2a111a22a221212aa11a1a2222a111a222a21a222112a221aa2a22',
];

/** The modules of a PNG QR code with a 4-module quiet zone, read at the centre of each module. */
function modulesOfPng(png: Buffer, size: number): Uint8Array {
  const image = PNG.sync.read(png);
  const scale = image.width / (size + 8);
  const out = new Uint8Array(size * size);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const x = Math.floor((col + 4 + 0.5) * scale);
      const y = Math.floor((row + 4 + 0.5) * scale);
      out[row * size + col] = image.data[(y * image.width + x) * 4] < 128 ? 1 : 0;
    }
  }
  return out;
}

for (const [i, text] of TEXTS.entries()) {
  test(`text ${i}: the PNG is the symbol of qrMatrix, module for module, and decodes to the text`, async (t) => {
    const { size, data } = qrMatrix(text);
    const png = await qrPng(text, (size + 8) * 5);
    t.deepEqual(modulesOfPng(png, size), data);
    t.is(decodeQrPng(png), text);
  });
}

test('the terminal rendering has the same symbol (its size in lines)', async (t) => {
  for (const text of TEXTS) {
    const { size } = qrMatrix(text);
    const lines = (await qrToString(qrSegments(text), { type: 'terminal', small: true, errorCorrectionLevel: 'M' })).trimEnd().split('\n');
    // Two module rows a line, with qrcode's 2-module margin in small mode.
    t.is(lines.length, Math.ceil((size + 4) / 2), text.slice(0, 20));
  }
});

test('a text too long for any QR code: QrCapacityError from the PNG too', async (t) => {
  await t.throwsAsync(qrPng('x'.repeat(3000), 300), { instanceOf: QrCapacityError });
});
