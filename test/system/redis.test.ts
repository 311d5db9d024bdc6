/**
 * Several instances sharing a real Redis: replay protection and throttling
 * hold across them, a lost Redis makes ValidatePin fail closed and /readyz
 * not ready, and both recover by themselves when Redis comes back.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRedis, type TestRedis } from '../support/redis';
import { call, pinFor, validatePin } from '../support/requests';
import type { TestService } from '../support/service';
import { isTrue, SHARED_STATE_KEY as STATE_KEY, sharedStoreConformance, startInstancePair, validate } from '../support/store-conformance';
import { sigtermWithStdout } from '../support/stdout-shutdown';

let redis: TestRedis;
let a: TestService;
let b: TestService;

test.before(async () => {
  redis = await startRedis();
  ({ a, b } = await startInstancePair(redis.url));
});

test.after.always(async () => {
  await a?.close();
  await b?.close();
  await redis?.stop();
});

// The subset every topology passes (test/support/store-conformance.ts); Sentinel and Cluster: redis-sentinel, redis-cluster.
sharedStoreConformance(() => ({ store: redis.url, a, b }), 'redis');

test.serial('Redis stopped: ValidatePin fails closed and /readyz is not ready; Redis back: both recover', async (t) => {
  const secret = 'redis-outage-secret-1';
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

test.serial('Redis that stops answering: ValidatePin fails closed after --store-timeout, and its error line says so', async (t) => {
  const secret = 'redis-paused-secret-1';
  // The server holds every command for 2 s (CLIENT PAUSE): the connection stays up, nothing is answered.
  const paused = spawnSync('redis-cli', ['-p', String(redis.port), 'CLIENT', 'PAUSE', '2000', 'ALL'], { encoding: 'utf8' });
  t.is(paused.stdout.trim(), 'OK', paused.stderr);
  const answer = await validate(a, secret, pinFor(a, secret));
  t.is(answer.status, 503);
  t.regex(
    a.logs(),
    new RegExp(`"kind":"unavailable","cause":"the Redis store did not answer within ${a.config.storeTimeoutMs} ms \\(--store-timeout\\)"`),
  );
  t.false(a.logs().includes(secret));
  await sleep(1500);
});

// With the Redis store, a closed stdout kept the service alive after SIGTERM 2 times in 6 (issue 10).
test.serial(
  'with the Redis store, stdout a closed pipe: SIGTERM under load ends the service with exit 0 within the grace period',
  async (t) => {
    await sigtermWithStdout(t, 'closed', ['--store', redis.url, '--state-key', STATE_KEY]);
  },
);

test.serial(
  'with the Redis store, stdout a pipe nobody reads: SIGTERM under load ends the service with exit 0 within the grace period',
  async (t) => {
    await sigtermWithStdout(t, 'unread', ['--store', redis.url, '--state-key', STATE_KEY]);
  },
);
