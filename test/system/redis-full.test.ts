/**
 * A real Redis that runs out of memory: with `maxmemory-policy noeviction`
 * a write fails, so ValidatePin fails closed and recovers once there is room;
 * with a policy that would evict records, /readyz and the start-up log say so.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { startRedis, type TestRedis } from '../support/redis';
import { pinFor, validatePin, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

let redis: TestRedis;
let service: TestService;

function redisCli(...args: string[]): string {
  const run = spawnSync('redis-cli', ['-p', String(redis.port), ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

const usedMemory = () => Number(/^used_memory:(\d+)/m.exec(redisCli('info', 'memory'))?.[1]);

test.before(async () => {
  redis = await startRedis();
  redisCli('config', 'set', 'maxmemory-policy', 'noeviction');
  service = await startTestService({ store: redis.url, stateKey: 'redis-full-test-state-key-0123456789abcdef' });
});

test.after.always(async () => {
  await service?.close({ idleGraceMs: 0 });
  await redis?.stop();
});

test.serial(
  'noeviction and a full Redis: ValidatePin fails closed (503, SOAP Server fault) and is answered again once there is room',
  async (t) => {
    t.is(await (await fetch(`${service.url}/readyz`)).text(), 'ready\n', 'noeviction: nothing to warn of');
    const accepted = 'redis-full-accepted-secret';
    // Sent again as it was, not worked out again: a step may begin during the flood.
    const acceptedPin = pinFor(service, accepted);
    t.is((await validatePin(service, 'httpGet', acceptedPin, accepted)).status, 200);

    redisCli('config', 'set', 'maxmemory', String(usedMemory() + 256 * 1024));
    let failedAt = -1;
    for (let i = 0; i < 50_000 && failedAt < 0; i++) {
      const secret = `redis-full-made-up-${i}`;
      const answer = await validatePin(service, 'httpGet', wrongPinFor(service, secret), secret);
      if (answer.status === 503) failedAt = i;
      else t.is(answer.status, 200);
    }
    t.true(failedAt > 0, 'the flood filled Redis to its maxmemory');
    t.log(`Redis refused writes after ${failedAt} new secrets`);

    const secret = 'redis-full-new-secret';
    t.is(
      (await validatePin(service, 'httpGet', pinFor(service, secret), secret)).status,
      503,
      'a right PIN is not accepted without its record',
    );
    const soap = await validatePin(service, 'soap11', pinFor(service, secret), secret);
    t.is(soap.status, 500);
    t.true(soap.body.includes('<faultcode>soap:Server</faultcode>'));
    // Nothing was evicted: the earlier replay record is still there.
    t.is(Number(redisCli('info', 'stats').match(/^evicted_keys:(\d+)/m)?.[1]), 0);

    redisCli('config', 'set', 'maxmemory', '0');
    const back = await validatePin(service, 'httpGet', pinFor(service, secret), secret);
    t.is(back.status, 200);
    t.regex(back.body, />true</);
    t.regex((await validatePin(service, 'httpGet', acceptedPin, accepted)).body, />false</, 'the replay record survived');
  },
);

test.serial('a maxmemory-policy that evicts: /readyz stays 200 and says so, and the service warns at start-up', async (t) => {
  redisCli('config', 'set', 'maxmemory-policy', 'volatile-lru');
  try {
    const ready = await fetch(`${service.url}/readyz`);
    t.is(ready.status, 200);
    t.regex(await ready.text(), /^ready\nwarning: the Redis server's maxmemory-policy is volatile-lru: .*noeviction\n$/);
    const other = await startTestService({ store: redis.url, stateKey: 'redis-full-test-state-key-0123456789abcdef' });
    try {
      const warning = other
        .logs()
        .split('\n')
        .find((line) => line.includes('"event":"store-warning"'));
      t.truthy(warning, 'a start-up warning');
      const line = JSON.parse(warning!);
      t.is(line.level, 40);
      t.regex(line.msg, /maxmemory-policy is volatile-lru: .*noeviction/);
    } finally {
      await other.close({ idleGraceMs: 0 });
    }
  } finally {
    redisCli('config', 'set', 'maxmemory-policy', 'noeviction');
  }
  t.is(await (await fetch(`${service.url}/readyz`)).text(), 'ready\n');
});
