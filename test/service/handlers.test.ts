/**
 * The two hand-written operations called directly, without HTTP or XML:
 * Pair (ManualSetupCode, Html, field checks) and ValidatePin (reference TOTP
 * vectors, drift windows, PIN shapes, base32 mode).
 */
import test, { type ExecutionContext } from 'ava';
import { setupCodeVectors, totpVectors } from '../support/vectors';
import { defaultConfig, type Config } from '../../src/service/config';
import { ServiceError } from '../../src/runtime/errors';
import type { Call } from '../../src/runtime/definition';
import { pairingInfo } from '../../src/service/handlers/pair';
import { encodeBase32 } from '../../src/service/otp/base32';
import { checkPin, type ValidationState } from '../../src/service/handlers/validate-pin';
import { MemoryStore } from '../../src/service/state/memory-store';
import { createStateKeyHasher } from '../../src/service/state/keyed-hash';
import { Pair, ValidatePin } from '../../generated/types';
import { decodeQrSvg, svgOfDataUri } from '../support/qr-decode';
import { htmlAttribute, htmlElement, htmlElements, htmlTag, loadReaders, readHtml, type HtmlElement } from '../support/readers';

const SETUP_VECTORS = setupCodeVectors();
const TOTP_VECTORS = totpVectors();

test.before(loadReaders);

const DEFAULTS: Config = defaultConfig();
const settings = (overrides: Partial<Config> = {}): Config => ({ ...DEFAULTS, ...overrides });

/** A fresh, empty state for each validation, so replay and throttle state never carry over between checks. */
function freshState(): ValidationState {
  return { store: new MemoryStore(1000), stateKeyOf: createStateKeyHasher(undefined) };
}

async function check(
  pin: string | undefined,
  secretCode: string | undefined,
  nowMs: number,
  overrides: Partial<Config> = {},
): Promise<boolean> {
  return checkPin(new ValidatePin({ pin, secretCode }), settings(overrides), nowMs, freshState());
}

function assertClientError(t: ExecutionContext, error: unknown, secret: string | undefined, label: string): void {
  t.true(error instanceof ServiceError, `${label}: ${String(error)}`);
  if (!(error instanceof ServiceError)) return;
  t.is(error.kind, 'client', label);
  t.false(/[\r\n]/.test(error.message), `${label}: one line`);
  // (Secrets of a few letters occur in any sentence; only longer ones are checked.)
  if (secret && secret.length >= 6) t.false(error.message.includes(secret), `${label}: the message repeats the secret`);
}

function pairError(t: ExecutionContext, request: Pair, overrides: Partial<Config>, label: string): void {
  const error = t.throws(() => pairingInfo(request, settings(overrides)), undefined, label);
  assertClientError(t, error, request.secretCode, label);
}

async function validateError(t: ExecutionContext, request: ValidatePin, overrides: Partial<Config>, label: string): Promise<void> {
  const error = await t.throwsAsync(checkPin(request, settings(overrides), 1_234_567_890_000, freshState()), undefined, label);
  assertClientError(t, error, request.secretCode, label);
}

// -------------------------------------------------------------------- Pair

test('Pair: ManualSetupCode equals the reference for every vector secret of at least 10 bytes', (t) => {
  const long = SETUP_VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') >= 10);
  t.true(long.length >= 5, 'vectors of at least 10 bytes');
  t.true(
    long.some((v) => v.secretCode !== v.secretCode.trim()),
    'a secret with surrounding spaces is among them',
  );
  t.true(
    long.some((v) => [...v.secretCode].some((c) => c.charCodeAt(0) > 0x7f)),
    'a non-ASCII secret is among them',
  );
  for (const v of long) {
    const result = pairingInfo(new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: v.secretCode }), settings());
    t.is(result.ManualSetupCode, v.ManualSetupCode, JSON.stringify(v.secretCode));
  }
});

test('Pair: vector secrets under 10 bytes are refused by default and pass with the minimum set to 1', (t) => {
  const short = SETUP_VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') < 10);
  t.true(short.length >= 5, 'vectors under 10 bytes');
  for (const v of short) {
    const request = new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: v.secretCode });
    pairError(t, request, {}, `${JSON.stringify(v.secretCode)} with the default minimum`);
    t.is(
      pairingInfo(request, settings({ minSecretBytes: 1 })).ManualSetupCode,
      v.ManualSetupCode,
      `${JSON.stringify(v.secretCode)} with minimum 1`,
    );
  }
});

test('Pair: the minimum counts bytes of the key, not characters', (t) => {
  // "éééé1" is 5 characters, 9 bytes; "ééééé" is 10 bytes.
  pairError(t, new Pair({ appInfo: 'alice', secretCode: 'éééé1' }), {}, '9 bytes');
  t.is(pairingInfo(new Pair({ appInfo: 'alice', secretCode: 'ééééé' }), settings()).ManualSetupCode, 'YOU4HKODVHB2TQ5J');
  pairError(t, new Pair({ appInfo: 'alice', secretCode: 'abcdefghijk' }), { minSecretBytes: 12 }, 'minimum 12');
});

const SVG_PREFIX = 'data:image/svg+xml;base64,';

interface HtmlParts {
  title: string;
  href: string;
  src: string;
  border: string;
}

/**
 * Checks the literal shape of the Html fragment and reads its attribute
 * values (HTML-unescaped) with an HTML parser (htmlparser2).
 */
function readHtmlParts(t: ExecutionContext, html: string, code: string, rawHref: string): HtmlParts {
  const head = `<a title='Manually pair with ${code}' href='${rawHref}'><img src='${SVG_PREFIX}`;
  const tail = `' border=0></a>`;
  t.true(html.startsWith(head), `Html starts with ${head}\n  got ${html.slice(0, head.length + 20)}`);
  t.true(html.endsWith(tail), `Html ends with ${tail}`);
  t.false(/[\r\n]/.test(html), 'Html is one line');
  const base64 = html.slice(head.length, html.length - tail.length);
  t.regex(base64, /^[A-Za-z0-9+/]+=*$/, 'the image is inline base64');

  const doc = readHtml(html);
  const a = htmlElement(doc, htmlTag('a'));
  const img = htmlElement(doc, (e) => e.name === 'img' && e.parent !== null && 'attribs' in e.parent && e.parent.name === 'a');
  t.truthy(a && img, 'an <a> holding an <img>');
  const attr = (e: HtmlElement | null, name: string) => htmlAttribute(e, name) ?? '';
  return { title: attr(a, 'title'), href: attr(a, 'href'), src: attr(img, 'src'), border: attr(img, 'border') };
}

test('Pair: Html is the link and inline QR code of the otpauth URI, attribute values HTML-escaped', (t) => {
  const result = pairingInfo(new Pair({ appName: 'Acme Corp', appInfo: 'alice smith', secretCode: '12345678BXYT' }), settings());
  const code = 'GEZDGNBVGY3TQQSYLFKA';
  t.is(result.ManualSetupCode, code);
  const uri = `otpauth://totp/Acme%20Corp:alice%20smith?secret=${code}&issuer=Acme%20Corp`;
  const parts = readHtmlParts(t, result.Html!, code, uri.replace(/&/g, '&amp;'));
  t.is(parts.title, `Manually pair with ${code}`);
  t.is(parts.href, uri);
  t.is(parts.border, '0');
  t.true(parts.src.startsWith(SVG_PREFIX));
  // The QR code, read back by a real QR reader, is the very same URI: scanning it pairs.
  t.is(decodeQrSvg(svgOfDataUri(parts.src)), uri);
});

test('Pair: spaces are %20 and é, € are percent-encoded UTF-8, in the label and the issuer', (t) => {
  const result = pairingInfo(
    new Pair({ appName: 'Société Générale €', appInfo: 'josé € dupont', secretCode: 'JBSWY3DPEHPK3PXP' }),
    settings(),
  );
  const code = 'JJBFGV2ZGNCFARKIKBFTGUCYKA';
  const issuer = 'Soci%C3%A9t%C3%A9%20G%C3%A9n%C3%A9rale%20%E2%82%AC';
  const uri = `otpauth://totp/${issuer}:jos%C3%A9%20%E2%82%AC%20dupont?secret=${code}&issuer=${issuer}`;
  const parts = readHtmlParts(t, result.Html!, code, uri.replace(/&/g, '&amp;'));
  t.is(parts.href, uri);
  t.false(parts.href.includes('+'), 'no + for spaces');
  t.false(/%E9|%20AC/i.test(parts.href.replace(/%E2%82%AC/g, '')), "not the reference's Latin-1 encoding");
  t.is(decodeQrSvg(svgOfDataUri(parts.src)), uri);
});

test('Pair: characters special to HTML or to the URI never break out of the attribute', (t) => {
  const appName = `Tom & Jerry's <Co> "Ltd"`;
  const appInfo = `a'b"c<d>e&f`;
  const result = pairingInfo(new Pair({ appName, appInfo, secretCode: '12345678BXYT' }), settings());
  const html = result.Html!;
  const parts = readHtmlParts(
    t,
    html,
    'GEZDGNBVGY3TQQSYLFKA',
    `otpauth://totp/${encode(appName)}:${encode(appInfo)}?secret=GEZDGNBVGY3TQQSYLFKA&amp;issuer=${encode(appName)}`,
  );
  // One <a>, one <img>, nothing else: the quotes and angle brackets did not open anything.
  const doc = readHtml(html);
  const attributeCount = (elements: HtmlElement[]) => elements.reduce((sum, e) => sum + Object.keys(e.attribs).length, 0);
  t.is(htmlElements(doc, htmlTag('a')).length, 1);
  t.is(htmlElements(doc, htmlTag('img')).length, 1);
  t.is(attributeCount(htmlElements(doc, htmlTag('a'))), 2);
  t.is(attributeCount(htmlElements(doc, htmlTag('img'))), 2);
  const url = new URL(parts.href);
  t.is(url.protocol, 'otpauth:');
  t.is(url.searchParams.get('issuer'), appName);
  t.is(url.searchParams.get('secret'), 'GEZDGNBVGY3TQQSYLFKA');
  t.is(decodeURIComponent(url.pathname.slice(url.pathname.indexOf(':') + 1)), appInfo);
});

/** RFC 3986 unreserved characters stay, everything else is %XX of UTF-8. */
function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

test('Pair: without appName (absent or empty) there is no issuer, in the label or as a parameter', (t) => {
  for (const appName of [undefined, '']) {
    const result = pairingInfo(new Pair({ appName, appInfo: 'alice smith', secretCode: '12345678BXYT' }), settings());
    const uri = 'otpauth://totp/alice%20smith?secret=GEZDGNBVGY3TQQSYLFKA';
    const parts = readHtmlParts(t, result.Html!, 'GEZDGNBVGY3TQQSYLFKA', uri);
    t.is(parts.href, uri, `appName ${JSON.stringify(appName)}`);
    t.is(decodeQrSvg(svgOfDataUri(parts.src)), uri);
  }
});

test('Pair: an empty or blank appInfo is answered: the label is the issuer alone, or the service name without appName', (t) => {
  const cases: Array<[string | undefined, string, string]> = [
    ['Acme', '', 'otpauth://totp/Acme?secret=GEZDGNBVGY3TQQSYLFKA&issuer=Acme'],
    ['Acme', '  ', 'otpauth://totp/Acme?secret=GEZDGNBVGY3TQQSYLFKA&issuer=Acme'],
    [undefined, '', 'otpauth://totp/AuthenticatorAPI?secret=GEZDGNBVGY3TQQSYLFKA'],
    ['', '', 'otpauth://totp/AuthenticatorAPI?secret=GEZDGNBVGY3TQQSYLFKA'],
  ];
  for (const [appName, appInfo, uri] of cases) {
    const result = pairingInfo(new Pair({ appName, appInfo, secretCode: '12345678BXYT' }), settings());
    t.is(result.ManualSetupCode, 'GEZDGNBVGY3TQQSYLFKA');
    const parts = readHtmlParts(t, result.Html!, 'GEZDGNBVGY3TQQSYLFKA', uri.replace(/&/g, '&amp;'));
    t.is(parts.href, uri, `${JSON.stringify(appName)}, ${JSON.stringify(appInfo)}`);
  }
});

test('Pair: TOTP settings other than the defaults appear in the otpauth URI, the defaults do not', (t) => {
  const request = new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: '12345678BXYT' });
  const base = 'otpauth://totp/Acme:alice?secret=GEZDGNBVGY3TQQSYLFKA&issuer=Acme';
  const cases: Array<[Partial<Config>, string]> = [
    [{}, base],
    [{ algorithm: 'SHA256' }, `${base}&algorithm=SHA256`],
    [{ digits: 8, period: 60 }, `${base}&digits=8&period=60`],
    [{ algorithm: 'SHA512', digits: 8, period: 15 }, `${base}&algorithm=SHA512&digits=8&period=15`],
  ];
  for (const [overrides, uri] of cases) {
    const parts = readHtmlParts(t, pairingInfo(request, settings(overrides)).Html!, 'GEZDGNBVGY3TQQSYLFKA', uri.replace(/&/g, '&amp;'));
    t.is(parts.href, uri, JSON.stringify(overrides));
  }
});

test('Pair: the field checks refuse with client errors that do not repeat the secret', (t) => {
  const secretCode = 'S3cretLeakCanary-42xyz';
  const cases: Array<[string, Pair]> = [
    ['no secretCode', new Pair({ appName: 'Acme', appInfo: 'alice' })],
    ['empty secretCode', new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: '' })],
    ['no appInfo', new Pair({ appName: 'Acme', secretCode })],
    ['appName of 101 characters', new Pair({ appName: 'é'.repeat(101), appInfo: 'alice', secretCode })],
    ['appInfo of 257 characters', new Pair({ appName: 'Acme', appInfo: 'x'.repeat(257), secretCode })],
    ['secretCode of 257 bytes', new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: `${secretCode + 'é'.repeat(117)}x` })],
    ['U+0000 in appName', new Pair({ appName: 'Ac\u0000me', appInfo: 'alice', secretCode })],
    ['U+000C (form feed) in appInfo', new Pair({ appName: 'Acme', appInfo: 'ali\u000cce', secretCode })],
    ['U+FFFE in secretCode', new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: `${secretCode}\ufffe` })],
    ['an unpaired surrogate in appInfo', new Pair({ appName: 'Acme', appInfo: 'ali\ud800ce', secretCode })],
    ['an unpaired low surrogate in secretCode', new Pair({ appName: 'Acme', appInfo: 'alice', secretCode: `\udc00${secretCode}` })],
  ];
  for (const [label, request] of cases) pairError(t, request, {}, label);
  // The limits themselves pass.
  t.truthy(
    pairingInfo(new Pair({ appName: 'é'.repeat(100), appInfo: 'x'.repeat(256), secretCode: secretCode + 'é'.repeat(117) }), settings())
      .Html,
  );
});

test('Pair: tab, LF, CR, DEL and C1 characters are accepted: key bytes as given, percent-encoded in the URI, never raw in the Html', (t) => {
  const secretCode = 'a-secret-with-a-newline\r\n';
  const info = pairingInfo(new Pair({ appName: 'Ac\tme\u007f', appInfo: 'alice\nsmith\u0085', secretCode }), settings());
  const html = info.Html ?? '';
  t.is(info.ManualSetupCode, encodeBase32(Buffer.from(secretCode, 'utf8')));
  const href = /href='([^']*)'/.exec(html)![1];
  t.is(href.split('?')[0], 'otpauth://totp/Ac%09me%7F:alice%0Asmith%C2%85');
  t.true(href.includes('&amp;issuer=Ac%09me%7F'), href);
  t.false(/[\t\r\n\u007f\u0085]/.test(html), 'no raw control character in the Html');
});

test('Pair in base32 mode: the code is the normalised Base32 text, the minimum counts decoded bytes', (t) => {
  const base32 = { secretEncoding: 'base32' as const };
  for (const secretCode of ['JBSWY3DPEHPK3PXP', 'jbswy3dpehpk3pxp', 'JBSW Y3DP EHPK 3PXP', 'JBSWY3DPEHPK3PXP======']) {
    t.is(pairingInfo(new Pair({ appInfo: 'alice', secretCode }), settings(base32)).ManualSetupCode, 'JBSWY3DPEHPK3PXP', secretCode);
  }
  // 8 Base32 characters are 5 bytes: under the minimum, though 8 characters long.
  pairError(t, new Pair({ appInfo: 'alice', secretCode: 'JBSWY3DP' }), base32, '5 decoded bytes');
  t.is(
    pairingInfo(new Pair({ appInfo: 'alice', secretCode: 'JBSWY3DP' }), settings({ ...base32, minSecretBytes: 5 })).ManualSetupCode,
    'JBSWY3DP',
  );
  for (const secretCode of ['S3cretLeakCanary-42xyz', 'JBSWY3DPEHPK3PX1', 'JBSWY3DPEHPK3PXPé', 'A']) {
    pairError(t, new Pair({ appInfo: 'alice', secretCode }), base32, `invalid Base32 ${secretCode}`);
  }
});

// ------------------------------------------------------------- ValidatePin

test('ValidatePin: every reference TOTP vector is accepted at its time with drift window 0', async (t) => {
  t.true(TOTP_VECTORS.length >= 30);
  for (const v of TOTP_VECTORS) {
    t.true(await check(v.pin, v.secretCode, v.unixTime * 1000, { driftWindow: 0 }), `${JSON.stringify(v.secretCode)} at ${v.unixTime}`);
  }
});

test('ValidatePin: a PIN with one digit changed is refused', async (t) => {
  for (const v of TOTP_VECTORS) {
    const wrong = v.pin.slice(0, 5) + String((Number(v.pin[5]) + 5) % 10);
    t.false(await check(wrong, v.secretCode, v.unixTime * 1000, { driftWindow: 10 }), `${JSON.stringify(v.secretCode)} at ${v.unixTime}`);
  }
});

test('ValidatePin: the secret is the UTF-8 bytes of secretCode in utf8 mode (spaces kept, no Base32 decoding)', async (t) => {
  const v = TOTP_VECTORS.find((x) => x.secretCode === '  spaced secret  ' && x.unixTime === 1234567890)!;
  t.true(await check(v.pin, v.secretCode, v.unixTime * 1000, { driftWindow: 0 }));
  t.false(await check(v.pin, v.secretCode.trim(), v.unixTime * 1000, { driftWindow: 0 }), 'the trimmed secret is another key');
  const b = TOTP_VECTORS.find((x) => x.secretCode === 'JBSWY3DPEHPK3PXP' && x.unixTime === 1234567890)!;
  t.true(await check(b.pin, 'JBSWY3DPEHPK3PXP', b.unixTime * 1000, { driftWindow: 0 }));
  t.false(await check(b.pin, 'jbswy3dpehpk3pxp', b.unixTime * 1000, { driftWindow: 0 }), 'case matters: these are bytes');
});

test('ValidatePin: drift windows accept exactly the steps within the window, on both sides', async (t) => {
  // 1234567890 is the first second of its step (1234567890 = 30 × 41152263).
  const v = TOTP_VECTORS.find((x) => x.secretCode === '12345678BXYT' && x.unixTime === 1234567890)!;
  const at = (seconds: number) => (v.unixTime + seconds) * 1000;
  const off = { replayProtection: false, throttleAttempts: 0 };
  for (const window of [0, 1, 2, 10]) {
    for (let steps = -(window + 1); steps <= window + 1; steps++) {
      const inside = Math.abs(steps) <= window;
      // The first and the last second of the step `steps` away.
      for (const second of [steps * 30, steps * 30 + 29]) {
        t.is(await check(v.pin, v.secretCode, at(second), { ...off, driftWindow: window }), inside, `window ${window}, ${second} s away`);
      }
    }
  }
  // The default window is one step each way; 10 steps is the reference's 5 minutes.
  t.is(DEFAULTS.driftWindow, 1);
  t.true(await check(v.pin, v.secretCode, at(-30)), 'default window, one step back');
  t.true(await check(v.pin, v.secretCode, at(30 + 29)), 'default window, one step ahead');
  t.false(await check(v.pin, v.secretCode, at(-31)), 'default window, two steps back');
  t.false(await check(v.pin, v.secretCode, at(60)), 'default window, two steps ahead');
  t.true(await check(v.pin, v.secretCode, at(300 + 29), { driftWindow: 10 }));
  t.false(await check(v.pin, v.secretCode, at(330), { driftWindow: 10 }));
});

test('ValidatePin: surrounding white space is ignored; anything but exactly 6 decimal digits is false', async (t) => {
  const v = TOTP_VECTORS.find((x) => x.secretCode === '12345678BXYT' && x.unixTime === 1234567890)!;
  const now = v.unixTime * 1000;
  for (const padded of [` ${v.pin}`, `${v.pin} `, `\t${v.pin}\r\n`, `  ${v.pin}\n\n`]) {
    t.true(await check(padded, v.secretCode, now), JSON.stringify(padded));
  }
  const malformed = [
    undefined,
    '',
    '   ',
    'abcdef',
    v.pin.slice(0, 5),
    `${v.pin}0`,
    `0${v.pin}`,
    `${v.pin.slice(0, 3)} ${v.pin.slice(3)}`,
    `+${v.pin.slice(1)}`,
    `${v.pin.slice(0, 5)}x`,
    // Arabic-Indic digits of the same PIN: digits, but not decimal ASCII digits.
    [...v.pin].map((d) => String.fromCharCode(0x0660 + Number(d))).join(''),
  ];
  for (const pin of malformed) t.false(await check(pin, v.secretCode, now), JSON.stringify(pin));
});

test('ValidatePin: a short secret is accepted (no minimum), a missing or oversized one is a client error', async (t) => {
  const v = TOTP_VECTORS.find((x) => x.secretCode === 'a' && x.unixTime === 1234567890)!;
  t.true(await check(v.pin, 'a', v.unixTime * 1000));
  t.false(await check('000000' === v.pin ? '111111' : '000000', 'a', v.unixTime * 1000));
  await validateError(t, new ValidatePin({ pin: '924711' }), {}, 'no secretCode');
  await validateError(t, new ValidatePin({ pin: '924711', secretCode: '' }), {}, 'empty secretCode');
  // Even with a malformed PIN, the missing secret is what is reported.
  await validateError(t, new ValidatePin({ pin: 'abc' }), {}, 'no secretCode, malformed PIN');
  await validateError(
    t,
    new ValidatePin({ pin: '924711', secretCode: `S3cretLeakCanary-42xyz${'x'.repeat(235)}` }),
    {},
    'secretCode of 257 bytes',
  );
});

test('ValidatePin: 8 digits and SHA-256 / SHA-512 follow RFC 6238 Appendix B', async (t) => {
  const rfc: Array<[Config['algorithm'], string, number, string]> = [
    ['SHA1', '12345678901234567890', 59, '94287082'],
    ['SHA1', '12345678901234567890', 1111111109, '07081804'],
    ['SHA1', '12345678901234567890', 20000000000, '65353130'],
    ['SHA256', '12345678901234567890123456789012', 59, '46119246'],
    ['SHA256', '12345678901234567890123456789012', 1234567890, '91819424'],
    ['SHA512', '1234567890123456789012345678901234567890123456789012345678901234', 59, '90693936'],
    ['SHA512', '1234567890123456789012345678901234567890123456789012345678901234', 2000000000, '38618901'],
  ];
  for (const [algorithm, secretCode, unixTime, pin] of rfc) {
    const label = `${algorithm} at ${unixTime}`;
    t.true(await check(pin, secretCode, unixTime * 1000, { algorithm, digits: 8, driftWindow: 0 }), label);
    // With 8 digits, a 6-digit PIN is malformed, even the right last six.
    t.false(await check(pin.slice(2), secretCode, unixTime * 1000, { algorithm, digits: 8, driftWindow: 0 }), `${label}, 6 digits`);
  }
  // The period: a 60-second step is the 30-second step of half the time.
  t.true(await check('94287082', '12345678901234567890', 118 * 1000, { digits: 8, period: 60, driftWindow: 0 }));
});

test('ValidatePin in base32 mode: the key is the decoded Base32 (any case, spaces, padding); invalid Base32 is a client error', async (t) => {
  const base32 = { secretEncoding: 'base32' as const, driftWindow: 0 };
  // GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ is Base32 of "12345678901234567890".
  const forms = [
    'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    'gezdgnbvgy3tqojqgezdgnbvgy3tqojq',
    'GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ',
    'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ====',
  ];
  const vectors = TOTP_VECTORS.filter((v) => v.secretCode === '12345678901234567890');
  t.true(vectors.length >= 5);
  for (const v of vectors) {
    for (const secretCode of forms) {
      t.true(await check(v.pin, secretCode, v.unixTime * 1000, base32), `${secretCode} at ${v.unixTime}`);
    }
  }
  // A valid Base32 text means its decoded bytes, not its own UTF-8 bytes.
  const j = TOTP_VECTORS.find((x) => x.secretCode === 'JBSWY3DPEHPK3PXP' && x.unixTime === 1234567890)!;
  t.false(await check(j.pin, 'JBSWY3DPEHPK3PXP', j.unixTime * 1000, base32));
  for (const secretCode of ['S3cretLeakCanary-42xyz', '12345678901234567890', 'GEZDGNBVGY3TQOJQ!', 'ÉTÉ']) {
    await validateError(t, new ValidatePin({ pin: '924711', secretCode }), base32, `invalid Base32 ${secretCode}`);
  }
});

test('ValidatePin tells each outcome once, by the keyed hash: wrong, the lock its fifth failure causes, throttled, accepted, replay', async (t) => {
  const told: [string, string, number | undefined, number | undefined][] = [];
  const hashOf = createStateKeyHasher('a-state-key-of-the-outcome-test-0123456789');
  const v = TOTP_VECTORS.find((x) => x.secretCode === '12345678BXYT')!;
  const now = v.unixTime * 1000;
  const state: ValidationState = {
    store: new MemoryStore(1000, () => now),
    stateKeyOf: hashOf,
    outcomes: {
      ready() {},
      validated: (outcome, key, from, attempts, lockedUntilMs) => {
        t.is(from, call, 'the call the handler was given');
        told.push([outcome, key, attempts, lockedUntilMs]);
      },
      paired() {},
    },
  };
  const call: Call = {
    address: '192.0.2.7',
    requestId: 'the-call',
    operation: 'ValidatePin',
    variant: 'soap11',
    headers: { in: {}, out: {} },
    answered() {},
    header: () => undefined,
  };
  const request = (pin: string) => new ValidatePin({ pin, secretCode: v.secretCode });
  const key = hashOf(Buffer.from(v.secretCode));
  t.true(await checkPin(request(v.pin), settings(), now, state, call));
  t.false(await checkPin(request(v.pin), settings(), now, state, call));
  // The replay counted as a failure: four wrong PINs more reach the limit.
  for (let i = 0; i < 4; i++) t.false(await checkPin(request('000000'), settings(), now, state, call));
  await t.throwsAsync(checkPin(request(v.pin), settings(), now, state, call), { instanceOf: ServiceError });
  t.deepEqual(told, [
    ['accepted', key, undefined, undefined],
    ['replay', key, 1, undefined],
    ['wrong', key, 2, undefined],
    ['wrong', key, 3, undefined],
    ['wrong', key, 4, undefined],
    ['wrong', key, 5, undefined],
    ['locked', key, 5, now + 300_000],
    ['throttled', key, 6, now + 300_000],
  ]);
});

test('ValidatePin: an outcome that cannot be recorded (--audit-required) refuses the call before the PIN is checked or counted', async (t) => {
  const store = new MemoryStore(1000);
  const refusal = new ServiceError('unavailable', 'The service cannot answer right now; try again later.');
  const state: ValidationState = {
    store,
    stateKeyOf: createStateKeyHasher(undefined),
    outcomes: {
      ready() {
        throw refusal;
      },
      validated() {},
      paired() {},
    },
  };
  const v = TOTP_VECTORS[0];
  t.is(
    await t.throwsAsync(checkPin(new ValidatePin({ pin: v.pin, secretCode: v.secretCode }), settings(), v.unixTime * 1000, state)),
    refusal,
  );
  t.is(store.size, 0, 'nothing counted, nothing accepted');
});
