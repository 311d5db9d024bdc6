/**
 * What several instances sharing one Redis store must do, whatever the
 * topology behind the URL (one server, Sentinel, Cluster): the same tests,
 * registered by each suite (test/system/redis*.test.ts) with its own store.
 *
 * - a PIN accepted through one instance is refused through the other;
 * - of parallel calls with one valid PIN across both, exactly one is true;
 * - throttling counts failures made through both;
 * - an operator finds a locked secret by its fingerprint through one, and
 *   unlocks it: the other accepts its next right PIN;
 * - instances with different state keys share nothing.
 */
import test from 'ava';
import { createStateKeyHasher, fingerprintOf, keyPrefixOf } from '../../src/service/state/keyed-hash';
import { pinFor, validatePin } from './requests';
import { startTestService, type TestService } from './service';

export const SHARED_STATE_KEY = 'a-state-key-shared-by-every-instance-0123456789';

export interface SharedStore {
  /** The --store URL. */
  store: string;
  /** Two in-process instances on that store with SHARED_STATE_KEY and one clock. */
  a: TestService;
  b: TestService;
}

/** Two in-process instances sharing `store`, their clocks set alike. */
export async function startInstancePair(
  store: string,
  settings: Partial<TestService['config']> = {},
): Promise<{ a: TestService; b: TestService }> {
  const a = await startTestService({ store, stateKey: SHARED_STATE_KEY, ...settings });
  const b = await startTestService({ store, stateKey: SHARED_STATE_KEY, ...settings });
  b.clock.set(a.clock.now());
  return { a, b };
}

export async function validate(service: TestService, secret: string, pin: string) {
  const answer = await validatePin(service, 'httpGet', pin, secret);
  return { ...answer, retryAfter: answer.headers.get('retry-after') };
}

export const isTrue = (body: string) => body.includes('>true</boolean>');

/**
 * Registers the shared tests (serial) on the store `shared()` answers once
 * the suite's `before` has run. `secretPrefix` keeps each suite's secrets
 * apart from any other state on the same servers.
 */
export function sharedStoreConformance(shared: () => SharedStore, secretPrefix: string): void {
  test.serial('a PIN accepted through one instance is refused through the other', async (t) => {
    const { a, b } = shared();
    const secret = `${secretPrefix}-replay-secret-1`;
    const pin = pinFor(a, secret);
    t.true(isTrue((await validate(a, secret, pin)).body));
    const second = await validate(b, secret, pin);
    t.is(second.status, 200);
    t.false(isTrue(second.body));
  });

  test.serial('parallel calls with one valid PIN across both instances: exactly one true', async (t) => {
    const { a, b } = shared();
    const secret = `${secretPrefix}-replay-secret-2`;
    const pin = pinFor(a, secret);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => validate(i % 2 ? a : b, secret, pin)));
    // Every call counts against the throttle before its PIN is checked, so the later ones may be throttled.
    t.true(answers.every((x) => x.status === 200 || x.status === 429));
    t.is(answers.filter((x) => isTrue(x.body)).length, 1);
  });

  test.serial(
    'a secret locked through both is found by its fingerprint through one and unlocked: the other accepts its right PIN',
    async (t) => {
      const { a, b } = shared();
      const secret = `${secretPrefix}-unlock-secret-1`;
      for (let i = 0; i < 6; i++) await validate(i % 2 ? a : b, secret, '000000');
      const key = createStateKeyHasher(SHARED_STATE_KEY)(Buffer.from(secret, 'utf8'));
      // What /admin/secrets/{fingerprint}/unlock does, on the store: a scan of every server (every master of a Cluster).
      t.deepEqual(await a.store.keysStartingWith(keyPrefixOf(fingerprintOf(key))), [key]);
      t.like(await a.store.inspect(key), { attempts: 6 });
      await a.store.clearAttempts(key);
      t.true(isTrue((await validate(b, secret, pinFor(b, secret))).body));
      const after = await b.store.inspect(key);
      t.like(after, { attempts: 0, attemptsResetInMs: 0 });
      t.is(after?.lastStep, Math.floor(b.clock.now() / 30_000), 'the step just accepted');
    },
  );

  test.serial('throttling counts failures made through both instances', async (t) => {
    const { a, b } = shared();
    const secret = `${secretPrefix}-throttle-secret-1`;
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
    const { a, store } = shared();
    const other = await startTestService({ store, stateKey: 'another-state-key-0123456789-0123456789' });
    try {
      other.clock.set(a.clock.now());
      const secret = `${secretPrefix}-replay-secret-3`;
      const pin = pinFor(a, secret);
      t.true(isTrue((await validate(a, secret, pin)).body));
      t.true(isTrue((await validate(other, secret, pin)).body));
    } finally {
      await other.close();
    }
  });
}
