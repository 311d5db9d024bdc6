/**
 * docs/operations.md, *Logs*, and docs/security.md: the logs captured during a full run — both operations over
 * all four variants, plus refusals, throttling and errors — hold no secret,
 * no PIN, no manual setup code and no query string, and every line is JSON.
 */
import test from 'ava';
import { encodeBase32 } from '../../src/service/otp/base32';
import { startTestService, type TestService } from '../support/service';
import {
  VARIANTS,
  call,
  getQuery,
  isSoap,
  operationElement,
  pinFor,
  postForm,
  postSoap,
  readBoolean,
  soapEnvelope,
  validatePin,
  wrongPinFor,
  type Variant,
} from '../support/requests';
import { elementAt, readXml, textOf } from '../support/readers';

const FIXED_NOW = 1_750_000_005_000;

let service: TestService;

test.before(async () => {
  service = await startTestService({ logLevel: 'debug' });
  service.clock.set(FIXED_NOW);
});

test.after.always(async () => {
  await service?.close();
});

/** Distinctive secrets, each used by one call or group of calls below. */
const secrets = {
  pair: (v: Variant) => `PairCanary${v}Zq7Wx3Secret`,
  validate: (v: Variant) => `ValidateCanary${v}Kp4Rm8Secret`,
  throttled: 'ThrottleCanaryHn2Vb6Secret',
  tooLong: `LongCanary${'Qj5'.repeat(100)}Secret`,
  doctype: 'DoctypeCanaryTy9Gf1Secret',
  malformed: 'MalformedCanaryUe3Lc5Secret',
  repeated: 'RepeatedCanaryWs8Nd2Secret',
  badUtf8: 'BadUtf8CanaryXa6Pk4Secret',
};

function manualSetupCode(xml: string, variant: Variant): string {
  return readXml(xml, (doc) => {
    const ns = {
      env: variant === 'soap12' ? 'http://www.w3.org/2003/05/soap-envelope' : 'http://schemas.xmlsoap.org/soap/envelope/',
      t: 'http://authenticatorapi.com/',
    };
    const node = isSoap(variant)
      ? elementAt(doc, '/env:Envelope/env:Body/t:PairResponse/t:PairResult/t:ManualSetupCode', ns)
      : elementAt(doc, '/t:PairingInfo/t:ManualSetupCode', ns);
    if (!node) throw new Error(`no ManualSetupCode in the ${variant} Pair answer`);
    return textOf(node);
  });
}

/** Every value of a parsed log line, with the path to it. */
function* values(value: unknown, path = ''): Generator<[string, unknown]> {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      yield [`${path}.${key} (key)`, key];
      yield* values(inner, `${path}.${key}`);
    }
  } else {
    yield [path, value];
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

test('a full run of every operation × variant, plus refusals and errors, leaves no secret, PIN, setup code or query string in the logs', async (t) => {
  const usedSecrets: string[] = Object.values(secrets).filter((s): s is string => typeof s === 'string');
  const pins: string[] = [];
  const setupCodes: string[] = [];

  for (const variant of VARIANTS) {
    // Pair.
    const pairSecret = secrets.pair(variant);
    usedSecrets.push(pairSecret);
    const paired = await call(service.url, variant, 'Pair', {
      appName: 'LogCanaryApp',
      appInfo: 'log-canary@example.com',
      secretCode: pairSecret,
    });
    t.is(paired.status, 200, `${variant} Pair`);
    const code = manualSetupCode(paired.body, variant);
    t.is(code, encodeBase32(Buffer.from(pairSecret, 'utf8')), 'the setup code is the Base32 of the secret');
    setupCodes.push(code);

    // ValidatePin: the right PIN (true), the same again (a replay, false), a wrong PIN (false).
    const secret = secrets.validate(variant);
    usedSecrets.push(secret);
    setupCodes.push(encodeBase32(Buffer.from(secret, 'utf8')));
    const right = pinFor(service, secret);
    const wrong = wrongPinFor(service, secret);
    pins.push(right, wrong);
    t.true(readBoolean(variant, await validatePin(service.url, variant, right, secret)), `${variant} right PIN`);
    t.false(readBoolean(variant, await validatePin(service.url, variant, right, secret)), `${variant} replayed PIN`);
    t.false(readBoolean(variant, await validatePin(service.url, variant, wrong, secret)), `${variant} wrong PIN`);
  }

  // Throttled: 5 failures, then the right PIN over every variant.
  const throttledPin = pinFor(service, secrets.throttled);
  const throttledWrong = wrongPinFor(service, secrets.throttled);
  pins.push(throttledPin, throttledWrong);
  for (let i = 0; i < 5; i++) await validatePin(service.url, 'httpGet', throttledWrong, secrets.throttled);
  for (const variant of VARIANTS) {
    const answer = await validatePin(service.url, variant, throttledPin, secrets.throttled);
    t.is(answer.status, isSoap(variant) ? 500 : 429, `${variant} throttled`);
  }

  // Client errors that carry a secret and a PIN.
  const errorPin = '314159';
  pins.push(errorPin);
  for (const variant of VARIANTS) {
    const answer = await validatePin(service.url, variant, errorPin, secrets.tooLong);
    t.is(answer.status, isSoap(variant) ? 500 : 400, `${variant} over-long secret`);
  }
  const withDoctype = `<?xml version="1.0"?><!DOCTYPE x>${soapEnvelope('1.1', operationElement('ValidatePin', { pin: errorPin, secretCode: secrets.doctype })).replace(/^<\?xml[^>]*\?>/, '')}`;
  t.is((await postSoap(service.url, '1.1', withDoctype)).status, 500);
  const malformed = soapEnvelope('1.2', operationElement('ValidatePin', { pin: errorPin, secretCode: secrets.malformed })).replace(
    '</pin>',
    '</pinn>',
  );
  t.is((await postSoap(service.url, '1.2', malformed)).status, 500);
  t.is((await getQuery(service.url, 'ValidatePin', `pin=${errorPin}&pin=${errorPin}&secretCode=${secrets.repeated}`)).status, 400);
  t.is((await postForm(service.url, 'ValidatePin', `pin=${errorPin}&secretCode=${secrets.badUtf8}%FF`)).status, 400);
  t.is((await getQuery(service.url, 'NoSuchOperation', `pin=${errorPin}&secretCode=${secrets.repeated}`)).status, 404);

  const logs = service.logs();
  const lines = logs.split('\n').filter((l) => l !== '');
  t.true(lines.length >= 40, `the run was logged (${lines.length} lines)`);

  // Nothing secret, in any form it travelled in.
  for (const secret of usedSecrets) {
    for (const form of new Set([secret, encodeURIComponent(secret), secret.slice(0, 16)])) {
      t.false(logs.includes(form), `the logs do not contain the secret ${form.slice(0, 24)}…`);
    }
  }
  for (const code of setupCodes) t.false(logs.includes(code.slice(0, 16)), `the logs do not contain the setup code ${code.slice(0, 8)}…`);
  t.false(/[?&](pin|secretCode|appName|appInfo)=/i.test(logs), 'no query string');
  t.false(logs.includes('LogCanaryApp') || logs.includes('log-canary@example.com'), 'no Pair field either');

  let requestLines = 0;
  for (const line of lines) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      t.fail(`a log line is not JSON: ${line.slice(0, 80)}`);
      continue;
    }
    t.is(typeof entry, 'object');
    if (entry.event === 'request') {
      requestLines++;
      t.is(typeof entry.path, 'string', 'a request line has a path');
      t.false(String(entry.path).includes('?'), `the path has no query: ${String(entry.path)}`);
    }
    // PINs are six digits, which a duration could contain by chance; so no string holds a PIN and no number is one.
    for (const [where, value] of values(entry)) {
      for (const pin of pins) {
        // A random UUID request id holds any six-digit run by chance (about one id in 600 000): not a PIN.
        if (typeof value === 'string' && !(where === '.id' && UUID.test(value))) t.false(value.includes(pin), `${where} holds a PIN`);
        if (typeof value === 'number' && where !== '.ms') t.not(value, Number(pin), `${where} is a PIN`);
      }
    }
  }
  t.is(requestLines, 4 + 4 * 3 + 5 + 4 + 4 + 5, 'one request line per call');
});
