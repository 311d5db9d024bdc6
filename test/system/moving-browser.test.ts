/**
 * docs/moving-from-the-original.md, the two browser snippets, in Debian's
 * headless Chromium (playwright-core): each is a page of a site whose
 * /api.asmx reaches this service (here, the test serves the page at the
 * service's own origin). "MicrosoftAjax.js": the page loads Microsoft's AJAX
 * library itself — the MicrosoftAjax.js that Mono's System.Web.Extensions
 * carries, extracted by test/system/clients/ExtractResource.cs — then
 * /api.asmx/js from the service, as the snippet's script tags say, and calls
 * through the proxy. "jQuery": the npm `jquery` package, then the snippet.
 * Each answers a Pair (its setup code logged) and a ValidatePin: `false` as
 * written, `true` with the current PIN in place of 123456.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { encodeBase32 } from '../../src/service/otp/base32';
import { launchChromium, requireChromium } from '../support/browser';
import { snippet } from '../support/migration-page';
import { pinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { CLIENTS_DIR, requireTool } from './clients/harness';
import { callsSeen, run, variantsSeen } from './clients/moving-harness';

const JQUERY = readFileSync(require.resolve('jquery/dist/jquery.min.js'), 'utf8');
const SYSTEM_WEB_EXTENSIONS = 'System.Web.Extensions, Version=4.0.0.0, Culture=neutral, PublicKeyToken=31bf3856ad364e35';
/** An instant at which 123456, the snippets' PIN, is no PIN of their secrets. */
const NOW = 1_760_000_012_345;

let browser: Browser;
let service: TestService;
let microsoftAjax: string;

test.before(async () => {
  requireChromium();
  for (const tool of ['mcs', 'mono']) requireTool(tool, ['--version'], 'mono-mcs mono-devel');
  microsoftAjax = await extractMicrosoftAjax();
  browser = await launchChromium();
  service = await startTestService();
  service.clock.set(NOW);
});

test.after.always(async () => {
  await browser?.close();
  await service?.close();
});

/** MicrosoftAjax.js, as Mono's System.Web.Extensions carries it. */
async function extractMicrosoftAjax(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pin-moving-'));
  try {
    return await extractIn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function extractIn(dir: string): Promise<string> {
  const built = await run('mcs', ['-out:ExtractResource.exe', join(CLIENTS_DIR, 'ExtractResource.cs')], dir);
  if (built.code !== 0) throw new Error(`mcs ExtractResource.cs: ${built.out}${built.err}`);
  const extracted = await run('mono', ['ExtractResource.exe', SYSTEM_WEB_EXTENSIONS, 'MicrosoftAjax.js'], dir);
  if (extracted.code !== 0)
    throw new Error(`no MicrosoftAjax.js in ${SYSTEM_WEB_EXTENSIONS} (apt-get install -y mono-devel): ${extracted.err}`);
  if (!extracted.out.includes('Sys.Net.WebServiceProxy')) throw new Error('the extracted MicrosoftAjax.js has no Sys.Net.WebServiceProxy');
  return extracted.out;
}

interface PageRun {
  /** What the page's scripts logged, in order. */
  logged: string[];
  /** The page's requests to the service, method and path, with their status. */
  requests: string[];
  errors: string[];
}

/**
 * Opens a page of the service's origin whose body is `body`, the files of
 * `scripts` served beside it by the test (the site's own), every other path
 * answered by the service; waits until the page has logged `expected` lines.
 */
async function openPage(t: ExecutionContext, body: string, scripts: Record<string, string>, expected: number): Promise<PageRun> {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  const run: PageRun = { logged: [], requests: [], errors: [] };
  page.on('console', (message) => (message.type() === 'log' ? run.logged.push(message.text()) : run.errors.push(message.text())));
  page.on('pageerror', (error) => run.errors.push(error.message));
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api.asmx')) run.requests.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
  });
  const site: Record<string, [string, string]> = {
    '/site/moving.html': [
      'text/html; charset=utf-8',
      `<!doctype html>\n<html><head><meta charset="utf-8"><title>Moved</title></head><body>\n${body}\n</body></html>`,
    ],
  };
  for (const [path, text] of Object.entries(scripts)) site[path] = ['application/javascript', text];
  await page.route(
    (url) => url.origin === new URL(service.url).origin && url.pathname in site,
    (route) => {
      const [contentType, text] = site[new URL(route.request().url()).pathname];
      return route.fulfill({ status: 200, contentType, body: text });
    },
  );
  await page.goto(`${service.url}/site/moving.html`);
  for (let waited = 0; run.logged.length < expected && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  return run;
}

/** The snippet's secret, checked to be the one of each call, and its PIN 123456 checked to be wrong now. */
function secretOf(t: ExecutionContext, code: string): string {
  const secrets = new Set([...code.matchAll(/'(example-[a-z]+-secret)'/g)].map((m) => m[1]));
  t.is(secrets.size, 1, 'one secret in the snippet');
  const [secret] = secrets;
  t.false([-1, 0, 1].map((step) => pinFor(service, secret, step)).includes('123456'), '123456 is a wrong PIN now');
  t.is(code.split("'123456'").length, 2, 'one PIN in the snippet');
  return secret;
}

/** The snippet as written (a wrong PIN), then with the current PIN: what the page logged each time, sorted (the calls race). */
async function runTwice(t: ExecutionContext, code: string, page: (code: string) => Promise<PageRun>): Promise<string[][]> {
  const secret = secretOf(t, code);
  const runs = [await page(code), await page(code.replace("'123456'", `'${pinFor(service, secret)}'`))];
  for (const { errors } of runs) t.deepEqual(errors, [], 'no error in the page');
  return runs.map((r) => [...r.logged].sort());
}

test.serial(
  'MicrosoftAjax.js: the snippet’s script tags load the proxy from /api.asmx/js; it answers a Pair and a ValidatePin',
  async (t) => {
    const { code, language } = snippet('Browser scripts: MicrosoftAjax.js');
    t.is(language, 'html');
    const library = /<script src="([^"]+MicrosoftAjax\.js)"><\/script>/.exec(code)?.[1];
    t.truthy(library, 'the snippet loads MicrosoftAjax.js');
    t.true(code.includes('<script src="/api.asmx/js"></script>'), 'and the proxy from /api.asmx/js');
    const secret = secretOf(t, code);

    const before = callsSeen(service);
    const runs: PageRun[] = [];
    const logged = await runTwice(t, code, async (page) => {
      const run = await openPage(t, page, { [library!]: microsoftAjax }, 2);
      runs.push(run);
      return run;
    });
    const setupCode = encodeBase32(Buffer.from(secret, 'utf8'));
    t.true(code.includes(`// ${setupCode}`), 'the snippet’s comment shows the setup code');
    t.deepEqual(logged, [
      [setupCode, 'false'],
      [setupCode, 'true'],
    ]);
    for (const run of runs) {
      t.deepEqual([...run.requests].sort(), ['GET /api.asmx/js 200', 'POST /api.asmx/Pair 200', 'POST /api.asmx/ValidatePin 200']);
    }
    t.deepEqual(variantsSeen(service, before).sort(), [
      'Pair over json',
      'Pair over json',
      'ValidatePin over json',
      'ValidatePin over json',
    ]);
  },
);

test.serial('jQuery: the snippet’s $.ajax calls to /api.asmx answer a Pair and a ValidatePin', async (t) => {
  const { code, language } = snippet('Browser scripts: jQuery');
  t.is(language, 'js');
  const secret = secretOf(t, code);
  const before = callsSeen(service);
  const logged = await runTwice(t, code, (page) =>
    openPage(
      t,
      '<script src="/Scripts/jquery.min.js"></script>\n<script src="/Scripts/moving.js"></script>',
      { '/Scripts/jquery.min.js': JQUERY, '/Scripts/moving.js': page },
      2,
    ),
  );
  const setupCode = encodeBase32(Buffer.from(secret, 'utf8'));
  t.true(code.includes(`// ${setupCode}`), 'the snippet’s comment shows the setup code');
  t.deepEqual(logged, [
    [setupCode, 'false'],
    [setupCode, 'true'],
  ]);
  t.deepEqual(variantsSeen(service, before).sort(), ['Pair over json', 'Pair over json', 'ValidatePin over json', 'ValidatePin over json']);
});
