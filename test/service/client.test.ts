/**
 * The generated typed client (generated/client.ts) against the service, over
 * each of the four variants: the reference ManualSetupCodes, PINs true once
 * and false when wrong or replayed, and every failure as an
 * AuthenticatorApiError carrying the fault code, the service's sentence, the
 * HTTP status and Retry-After. Then what the client does with answers that do
 * not fit the contract, with no answer, and with another namespace.
 */
import test from 'ava';
import { setupCodeVectors } from '../support/vectors';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  AuthenticatorApiClient,
  AuthenticatorApiError,
  CLIENT_VARIANTS,
  DEFAULT_NAMESPACE,
  type ClientVariant,
} from '../../src/service/index';
import { retryAfterSeconds } from '../../src/runtime/client/exchange';
import { defaultConfig } from '../../src/service/config';
import { contractNamespace } from '../../src/service/config';
import { encodeBase32 } from '../../src/service/otp/base32';
import { pinFor as pinAtClock } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const VECTORS = setupCodeVectors();
const MIN_SECRET_BYTES = 10;
const PAIRABLE = VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') >= MIN_SECRET_BYTES);
const TOO_SHORT = VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') < MIN_SECRET_BYTES);

/** What each variant answers a client error and a throttled call with. */
const EXPECTED: Record<ClientVariant, { clientCode: string; clientStatus: number; throttledCode: string; throttledStatus: number }> = {
  soap11: { clientCode: 'soap:Client', clientStatus: 500, throttledCode: 'soap:Client', throttledStatus: 500 },
  soap12: { clientCode: 'soap:Sender', clientStatus: 500, throttledCode: 'soap:Sender', throttledStatus: 500 },
  httpGet: { clientCode: 'http:400', clientStatus: 400, throttledCode: 'http:429', throttledStatus: 429 },
  httpPost: { clientCode: 'http:400', clientStatus: 400, throttledCode: 'http:429', throttledStatus: 429 },
  json: { clientCode: 'http:400', clientStatus: 400, throttledCode: 'http:429', throttledStatus: 429 },
};

let service: TestService;
test.before(async () => {
  service = await startTestService(); // default settings: replay protection and throttling on
});
test.after.always(async () => {
  await service?.close();
});

const clientFor = (variant: ClientVariant, options: { baseUrl?: string; namespace?: string } = {}) =>
  new AuthenticatorApiClient({ baseUrl: options.baseUrl ?? service.url, namespace: options.namespace, variant });

const pinAt = (secret: string, nowMs: number, stepOffset = 0) => pinAtClock({ clock: { now: () => nowMs } }, secret, stepOffset);
const pinFor = (secret: string) => pinAt(secret, service.clock.now());
/** A PIN of none of the steps the drift window accepts. */
function wrongPinFor(secret: string): string {
  const valid = new Set([-1, 0, 1].map((d) => pinAt(secret, service.clock.now(), d)));
  for (let n = 0; ; n++) {
    const pin = String((246810 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(pin)) return pin;
  }
}
const uniqueSecret = (label: string) => `client-${label}-${Math.random().toString(36).slice(2)}`;

async function failure(t: { fail(message: string): void }, call: Promise<unknown>): Promise<AuthenticatorApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AuthenticatorApiError) return error;
    throw error;
  }
  t.fail('the call succeeded');
  throw new Error('unreachable');
}

for (const variant of CLIENT_VARIANTS) {
  test(`${variant}: pair answers the reference ManualSetupCode of every vector`, async (t) => {
    const client = clientFor(variant);
    for (const vector of PAIRABLE) {
      const info = await client.pair({ appName: 'Interop', appInfo: 'alice@example.com', secretCode: vector.secretCode });
      t.is(info?.ManualSetupCode, vector.ManualSetupCode, vector.secretCode);
      t.true(info?.Html?.startsWith(`<a title='Manually pair with ${vector.ManualSetupCode}'`), vector.secretCode);
    }
  });

  test(`${variant}: request text with XML and URL metacharacters arrives unchanged`, async (t) => {
    const secretCode = `s&c<r>e"t'% +=?#${variant}`;
    const info = await clientFor(variant).pair({ appInfo: 'a&b <c> d', secretCode });
    t.is(info?.ManualSetupCode, encodeBase32(Buffer.from(secretCode, 'utf8')));
    t.true(info?.Html?.includes('a%26b%20%3Cc%3E%20d'));
  });

  test(`${variant}: validatePin is true for the current PIN once, then false; false for a wrong PIN`, async (t) => {
    const client = clientFor(variant);
    const secretCode = uniqueSecret(variant);
    t.false(await client.validatePin({ pin: wrongPinFor(secretCode), secretCode }));
    t.true(await client.validatePin({ pin: pinFor(secretCode), secretCode }));
    t.false(await client.validatePin({ pin: pinFor(secretCode), secretCode }), 'replayed');
  });

  test(`${variant}: a client error is an AuthenticatorApiError with the fault code and the service's sentence`, async (t) => {
    const client = clientFor(variant);
    const expected = EXPECTED[variant];
    for (const vector of TOO_SHORT) {
      const error = await failure(t, client.pair({ appInfo: 'alice@example.com', secretCode: vector.secretCode }));
      t.is(error.code, expected.clientCode);
      t.is(error.faultString, 'secretCode must be at least 10 bytes (80 bits) long.');
      t.is(error.message, error.faultString);
      t.is(error.status, expected.clientStatus);
      t.is(error.retryAfter, undefined);
      t.is(error.operation, 'Pair');
      t.is(error.variant, variant);
    }
    const missing = await failure(t, client.validatePin({ pin: '123456' }));
    t.is(missing.code, expected.clientCode);
    t.is(missing.faultString, 'secretCode is required.');
    t.is(missing.operation, 'ValidatePin');
  });

  test(`${variant}: a throttled secret is an AuthenticatorApiError with retryAfter`, async (t) => {
    const client = clientFor(variant);
    const secretCode = uniqueSecret(`throttle-${variant}`);
    for (let i = 0; i < 5; i++) t.false(await client.validatePin({ pin: wrongPinFor(secretCode), secretCode }));
    const error = await failure(t, client.validatePin({ pin: pinFor(secretCode), secretCode }));
    const expected = EXPECTED[variant];
    t.is(error.code, expected.throttledCode);
    t.is(error.status, expected.throttledStatus);
    t.regex(error.faultString, /^Too many failed validations for this secret; try again in \d+ seconds\.$/);
    t.true(error.retryAfter !== undefined && error.retryAfter >= 1 && error.retryAfter <= 300, `retryAfter ${error.retryAfter}`);
  });
}

test('the variant of one call overrides the client default', async (t) => {
  const client = clientFor('soap11');
  const error = await failure(t, client.pair({ appInfo: 'x', secretCode: 'short' }, { variant: 'httpPost' }));
  t.is(error.code, 'http:400');
  t.is(error.variant, 'httpPost');
});

test('pair without appName pairs without an issuer', async (t) => {
  const info = await clientFor('soap12').pair({ appInfo: 'bob@example.com', secretCode: PAIRABLE[0].secretCode });
  t.true(info?.Html?.includes(`href='otpauth://totp/bob%40example.com?secret=${PAIRABLE[0].ManualSetupCode}'`));
});

test('the default namespace is the service default, and a trailing slash on the base URL is fine', async (t) => {
  t.is(defaultConfig().namespace, undefined, "no --namespace: the WSDL's own");
  t.is(DEFAULT_NAMESPACE, contractNamespace(defaultConfig()));
  const client = new AuthenticatorApiClient({ baseUrl: `${service.url}/` });
  t.is(client.endpoint, `${service.url}/api.asmx`);
  t.is(client.namespace, DEFAULT_NAMESPACE);
  t.is(client.variant, 'soap11');
  t.is((await client.pair({ appInfo: 'x', secretCode: PAIRABLE[0].secretCode }))?.ManualSetupCode, PAIRABLE[0].ManualSetupCode);
});

test('a service with another namespace: a client with that namespace works over every variant, one without it gets a typed error', async (t) => {
  const namespace = 'https://pins.example.org/contract/';
  const other = await startTestService({ namespace });
  try {
    for (const variant of CLIENT_VARIANTS) {
      const client = clientFor(variant, { baseUrl: other.url, namespace });
      t.is((await client.pair({ appInfo: 'x', secretCode: PAIRABLE[1].secretCode }))?.ManualSetupCode, PAIRABLE[1].ManualSetupCode);
      t.false(await client.validatePin({ pin: '000000', secretCode: uniqueSecret('ns') }));
    }
    const soap = await failure(t, clientFor('soap11', { baseUrl: other.url }).pair({ appInfo: 'x', secretCode: PAIRABLE[1].secretCode }));
    t.is(soap.code, 'soap:Client');
    t.regex(soap.faultString, /is not an operation of this service/);
    const get = await failure(t, clientFor('httpGet', { baseUrl: other.url }).pair({ appInfo: 'x', secretCode: PAIRABLE[1].secretCode }));
    t.is(get.code, 'protocol');
    t.is(get.status, 200);
    t.regex(get.faultString, /PairingInfo was expected/);
  } finally {
    await other.close();
  }
});

test('no answer (nothing listening) is a transport error, not a fault', async (t) => {
  const closed = await startTestService();
  const url = closed.url;
  await closed.close();
  const error = await failure(t, new AuthenticatorApiClient({ baseUrl: url }).validatePin({ pin: '123456', secretCode: 'x' }));
  t.is(error.code, 'transport');
  t.is(error.status, undefined);
  t.regex(error.faultString, /ECONNREFUSED/);
  t.truthy(error.cause);
});

/** A stand-in service answering every request with one canned answer. */
async function cannedServer(
  status: number,
  contentType: string,
  body: string,
  extra: Record<string, string> = {},
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (body === 'never') return; // leaves the call hanging
      response.writeHead(status, { 'Content-Type': contentType, ...extra }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function withCanned<T>(
  status: number,
  contentType: string,
  body: string,
  run: (url: string) => Promise<T>,
  extra?: Record<string, string>,
) {
  const { url, server } = await cannedServer(status, contentType, body, extra);
  try {
    return await run(url);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const XML = 'text/xml; charset=utf-8';
const soap11 = (body: string, prefix = 'soap') =>
  `<?xml version="1.0"?><${prefix}:Envelope xmlns:${prefix}="http://schemas.xmlsoap.org/soap/envelope/"><${prefix}:Body>${body}</${prefix}:Body></${prefix}:Envelope>`;

test('a SOAP fault code reads soap:Local whatever prefix the answer binds the envelope namespace to', async (t) => {
  const fault = soap11('<env:Fault><faultcode>env:Client</faultcode><faultstring>Nope.</faultstring></env:Fault>', 'env');
  const error = await withCanned(
    500,
    XML,
    fault,
    (url) => failure(t, new AuthenticatorApiClient({ baseUrl: url }).validatePin({ pin: '1', secretCode: 'x' })),
    {
      'Retry-After': 'Wed, 21 Oct 2099 07:28:00 GMT',
    },
  );
  t.is(error.code, 'soap:Client');
  t.is(error.faultString, 'Nope.');
  t.is(error.status, 500);
  t.true(error.retryAfter! > 1_000_000);
});

test('answers that do not fit the contract are protocol errors', async (t) => {
  const ns = DEFAULT_NAMESPACE;
  const cases: [ClientVariant, string, RegExp][] = [
    ['soap11', 'not xml at all', /not a SOAP 1.1 envelope/],
    [
      'soap12',
      soap11(`<ValidatePinResponse xmlns="${ns}"><ValidatePinResult>true</ValidatePinResult></ValidatePinResponse>`),
      /not a SOAP 1.2 envelope/,
    ],
    [
      'soap11',
      soap11(`<ValidatePinResponse xmlns="${ns}"><ValidatePinResult>maybe</ValidatePinResult></ValidatePinResponse>`),
      /does not match the schema/,
    ],
    ['soap11', soap11(`<ValidatePinResponse xmlns="${ns}"></ValidatePinResponse>`), /does not match the schema/],
    ['soap11', soap11(`<PairResponse xmlns="${ns}"/>`), /\{http:\/\/authenticatorapi.com\/\}ValidatePinResponse was expected/],
    ['soap11', soap11(''), /empty Body/],
    ['httpGet', `<boolean xmlns="urn:other">true</boolean>`, /\{urn:other\}boolean where/],
    ['httpPost', `<boolean xmlns="${ns}">yes</boolean>`, /does not match the schema/],
    ['httpGet', '<boolean', /not well-formed XML/],
  ];
  for (const [variant, body, message] of cases) {
    const error = await withCanned(200, XML, body, (url) =>
      failure(t, new AuthenticatorApiClient({ baseUrl: url, variant }).validatePin({ pin: '1', secretCode: 'x' })),
    );
    t.is(error.code, 'protocol', body);
    t.regex(error.faultString, message, body);
  }
});

test('a SOAP answer that is neither 200 nor a fault is an http error with its text', async (t) => {
  const error = await withCanned(
    503,
    'text/plain',
    'Service Unavailable\nmore',
    (url) => failure(t, new AuthenticatorApiClient({ baseUrl: url, variant: 'soap12' }).validatePin({ pin: '1', secretCode: 'x' })),
    { 'Retry-After': '7' },
  );
  t.deepEqual([error.code, error.faultString, error.status, error.retryAfter], ['http:503', 'Service Unavailable', 503, 7]);
});

test('a nil PairingInfo over HTTP decodes as undefined', async (t) => {
  const nil = `<?xml version="1.0"?><PairingInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" xmlns="${DEFAULT_NAMESPACE}" />`;
  const info = await withCanned(200, XML, nil, (url) =>
    new AuthenticatorApiClient({ baseUrl: url, variant: 'httpGet' }).pair({ appInfo: 'x', secretCode: 'y' }),
  );
  t.is(info, undefined);
});

test('a call that takes longer than timeoutMs is a transport error; an aborted one rejects with the reason', async (t) => {
  await withCanned(200, XML, 'never', async (url) => {
    const slow = await failure(t, new AuthenticatorApiClient({ baseUrl: url, timeoutMs: 200 }).validatePin({ pin: '1', secretCode: 'x' }));
    t.is(slow.code, 'transport');
    t.regex(slow.faultString, /timed out/);
    const reason = new Error('stop');
    const controller = new AbortController();
    const call = new AuthenticatorApiClient({ baseUrl: url }).validatePin({ pin: '1', secretCode: 'x' }, { signal: controller.signal });
    controller.abort(reason);
    t.is(await t.throwsAsync(call), reason);
  });
});

test('Retry-After is read as seconds or as an HTTP date', (t) => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  t.is(retryAfterSeconds('120', now), 120);
  t.is(retryAfterSeconds(' 5 ', now), 5);
  t.is(retryAfterSeconds('Tue, 01 Jan 2030 00:01:30 GMT', now), 90);
  t.is(retryAfterSeconds('Mon, 31 Dec 2029 00:00:00 GMT', now), 0);
  t.is(retryAfterSeconds('soon', now), undefined);
  t.is(retryAfterSeconds(null, now), undefined);
});

test('the package entry is src/service/index.ts, built: main and types name it', (t) => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  t.is(pkg.main, 'dist/src/service/index.js');
  t.is(pkg.types, 'dist/src/service/index.d.ts');
});
