/**
 * The plain pages beside the web service, as the original has them (docs/clients.md,
 * *Around the contract*): /pair.aspx answers the Pair Html fragment,
 * /Validate.aspx answers True or False, /qr.aspx renders the QR code here (PNG,
 * or SVG with format=svg), never a redirect. Paths and parameter names match in
 * any case; a missing parameter is answered with the reference's line, but as
 * a 400. They share the handlers, settings, replay protection and throttling
 * of the web service. QR codes are read back in pure npm (pngjs, resvg, jsqr);
 * test/system/browser.test.ts reads them with zbarimg too.
 */
import test, { type ExecutionContext } from 'ava';
import { decodeBase32, encodeBase32 } from '../../src/service/otp/base32';
import { totp } from '../../src/service/otp/totp';
import { startTestService, type TestService } from '../support/service';
import { getQuery, pinFor, readBoolean, send, wrongPinFor, type Answer } from '../support/requests';
import { decodeQrPng, decodeQrSvg, pngSize } from '../support/qr-decode';
import { attributeOf, elementAt, loadReaders, namespaceOf, readXml, textOf } from '../support/readers';
import { readPairingHtml } from '../support/xml-assertions';

let service: TestService;

test.before(async () => {
  await loadReaders();
  service = await startTestService();
});

test.after.always(async () => {
  await service?.close();
});

/** A secret of its own for each use: replay protection and throttling are on. */
let fresh = 0;
const secretFor = (label: string) => `plain-${label}-${++fresh}-secret`;

/** GETs `path` from `target` without following redirects, and asserts that none was answered. */
async function get(t: ExecutionContext, path: string, target: TestService = service): Promise<Answer> {
  const answer = await send(`${target.url}${path}`, { redirect: 'manual' });
  t.false(answer.status >= 300 && answer.status < 400, `GET ${path.slice(0, 80)}: no redirect (${answer.status})`);
  return answer;
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** A client error of a plain page: 400, text/plain, the one line `line` (when given), no stack trace. */
function assertRefused(t: ExecutionContext, answer: Answer, line?: string, what = ''): void {
  t.is(answer.status, 400, `${what} is refused with 400 (${answer.body.trim()})`);
  t.is(answer.contentType, 'text/plain; charset=utf-8', `${what}: text/plain`);
  const lines = answer.body.split('\n').filter((l) => l !== '');
  t.is(lines.length, 1, `${what}: one line`);
  if (line !== undefined) t.is(lines[0], line, `${what}: the reference's line`);
  t.false(answer.body.includes('    at '), `${what}: no stack trace`);
}

/** The PIN of `secret` with the service's own clock (UTF-8 key bytes, the defaults). */
const pin = (secret: string, target: TestService = service) => pinFor(target, secret);

// --- /pair.aspx ---------------------------------------------------------------------------------

test('/pair.aspx answers the Html fragment of Pair, as text/html', async (t) => {
  const secret = secretFor('pair');
  const params = { AppName: 'Example', AppInfo: 'alice@example.com', SecretCode: secret };
  const answer = await get(t, `/pair.aspx?${query(params)}`);
  t.is(answer.status, 200);
  t.is(answer.contentType, 'text/html; charset=utf-8');
  t.is(answer.headers.get('cache-control'), 'no-store', 'the fragment holds the secret: no cache keeps it');

  const code = encodeBase32(Buffer.from(secret, 'utf8'));
  const html = readPairingHtml(answer.body);
  t.deepEqual(html.fragment, ['a']);
  t.is(html.links, 1);
  t.is(html.images, 1);
  t.is(html.title, `Manually pair with ${code}`);
  t.is(html.href, `otpauth://totp/Example:alice%40example.com?secret=${code}&issuer=Example`);
  t.true(html.imgSrc?.startsWith('data:image/svg+xml;base64,'), 'the QR code is rendered here, inline');

  // The same handler as the web service: the very same Html.
  const viaService = await getQuery(service.url, 'Pair', query({ appName: 'Example', appInfo: 'alice@example.com', secretCode: secret }));
  const html2 = readXml(viaService.body, (doc) => {
    const element = elementAt(doc, '/t:PairingInfo/t:Html', { t: 'http://authenticatorapi.com/' });
    return element ? textOf(element) : undefined;
  });
  t.is<string | undefined, string | undefined>(answer.body, html2, 'the Html of /api.asmx/Pair');
});

const pairMissing = test.macro({
  async exec(t, missing: 'AppName' | 'AppInfo' | 'SecretCode') {
    const params: Record<string, string> = { AppName: 'Example', AppInfo: 'alice@example.com', SecretCode: secretFor('pair-missing') };
    delete params[missing];
    assertRefused(t, await get(t, `/pair.aspx?${query(params)}`), `Pass '${missing}' in QueryString`, `/pair.aspx without ${missing}`);
  },
  title: (_, missing: string) => `/pair.aspx without ${missing}: 400 and the line Pass '${missing}' in QueryString`,
});

test(pairMissing, 'AppName');
test(pairMissing, 'AppInfo');
test(pairMissing, 'SecretCode');

test('/pair.aspx with an empty AppInfo answers the Html of Pair with an empty appInfo', async (t) => {
  const secret = secretFor('pair-empty-info');
  const answer = await get(t, `/pair.aspx?${query({ AppName: 'Example', AppInfo: '', SecretCode: secret })}`);
  t.is(answer.status, 200, answer.body);
  t.is(readPairingHtml(answer.body).href, `otpauth://totp/Example?secret=${encodeBase32(Buffer.from(secret, 'utf8'))}&issuer=Example`);
  // An empty AppName or SecretCode is still missing.
  for (const missing of ['AppName', 'SecretCode']) {
    const params: Record<string, string> = { AppName: 'Example', AppInfo: 'bob', SecretCode: secret, [missing]: '' };
    assertRefused(t, await get(t, `/pair.aspx?${query(params)}`), `Pass '${missing}' in QueryString`, `/pair.aspx with ${missing}=`);
  }
});

test('/pair.aspx without any parameter names the first one, AppName', async (t) => {
  assertRefused(t, await get(t, '/pair.aspx'), "Pass 'AppName' in QueryString", '/pair.aspx alone');
});

test('/pair.aspx: path and parameter names in any case', async (t) => {
  const secret = secretFor('pair-case');
  const expected = (await get(t, `/pair.aspx?${query({ AppName: 'Example', AppInfo: 'bob', SecretCode: secret })}`)).body;
  for (const [path, names] of [
    ['/PAIR.ASPX', ['appname', 'appinfo', 'secretcode']],
    ['/Pair.aspx', ['APPNAME', 'APPINFO', 'SECRETCODE']],
    ['/pair.ASPX', ['appName', 'AppINFO', 'secretCode']],
  ] as const) {
    const answer = await get(t, `${path}?${query({ [names[0]]: 'Example', [names[1]]: 'bob', [names[2]]: secret })}`);
    t.is(answer.status, 200, `${path} ${names.join(',')}`);
    t.is(answer.body, expected, `${path} ${names.join(',')}: the same fragment`);
  }
});

test('/pair.aspx: a parameter given twice, in any case, is refused', async (t) => {
  const secret = secretFor('pair-twice');
  for (const rest of ['&SecretCode=another-secret-1', '&secretcode=another-secret-1', '&AppInfo=carol']) {
    assertRefused(
      t,
      await get(t, `/pair.aspx?${query({ AppName: 'Example', AppInfo: 'bob', SecretCode: secret })}${rest}`),
      undefined,
      `repeated ${rest}`,
    );
  }
});

test("/pair.aspx: the handler's own client errors are 400, one line (a too short secret, control characters)", async (t) => {
  assertRefused(
    t,
    await get(t, `/pair.aspx?${query({ AppName: 'Example', AppInfo: 'bob', SecretCode: 'short' })}`),
    undefined,
    'a 5-byte secret',
  );
  assertRefused(
    t,
    await get(t, `/pair.aspx?${query({ AppName: 'Ex\u0001', AppInfo: 'bob', SecretCode: secretFor('ctl') })}`),
    undefined,
    'a control character',
  );
});

// --- /Validate.aspx -----------------------------------------------------------------------------

test('/Validate.aspx answers True for the current PIN and False otherwise, as text/plain', async (t) => {
  const secret = secretFor('validate');
  const right = await get(t, `/Validate.aspx?${query({ Pin: pin(secret), SecretCode: secret })}`);
  t.is(right.status, 200);
  t.is(right.contentType, 'text/plain; charset=utf-8');
  t.is(right.headers.get('cache-control'), 'no-store');
  t.is(right.body.trim(), 'True');

  const wrong = await get(t, `/Validate.aspx?${query({ Pin: wrongPinFor(service, secret), SecretCode: secret })}`);
  t.is(wrong.status, 200);
  t.is(wrong.body.trim(), 'False');
  t.is((await get(t, `/Validate.aspx?${query({ Pin: 'not-a-pin', SecretCode: secretFor('validate-junk') })}`)).body.trim(), 'False');
});

const validateMissing = test.macro({
  async exec(t, missing: 'Pin' | 'SecretCode') {
    const secret = secretFor('validate-missing');
    const params: Record<string, string> = { Pin: pin(secret), SecretCode: secret };
    delete params[missing];
    assertRefused(
      t,
      await get(t, `/Validate.aspx?${query(params)}`),
      `Pass '${missing}' in QueryString`,
      `/Validate.aspx without ${missing}`,
    );
  },
  title: (_, missing: string) => `/Validate.aspx without ${missing}: 400 and the line Pass '${missing}' in QueryString`,
});

test(validateMissing, 'Pin');
test(validateMissing, 'SecretCode');

test('/Validate.aspx: path and parameter names in any case', async (t) => {
  for (const [path, names] of [
    ['/validate.aspx', ['pin', 'secretcode']],
    ['/VALIDATE.ASPX', ['PIN', 'SECRETCODE']],
    ['/Validate.Aspx', ['pIN', 'SecretCODE']],
  ] as const) {
    const secret = secretFor('validate-case');
    const answer = await get(t, `${path}?${query({ [names[0]]: pin(secret), [names[1]]: secret })}`);
    t.is(answer.status, 200, `${path} ${names.join(',')}`);
    t.is(answer.body.trim(), 'True', `${path} ${names.join(',')}`);
  }
});

test('/Validate.aspx: a parameter given twice, in any case, is refused', async (t) => {
  const secret = secretFor('validate-twice');
  const p = pin(secret);
  for (const q of [
    `Pin=${p}&Pin=${p}&SecretCode=${secret}`,
    `Pin=${p}&pin=000000&SecretCode=${secret}`,
    `Pin=${p}&SecretCode=${secret}&SECRETCODE=${secret}`,
  ]) {
    assertRefused(t, await get(t, `/Validate.aspx?${q}`), undefined, q);
  }
  // None of them used up the PIN.
  t.is((await get(t, `/Validate.aspx?Pin=${p}&SecretCode=${secret}`)).body.trim(), 'True');
});

test('/Validate.aspx: replay protection — the same PIN twice is True, then False', async (t) => {
  const secret = secretFor('replay');
  const path = `/Validate.aspx?${query({ Pin: pin(secret), SecretCode: secret })}`;
  t.is((await get(t, path)).body.trim(), 'True');
  t.is((await get(t, path)).body.trim(), 'False');
});

test('/Validate.aspx shares replay protection with the web service, both ways', async (t) => {
  const first = secretFor('replay-shared-a');
  t.is((await get(t, `/Validate.aspx?${query({ Pin: pin(first), SecretCode: first })}`)).body.trim(), 'True');
  t.false(
    readBoolean('httpGet', await getQuery(service.url, 'ValidatePin', query({ pin: pin(first), secretCode: first }))),
    'refused by /api.asmx',
  );

  const second = secretFor('replay-shared-b');
  t.true(readBoolean('httpGet', await getQuery(service.url, 'ValidatePin', query({ pin: pin(second), secretCode: second }))));
  t.is(
    (await get(t, `/Validate.aspx?${query({ Pin: pin(second), SecretCode: second })}`)).body.trim(),
    'False',
    'refused by /Validate.aspx',
  );
});

test('/Validate.aspx: throttling — after 5 False, 429 with Retry-After, for the page and the web service', async (t) => {
  const secret = secretFor('throttle');
  const wrong = wrongPinFor(service, secret);
  for (let i = 1; i <= 5; i++) {
    const answer = await get(t, `/Validate.aspx?${query({ Pin: wrong, SecretCode: secret })}`);
    t.is(answer.status, 200, `failure ${i}`);
    t.is(answer.body.trim(), 'False', `failure ${i}`);
  }
  const throttled = await get(t, `/Validate.aspx?${query({ Pin: pin(secret), SecretCode: secret })}`);
  t.is(throttled.status, 429, 'the right PIN is refused once throttled');
  t.regex(throttled.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/, 'Retry-After in seconds');
  t.true(Number(throttled.headers.get('retry-after')) <= 300, 'no longer than the window');
  t.is(throttled.contentType, 'text/plain; charset=utf-8');
  t.is(throttled.body.split('\n').filter((l) => l).length, 1, 'one line');
  t.false(throttled.body.includes(secret), 'the answer does not repeat the secret');

  const viaService = await getQuery(service.url, 'ValidatePin', query({ pin: pin(secret), secretCode: secret }));
  t.is(viaService.status, 429, 'the web service refuses the secret too');
});

test('the page and the web service count failures together', async (t) => {
  const secret = secretFor('throttle-shared');
  const wrong = wrongPinFor(service, secret);
  for (let i = 0; i < 3; i++) t.is((await get(t, `/Validate.aspx?${query({ Pin: wrong, SecretCode: secret })}`)).body.trim(), 'False');
  for (let i = 0; i < 2; i++)
    t.false(readBoolean('httpGet', await getQuery(service.url, 'ValidatePin', query({ pin: wrong, secretCode: secret }))));
  t.is((await get(t, `/Validate.aspx?${query({ Pin: pin(secret), SecretCode: secret })}`)).status, 429);
});

test('the plain pages follow the settings of the service (Base32 secrets, 8 digits)', async (t) => {
  const base32 = await startTestService({ secretEncoding: 'base32', digits: 8 });
  t.teardown(() => base32.close());
  const secret = 'JBSW Y3DP EHPK 3PXP JBSW Y3DP';
  const code = 'JBSWY3DPEHPK3PXPJBSWY3DP';
  const pair = await get(t, `/pair.aspx?${query({ AppName: 'Example', AppInfo: 'dave', SecretCode: secret })}`, base32);
  t.is(pair.status, 200);
  const html = readPairingHtml(pair.body);
  t.is(html.title, `Manually pair with ${code}`, 'the secret is read as Base32');
  t.true(html.href?.includes('digits=8'), 'the otpauth URI carries the 8 digits');

  const pin8 = totp(decodeBase32(code), { algorithm: 'SHA1', digits: 8, period: 30 }, Math.floor(base32.clock.now() / 1000));
  t.is((await get(t, `/Validate.aspx?${query({ Pin: pin8, SecretCode: secret })}`, base32)).body.trim(), 'True');
  assertRefused(t, await get(t, `/Validate.aspx?${query({ Pin: pin8, SecretCode: 'not base32 !' })}`, base32), undefined, 'invalid Base32');
});

// --- /qr.aspx -----------------------------------------------------------------------------------

const URI = 'otpauth://totp/Example:alice%40example.com?secret=GEZDGNBVGY3TQQSYLFKA&issuer=Example';

test('/qr.aspx renders a PNG by default, of the asked size, that decodes to its data', async (t) => {
  const answer = await get(t, `/qr.aspx?${query({ size: '300x300', data: URI })}`);
  t.is(answer.status, 200);
  t.is(answer.contentType, 'image/png');
  t.is(answer.headers.get('cache-control'), 'no-store', 'the data may hold a secret: no cache keeps it');
  t.deepEqual(pngSize(answer.bytes), { width: 300, height: 300 });
  t.is(decodeQrPng(answer.bytes), URI);
});

test('/qr.aspx: without size, a 300-pixel PNG; WxH not square takes the smaller side', async (t) => {
  const plain = await get(t, `/qr.aspx?${query({ data: URI })}`);
  t.is(plain.status, 200);
  t.deepEqual(pngSize(plain.bytes), { width: 300, height: 300 });
  t.is(decodeQrPng(plain.bytes), URI);

  const oblong = await get(t, `/qr.aspx?${query({ size: '400x250', data: URI })}`);
  t.is(oblong.status, 200);
  t.deepEqual(pngSize(oblong.bytes), { width: 250, height: 250 });
  t.is(decodeQrPng(oblong.bytes), URI);
});

test('/qr.aspx?format=svg renders an SVG that decodes to its data', async (t) => {
  const answer = await get(t, `/qr.aspx?${query({ size: '240x240', data: URI, format: 'svg' })}`);
  t.is(answer.status, 200);
  t.is(answer.contentType.split(';')[0], 'image/svg+xml');
  t.is(answer.headers.get('cache-control'), 'no-store');
  readXml(answer.body, ({ root: svg }) => {
    t.is(svg.name, 'svg');
    t.is(namespaceOf(svg), 'http://www.w3.org/2000/svg');
    t.is(attributeOf(svg, 'width'), '240');
    t.is(attributeOf(svg, 'height'), '240');
  });
  t.is(decodeQrSvg(answer.body), URI);
});

test('/qr.aspx: UTF-8 data survives the round trip, in both formats', async (t) => {
  const data = 'otpauth://totp/Caf%C3%A9:z%C3%BC?secret=MFRGGZDF — Grüße €';
  t.is(decodeQrPng((await get(t, `/qr.aspx?${query({ data })}`)).bytes), data);
  t.is(decodeQrSvg((await get(t, `/qr.aspx?${query({ data, format: 'svg' })}`)).body), data);
});

test('/qr.aspx: path, parameter names and the format in any case', async (t) => {
  const png = await get(t, `/QR.ASPX?${query({ SIZE: '200x200', DATA: URI })}`);
  t.is(png.status, 200);
  t.is(png.contentType, 'image/png');
  t.is(decodeQrPng(png.bytes), URI);
  const svg = await get(t, `/Qr.Aspx?${query({ Size: '200x200', Data: URI, Format: 'SVG' })}`);
  t.is(svg.status, 200);
  t.is(svg.contentType.split(';')[0], 'image/svg+xml');
  t.is(decodeQrSvg(svg.body), URI);
});

test('/qr.aspx: the largest size, 1000 pixels, is rendered', async (t) => {
  const answer = await get(t, `/qr.aspx?${query({ size: '1000x1000', data: URI })}`);
  t.is(answer.status, 200);
  t.deepEqual(pngSize(answer.bytes), { width: 1000, height: 1000 });
  t.is(decodeQrPng(answer.bytes), URI);
});

const qrRefused = test.macro({
  async exec(t, params: Record<string, string>) {
    for (const format of ['png', 'svg']) {
      const answer = await get(t, `/qr.aspx?${query({ ...params, format })}`);
      assertRefused(t, answer, undefined, `${format} ${JSON.stringify(params).slice(0, 60)}`);
      t.false(answer.contentType.startsWith('image/'), 'no image');
    }
  },
  title: (what = '', params: Record<string, string>) => `/qr.aspx refuses ${what || JSON.stringify(params).slice(0, 60)} with 400`,
});

test('a size over 1000 pixels (2000x2000)', qrRefused, { size: '2000x2000', data: URI });
test('a width over 1000 pixels (1001x300)', qrRefused, { size: '1001x300', data: URI });
test('a height over 1000 pixels (300x1001)', qrRefused, { size: '300x1001', data: URI });
test('an enormous size (99999x99999)', qrRefused, { size: '99999x99999', data: URI });
test('a 5000-character data', qrRefused, { size: '300x300', data: 'x'.repeat(5000) });
test('data over any QR capacity (2954 bytes)', qrRefused, { size: '300x300', data: 'a'.repeat(2954) });
for (const size of [
  'abc',
  '300',
  '300x',
  'x300',
  '300x300x300',
  '-300x300',
  '300.5x300',
  ' 300x300',
  '300 x 300',
  '0x0',
  '10x10',
  '3e2x3e2',
]) {
  test(`bad size syntax or value "${size}"`, qrRefused, { size, data: URI });
}
test('missing data', qrRefused, { size: '300x300' });
test('empty data', qrRefused, { size: '300x300', data: '' });

test('/qr.aspx refuses an unknown format and a repeated parameter with 400', async (t) => {
  assertRefused(t, await get(t, `/qr.aspx?${query({ data: URI, format: 'gif' })}`), undefined, 'format=gif');
  assertRefused(t, await get(t, `/qr.aspx?data=a&data=b`), undefined, 'data twice');
  assertRefused(t, await get(t, `/qr.aspx?data=a&SIZE=100x100&size=200x200`), undefined, 'size twice');
});

test('the plain pages answer only GET (no redirect, no other method)', async (t) => {
  for (const path of ['/pair.aspx', '/Validate.aspx', '/qr.aspx']) {
    const response = await fetch(`${service.url}${path}?data=x`, { method: 'POST', redirect: 'manual' });
    await response.arrayBuffer();
    t.true(response.status === 405 || response.status === 404, `POST ${path}: ${response.status}`);
  }
});
