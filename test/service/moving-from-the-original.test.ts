/**
 * docs/moving-from-the-original.md against the service: the page is linked
 * from the README and has its one snippet per client; the links snippet,
 * with its host changed, answers a Pair and a ValidatePin; the original's
 * setup codes and PINs (test/fixtures/vectors/) are this service's, as "Both side by
 * side" says; and each row of the departures table is sent to a service
 * with default settings, whose answers must show every `code` value of the
 * row's third column (a status among the statuses answered; anything else
 * in a request line, a header, a body, or the Html's link and image), with
 * each row's own checks beside. The other snippets need Mono, PHP, zeep or
 * Chromium: test/system/moving-*.test.ts.
 */
import test, { type ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeBase32 } from '../../src/service/otp/base32';
import { totp } from '../../src/service/otp/totp';
import { atAddress, codeSpans, departures, migrationPage, PAGE_ADDRESS, PAGE_PATH, snippet } from '../support/migration-page';
import { decodeQrPng, decodeQrSvg, svgOfDataUri } from '../support/qr-decode';
import { elementAt, loadReaders, readXml, textOf } from '../support/readers';
import {
  buildRequest,
  DEFAULT_TOTP,
  NS,
  pinFor,
  readBoolean,
  readFault,
  send,
  sendRequest,
  soapRequest,
  wrongPinFor,
  type Answer,
  type Fields,
  type OutgoingRequest,
  type Variant,
} from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { setupCodeVectors, totpVectors } from '../support/vectors';
import { contractValidator, readPairingHtml, schemaChecks, validateAgainstContract } from '../support/xml-assertions';
import type { Config } from '../../src/service/config';

/** A fixed instant, 12.345 s into its 30-second step: every PIN below is worked out for it. */
const NOW = 1_760_000_012_345;

let service: TestService;

test.before(async () => {
  await loadReaders();
  service = await startTestService();
  service.clock.set(NOW);
});

test.after.always(async () => {
  await service?.close();
});

/** A service with other settings for one check, closed when the test ends, at the same instant. */
async function serviceWith(t: ExecutionContext, settings: Partial<Config>): Promise<TestService> {
  const other = await startTestService(settings);
  other.clock.set(NOW);
  t.teardown(() => other.close());
  return other;
}

const unique = (label: string) => `moving-${label}-${Math.random().toString(36).slice(2)}`;

// --- The page -------------------------------------------------------------------------------------

const CLIENT_SNIPPETS = [
  ['.NET: a Web Reference', 'csharp'],
  ['.NET: a WCF service reference', 'xml'],
  ['PHP SoapClient', 'php'],
  ['Python zeep', 'python'],
  ['Links, `<img>` and `<a>` tags', 'text'],
  ['Browser scripts: MicrosoftAjax.js', 'html'],
  ['Browser scripts: jQuery', 'js'],
] as const;

test('the page is linked from the README and shows one snippet per client, each at this service’s address', (t) => {
  t.true(readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8').includes(`](${PAGE_PATH})`), 'the README links to the page');
  for (const [heading, language] of CLIENT_SNIPPETS) {
    const { language: written, code } = snippet(heading);
    t.is(written, language, heading);
    // The script snippets call the page's own site, which sends /api.asmx to this service.
    if (heading.startsWith('Browser')) t.true(code.includes("'/api.asmx/") || code.includes('"/api.asmx/js"'), heading);
    else t.true(code.includes(`${PAGE_ADDRESS}/`), `${heading}: the snippet holds this service's address`);
  }
  t.true(departures().length >= 15, 'the departures table');
  t.regex(migrationPage(), /^## Both side by side$/m);
  t.regex(migrationPage(), /^## Check after the switch$/m);
});

test('docs/clients.md’s departures name the 256-byte cap and the request validation, and lead to the table', (t) => {
  const clients = readFileSync(join(__dirname, '..', '..', 'docs', 'clients.md'), 'utf8');
  const start = clients.indexOf('\n## Departures from the original\n');
  t.true(start >= 0, 'docs/clients.md has its departures');
  const end = clients.indexOf('\n## ', start + 1);
  const section = clients.slice(start, end < 0 ? undefined : end);
  t.true(section.includes('(moving-from-the-original.md#departures-from-the-original)'));
  t.regex(section, /at most 256 bytes[\s\S]*paired with the original above 256 bytes cannot be validated/);
  t.regex(section, /request validation[\s\S]*`<`[\s\S]*`&#`/);
  // The same limit as the table's row, which the service is held to.
  t.truthy(departures().find((row) => row.label === 'Secrets over 256 bytes'));
});

// --- The links snippet ----------------------------------------------------------------------------

test('links: each URL of the snippet, its host changed, answers as the page says (a Pair, a ValidatePin wrong then right, the QR image)', async (t) => {
  const urls = atAddress(snippet('Links, `<img>` and `<a>` tags').code, service.url).trim().split('\n');
  t.is(urls.length, 5);
  const fetchText = async (url: string) => {
    const answer = await send(url, {});
    t.is(answer.status, 200, `${url}: ${answer.body}`);
    return answer;
  };
  const at = (path: string) => {
    const url = urls.find((u) => new URL(u).pathname === path);
    if (!url) throw new Error(`no ${path} link in the snippet`);
    return new URL(url);
  };

  const pairPage = at('/pair.aspx');
  const secret = pairPage.searchParams.get('SecretCode')!;
  const setupCode = encodeBase32(Buffer.from(secret, 'utf8'));
  const fragment = await fetchText(pairPage.href);
  t.is(fragment.contentType, 'text/html; charset=utf-8');
  t.is(readPairingHtml(fragment.body).title, `Manually pair with ${setupCode}`);

  const pairXml = await fetchText(at('/api.asmx/Pair').href);
  t.true(validateAgainstContract(pairXml.body).valid);
  t.is(
    readXml(pairXml.body, (doc) => textOf(elementAt(doc, '/t:PairingInfo/t:ManualSetupCode', { t: NS })!)),
    setupCode,
  );

  // The snippet's PIN is a wrong one at this instant; the current PIN (and the next step's: replay) is right.
  const validatePage = at('/Validate.aspx');
  const window = [-1, 0, 1].map((step) => pinFor(service, secret, step));
  t.false(window.includes(validatePage.searchParams.get('Pin')!), 'the snippet’s PIN is wrong now');
  t.is((await fetchText(validatePage.href)).body, 'False');
  validatePage.searchParams.set('Pin', pinFor(service, secret));
  t.is((await fetchText(validatePage.href)).body, 'True');

  const validateXml = at('/api.asmx/ValidatePin');
  t.false(readBoolean('httpGet', await fetchText(validateXml.href)));
  validateXml.searchParams.set('pin', pinFor(service, secret, 1));
  t.true(readBoolean('httpGet', await fetchText(validateXml.href)));

  const qr = at('/qr.aspx');
  const image = await fetchText(qr.href);
  t.is(image.contentType, 'image/png');
  const data = qr.searchParams.get('data')!;
  t.is(decodeQrPng(image.bytes), data);
  t.true(data.includes(`secret=${setupCode}&`), 'the image carries the pairing of the links’ secret');
});

// --- Both side by side ----------------------------------------------------------------------------

test('side by side: the setup code the original answered for each secret is this service’s, and its PINs validate here', async (t) => {
  const other = await serviceWith(t, {});
  for (const vector of setupCodeVectors().filter((v) => Buffer.byteLength(v.secretCode) >= 10)) {
    const answer = await sendRequest(
      other,
      buildRequest('httpGet', 'Pair', { appName: 'Example', appInfo: 'a', secretCode: vector.secretCode }),
    );
    t.is(
      readXml(answer.body, (doc) => textOf(elementAt(doc, '/t:PairingInfo/t:ManualSetupCode', { t: NS })!)),
      vector.ManualSetupCode,
    );
  }
  // In order of time: replay protection refuses a step at or before one accepted for the secret.
  for (const vector of totpVectors().sort((a, b) => a.unixTime - b.unixTime)) {
    other.clock.set(vector.unixTime * 1000);
    const answer = await sendRequest(other, buildRequest('httpGet', 'ValidatePin', { pin: vector.pin, secretCode: vector.secretCode }));
    t.true(readBoolean('httpGet', answer), `${vector.secretCode} at ${vector.unixTime}`);
  }
});

// --- The departures table -------------------------------------------------------------------------

interface Exchange {
  request: OutgoingRequest;
  answer: Answer;
}

/** The requests of one row and their answers, and what they show. */
class Row {
  readonly exchanges: Exchange[] = [];
  constructor(
    readonly t: ExecutionContext,
    readonly target: TestService = service,
  ) {}

  async send(request: OutgoingRequest): Promise<Answer> {
    const answer = await sendRequest(this.target, request);
    this.exchanges.push({ request, answer });
    if (answer.status === 200 && answer.contentType.startsWith('text/xml')) {
      const errors = request.path === '/api.asmx' ? schemaChecks(contractValidator()).bodyErrors(answer.body) : [];
      const whole = request.path === '/api.asmx' ? { valid: errors.length === 0, errors } : validateAgainstContract(answer.body);
      this.t.true(whole.valid, `the answer is valid against the schema: ${whole.errors.join('; ')}`);
    }
    return answer;
  }

  call(variant: Variant, operation: string, fields: Fields): Promise<Answer> {
    return this.send(buildRequest(variant, operation, fields));
  }

  get(path: string): Promise<Answer> {
    return this.send({ method: 'GET', path, headers: {} });
  }

  /** Every request and answer as text: request line and fields, status, headers, body, and a Pair's Html, link and image. */
  transcript(): string {
    return this.exchanges
      .map(({ request, answer }) => {
        const [path, query = ''] = request.path.split('?');
        const form = request.headers['Content-Type']?.startsWith('application/x-www-form-urlencoded') ? String(request.body) : query;
        const fields = [...new URLSearchParams(form)].map(([name, value]) => `> ${name}=${value}`);
        const headers = [...answer.headers].map(([name, value]) => `< ${name}: ${value}`);
        return [
          `> ${request.method} ${path}`,
          ...fields,
          `< ${answer.status} ${answer.statusText}`,
          ...headers,
          answer.body,
          ...pairingOf(answer),
        ].join('\n');
      })
      .join('\n\n');
  }

  statuses(): number[] {
    return this.exchanges.map((e) => e.answer.status);
  }

  /** Whether the answers show `value`: a status answered, text anywhere, or a header (its name in any case). */
  shows(value: string): boolean {
    if (/^\d{3}$/.test(value)) return this.statuses().includes(Number(value));
    if (this.transcript().includes(value)) return true;
    const headers = this.exchanges.flatMap(({ answer }) => [...answer.headers].map(([name, text]) => `${name}: ${text}`));
    return headers.some((line) => line.toLowerCase().includes(value.toLowerCase()));
  }
}

/** A Pair answer's Html, its link and its image source, when the answer holds one (XML or JSON). */
function pairingOf(answer: Answer): string[] {
  let html: string | undefined;
  if (answer.status !== 200) return [];
  if (answer.contentType.startsWith('text/xml') && answer.body.includes('Html>')) {
    html = readXml(answer.body, (doc) => {
      const element = elementAt(doc, '//t:Html', { t: NS });
      return element ? textOf(element) : undefined;
    });
  } else if (answer.contentType.startsWith('text/html')) {
    html = answer.body;
  }
  if (html === undefined) return [];
  const { href, imgSrc } = readPairingHtml(html);
  return [`Html: ${html}`, `href: ${href}`, `src: ${imgSrc}`];
}

/** A SOAP answer's fault, checked to come with HTTP 500. */
function faultOf(t: ExecutionContext, answer: Answer, version: '1.1' | '1.2') {
  t.is(answer.status, 500, answer.body);
  return readFault(answer.body, version);
}

const manualSetupCodeOf = (answer: Answer) =>
  readXml(answer.body, (doc) => textOf(elementAt(doc, '/t:PairingInfo/t:ManualSetupCode', { t: NS })!));

const hrefOf = (answer: Answer) =>
  pairingOf(answer)
    .find((line) => line.startsWith('href: '))!
    .slice('href: '.length);
const imgSrcOf = (answer: Answer) =>
  pairingOf(answer)
    .find((line) => line.startsWith('src: '))!
    .slice('src: '.length);

const PAIR = { appName: 'Example', appInfo: 'alice@example.com' };

/** A fresh secret after five wrong PINs: the next call for it is refused. */
async function throttledSecret(t: ExecutionContext): Promise<string> {
  const secret = unique('throttled');
  for (let i = 0; i < 5; i++) {
    const answer = await sendRequest(
      service,
      buildRequest('httpGet', 'ValidatePin', { pin: wrongPinFor(service, secret), secretCode: secret }),
    );
    t.false(readBoolean('httpGet', answer), 'a wrong PIN is false');
  }
  return secret;
}

/** Each row's requests and its own checks, by the row's label. */
const CHECKS: Record<string, (row: Row) => Promise<void>> = {
  'Secrets over 256 bytes': async (row) => {
    const { t } = row;
    const over = 'x'.repeat(257);
    t.is((await row.call('httpGet', 'Pair', { ...PAIR, secretCode: over })).status, 400);
    t.is((await row.call('httpPost', 'ValidatePin', { pin: '123456', secretCode: over })).status, 400);
    t.is(faultOf(t, await row.call('soap11', 'ValidatePin', { pin: '123456', secretCode: over }), '1.1').code, 'soap:Client');
    // Bytes, not characters: 129 characters of two bytes each are over.
    t.is((await row.call('httpGet', 'ValidatePin', { pin: '123456', secretCode: 'é'.repeat(129) })).status, 400);
    // 256 bytes are paired and validated.
    const at = 'y'.repeat(256);
    t.is(
      manualSetupCodeOf(await sendRequest(service, buildRequest('httpGet', 'Pair', { ...PAIR, secretCode: at }))),
      encodeBase32(Buffer.from(at)),
    );
    t.true(
      readBoolean(
        'soap11',
        await sendRequest(service, buildRequest('soap11', 'ValidatePin', { pin: pinFor(service, at), secretCode: at })),
      ),
    );
  },
  'Empty secrets': async (row) => {
    const { t } = row;
    t.is((await row.call('httpGet', 'Pair', { ...PAIR, secretCode: '' })).status, 400);
    t.is((await row.call('httpGet', 'ValidatePin', { pin: '123456', secretCode: '' })).status, 400);
    t.is(faultOf(t, await row.call('soap11', 'Pair', { ...PAIR, secretCode: '' }), '1.1').reason, 'secretCode is required.');
  },
  'Secrets shorter than 10 bytes': async (row) => {
    const { t } = row;
    t.is((await row.call('httpGet', 'Pair', { ...PAIR, secretCode: 'abcdef' })).status, 400);
    t.true(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin: pinFor(service, 'abcdef'), secretCode: 'abcdef' })));
    // What to do: --min-secret-bytes down to the application's length pairs them again.
    const lower = await serviceWith(t, { minSecretBytes: 6 });
    t.is(manualSetupCodeOf(await sendRequest(lower, buildRequest('httpGet', 'Pair', { ...PAIR, secretCode: 'abcdef' }))), 'MFRGGZDFMY');
  },
  'Non-ASCII secrets': async (row) => {
    const { t } = row;
    const secret = 'sécret€';
    t.is(manualSetupCodeOf(await row.call('httpGet', 'Pair', { ...PAIR, secretCode: secret })), 'OPB2SY3SMV2OFAVM');
    // The original's PIN: the key's non-ASCII characters read as '?'.
    const questionMarks = totp(
      Buffer.from([...secret].map((c) => (c.charCodeAt(0) < 0x80 ? c : '?')).join(''), 'ascii'),
      DEFAULT_TOTP,
      Math.floor(NOW / 1000),
    );
    t.false(
      [-1, 0, 1].map((step) => pinFor(service, secret, step)).includes(questionMarks),
      'the two keys give other PINs at this instant',
    );
    t.false(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin: questionMarks, secretCode: secret })));
    t.true(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin: pinFor(service, secret), secretCode: secret })));
  },
  'PIN white space': async (row) => {
    const secret = unique('white-space');
    row.t.true(
      readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin: ` ${pinFor(service, secret)}\n`, secretCode: secret })),
    );
    row.t.true(
      readBoolean('soap12', await row.call('soap12', 'ValidatePin', { pin: `\t${pinFor(service, secret, 1)} `, secretCode: secret })),
    );
  },
  'The same PIN twice': async (row) => {
    const secret = unique('replay');
    const pin = pinFor(service, secret);
    const answers = [];
    for (let i = 0; i < 2; i++) answers.push(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin, secretCode: secret })));
    row.t.deepEqual(answers, [true, false]);
  },
  'Clock drift': async (row) => {
    const { t } = row;
    const secret = unique('drift');
    t.false(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin: pinFor(service, secret, -4), secretCode: secret })));
    t.true(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { pin: pinFor(service, secret, -1), secretCode: secret })));
    // What to do: --drift-window 10 takes the PIN of 2 minutes ago, and of 5 minutes ago.
    const wide = await serviceWith(t, { driftWindow: 10 });
    // In order of time: replay protection refuses a step at or before one accepted.
    for (const step of [-10, -4, 10]) {
      const answer = await sendRequest(
        wide,
        buildRequest('httpGet', 'ValidatePin', { pin: pinFor(wide, secret, step), secretCode: secret }),
      );
      t.true(readBoolean('httpGet', answer), `${step} steps away`);
    }
  },
  'Wrong PINs in a row': async (row) => {
    const { t } = row;
    const secret = await throttledSecret(row.t);
    const pin = pinFor(service, secret);
    for (const variant of ['httpGet', 'httpPost'] as const) {
      const refused = await row.call(variant, 'ValidatePin', { pin, secretCode: secret });
      t.is(refused.status, 429, variant);
      t.regex(refused.headers.get('retry-after') ?? '', /^\d+$/);
    }
    t.is((await row.send(jsonRequest('ValidatePin', { pin, secretCode: secret }))).status, 429);
    const page = await row.get(`/Validate.aspx?Pin=${pin}&SecretCode=${secret}`);
    t.is(page.status, 429);
    t.not(page.body.trim().toLowerCase(), 'true');
    t.regex(faultOf(t, await row.call('soap11', 'ValidatePin', { pin, secretCode: secret }), '1.1').reason, /^Too many failed validations/);
  },
  'Empty `appInfo`': async (row) => {
    const { t } = row;
    const secretCode = unique('empty-app-info');
    t.true(
      hrefOf(await row.call('httpGet', 'Pair', { appName: 'Example', appInfo: '', secretCode })).startsWith(
        'otpauth://totp/Example?secret=',
      ),
    );
    t.true(
      hrefOf(await row.call('httpGet', 'Pair', { appName: '', appInfo: '', secretCode })).startsWith(
        'otpauth://totp/AuthenticatorAPI?secret=',
      ),
    );
  },
  'The otpauth label': async (row) => {
    const href = hrefOf(await row.call('httpGet', 'Pair', { appName: 'Example', appInfo: 'john doe é', secretCode: unique('label') }));
    row.t.regex(href, /^otpauth:\/\/totp\/Example:john%20doe%20%C3%A9\?secret=[A-Z2-7]+&issuer=Example$/);
  },
  '`Html`': async (row) => {
    const { t } = row;
    const pairing = await row.call('httpGet', 'Pair', { ...PAIR, secretCode: unique('html') });
    t.is(decodeQrSvg(svgOfDataUri(imgSrcOf(pairing))), hrefOf(pairing), 'the inline image is the QR code of the link');
    // What to do: --qr link --public-url makes the image this service's /qr.aspx.
    const linked = await serviceWith(t, { qr: 'link', publicUrl: PAGE_ADDRESS });
    const src = imgSrcOf(await sendRequest(linked, buildRequest('httpGet', 'Pair', { ...PAIR, secretCode: unique('html-link') })));
    t.true(src.startsWith(`${PAGE_ADDRESS}/qr.aspx?`), src);
  },
  '`/qr.aspx`': async (row) => {
    const { t } = row;
    const png = await row.get('/qr.aspx?size=300x300&data=hello');
    t.is(png.status, 200);
    t.is(decodeQrPng(png.bytes), 'hello');
    t.is((await row.get('/qr.aspx?size=300x300&data=hello&format=svg')).contentType, 'image/svg+xml');
  },
  '`<` and `&#` in GET and POST values': async (row) => {
    const { t } = row;
    const secret = `<script>&#x41;${unique('markup')}`;
    const pairing = await row.call('httpGet', 'Pair', { appName: '<b>Example</b>', appInfo: 'a&#65;b', secretCode: secret });
    t.true(hrefOf(pairing).startsWith('otpauth://totp/%3Cb%3EExample%3C%2Fb%3E:a%26%2365%3Bb?secret='));
    t.is(manualSetupCodeOf(pairing), encodeBase32(Buffer.from(secret)));
    t.is((await row.get(`/pair.aspx?AppName=%3Cb%3E&AppInfo=a%26%23x41%3B&SecretCode=${encodeURIComponent(secret)}`)).status, 200);
    t.true(readBoolean('httpPost', await row.call('httpPost', 'ValidatePin', { pin: pinFor(service, secret), secretCode: secret })));
  },
  'A field given twice': async (row) => {
    const answer = await row.call('httpGet', 'ValidatePin', [
      ['pin', '123456'],
      ['secretCode', 'a-secret-given'],
      ['secretCode', 'twice'],
    ]);
    row.t.is(answer.status, 400);
  },
  'A missing GET or POST field': async (row) => {
    const { t } = row;
    t.is((await row.call('httpGet', 'Pair', { appName: 'Example', secretCode: unique('missing') })).status, 400);
    t.is((await row.call('httpPost', 'ValidatePin', { pin: '123456' })).status, 400);
    const noIssuer = hrefOf(await row.call('httpGet', 'Pair', { appInfo: 'alice@example.com', secretCode: unique('missing') }));
    t.regex(noIssuer, /^otpauth:\/\/totp\/alice%40example\.com\?secret=[A-Z2-7]+$/);
    t.false(readBoolean('httpGet', await row.call('httpGet', 'ValidatePin', { secretCode: unique('missing') })));
  },
  'SOAP: a missing `appInfo` or `secretCode`': async (row) => {
    const { t } = row;
    const missingAppInfo = faultOf(t, await row.call('soap11', 'Pair', { appName: 'Example', secretCode: unique('soap') }), '1.1');
    t.deepEqual([missingAppInfo.code, missingAppInfo.reason], ['soap:Client', 'appInfo is required.']);
    const missingSecret = faultOf(t, await row.call('soap12', 'ValidatePin', { pin: '123456' }), '1.2');
    t.deepEqual([missingSecret.code, missingSecret.reason], ['soap:Sender', 'secretCode is required.']);
  },
  'Fault messages': async (row) => {
    const { t } = row;
    const request = buildRequest(
      'soap11',
      'ValidatePin',
      { pin: '123456', secretCode: unique('action') },
      { soapAction: '"http://authenticatorapi.com/NoSuchOperation"' },
    );
    const fault = faultOf(t, await row.send(request), '1.1');
    t.is(fault.code, 'soap:Client');
    t.false(/\bat \w|\n/.test(fault.reason), 'no stack trace');
  },
  'Malformed XML': async (row) => {
    const fault = faultOf(
      row.t,
      await row.send(soapRequest('1.1', '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>')),
      '1.1',
    );
    row.t.is(fault.code, 'soap:Client');
  },
  'JSON errors': async (row) => {
    const { t } = row;
    const errorOf = (answer: Answer, status: number) => {
      t.is(answer.status, status, answer.body);
      t.is(answer.headers.get('jsonerror'), 'true');
      const error = JSON.parse(answer.body) as Record<string, string>;
      t.deepEqual(Object.keys(error), ['Message', 'StackTrace', 'ExceptionType']);
      t.is(error.StackTrace, '');
      return error;
    };
    t.is(errorOf(await row.send(jsonRequest('ValidatePin', { pin: '123456' })), 400).Message, 'secretCode is required.');
    errorOf(await row.send(jsonRequest('ValidatePin', 'not JSON')), 400);
    errorOf(await row.send(jsonRequest('NoSuchMethod', {})), 404);
    const get = await row.send({
      method: 'GET',
      path: '/api.asmx/ValidatePin?pin=1&secretCode=x',
      headers: { 'Content-Type': 'application/json' },
    });
    errorOf(get, 405);
    t.is(get.headers.get('allow'), 'POST');
    const secret = await throttledSecret(row.t);
    t.regex(errorOf(await row.send(jsonRequest('ValidatePin', { pin: '123456', secretCode: secret })), 429).Message, /^Too many/);
  },
  '`/pair.aspx` and `/Validate.aspx` without a parameter': async (row) => {
    const { t } = row;
    const pair = await row.get(`/pair.aspx?AppName=Example&SecretCode=${unique('page')}`);
    t.deepEqual([pair.status, pair.body], [400, "Pass 'AppInfo' in QueryString\n"]);
    const validate = await row.get(`/Validate.aspx?SecretCode=${unique('page')}`);
    t.deepEqual([validate.status, validate.body], [400, "Pass 'Pin' in QueryString\n"]);
  },
  'Lengths and characters': async (row) => {
    const { t } = row;
    const secretCode = unique('lengths');
    t.is((await row.call('httpGet', 'Pair', { appName: 'n'.repeat(101), appInfo: 'a', secretCode })).status, 400);
    t.is((await row.call('httpGet', 'Pair', { appName: 'n', appInfo: 'a'.repeat(257), secretCode })).status, 400);
    t.is((await row.call('httpGet', 'Pair', { appName: 'n'.repeat(100), appInfo: 'a'.repeat(256), secretCode })).status, 200);
    t.is((await row.call('httpGet', 'Pair', { appName: 'Exa\u0001mple', appInfo: 'a', secretCode })).status, 400);
    t.is((await row.call('httpPost', 'ValidatePin', { pin: '123456', secretCode: 's'.repeat(70 * 1024) })).status, 413);
  },
};

/** A POST of the JSON variant (a string is sent as it is). */
function jsonRequest(operation: string, body: unknown): OutgoingRequest {
  return {
    method: 'POST',
    path: `/api.asmx/${operation}`,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

test('every row of the departures table has its check here, and every check its row', (t) => {
  t.deepEqual(
    departures().map((row) => row.label),
    Object.keys(CHECKS),
  );
});

for (const departure of departures()) {
  test(`departure: ${departure.label}`, async (t) => {
    const check = CHECKS[departure.label];
    if (!check) {
      t.fail(`no check for the row ${departure.label}`);
      return;
    }
    const row = new Row(t);
    await check(row);
    const shown = codeSpans(departure.here);
    t.true(shown.length > 0, 'the row says what an application sees in `code`');
    for (const value of shown) t.true(row.shows(value), `the answers show \`${value}\`; they were:\n${row.transcript().slice(0, 6000)}`);
  });
}
