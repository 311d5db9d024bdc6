import test from 'ava';
import { QrCapacityError, qrSvg, qrSvgDataUri } from '../../../src/service/qr/svg';
import { decodeQrSvg } from '../../support/qr-decode';
import { qrMatrix } from '../../../src/service/qr/matrix';

// A realistic pairing URI: issuer with accents and €, e-mail account, 32-character secret.
const URI =
  'otpauth://totp/Soci%C3%A9t%C3%A9%20G%C3%A9n%C3%A9rale%20%E2%82%AC:jos%C3%A9%40example.fr' +
  '?secret=GEZDGNBVGY3TQQSYLFKAJBSWY3DPEHPK&issuer=Soci%C3%A9t%C3%A9%20G%C3%A9n%C3%A9rale%20%E2%82%AC';

test('the rendered SVG decodes, with a real QR reader, to the input text', (t) => {
  t.true(URI.length >= 100);
  t.is(decodeQrSvg(qrSvg(URI)), URI);
});

test('short and plain texts decode too', (t) => {
  for (const text of ['otpauth://totp/alice?secret=ME', 'HELLO WORLD 123', 'x']) {
    t.is(decodeQrSvg(qrSvg(text)), text);
  }
});

test('one compact SVG: a background, a single path, fixed size, no external reference', (t) => {
  const svg = qrSvg(URI);
  t.regex(
    svg,
    /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1" width="(\d+)" height="\2" shape-rendering="crispEdges">/,
  );
  t.is(svg.match(/<path /g)?.length, 1);
  t.is(svg.match(/<rect /g)?.length, 1);
  t.true(svg.endsWith('</svg>'));
  // Only the SVG namespace may look like a URL: nothing is fetched from elsewhere.
  t.is(svg.match(/https?:/g)?.length, 1);
  t.false(svg.includes('href'));
  // Quiet zone: viewBox is the symbol plus 4 modules on each side (symbol sizes are 17 + 4·version).
  const viewBox = Number(/viewBox="0 0 (\d+)/.exec(svg)![1]);
  t.is((viewBox - 8 - 17) % 4, 0);
  t.true(viewBox - 8 >= 21);
});

test('the data URI carries the same SVG, base64-encoded', (t) => {
  const uri = qrSvgDataUri(URI);
  const prefix = 'data:image/svg+xml;base64,';
  t.true(uri.startsWith(prefix));
  const body = uri.slice(prefix.length);
  t.regex(body, /^[A-Za-z0-9+/]+=*$/);
  t.is(Buffer.from(body, 'base64').toString('utf8'), qrSvg(URI));
});

test('output is deterministic', (t) => {
  t.is(qrSvg(URI), qrSvg(URI));
  t.is(qrSvgDataUri(URI), qrSvgDataUri(URI));
  t.not(qrSvg(URI), qrSvg(`${URI}x`));
});

test('a text too long for any QR code throws QrCapacityError', (t) => {
  const error = t.throws(() => qrSvg('a'.repeat(5000)), { instanceOf: QrCapacityError });
  t.true(error instanceof Error);
  t.false(error!.message.includes('aaaa'));
  t.throws(() => qrSvgDataUri('é'.repeat(5000)), { instanceOf: QrCapacityError });
});

test('the path is the dark runs of the QR matrix, row by row, for small and large symbols (coordinates of 1 to 3 digits)', (t) => {
  for (const text of ['x', URI, 'a'.repeat(1500)]) {
    const { size, data } = qrMatrix(text);
    let path = '';
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; ) {
        if (!data[row * size + col]) {
          col++;
          continue;
        }
        const start = col;
        while (col < size && data[row * size + col]) col++;
        path += `M${start + 4} ${row + 4}h${col - start}v1h-${col - start}z`;
      }
    }
    const svg = qrSvg(text);
    t.is(/ d="([^"]*)"/.exec(svg)?.[1], path, `${text.slice(0, 10)}… (${size} modules)`);
    t.true(size < 100 || /M1\d\d /.test(path), 'large symbols reach 3-digit coordinates');
    t.is(Buffer.from(qrSvgDataUri(text).split(',')[1], 'base64').toString('latin1'), svg);
  }
});
