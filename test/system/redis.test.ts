/**
 * Several instances sharing a real Redis: replay protection and throttling
 * hold across them, a lost Redis makes ValidatePin fail closed and /readyz
 * not ready, and both recover by themselves when Redis comes back.
 */
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedis, type TestRedis } from '../support/redis';
import { call, pinFor, validatePin } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { sigtermWithStdout } from '../support/stdout-shutdown';

const STATE_KEY = 'a-state-key-shared-by-every-instance-0123456789';
let redis: TestRedis;
let a: TestService;
let b: TestService;

test.before(async () => {
  redis = await startRedis();
  a = await startTestService({ store: redis.url, stateKey: STATE_KEY });
  b = await startTestService({ store: redis.url, stateKey: STATE_KEY });
  b.clock.set(a.clock.now());
});

test.after.always(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});

async function validate(service: TestService, secret: string, pin: string) {
  const answer = await validatePin(service, 'httpGet', pin, secret);
  return { ...answer, retryAfter: answer.headers.get('retry-after') };
}

const isTrue = (body: string) => body.includes('>true</boolean>');

test.serial('a PIN accepted through one instance is refused through the other', async (t) => {
  const secret = 'shared-replay-secret-1';
  const pin = pinFor(a, secret);
  t.true(isTrue((await validate(a, secret, pin)).body));
  const second = await validate(b, secret, pin);
  t.is(second.status, 200);
  t.false(isTrue(second.body));
});

test.serial('parallel calls with one valid PIN across both instances: exactly one true', async (t) => {
  const secret = 'shared-replay-secret-2';
  const pin = pinFor(a, secret);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => validate(i % 2 ? a : b, secret, pin)));
  // Every call counts against the throttle before its PIN is checked, so the later ones may be throttled.
  t.true(answers.every((x) => x.status === 200 || x.status === 429));
  t.is(answers.filter((x) => isTrue(x.body)).length, 1);
});

test.serial('throttling counts failures made through both instances', async (t) => {
  const secret = 'shared-throttle-secret-1';
  for (let i = 0; i < 5; i++) {
    const answer = await validate(i % 2 ? a : b, secret, '000000');
    t.is(answer.status, 200);
  }
  const throttled = await validate(a, secret, pinFor(a, secret));
  t.is(throttled.status, 429);
  t.truthy(throttled.retryAfter && Number(throttled.retryAfter) > 0 && Number(throttled.retryAfter) <= 300);
  t.is((await validate(b, secret, pinFor(b, secret))).status, 429);
});

test.serial('instances with different state keys share nothing (why several instances need one key)', async (t) => {
  const other = await startTestService({ store: redis.url, stateKey: 'another-state-key-0123456789-0123456789' });
  try {
    other.clock.set(a.clock.now());
    const secret = 'shared-replay-secret-3';
    const pin = pinFor(a, secret);
    t.true(isTrue((await validate(a, secret, pin)).body));
    t.true(isTrue((await validate(other, secret, pin)).body));
  } finally {
    await other.close();
  }
});

test.serial('Redis stopped: ValidatePin fails closed and /readyz is not ready; Redis back: both recover', async (t) => {
  const secret = 'shared-outage-secret-1';
  t.is((await fetch(`${a.url}/readyz`)).status, 200);
  await redis.stop();

  const down = await validate(a, secret, pinFor(a, secret));
  t.is(down.status, 503);
  t.false(isTrue(down.body));
  t.false(down.body.includes(secret));
  const soap = await validatePin(a, 'soap11', pinFor(a, secret), secret);
  const fault = soap.body;
  t.is(soap.status, 500);
  t.true(fault.includes('<faultcode>soap:Server</faultcode>'));
  t.is((await fetch(`${a.url}/readyz`)).status, 503);
  // Pair needs no state and keeps working.
  const pair = await call(a, 'httpGet', 'Pair', { appName: 'X', appInfo: 'y', secretCode: secret });
  t.is(pair.status, 200);

  await redis.start();
  let ready = 503;
  for (let i = 0; i < 100 && ready !== 200; i++) {
    await sleep(100);
    ready = (await fetch(`${a.url}/readyz`)).status;
  }
  t.is(ready, 200);
  const back = await validate(a, secret, pinFor(a, secret));
  t.is(back.status, 200);
  t.true(isTrue(back.body));
});

// With the Redis store, a closed stdout kept the service alive after SIGTERM 2 times in 6 (issue 10).
test.serial('with the Redis store, stdout a closed pipe: SIGTERM under load ends the service with exit 0 within the grace period', async (t) => {
  await sigtermWithStdout(t, 'closed', ['--store', redis.url, '--state-key', STATE_KEY]);
});

test.serial('with the Redis store, stdout a pipe nobody reads: SIGTERM under load ends the service with exit 0 within the grace period', async (t) => {
  await sigtermWithStdout(t, 'unread', ['--store', redis.url, '--state-key', STATE_KEY]);
});
