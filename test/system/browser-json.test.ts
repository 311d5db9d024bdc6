/**
 * The JSON variant in a real browser (Debian's headless Chromium, driven by
 * playwright-core): a page calls Pair and ValidatePin with jQuery's $.ajax
 * (the npm `jquery` package) and with fetch, reads the answers and, for a
 * throttled secret, the error handler's xhr.responseJSON.Message and status;
 * then it loads /api.asmx/js and calls through the proxy. Microsoft's AJAX
 * library is not on npm: the page loads a minimal stand-in of the functions
 * the proxy calls (test/support/ajax-stand-in.ts), whose _invoke records
 * each call and sends it as JSON. The test page and its scripts are served
 * by the test itself, at the service's origin (as a page of the site that
 * hosts the service), so no cross-origin rules are involved.
 */
import { readFileSync } from 'node:fs';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { encodeBase32 } from '../../src/service/otp/base32';
import { AJAX_STAND_IN } from '../support/ajax-stand-in';
import { launchChromium, requireChromium } from '../support/browser';
import { pinFor, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const JQUERY = readFileSync(require.resolve('jquery/dist/jquery.min.js'), 'utf8');

/** What the page does, in plain browser JavaScript: each call resolves to what a page's code would see. */
const PAGE_CALLS = `
function ajaxCall(operation, fields) {
  return new Promise(function (resolve) {
    $.ajax({
      type: 'POST',
      url: '/api.asmx/' + operation,
      contentType: 'application/json; charset=utf-8',
      dataType: 'json',
      data: JSON.stringify(fields),
      success: function (answer, status, xhr) {
        resolve({ ok: true, d: answer.d, contentType: xhr.getResponseHeader('Content-Type') });
      },
      error: function (xhr) {
        resolve({
          ok: false,
          status: xhr.status,
          message: xhr.responseJSON && xhr.responseJSON.Message,
          type: xhr.responseJSON && xhr.responseJSON.ExceptionType,
          jsonerror: xhr.getResponseHeader('jsonerror'),
          retryAfter: xhr.getResponseHeader('Retry-After')
        });
      }
    });
  });
}
async function fetchCall(operation, fields) {
  const response = await fetch('/api.asmx/' + operation, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(fields)
  });
  return { status: response.status, body: await response.json() };
}
function describeProxy() {
  const api = AuthenticatorAPI.AuthenticatorAPI;
  return {
    namespaces: ajaxStandIn.namespaces,
    registered: ajaxStandIn.registered,
    typeName: api.__typeName,
    derived: api.prototype instanceof Sys.Net.WebServiceProxy,
    statics: [typeof api.Pair, typeof api.ValidatePin],
    methods: [typeof api.prototype.Pair, typeof api.prototype.ValidatePin],
    path: api.get_path()
  };
}
// Sends each proxy call as the AJAX library does: POST {path}/{method}, the parameters as JSON, d to onSuccess.
function sendProxyCalls() {
  ajaxStandIn.send = function (call) {
    return fetch(call.servicePath + '/' + call.methodName, {
      method: call.useGet ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(call.params)
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) call.onSuccess(body.d, call.userContext, call.methodName);
        else call.onFailure(body, call.userContext, call.methodName);
      });
    });
  };
}
function proxyCall(method, args) {
  return new Promise(function (resolve) {
    AuthenticatorAPI.AuthenticatorAPI[method].apply(null, args.concat([
      function (d, context) { resolve({ d: d, context: context }); },
      function (error, context) { resolve({ error: error.Message, context: context }); },
      'ctx-' + method
    ]));
  });
}
function proxyInvocations() {
  return ajaxStandIn.invocations.map(function (c) { return [c.servicePath, c.methodName, c.useGet, c.params]; });
}
`;

/** The page: jQuery, the AJAX library's stand-in, then the service's own proxy. */
const TEST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>JSON variant</title>
<script src="/test-page/jquery.min.js"></script>
<script src="/test-page/ajax-stand-in.js"></script>
<script src="/api.asmx/js"></script>
<script src="/test-page/calls.js"></script>
</head><body><p>JSON calls from a browser page.</p></body></html>`;

let browser: Browser;
let service: TestService;

test.before(async () => {
  requireChromium();
  browser = await launchChromium();
  service = await startTestService();
});

test.after.always(async () => {
  await browser?.close();
  await service?.close();
});

async function openTestPage(t: import('ava').ExecutionContext): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The throttled call's 429 is logged by Chromium as a failed resource; anything else is a fault of the page.
    if (message.type() === 'error' && !/status of 429/.test(message.text())) errors.push(message.text());
  });
  const files: Record<string, [string, string]> = {
    '/test-page/index.html': ['text/html; charset=utf-8', TEST_PAGE],
    '/test-page/jquery.min.js': ['application/javascript', JQUERY],
    '/test-page/ajax-stand-in.js': ['application/javascript', AJAX_STAND_IN],
    '/test-page/calls.js': ['application/javascript', PAGE_CALLS],
  };
  await page.route(`${service.url}/test-page/**`, (route) => {
    const file = files[new URL(route.request().url()).pathname];
    return file ? route.fulfill({ status: 200, contentType: file[0], body: file[1] }) : route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${service.url}/test-page/index.html`);
  return { page, requests, errors };
}

const unique = (label: string) => `browser-json-${label}-${Math.random().toString(36).slice(2)}`;

test('jQuery $.ajax and fetch call Pair and ValidatePin; a throttled secret reaches the error handler as responseJSON.Message and 429', async (t) => {
  const { page, requests, errors } = await openTestPage(t);
  t.is(await page.evaluate('typeof jQuery.ajax'), 'function');

  const secret = unique('ajax');
  const call = (fn: string, ...args: unknown[]) =>
    // biome-ignore lint/suspicious/noExplicitAny: what the page's script returns, read field by field below
    page.evaluate(`${fn}(${args.map((a) => JSON.stringify(a)).join(', ')})`) as Promise<Record<string, any>>;
  const pair = await call('ajaxCall', 'Pair', { appName: 'Browser', appInfo: 'alice@example.com', secretCode: secret });
  t.true(pair.ok, JSON.stringify(pair));
  t.is(pair.contentType, 'application/json; charset=utf-8');
  const d = pair.d as Record<string, string>;
  t.deepEqual(Object.keys(d), ['__type', 'ManualSetupCode', 'Html']);
  t.is(d.__type, 'AuthenticatorAPI.PairingInfo');
  t.is(d.ManualSetupCode, encodeBase32(Buffer.from(secret, 'utf8')));
  t.true(d.Html.startsWith(`<a title='Manually pair with ${d.ManualSetupCode}' href='otpauth://totp/Browser:alice%40example.com?secret=`));

  const ajaxValidate = async (pin: string, secretCode: string) => {
    const answer = await call('ajaxCall', 'ValidatePin', { pin, secretCode });
    return answer.ok ? { ok: true, d: answer.d } : answer;
  };
  const fetchValidate = (pin: string, secretCode: string) => call('fetchCall', 'ValidatePin', { pin, secretCode });

  t.deepEqual(await ajaxValidate(pinFor(service, secret), secret), { ok: true, d: true });
  t.deepEqual(await ajaxValidate(pinFor(service, secret), secret), { ok: true, d: false }, 'replayed');
  const other = unique('fetch');
  t.deepEqual(await fetchValidate(wrongPinFor(service, other), other), { status: 200, body: { d: false } });
  t.deepEqual(await fetchValidate(pinFor(service, other), other), { status: 200, body: { d: true } });

  const throttled = unique('throttled');
  for (let i = 0; i < 5; i++) t.deepEqual(await ajaxValidate(wrongPinFor(service, throttled), throttled), { ok: true, d: false });
  const refused = (await ajaxValidate(pinFor(service, throttled), throttled)) as Record<string, unknown>;
  t.is(refused.ok, false);
  t.is(refused.status, 429);
  t.regex(String(refused.message), /^Too many failed validations for this secret; try again in \d+ seconds\.$/);
  t.is(refused.type, 'System.Web.HttpException');
  t.is(refused.jsonerror, 'true');
  t.regex(String(refused.retryAfter), /^\d+$/);

  const origin = new URL(service.url).origin;
  t.true(
    requests.every((url) => new URL(url).origin === origin),
    'the page talked to this origin only',
  );
  t.deepEqual(errors, []);
});

test('/api.asmx/js registers AuthenticatorAPI.AuthenticatorAPI with both methods; each calls _invoke with the path, method name and parameters', async (t) => {
  const { page, errors } = await openTestPage(t);
  const registration = await page.evaluate('describeProxy()');
  t.deepEqual(registration, {
    namespaces: ['AuthenticatorAPI'],
    registered: ['AuthenticatorAPI.AuthenticatorAPI', 'AuthenticatorAPI.PairingInfo'],
    typeName: 'AuthenticatorAPI.AuthenticatorAPI',
    derived: true,
    statics: ['function', 'function'],
    methods: ['function', 'function'],
    path: '/api.asmx',
  });

  // From here the stand-in's _invoke also sends each call, so the proxy's calls reach the service.
  const secret = unique('proxy');
  const pin = pinFor(service, secret);
  await page.evaluate('sendProxyCalls()');
  const proxyCall = (method: string, args: unknown[]) =>
    // biome-ignore lint/suspicious/noExplicitAny: what the page's script returns, read field by field below
    page.evaluate(`proxyCall(${JSON.stringify(method)}, ${JSON.stringify(args)})`) as Promise<Record<string, any>>;
  const pair = await proxyCall('Pair', ['Proxy', 'bob@example.com', secret]);
  const valid = await proxyCall('ValidatePin', [pin, secret]);
  const missing = await proxyCall('ValidatePin', [pin, null]);
  const calls = await page.evaluate('proxyInvocations()');
  t.deepEqual(calls, [
    ['/api.asmx', 'Pair', false, { appName: 'Proxy', appInfo: 'bob@example.com', secretCode: secret }],
    ['/api.asmx', 'ValidatePin', false, { pin, secretCode: secret }],
    ['/api.asmx', 'ValidatePin', false, { pin, secretCode: null }],
  ]);
  t.is(pair.context, 'ctx-Pair');
  t.is(pair.d.__type, 'AuthenticatorAPI.PairingInfo');
  t.is(pair.d.ManualSetupCode, encodeBase32(Buffer.from(secret, 'utf8')));
  t.deepEqual(valid, { d: true, context: 'ctx-ValidatePin' });
  t.deepEqual(missing, { error: 'secretCode is required.', context: 'ctx-ValidatePin' });
  t.deepEqual(
    errors.filter((e) => !/status of 400/.test(e)),
    [],
  );
});
