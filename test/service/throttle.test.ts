/**
 * Throttling per secret (docs/security.md; docs/clients.md, *Errors*): once `throttleAttempts` validations
 * have failed within the window, every further call for that secret — the
 * right PIN included — is refused with the throttled error until the window
 * passes; a success before the limit resets the count. Each test has its own
 * service because several move its clock.
 */
import test, { type ExecutionContext } from 'ava';
import type { Config } from '../../src/service/config';
import { startTestService, type TestService } from '../support/service';
import {
  CLIENT_CODE,
  SOAP11_NS,
  SOAP12_NS,
  VARIANTS,
  isSoap,
  pinFor,
  readFault,
  validatePin,
  validatePinResult,
  versionOf,
  wrongPinFor,
  type Answer,
  type Variant,
} from '../support/requests';

const FIXED_NOW = 1_750_000_005_000;

async function serviceFor(t: ExecutionContext, overrides: Partial<Config> = {}): Promise<TestService> {
  const service = await startTestService(overrides);
  t.teardown(() => service.close());
  service.clock.set(FIXED_NOW);
  return service;
}

async function fail(t: ExecutionContext, service: TestService, variant: Variant, secret: string, times: number): Promise<void> {
  const wrong = wrongPinFor(service, secret);
  for (let i = 0; i < times; i++) {
    t.false(await validatePinResult(service.url, variant, wrong, secret), `failure ${i + 1} is answered false, not throttled`);
  }
}

/** Asserts `answer` is the throttled error of `variant` and returns its Retry-After in seconds. */
function assertThrottled(t: ExecutionContext, variant: Variant, answer: Answer, secret: string, maxSeconds: number): number {
  const retryAfter = answer.headers.get('retry-after');
  t.truthy(retryAfter, 'a Retry-After header');
  t.regex(retryAfter ?? '', /^[0-9]+$/, 'Retry-After is delay-seconds');
  const seconds = Number(retryAfter);
  t.true(seconds >= 1 && seconds <= maxSeconds, `Retry-After ${seconds} is within 1…${maxSeconds}`);
  t.false(answer.body.includes(secret), 'the answer does not repeat the secret');
  if (isSoap(variant)) {
    const version = versionOf(variant);
    t.is(answer.status, 500, 'a SOAP fault is sent with HTTP 500');
    t.is(answer.contentType.split(';')[0], version === '1.1' ? 'text/xml' : 'application/soap+xml');
    const fault = readFault(answer.body, version);
    t.is(fault.codeLocalName, CLIENT_CODE[version], `the fault code is soap:${CLIENT_CODE[version]}`);
    t.is(fault.codeNamespace, version === '1.1' ? SOAP11_NS : SOAP12_NS, 'the fault code is in the envelope namespace');
    t.regex(fault.reason, /too many failed|throttl/i, 'the faultstring says the secret is throttled');
    t.false(fault.reason.includes(secret), 'the faultstring does not contain the secret');
  } else {
    t.is(answer.status, 429);
    t.is(answer.contentType.split(';')[0], 'text/plain');
    const lines = answer.body.split('\n').filter((l) => l !== '');
    t.is(lines.length, 1, 'one line of text');
    t.regex(answer.body, /too many failed|throttl/i);
  }
  return seconds;
}

test('the defaults: 5 failures within 300 seconds', (t) => {
  return startTestService().then(async (s) => {
    t.teardown(() => s.close());
    t.is(s.config.throttleAttempts, 5);
    t.is(s.config.throttleWindowSeconds, 300);
  });
});

const fiveFailuresThenRightPin = test.macro({
  async exec(t, variant: Variant) {
    const service = await serviceFor(t);
    const secret = `throttle-five-${variant}-secret`;
    await fail(t, service, variant, secret, 5);
    const right = pinFor(service, secret);
    const retryAfter = assertThrottled(t, variant, await validatePin(service.url, variant, right, secret), secret, 300);
    // Every further call stays refused, whatever the variant.
    for (const other of VARIANTS) assertThrottled(t, other, await validatePin(service.url, other, right, secret), secret, 300);

    // One second before the window ends: still throttled.
    service.clock.set(FIXED_NOW + (retryAfter - 1) * 1000);
    assertThrottled(t, variant, await validatePin(service.url, variant, pinFor(service, secret), secret), secret, 300);

    // After Retry-After seconds the window has passed: the right PIN is true again.
    service.clock.set(FIXED_NOW + retryAfter * 1000);
    t.true(await validatePinResult(service.url, variant, pinFor(service, secret), secret), 'accepted once the window has passed');
  },
  title: (_, variant) => `${variant}: 5 wrong PINs, then the right PIN → throttled with Retry-After; true again after the window`,
});

for (const variant of VARIANTS) test(fiveFailuresThenRightPin, variant);

test('after the default 5-minute window (clock + 301 s) the right PIN is true again', async (t) => {
  const service = await serviceFor(t);
  const secret = 'throttle-recovery-secret';
  await fail(t, service, 'httpGet', secret, 5);
  assertThrottled(t, 'httpGet', await validatePin(service.url, 'httpGet', pinFor(service, secret), secret), secret, 300);
  service.clock.set(FIXED_NOW + 301_000);
  t.true(await validatePinResult(service.url, 'httpGet', pinFor(service, secret), secret));
  // And the count started afresh: 4 failures now are not enough to throttle.
  await fail(t, service, 'httpGet', secret, 4);
  t.true(await validatePinResult(service.url, 'httpGet', pinFor(service, secret, 1), secret));
});

test('a success before the limit resets the count: 4 failures, a success, 4 failures → not throttled', async (t) => {
  const service = await serviceFor(t);
  const secret = 'throttle-reset-secret';
  await fail(t, service, 'soap11', secret, 4);
  t.true(await validatePinResult(service.url, 'soap11', pinFor(service, secret, 0), secret), 'success after 4 failures');
  await fail(t, service, 'soap11', secret, 4);
  // Without the reset this would be call 10 in the window, far over the limit.
  t.true(await validatePinResult(service.url, 'soap11', pinFor(service, secret, 1), secret), 'the next step’s PIN is still accepted');
});

test('without a success the count goes on: 4 failures, a replayed PIN (a failure), then the right PIN → throttled', async (t) => {
  const service = await serviceFor(t);
  const secret = 'throttle-replay-counts-secret';
  t.true(await validatePinResult(service.url, 'soap12', pinFor(service, secret), secret));
  await fail(t, service, 'soap12', secret, 4);
  t.false(await validatePinResult(service.url, 'soap12', pinFor(service, secret), secret), 'the replay is false (failure 5)');
  assertThrottled(t, 'soap12', await validatePin(service.url, 'soap12', pinFor(service, secret, 1), secret), secret, 300);
});

test('throttling is per secret: a throttled secret leaves another secret alone', async (t) => {
  const service = await serviceFor(t);
  const throttled = 'throttle-per-secret-A-secret';
  const other = 'throttle-per-secret-B-secret';
  await fail(t, service, 'httpPost', throttled, 5);
  assertThrottled(t, 'httpPost', await validatePin(service.url, 'httpPost', pinFor(service, throttled), throttled), throttled, 300);
  t.true(await validatePinResult(service.url, 'httpPost', pinFor(service, other), other), 'the other secret’s right PIN is true');
  await fail(t, service, 'httpPost', other, 4);
  t.true(
    await validatePinResult(service.url, 'httpPost', pinFor(service, other, 1), other),
    'and 4 failures of its own do not throttle it',
  );
  assertThrottled(t, 'httpPost', await validatePin(service.url, 'httpPost', pinFor(service, throttled), throttled), throttled, 300);
});

test('throttleAttempts 0 turns throttling off: 50 failures, then the right PIN is true', async (t) => {
  const service = await serviceFor(t, { throttleAttempts: 0 });
  const secret = 'throttle-off-secret';
  const wrong = wrongPinFor(service, secret);
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => validatePinResult(service.url, VARIANTS[i % VARIANTS.length], wrong, secret)),
  );
  t.deepEqual(results, Array(50).fill(false));
  for (const variant of VARIANTS) {
    const answer = await validatePin(service.url, variant, wrong, secret);
    t.is(answer.status, 200, `${variant}: not throttled`);
    t.is(answer.headers.get('retry-after'), null);
  }
  t.true(await validatePinResult(service.url, 'soap11', pinFor(service, secret), secret));
});

test('custom throttleAttempts 2 and throttleWindowSeconds 60 are honoured', async (t) => {
  const service = await serviceFor(t, { throttleAttempts: 2, throttleWindowSeconds: 60 });
  const secret = 'throttle-custom-secret';
  await fail(t, service, 'httpGet', secret, 2);
  const retryAfter = assertThrottled(t, 'httpGet', await validatePin(service.url, 'httpGet', pinFor(service, secret), secret), secret, 60);
  t.is(retryAfter, 60, 'the clock has not moved: the whole 60 s window is left');
  assertThrottled(t, 'soap11', await validatePin(service.url, 'soap11', pinFor(service, secret), secret), secret, 60);
  service.clock.set(FIXED_NOW + 30_000);
  const later = assertThrottled(t, 'httpPost', await validatePin(service.url, 'httpPost', pinFor(service, secret), secret), secret, 60);
  t.is(later, 30, 'Retry-After counts down with the clock');
  service.clock.set(FIXED_NOW + 61_000);
  t.true(await validatePinResult(service.url, 'httpGet', pinFor(service, secret), secret));
});

test('custom limit: 1 failure, a success, 1 failure → not throttled with throttleAttempts 2', async (t) => {
  const service = await serviceFor(t, { throttleAttempts: 2, throttleWindowSeconds: 60 });
  const secret = 'throttle-custom-reset-secret';
  await fail(t, service, 'soap12', secret, 1);
  t.true(await validatePinResult(service.url, 'soap12', pinFor(service, secret, 0), secret));
  await fail(t, service, 'soap12', secret, 1);
  t.true(await validatePinResult(service.url, 'soap12', pinFor(service, secret, 1), secret));
});

test('concurrent failures never let more than the limit through: of 20 racing wrong PINs, exactly 5 are answered false', async (t) => {
  const service = await serviceFor(t);
  const secret = 'throttle-race-secret';
  const wrong = wrongPinFor(service, secret);
  const answers = await Promise.all(Array.from({ length: 20 }, () => validatePin(service.url, 'httpGet', wrong, secret)));
  t.is(answers.filter((a) => a.status === 200).length, 5, 'five PINs were checked');
  t.is(answers.filter((a) => a.status === 429).length, 15, 'the rest were throttled');
});
