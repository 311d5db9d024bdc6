/**
 * Chromium over HTTPS: the service serves TLS itself (--tls-cert) with a
 * certificate of a private CA made here with openssl, which the browser
 * trusts as Linux users make Chromium trust one (certutil adds it to the NSS
 * database in the user's home). Through the help pages' test forms: Pair's
 * QR code, drawn on the page, scanned with zbarimg; the PIN an app computes
 * from it validated. Without the CA the browser refuses the page.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { decodeBase32, encodeBase32 } from '../../src/service/otp/base32';
import { totp } from '../../src/service/otp/totp';
import { launchChromium, outputPath, requireChromium, requireZbarimg, waitUntil, zbarDecode } from '../support/browser';
import { createOpensslCa, type OpensslCa } from '../support/openssl-ca';
import { elementAt, loadReaders, readXml, textOf } from '../support/readers';
import { DEFAULT_TOTP } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const NS = { t: 'http://authenticatorapi.com/' };
let ca: OpensslCa;
let home: string;
let trusting: Browser;
let service: TestService;

/** A home whose NSS database (where Chromium on Linux looks) trusts `caFile` for websites. */
function homeTrusting(caFile: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pin-chromium-home-'));
  const nssdb = join(dir, '.pki', 'nssdb');
  mkdirSync(nssdb, { recursive: true });
  const certutil = (...args: string[]) => {
    const run = spawnSync('certutil', ['-d', `sql:${nssdb}`, ...args], { encoding: 'utf8', timeout: 30_000 });
    // (certutil has no option that only says it is there: its absence shows as ENOENT here.)
    if (run.error) throw new Error(`certutil cannot run (${run.error.message}): run \`apt-get install -y libnss3-tools\` (see .ci/run)`);
    if (run.status !== 0) throw new Error(`certutil ${args.join(' ')} failed: ${run.stderr}`);
  };
  certutil('-N', '--empty-password');
  certutil('-A', '-n', 'pin-service test CA', '-t', 'C,,', '-i', caFile);
  return dir;
}

test.before(async () => {
  requireChromium();
  requireZbarimg();
  await loadReaders();
  ca = createOpensslCa();
  const { certFile, keyFile } = ca.issue('service');
  service = await startTestService({ tlsCert: certFile, tlsKey: keyFile });
  home = homeTrusting(ca.caFile);
  trusting = await launchChromium({ env: { ...process.env, HOME: home } });
});

test.after.always(async () => {
  await trusting?.close();
  await service?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  ca?.remove();
});

/** The XML after the blank line of the test form's answer (`HTTP 200`, blank line, the body). */
async function formAnswer(page: Page): Promise<{ head: string; xml: string }> {
  await waitUntil(page, "document.getElementById('answer').textContent.startsWith('HTTP ')");
  const text = (await page.locator('#answer').textContent()) ?? '';
  const blank = text.indexOf('\n\n');
  return { head: text.slice(0, blank), xml: text.slice(blank + 2) };
}

const xmlTextAt = (xml: string, xpath: string) =>
  readXml(xml, (doc) => {
    const element = elementAt(doc, xpath, NS);
    return element ? textOf(element) : undefined;
  });

test.serial(
  'Chromium trusting the CA: the service page over HTTPS, Pair’s QR code scanned, its PIN validated through the form',
  async (t) => {
    const context = await trusting.newContext({ viewport: { width: 1280, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const index = await page.goto(`${service.url}/api.asmx`);
    t.is(index?.status(), 200);
    const security = await index?.securityDetails();
    t.regex(security?.protocol ?? '', /^TLS 1\.[23]$/, 'a TLS 1.2 or 1.3 connection');
    t.is(security?.issuer, 'pin-service test CA', 'the certificate of the test CA');
    t.is(await index?.headerValue('strict-transport-security'), 'max-age=31536000');
    t.true((await page.content()).includes(`${service.url}/api.asmx`), 'the page gives the https address');

    await page.getByRole('link', { name: 'Pair', exact: true }).click();
    await page.waitForURL(`${service.url}/api.asmx?op=Pair`);
    const secret = 'browser-https-pair-secret';
    await page.locator('input[name="appName"]').fill('Example');
    await page.locator('input[name="appInfo"]').fill('alice@example.com');
    await page.locator('input[name="secretCode"]').fill(secret);
    await page.getByRole('button', { name: 'Invoke' }).click();
    const paired = await formAnswer(page);
    t.is(paired.head, 'HTTP 200');
    const code = encodeBase32(Buffer.from(secret, 'utf8'));
    t.is(xmlTextAt(paired.xml, '/t:PairingInfo/t:ManualSetupCode'), code);

    await page.locator('#meaning').waitFor({ state: 'visible', timeout: 15_000 });
    await waitUntil(page, "(() => { const i = document.querySelector('#qr img'); return i && i.complete && i.naturalWidth > 0; })()");
    const shot = outputPath('https-help-pair-qr.png');
    await page.locator('#meaning').screenshot({ path: shot });
    const scanned = zbarDecode(shot);
    t.is(scanned.status, 0, `zbarimg found the QR code (${scanned.stderr.trim()})`);
    const uri = new URL(scanned.text);
    t.is(uri.searchParams.get('secret'), code, 'the QR code is the otpauth URI of the secret');

    // What the authenticator app shows, typed into the ValidatePin form.
    const pin = totp(decodeBase32(code), DEFAULT_TOTP, Math.floor(service.clock.now() / 1000));
    await page.goto(`${service.url}/api.asmx?op=ValidatePin`);
    await page.locator('input[name="pin"]').fill(pin);
    await page.locator('input[name="secretCode"]').fill(secret);
    await page.getByRole('button', { name: 'Invoke' }).click();
    const validated = await formAnswer(page);
    t.is(validated.head, 'HTTP 200');
    t.is(xmlTextAt(validated.xml, '/t:boolean'), 'true', 'the PIN validates');
    t.deepEqual(errors, [], 'no script error');
  },
);

test.serial('Chromium without the CA refuses the page', async (t) => {
  const emptyHome = mkdtempSync(join(tmpdir(), 'pin-chromium-home-'));
  const browser = await launchChromium({ env: { ...process.env, HOME: emptyHome } });
  t.teardown(async () => {
    await browser.close();
    rmSync(emptyHome, { recursive: true, force: true });
  });
  const page = await browser.newPage();
  await t.throwsAsync(page.goto(`${service.url}/api.asmx`), { message: /ERR_CERT_AUTHORITY_INVALID/ });
});
