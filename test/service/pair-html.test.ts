/**
 * The Html of a Pair answer (README, *Pair an authenticator, validate a PIN*; docs/clients.md): a link to the otpauth URI around an
 * inline SVG QR code. The fragment is read with an HTML parser (htmlparser2), the
 * QR code rasterised with resvg and decoded with jsQR, and the secret it
 * carries must produce PINs the service accepts.
 */
import test, { type ExecutionContext } from 'ava';
import { TOTP, URI } from 'otpauth';
import { decodeBase32 } from '../../src/service/otp/base32';
import { totp } from '../../src/service/otp/totp';
import { decodeQrSvg, svgOfDataUri } from '../support/qr-decode';
import { DEFAULT_TOTP, VARIANTS, call, send, validatePinResult } from '../support/requests';
import { postJson, readD } from '../support/json-calls';
import { SERVICE_NAME } from '../../generated/routes';
import { startTestService, type TestService } from '../support/service';
import { childElements, elementAt, elementsAt, loadReaders, namespaceOf, readXml, textOf } from '../support/readers';
import { DEFAULT_NAMESPACE, readPairingHtml, validateAgainstContract } from '../support/xml-assertions';

/** A fixed instant, 22.345 s into its 30-second step. */
const NOW = 1_750_000_012_345;
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const DATA_PREFIX = 'data:image/svg+xml;base64,';

let service: TestService;

test.before(async () => {
  await loadReaders();
  service = await startTestService();
  service.clock.set(NOW);
});

test.after.always(async () => {
  await service?.close();
});

interface Pairing {
  manualSetupCode: string;
  html: string;
}

/** Pair over HTTP GET; fields left undefined are not sent. */
async function pair(t: ExecutionContext, fields: { appName?: string; appInfo?: string; secretCode: string }): Promise<Pairing> {
  const sent = Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined);
  const { status, body: text } = await call(service, 'httpGet', 'Pair', sent);
  t.is(status, 200, text);
  const validation = validateAgainstContract(text);
  t.true(validation.valid, validation.errors.join('; '));
  return readXml(text, (doc) => {
    t.is(doc.root.name, 'PairingInfo');
    const [code, html] = childElements(doc.root);
    return { manualSetupCode: textOf(code), html: textOf(html) };
  });
}

/** The SVG document inside the img src, checked to be inline and self-contained. */
function inlineSvg(t: ExecutionContext, src: string | undefined): string {
  t.truthy(src, 'the img has a src');
  const url = new URL(src!);
  t.is(url.protocol, 'data:', 'the QR code is inline, not fetched from a remote URL');
  t.true(src!.startsWith(DATA_PREFIX), `a base64 SVG data URI (found ${src!.slice(0, 40)}…)`);
  const svg = svgOfDataUri(src!);
  readXml(svg, (doc) => {
    t.is(doc.root.name, 'svg');
    t.is(namespaceOf(doc.root), SVG_NAMESPACE);
    // Nothing the image could load from elsewhere: no links, no images, no scripts, no styles.
    const loading = elementsAt(
      doc,
      "//*[@*[local-name()='href']] | //*[local-name()='image' or local-name()='script' or local-name()='style' or local-name()='foreignObject']",
    );
    t.deepEqual(
      loading.map((e) => e.name),
      [],
    );
  });
  return svg;
}

/** The parsed otpauth URI, with the decoded label. */
function otpauth(href: string): { uri: URL; label: string } {
  const uri = new URL(href);
  return { uri, label: decodeURIComponent(uri.pathname.replace(/^\//, '')) };
}

test('the QR code decodes to the link, and the secret in it yields PINs the service accepts', async (t) => {
  const secretCode = 'pair-html-qr-secret';
  const { manualSetupCode, html } = await pair(t, { appName: 'Pair Html', appInfo: 'grace@example.com', secretCode });
  const link = readPairingHtml(html);
  t.truthy(link.href);
  const svg = inlineSvg(t, link.imgSrc);
  t.is(decodeQrSvg(svg), link.href, 'the QR code holds exactly the link target');

  const { uri } = otpauth(link.href!);
  t.is(uri.protocol, 'otpauth:');
  t.is(uri.host, 'totp');
  const secret = uri.searchParams.get('secret');
  t.is(secret, manualSetupCode);
  const key = decodeBase32(secret!);
  t.deepEqual(key, Buffer.from(secretCode, 'utf8'), 'the key is the UTF-8 bytes of secretCode');

  const pin = totp(key, DEFAULT_TOTP, Math.floor(service.clock.now() / 1000));
  t.true(await validatePinResult(service, 'httpGet', pin, secretCode), 'the PIN an app scanning the QR code shows is accepted');
});

test('Html shape with appName: title, issuer:account label, issuer parameter, border=0', async (t) => {
  const { manualSetupCode, html } = await pair(t, {
    appName: 'Acme Pins',
    appInfo: 'heidi@example.com',
    secretCode: 'pair-html-shape-secret',
  });
  const link = readPairingHtml(html);
  t.deepEqual(link.fragment, ['a'], 'the fragment is a link, and nothing else');
  t.is(link.links, 1);
  t.is(link.images, 1);
  t.deepEqual(link.linkChildren, ['img'], 'the link holds the image and nothing else');
  t.is(link.linkText, '');
  t.is(link.title, `Manually pair with ${manualSetupCode}`);
  t.is(link.border, '0');
  inlineSvg(t, link.imgSrc);

  const { uri, label } = otpauth(link.href!);
  t.is(label, 'Acme Pins:heidi@example.com');
  t.is(uri.searchParams.get('issuer'), 'Acme Pins');
  t.is(uri.searchParams.get('secret'), manualSetupCode);
  t.true(link.href!.includes('Acme%20Pins:'), 'a space in the label is written %20');
  t.true(link.href!.includes('issuer=Acme%20Pins'), 'a space in the issuer is written %20, not +');
});

test('Html without appName (absent or empty): the label is the account alone and there is no issuer parameter', async (t) => {
  for (const appName of [undefined, '']) {
    const { manualSetupCode, html } = await pair(t, { appName, appInfo: 'ivan@example.com', secretCode: 'pair-html-noissuer' });
    const link = readPairingHtml(html);
    t.is(link.title, `Manually pair with ${manualSetupCode}`);
    t.is(link.border, '0');
    const { uri, label } = otpauth(link.href!);
    t.is(label, 'ivan@example.com', String(appName));
    t.false(uri.searchParams.has('issuer'), `no issuer parameter (appName ${JSON.stringify(appName)})`);
    t.deepEqual([...uri.searchParams.keys()], ['secret']);
    t.is(decodeQrSvg(inlineSvg(t, link.imgSrc)), link.href);
  }
});

test('non-ASCII and HTML-special names survive: UTF-8 percent-encoding, attribute escaping, and the QR code', async (t) => {
  const appName = 'Société Générale €';
  const appInfo = "o'brien <&> josé@example.fr";
  const secretCode = 'pair-html-unicode-secret';
  const { manualSetupCode, html } = await pair(t, { appName, appInfo, secretCode });
  const link = readPairingHtml(html);
  t.is(link.links, 1);
  t.is(link.images, 1);
  t.is(link.title, `Manually pair with ${manualSetupCode}`);
  const { uri, label } = otpauth(link.href!);
  t.is(label, `${appName}:${appInfo}`);
  t.is(uri.searchParams.get('issuer'), appName);
  t.is(uri.searchParams.get('secret'), manualSetupCode);
  // UTF-8 percent-encoding (not the reference's Latin-1 code units): é is %C3%A9, € is %E2%82%AC.
  t.true(link.href!.includes('Soci%C3%A9t%C3%A9%20G%C3%A9n%C3%A9rale%20%E2%82%AC'), link.href);
  t.is(decodeQrSvg(inlineSvg(t, link.imgSrc)), link.href);
});

test('the Html is the same whichever variant answers Pair', async (t) => {
  const fields = { appName: 'Same', appInfo: 'judy@example.com', secretCode: 'pair-html-same-secret' };
  const { html } = await pair(t, fields);
  const answer = await call(service, 'soap11', 'Pair', fields, { soapAction: null });
  t.is(answer.status, 200);
  const soapHtml = readXml(answer.body, (doc) => {
    const element = elementAt(doc, '//p:PairResult/p:Html', { p: DEFAULT_NAMESPACE });
    return element && textOf(element);
  });
  t.is(soapHtml, html);
});

/** The Html of a Pair answer over any protocol: the four variants, JSON and /pair.aspx. */
async function htmlOver(
  t: ExecutionContext,
  protocol: string,
  fields: { appName: string; appInfo: string; secretCode: string },
): Promise<string | undefined> {
  if (protocol === 'json') return (readD(t, await postJson(service.url, 'Pair', fields), protocol) as { Html: string }).Html;
  if (protocol === 'page') {
    const query = new URLSearchParams({ AppName: fields.appName, AppInfo: fields.appInfo, SecretCode: fields.secretCode });
    const answer = await send(`${service.url}/pair.aspx?${query}`, {});
    t.is(answer.status, 200, `/pair.aspx: ${answer.body}`);
    return answer.body;
  }
  const answer = await call(service, protocol as (typeof VARIANTS)[number], 'Pair', fields);
  t.is(answer.status, 200, `${protocol}: ${answer.body}`);
  return readXml(answer.body, (doc) => {
    const element = elementAt(doc, '//p:Html', { p: DEFAULT_NAMESPACE });
    return element ? textOf(element) : undefined;
  });
}

test('an empty appInfo is answered on every protocol, as the original answers it: the label is the issuer alone', async (t) => {
  const fields = { appName: 'Acme Pins', appInfo: '', secretCode: 'pair-html-empty-account' };
  const { manualSetupCode, html } = await pair(t, fields);
  t.is(manualSetupCode, 'OBQWS4RNNB2G23BNMVWXA5DZFVQWGY3POVXHI');
  for (const protocol of [...VARIANTS, 'json', 'page']) t.is(await htmlOver(t, protocol, fields), html, `${protocol}: the same Html`);

  const link = readPairingHtml(html);
  t.is(link.title, `Manually pair with ${manualSetupCode}`);
  t.is(link.href, `otpauth://totp/Acme%20Pins?secret=${manualSetupCode}&issuer=Acme%20Pins`);
  const scanned = decodeQrSvg(inlineSvg(t, link.imgSrc));
  t.is(scanned, link.href, 'the QR code holds the link');
  // An authenticator's parser (the otpauth package, which refuses an empty label) reads it, and its PIN is accepted.
  const otp = URI.parse(scanned!);
  t.true(otp instanceof TOTP);
  t.like(otp as TOTP, { issuer: 'Acme Pins', label: 'Acme Pins', ...DEFAULT_TOTP }, "the app's defaults are the service's");
  t.is(otp.secret.base32, manualSetupCode);
  t.true(
    await validatePinResult(service, 'httpGet', otp.generate({ timestamp: service.clock.now() }), fields.secretCode),
    "the app's PIN is accepted",
  );
});

test("with neither appName nor appInfo the label is the service's name; spaces in the account are kept (the original drops them)", async (t) => {
  for (const appName of [undefined, '']) {
    const { manualSetupCode, html } = await pair(t, { appName, appInfo: '', secretCode: 'pair-html-no-names' });
    const link = readPairingHtml(html);
    t.is(link.href, `otpauth://totp/${SERVICE_NAME}?secret=${manualSetupCode}`);
    const otp = URI.parse(decodeQrSvg(inlineSvg(t, link.imgSrc))!);
    t.like(otp as TOTP, { issuer: '', label: SERVICE_NAME });
  }
  const spaced = readPairingHtml((await pair(t, { appName: 'Acme', appInfo: 'john doe', secretCode: 'pair-html-spaced' })).html);
  t.like(URI.parse(decodeQrSvg(inlineSvg(t, spaced.imgSrc))!) as TOTP, { issuer: 'Acme', label: 'john doe' });
});

test('an absent appInfo is still refused (the original answers it with a stack trace)', async (t) => {
  const answer = await call(service, 'httpPost', 'Pair', { appName: 'Acme', secretCode: 'pair-html-no-account' });
  t.is(answer.status, 400);
  t.is(answer.body.trim(), 'appInfo is required.');
});
