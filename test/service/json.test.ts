/**
 * The JSON variant for browser scripts (reference/behaviour.md, "A fifth
 * protocol"): what jQuery `$.ajax` pages and ASP.NET AJAX pages send and
 * read. The same service as the other variants — the reference
 * ManualSetupCodes, ValidatePin true once then false, replay protection,
 * throttling, field rules, size limit, strict UTF-8 — with answers
 * `{"d": …}` and errors `{"Message","StackTrace","ExceptionType"}` under
 * `jsonerror: true`. Then the script proxy at /api.asmx/js, run in a
 * sandbox with a stand-in of the few functions of Microsoft's AJAX library
 * it calls, and the WSDL, which must not mention JSON.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import test from 'ava';
import Handlebars from 'handlebars';
import { JSON_OPERATIONS } from '../../generated/json';
import { ROUTES } from '../../generated/routes';
import { PairingInfo } from '../../generated/types';
import { createApp } from '../../src/service/app';
import { AuthenticatorApiClient } from '../../src/service/index';
import { defaultConfig } from '../../src/service/config';
import { contractNamespace } from '../../src/service/config';
import { loadContract } from '../../src/runtime/contract';
import { CONTRACT } from '../../generated/contract';
import { samplesFor } from '../../src/runtime/help/samples';
import { encodeBase32 } from '../../src/service/otp/base32';
import { createLogger } from '../../src/service/observability/logger';
import { createMetrics } from '../../src/service/observability/metrics';
import { MemoryStore } from '../../src/service/state/memory-store';
import { AJAX_STAND_IN } from '../support/ajax-stand-in';
import { JSON_CONTENT_TYPE, postJson, readD, readJsonError } from '../support/json-calls';
import { pinFor, send, wrongPinFor } from '../support/requests';
import { freePort } from '../support/ports';
import { startTestService, type TestService } from '../support/service';
import { setupCodeVectors } from '../support/vectors';

const VECTORS = setupCodeVectors();
const PAIRABLE = VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') >= 10);
const TOO_SHORT = VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') < 10);

let service: TestService;
test.before(async () => {
  service = await startTestService({ metricsOnPublicPort: true }); // default settings otherwise: replay protection and throttling on
});
test.after.always(async () => {
  await service?.close();
});

const unique = (label: string) => `json-${label}-${Math.random().toString(36).slice(2)}`;
const validate = (pin: unknown, secretCode: unknown) => postJson(service.url, 'ValidatePin', { pin, secretCode });

interface PairD {
  __type: string;
  ManualSetupCode: string;
  Html: string;
}

test('Pair answers the reference ManualSetupCode of every vector, __type first, and the same Html as HTTP POST', async (t) => {
  t.true(PAIRABLE.length > 0 && TOO_SHORT.length > 0);
  for (const vector of PAIRABLE) {
    const fields = { appName: 'Interop', appInfo: 'alice@example.com', secretCode: vector.secretCode };
    const answer = await postJson(service.url, 'Pair', fields);
    const d = readD(t, answer, vector.secretCode) as PairD;
    t.deepEqual(Object.keys(d), ['__type', 'ManualSetupCode', 'Html'], vector.secretCode);
    t.is(d.__type, 'AuthenticatorAPI.PairingInfo');
    t.is(d.ManualSetupCode, vector.ManualSetupCode, vector.secretCode);
    // The typed client reads the HTTP POST answer, validated against the schema.
    const form = await new AuthenticatorApiClient({ baseUrl: service.url, variant: 'httpPost' }).pair(fields);
    t.is<string | undefined, string | undefined>(d.Html, form?.Html, vector.secretCode);
  }
});

test("strings are written with <, >, & and ' as \\u escapes, and read back unchanged", async (t) => {
  const answer = await postJson(service.url, 'Pair', { appName: "O'Brien & <Sons>", appInfo: 'a&b <c>', secretCode: '12345678BXYT' });
  const d = readD(t, answer) as PairD;
  t.false(/[<>&']/.test(answer.body), answer.body.slice(0, 200));
  for (const escaped of ['\\u003c', '\\u003e', '\\u0026', '\\u0027']) t.true(answer.body.includes(escaped), escaped);
  t.true(
    d.Html.startsWith(
      "<a title='Manually pair with GEZDGNBVGY3TQQSYLFKA' href='otpauth://totp/O%27Brien%20%26%20%3CSons%3E:a%26b%20%3Cc%3E?secret=",
    ),
  );
  // The generated encoder, for every character at once and for an absent result.
  const pair = JSON_OPERATIONS.Pair;
  t.is(
    pair.encodeAnswer(new PairingInfo({ ManualSetupCode: `<>&'"\\`, Html: undefined })),
    '{"d":{"__type":"AuthenticatorAPI.PairingInfo","ManualSetupCode":"\\u003c\\u003e\\u0026\\u0027\\"\\\\","Html":null}}',
  );
  t.is(pair.encodeAnswer(undefined), '{"d":null}');
  t.is(JSON_OPERATIONS.ValidatePin.encodeAnswer(true), '{"d":true}');
});

test('Pair: a secret shorter than 10 bytes is a client error (400, System.ArgumentException) with our sentence', async (t) => {
  for (const vector of TOO_SHORT) {
    const answer = await postJson(service.url, 'Pair', { appInfo: 'alice@example.com', secretCode: vector.secretCode });
    const error = readJsonError(t, answer, 400, 'System.ArgumentException', vector.secretCode);
    t.is(error.Message, 'secretCode must be at least 10 bytes (80 bits) long.');
  }
});

test('ValidatePin: true for the current PIN once, false replayed, false for a wrong PIN', async (t) => {
  const secret = unique('validate');
  t.is(readD(t, await validate(wrongPinFor(service, secret), secret)), false);
  t.is(readD(t, await validate(pinFor(service, secret), secret)), true);
  t.is(readD(t, await validate(pinFor(service, secret), secret)), false, 'replayed');
  const raw = await validate(wrongPinFor(service, secret), secret);
  t.is(raw.body, '{"d":false}');
});

test('parameters: a number becomes its text; names are case-sensitive; null or left out is absent; extras are ignored', async (t) => {
  // A PIN without a leading zero, sent as a JSON number.
  let secret = unique('number');
  while (pinFor(service, secret).startsWith('0')) secret = unique('number');
  t.is(readD(t, await validate(Number(pinFor(service, secret)), secret)), true, 'a number PIN');
  t.is(readD(t, await validate(Number(wrongPinFor(service, secret)), secret)), false);

  const caseError = readJsonError(
    t,
    await postJson(service.url, 'ValidatePin', { pin: '123456', secretcode: 'abcdefghijkl' }),
    400,
    'System.ArgumentException',
  );
  t.is(caseError.Message, 'secretCode is required.');
  const nullError = readJsonError(t, await validate('123456', null), 400, 'System.ArgumentException');
  t.is(nullError.Message, 'secretCode is required.');
  t.is(
    readJsonError(t, await postJson(service.url, 'Pair', { appInfo: null, secretCode: '12345678BXYT' }), 400, 'System.ArgumentException')
      .Message,
    'appInfo is required.',
  );

  const extra = await postJson(service.url, 'Pair', {
    appInfo: 'alice',
    secretCode: '12345678BXYT',
    unknown: [1, { a: 2 }],
    AppName: 'ignored',
  });
  const d = readD(t, extra) as PairD;
  t.is(d.ManualSetupCode, 'GEZDGNBVGY3TQQSYLFKA');
  t.true(d.Html.includes("href='otpauth://totp/alice?secret="), 'no issuer: AppName is not appName');

  // Numbers and booleans as .NET writes them, into the account name.
  const converted = readD(t, await postJson(service.url, 'Pair', { appName: true, appInfo: 42.5, secretCode: '12345678BXYT' })) as PairD;
  t.true(converted.Html.includes("href='otpauth://totp/True:42.5?secret="), converted.Html);
  // A numeric secret is the UTF-8 bytes of its text, as in every other variant.
  const numeric = readD(t, await postJson(service.url, 'Pair', { appInfo: 'a', secretCode: 12345678901 })) as PairD;
  t.is(numeric.ManualSetupCode, encodeBase32(Buffer.from('12345678901', 'utf8')));
});

test('client errors (400, System.ArgumentException): an array or object for a parameter, a body that is not an object, not JSON, or empty', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['{"pin":["123456"],"secretCode":"abc"}', 'The parameter pin must be a string, not an array.', 'array'],
    ['{"pin":"123456","secretCode":{"value":"abc"}}', 'The parameter secretCode must be a string, not an object.', 'object'],
    ['["123456","abc"]', "The request body must be one JSON object of the operation's parameters.", 'array body'],
    ['"123456"', "The request body must be one JSON object of the operation's parameters.", 'string body'],
    ['null', "The request body must be one JSON object of the operation's parameters.", 'null body'],
    ['{"pin":"123456",', 'The request body is not valid JSON.', 'truncated'],
    ["{'pin':'123456'}", 'The request body is not valid JSON.', 'single quotes'],
    ['pin=123456&secretCode=abc', 'The request body is not valid JSON.', 'a form'],
    ['', 'The request body is not valid JSON.', 'empty'],
    ['['.repeat(60_000), 'The request body is not valid JSON.', 'nested 60 000 deep'],
  ];
  for (const [body, message, label] of cases) {
    const error = readJsonError(t, await postJson(service.url, 'ValidatePin', body), 400, 'System.ArgumentException', label);
    t.is(error.Message, message, label);
  }
  // Field rules are the handlers' own: a control character, a too-long appName.
  const control = readJsonError(
    t,
    await postJson(service.url, 'Pair', { appInfo: 'a\u0001b', secretCode: '12345678BXYT' }),
    400,
    'System.ArgumentException',
  );
  t.regex(control.Message, /appInfo/);
  const long = readJsonError(
    t,
    await postJson(service.url, 'Pair', { appName: 'x'.repeat(101), appInfo: 'a', secretCode: '12345678BXYT' }),
    400,
    'System.ArgumentException',
  );
  t.regex(long.Message, /appName/);
});

test('UTF-8: a non-ASCII secret is its UTF-8 bytes, \\u escapes are read, invalid UTF-8 is a client error, another charset 415', async (t) => {
  const secret = 'pässwörd-秘密-🔑';
  const d = readD(t, await postJson(service.url, 'Pair', { appInfo: 'ü', secretCode: secret })) as PairD;
  t.is(d.ManualSetupCode, encodeBase32(Buffer.from(secret, 'utf8')));
  const escaped = readD(
    t,
    await postJson(service.url, 'Pair', '{"appInfo":"\\u00fc","secretCode":"p\\u00e4ssw\\u00f6rd-\\u79d8\\u5bc6-\\ud83d\\udd11"}'),
  ) as PairD;
  t.is(escaped.ManualSetupCode, d.ManualSetupCode);

  const invalid = Buffer.concat([Buffer.from('{"appInfo":"a","secretCode":"12345678'), Buffer.from([0xc3, 0x28]), Buffer.from('BXYT"}')]);
  t.is(
    readJsonError(t, await postJson(service.url, 'Pair', invalid), 400, 'System.ArgumentException').Message,
    'The request body is not valid UTF-8.',
  );
  const latin1 = await postJson(service.url, 'Pair', { appInfo: 'a', secretCode: '12345678BXYT' }, 'application/json; charset=iso-8859-1');
  t.is(readJsonError(t, latin1, 415, 'System.InvalidOperationException').Message, 'The request body must be UTF-8.');
});

test('the Content-Type may be bare or in any case; the operation segment matches in any case', async (t) => {
  for (const type of ['application/json', 'Application/JSON; charset=UTF-8', 'application/json;charset=utf-8']) {
    const d = readD(t, await postJson(service.url, 'Pair', { appInfo: 'a', secretCode: '12345678BXYT' }, type)) as PairD;
    t.is(d.ManualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', type);
  }
  t.is(readD(t, await postJson(service.url, 'validatepin', { pin: '000000', secretCode: unique('case') })), false);
  t.is(readJsonError(t, await postJson(service.url, 'Nope', {}), 404, 'System.ArgumentException').Message, 'There is no such operation.');
});

test('a throttled secret: 429, Retry-After, System.Web.HttpException, even for the right PIN', async (t) => {
  const secret = unique('throttle');
  for (let i = 0; i < 5; i++) t.is(readD(t, await validate(wrongPinFor(service, secret), secret)), false);
  const answer = await validate(pinFor(service, secret), secret);
  const error = readJsonError(t, answer, 429, 'System.Web.HttpException');
  t.regex(error.Message, /^Too many failed validations for this secret; try again in \d+ seconds\.$/);
  t.regex(answer.headers.get('retry-after') ?? '', /^\d+$/);
  t.false(answer.body.includes(secret));
});

test('413 over the body limit (System.Web.HttpException), exactly at the limit accepted; 415 for another media type', async (t) => {
  const limit = service.config.maxBodyBytes;
  const base = JSON.stringify({ pin: '000000', secretCode: unique('limit'), padding: '' });
  const exact = base.replace('"padding":""', `"padding":"${'x'.repeat(limit - Buffer.byteLength(base))}"`);
  t.is(Buffer.byteLength(exact), limit);
  t.is(readD(t, await postJson(service.url, 'ValidatePin', exact)), false, 'exactly at the limit');
  const over = exact.replace('"padding":"', '"padding":"x');
  const error = readJsonError(t, await postJson(service.url, 'ValidatePin', over), 413, 'System.Web.HttpException');
  t.is(error.Message, 'The request body is larger than this service accepts.');

  // Not JSON and not a form: the HTTP POST variant's 415, which names both.
  const text = await postJson(service.url, 'ValidatePin', { pin: '1', secretCode: 'x' }, 'text/plain');
  t.is(text.status, 415);
  t.is(text.body, 'POST the fields as application/x-www-form-urlencoded, or a JSON object as application/json.\n');
});

test('GET with Content-Type application/json is refused as .NET refuses it: 405, Allow: POST, System.InvalidOperationException', async (t) => {
  for (const operation of ['Pair', 'ValidatePin']) {
    const answer = await send(`${service.url}/api.asmx/${operation}?pin=1&secretCode=json-get-secret`, {
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    const error = readJsonError(t, answer, 405, 'System.InvalidOperationException', operation);
    t.is(error.Message, `${operation} does not allow GET: POST its parameters as a JSON object.`);
    t.is(answer.headers.get('allow'), 'POST');
    t.false(answer.body.includes('json-get-secret'));
  }
  // Without it, GET is still the HTTP GET variant.
  const plain = await send(`${service.url}/api.asmx/ValidatePin?pin=000000&secretCode=${unique('get')}`, {});
  t.is(plain.status, 200);
  t.regex(plain.contentType, /^text\/xml/);
});

test('the store unreachable: 503 (System.Exception); an internal failure: 500 (System.Exception), never a stack trace', async (t) => {
  const broken = await startTestService({ store: `redis://127.0.0.1:${await freePort()}` });
  try {
    const secret = unique('store');
    const error = readJsonError(
      t,
      await postJson(broken.url, 'ValidatePin', { pin: pinFor(broken, secret), secretCode: secret }),
      503,
      'System.Exception',
    );
    t.false(error.Message.includes(secret));
    // Pair needs no state.
    t.is(
      (readD(t, await postJson(broken.url, 'Pair', { appInfo: 'a', secretCode: '12345678BXYT' })) as PairD).ManualSetupCode,
      'GEZDGNBVGY3TQQSYLFKA',
    );
  } finally {
    await broken.close({ idleGraceMs: 0 });
  }

  // A store failing in a way nobody planned for: the service's own failure.
  const store = new MemoryStore(100);
  store.countAttempt = async () => {
    throw new TypeError('an unplanned failure holding json-internal-secret');
  };
  const logs: string[] = [];
  const app = createApp(
    { ...defaultConfig(), host: '127.0.0.1', port: 0, store: 'memory' },
    {
      logger: createLogger('info', { write: (line: string) => void logs.push(line) }),
      clock: { now: () => Date.now() },
      store,
      metrics: createMetrics(),
    },
  );
  const server = createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answer = await postJson(url, 'ValidatePin', { pin: '123456', secretCode: 'json-internal-secret' });
    const error = readJsonError(t, answer, 500, 'System.Exception');
    t.is(error.Message, 'The service failed to process the request.');
    t.false(answer.body.includes('unplanned'));
    t.true(logs.some((l) => l.includes('"event":"error"')));
    t.false(logs.join('').includes('json-internal-secret'));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('the request log and the metrics name the variant json; no log line holds a secret or PIN', async (t) => {
  const secret = unique('log');
  const pin = pinFor(service, secret);
  await postJson(service.url, 'ValidatePin', { pin, secretCode: secret }, JSON_CONTENT_TYPE);
  await postJson(service.url, 'ValidatePin', { secretCode: [secret] }, JSON_CONTENT_TYPE);
  const lines = service
    .logs()
    .split('\n')
    .filter((l) => l.includes('"event":"request"') && l.includes('"variant":"json"'));
  t.true(lines.some((l) => l.includes('"operation":"ValidatePin"') && l.includes('"status":200') && l.includes('"outcome":"accepted"')));
  t.true(lines.some((l) => l.includes('"operation":"ValidatePin"') && l.includes('"status":400') && l.includes('"outcome":"client"')));
  t.false(service.logs().includes(secret));
  t.false(service.logs().includes(`"${pin}"`));
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  t.regex(metrics, /pin_requests_total\{operation="ValidatePin",variant="json",outcome="accepted"\} [1-9]/);
  t.regex(metrics, /pin_request_duration_seconds_count\{operation="ValidatePin",variant="json"\} [1-9]/);
});

interface StandIn {
  namespaces: string[];
  registered: string[];
  invocations: {
    servicePath: string;
    methodName: string;
    useGet: boolean;
    params: unknown;
    onSuccess: unknown;
    onFailure: unknown;
    userContext: unknown;
  }[];
}

/** Runs the served proxy in a sandbox holding the AJAX library's stand-in; answers the sandbox's globals. */
// biome-ignore lint/suspicious/noExplicitAny: the proxy's globals are whatever the served script defines
function runProxy(script: string): { api: any; standIn: StandIn } {
  // biome-ignore lint/suspicious/noExplicitAny: a sandbox the script writes its globals into
  const sandbox: Record<string, any> = {};
  sandbox.globalThis = sandbox;
  runInNewContext(`${AJAX_STAND_IN}\n${script}`, sandbox);
  return { api: sandbox.AuthenticatorAPI.AuthenticatorAPI, standIn: sandbox.ajaxStandIn };
}

test('/api.asmx/js and /jsdebug serve the proxy: cacheable application/x-javascript registering AuthenticatorAPI.AuthenticatorAPI', async (t) => {
  for (const path of ['/api.asmx/js', '/api.asmx/jsdebug', '/API.asmx/JS']) {
    const answer = await send(service.url + path, {});
    t.is(answer.status, 200, path);
    t.is(answer.contentType, 'application/x-javascript; charset=utf-8', path);
    t.regex(answer.headers.get('cache-control') ?? '', /^public, max-age=\d+$/, path);
    const { api, standIn } = runProxy(answer.body);
    t.deepEqual([...standIn.namespaces], ['AuthenticatorAPI']);
    t.deepEqual([...standIn.registered], ['AuthenticatorAPI.AuthenticatorAPI', 'AuthenticatorAPI.PairingInfo']);
    t.is(api.get_path(), '/api.asmx');
    const ok = () => {};
    const failed = () => {};
    api.Pair('Example', 'alice@example.com', '12345678BXYT', ok, failed, 'context');
    api.ValidatePin('123456', '12345678BXYT', ok, failed, 7);
    const instance = new api();
    instance.ValidatePin('654321', 'other', ok, failed);
    const calls = standIn.invocations;
    t.deepEqual(JSON.parse(JSON.stringify(calls.map((c) => [c.servicePath, c.methodName, c.useGet, c.params]))), [
      ['/api.asmx', 'Pair', false, { appName: 'Example', appInfo: 'alice@example.com', secretCode: '12345678BXYT' }],
      ['/api.asmx', 'ValidatePin', false, { pin: '123456', secretCode: '12345678BXYT' }],
      ['/api.asmx', 'ValidatePin', false, { pin: '654321', secretCode: 'other' }],
    ]);
    t.is(calls[0].onSuccess, ok);
    t.is(calls[0].onFailure, failed);
    t.is(calls[0].userContext, 'context');
    t.is(calls[1].userContext, 7);
  }
});

test("the proxy points at --public-url's path, written as a safe JavaScript string", async (t) => {
  const behind = await startTestService({ publicUrl: "https://pins.example.com/auth/</script>'x" });
  try {
    const answer = await send(`${behind.url}/api.asmx/js`, {});
    t.is(answer.status, 200);
    t.false(answer.body.includes('</script>'));
    const { api } = runProxy(answer.body);
    t.is(api.get_path(), new URL("https://pins.example.com/auth/</script>'x/api.asmx").pathname);
  } finally {
    await behind.close({ idleGraceMs: 0 });
  }
});

test('the WSDL is unchanged by the JSON variant: four bindings, nothing of JSON', async (t) => {
  const wsdl = await send(`${service.url}/api.asmx?WSDL`, {});
  t.is(wsdl.status, 200);
  t.false(/json|script/i.test(wsdl.body));
  t.is(wsdl.body.split('<wsdl:binding ').length - 1, 4);
  t.is(wsdl.body.split('<wsdl:port ').length - 1, 4);
});

test("each operation's help page shows the JSON sample request and answer; sent as it is, the request is answered in its shape", async (t) => {
  const contract = loadContract(CONTRACT, contractNamespace(service.config));
  const host = new URL(service.url).host;
  for (const operation of ['Pair', 'ValidatePin'] as const) {
    const sample = samplesFor(ROUTES[operation] as never, contract, { host, path: '/api.asmx' }).find((s) => s.variant === 'json');
    if (!sample) return t.fail(`no JSON sample for ${operation}`);
    const page = await send(`${service.url}/api.asmx?op=${operation}`, {});
    t.true(page.body.includes('<h2>JSON</h2>'), operation);
    t.true(page.body.includes(Handlebars.escapeExpression(sample.request)), `${operation}: the request sample is on the page`);
    t.true(page.body.includes(Handlebars.escapeExpression(sample.response)), `${operation}: the response sample is on the page`);

    const [head, body] = sample.request.split('\n\n');
    const [requestLine, ...headers] = head.split('\n');
    t.is(requestLine, `POST /api.asmx/${operation} HTTP/1.1`);
    t.true(headers.includes(`Content-Type: ${JSON_CONTENT_TYPE}`));
    t.deepEqual(Object.keys(JSON.parse(body)), JSON_OPERATIONS[operation].parameters);
    // The placeholders are valid for ValidatePin (false); Pair's secret is too short, so give it a real one.
    const fields = JSON.parse(body) as Record<string, string>;
    if (operation === 'Pair') fields.secretCode = '12345678BXYT';
    const answer = await postJson(service.url, operation, fields);
    const shape = (value: unknown): unknown =>
      value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)])) : typeof value;
    t.deepEqual(shape(readD(t, answer)), shape((JSON.parse(sample.response.split('\n\n')[1]) as { d: unknown }).d), operation);
  }
});

test('the service page mentions the JSON variant and links the script proxy', async (t) => {
  const page = await send(`${service.url}/api.asmx`, {});
  t.is(page.status, 200);
  t.true(page.body.includes('href="api.asmx/js"'));
  t.true(page.body.includes('href="api.asmx/jsdebug"'));
  t.true(page.body.includes('application/json'));
});

test('a member given twice counts with its last value, as JSON.parse reads it', async (t) => {
  const body = '{"appInfo":"first","appInfo":"second","secretCode":"12345678BXYT"}';
  const d = readD(t, await postJson(service.url, 'Pair', body)) as PairD;
  t.true(d.Html.includes("href='otpauth://totp/second?secret="));
});
