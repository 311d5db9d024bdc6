/**
 * The embedded state store (src/state/memory-store.ts) and the keyed hash
 * that names its entries (src/state/keyed-hash.ts), with an injected clock;
 * and the store's bound seen through the running service.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { MemoryStore } from '../src/state/memory-store';
import { createStateKeyHasher } from '../src/state/keyed-hash';
import { startTestService } from './support/service';
import { validatePin } from './support/requests';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms), set: (ms: number) => void (now = ms) };
}

// acceptStep: replay protection.

test('acceptStep: the first step of a key is accepted', async (t) => {
  const store = new MemoryStore(100, clock().now);
  t.true(await store.acceptStep('k', 1000, 60_000));
});

test('acceptStep: a higher step is accepted, the same or a lower one refused', async (t) => {
  const store = new MemoryStore(100, clock().now);
  t.true(await store.acceptStep('k', 1000, 60_000));
  t.false(await store.acceptStep('k', 1000, 60_000), 'the same step');
  t.false(await store.acceptStep('k', 999, 60_000), 'a lower step');
  t.true(await store.acceptStep('k', 1001, 60_000), 'a higher step');
  t.false(await store.acceptStep('k', 1000, 60_000), 'the step accepted before it, now lower than the last');
  t.false(await store.acceptStep('k', 1001, 60_000));
  t.true(await store.acceptStep('k', 1005, 60_000), 'a step several ahead');
});

test('acceptStep: keys are independent', async (t) => {
  const store = new MemoryStore(100, clock().now);
  t.true(await store.acceptStep('a', 1000, 60_000));
  t.true(await store.acceptStep('b', 1000, 60_000));
  t.true(await store.acceptStep('c', 10, 60_000), 'a low step of another key');
  t.false(await store.acceptStep('a', 1000, 60_000));
});

test('acceptStep: the record expires after its ttl (injected clock)', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  t.true(await store.acceptStep('k', 1000, 60_000));
  c.advance(59_999);
  t.false(await store.acceptStep('k', 1000, 60_000), 'still remembered 1 ms before the ttl ends');
  c.advance(1);
  t.true(await store.acceptStep('k', 1000, 60_000), 'forgotten once the ttl has passed');
  t.false(await store.acceptStep('k', 1000, 60_000), 'and remembered afresh');
});

test('acceptStep: a later acceptance starts a new ttl', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  t.true(await store.acceptStep('k', 1000, 60_000));
  c.advance(50_000);
  t.true(await store.acceptStep('k', 1001, 60_000));
  c.advance(50_000); // 100 s after the first, 50 s after the second
  t.false(await store.acceptStep('k', 1001, 60_000), 'the second record is still alive');
});

test('acceptStep: concurrent acceptances of one step → exactly one true', async (t) => {
  const store = new MemoryStore(100, clock().now);
  const results = await Promise.all(Array.from({ length: 20 }, () => store.acceptStep('k', 7, 60_000)));
  t.is(results.filter((r) => r).length, 1);
});

// countAttempt / clearAttempts: throttling.

test('countAttempt: attempts increment within a window, resetInMs counts down', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  t.deepEqual(await store.countAttempt('k', 300_000), { attempts: 1, resetInMs: 300_000 });
  c.advance(1_000);
  t.deepEqual(await store.countAttempt('k', 300_000), { attempts: 2, resetInMs: 299_000 });
  c.advance(100_000);
  t.deepEqual(await store.countAttempt('k', 300_000), { attempts: 3, resetInMs: 199_000 });
  c.advance(198_999);
  t.deepEqual(await store.countAttempt('k', 300_000), { attempts: 4, resetInMs: 1 }, 'the window starts at the first attempt; later ones do not extend it');
});

test('countAttempt: a new window starts after the old one expires', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  for (let i = 1; i <= 5; i++) t.is((await store.countAttempt('k', 60_000)).attempts, i);
  c.advance(60_000);
  t.deepEqual(await store.countAttempt('k', 60_000), { attempts: 1, resetInMs: 60_000 }, 'a fresh window');
  c.advance(10_000);
  t.deepEqual(await store.countAttempt('k', 60_000), { attempts: 2, resetInMs: 50_000 });
});

test('countAttempt: keys are counted separately', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await store.countAttempt('a', 60_000);
  await store.countAttempt('a', 60_000);
  t.is((await store.countAttempt('b', 60_000)).attempts, 1);
  t.is((await store.countAttempt('a', 60_000)).attempts, 3);
});

test('countAttempt and acceptStep of one key do not share an entry', async (t) => {
  const store = new MemoryStore(100, clock().now);
  t.true(await store.acceptStep('k', 5, 60_000));
  t.is((await store.countAttempt('k', 60_000)).attempts, 1, 'the accepted step is not an attempt count');
  t.is((await store.countAttempt('k', 60_000)).attempts, 2);
  t.false(await store.acceptStep('k', 2, 60_000), 'the attempt count is not an accepted step');
  t.true(await store.acceptStep('k', 6, 60_000));
});

test('clearAttempts: the next attempt starts a new window at 1', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  await store.countAttempt('k', 60_000);
  await store.countAttempt('k', 60_000);
  c.advance(30_000);
  await store.clearAttempts('k');
  t.deepEqual(await store.countAttempt('k', 60_000), { attempts: 1, resetInMs: 60_000 });
});

test('clearAttempts: leaves other keys and the accepted step alone', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await store.countAttempt('a', 60_000);
  await store.countAttempt('b', 60_000);
  t.true(await store.acceptStep('a', 9, 60_000));
  await store.clearAttempts('a');
  await store.clearAttempts('never-seen'); // clearing what is not there is harmless
  t.is((await store.countAttempt('b', 60_000)).attempts, 2);
  t.false(await store.acceptStep('a', 9, 60_000), 'the accepted step survives clearing the attempts');
});

test('ping resolves; close empties the store', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await t.notThrowsAsync(store.ping());
  await store.acceptStep('a', 1, 60_000);
  await store.countAttempt('a', 60_000);
  t.is(store.size, 2);
  await store.close();
  t.is(store.size, 0);
});

// The bound.

test('bound: 10 000 distinct keys into a store of 1 000 → the size never exceeds 1 000, and the most recent are kept', async (t) => {
  const store = new MemoryStore(1000, clock().now);
  let largest = 0;
  for (let i = 0; i < 10_000; i++) {
    t.true(await store.acceptStep(`key-${i}`, 1, 600_000));
    largest = Math.max(largest, store.size);
  }
  t.is(largest, 1000, 'the size reached its limit and never went past it');
  t.is(store.size, 1000);
  // Refusing a step that is already recorded writes nothing, so checking does not disturb the store.
  const kept = [];
  for (let i = 9_000; i < 10_000; i++) kept.push(await store.acceptStep(`key-${i}`, 1, 600_000));
  t.true(
    kept.every((accepted) => accepted === false),
    'every one of the 1 000 most recent keys is still remembered',
  );
  t.is(store.size, 1000);
  // The oldest keys were evicted: their step is accepted as if new.
  t.true(await store.acceptStep('key-0', 1, 600_000), 'the oldest key was evicted');
  t.true(await store.acceptStep('key-8999', 1, 600_000), 'the newest evicted key too');
  t.true(store.size <= 1000);
});

test('bound: a write refreshes an entry (least recently written goes first)', async (t) => {
  const store = new MemoryStore(3, clock().now);
  await store.countAttempt('a', 60_000);
  await store.countAttempt('b', 60_000);
  await store.countAttempt('c', 60_000);
  await store.countAttempt('a', 60_000); // a is now the most recently written
  await store.countAttempt('d', 60_000); // evicts b, the least recently written
  t.is(store.size, 3);
  t.is((await store.countAttempt('a', 60_000)).attempts, 3, 'a was kept');
  t.is((await store.countAttempt('b', 60_000)).attempts, 1, 'b was evicted and starts again');
});

test('bound: expired entries are dropped when read', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  await store.countAttempt('a', 1_000);
  t.is(store.size, 1);
  c.advance(1_000);
  t.is((await store.countAttempt('a', 1_000)).attempts, 1);
  t.is(store.size, 1);
});

test('bound through the service: storeMaxEntries 100 and 1 000 ValidatePin calls with distinct secrets → at most 100 entries', async (t) => {
  const service = await startTestService({ storeMaxEntries: 100 });
  t.teardown(() => service.close());
  const store = service.store;
  t.true(store instanceof MemoryStore, 'the default store is the embedded memory store');
  if (!(store instanceof MemoryStore)) return;
  let largest = 0;
  for (let batch = 0; batch < 20; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => validatePin(service.url, 'httpGet', '000000', `store-flood-secret-${batch * 50 + i}`)),
    );
    t.true(
      answers.every((a) => a.status === 200),
      'every call is answered',
    );
    largest = Math.max(largest, store.size);
    t.true(store.size <= 100, `after ${(batch + 1) * 50} calls the store holds ${store.size} entries`);
  }
  t.is(largest, 100, 'the flood filled the store to its limit, not past it');
});

// The keyed hash.

const STATE_KEY = 'a-state-key-of-at-least-32-characters!';
const SECRET = Buffer.from('KeyedHashSecretValue42', 'utf8');

test('keyed hash: the same state key and secret → the same id (also from another hasher)', (t) => {
  const a = createStateKeyHasher(STATE_KEY);
  const b = createStateKeyHasher(STATE_KEY);
  t.is(a(SECRET), a(SECRET));
  t.is(a(SECRET), b(SECRET), 'processes sharing a state key name the same entry');
});

test('keyed hash: different state keys → different ids', (t) => {
  const a = createStateKeyHasher(STATE_KEY);
  const b = createStateKeyHasher(`${STATE_KEY}-other`);
  t.not(a(SECRET), b(SECRET));
});

test('keyed hash: without a state key each hasher has its own random key', (t) => {
  t.not(createStateKeyHasher(undefined)(SECRET), createStateKeyHasher(undefined)(SECRET));
  const one = createStateKeyHasher(undefined);
  t.is(one(SECRET), one(SECRET), 'but is stable within one hasher');
});

test('keyed hash: different secrets → different ids', (t) => {
  const hash = createStateKeyHasher(STATE_KEY);
  t.not(hash(SECRET), hash(Buffer.from('KeyedHashSecretValue43', 'utf8')));
});

test('keyed hash: the id gives the secret away in no encoding', (t) => {
  const hash = createStateKeyHasher(STATE_KEY);
  const id = hash(SECRET);
  t.true(id.length >= 43, 'a full 256-bit value');
  for (const encoding of ['utf8', 'hex', 'base64', 'base64url'] as const) {
    t.false(id.includes(SECRET.toString(encoding)), encoding);
    t.false(id.toLowerCase().includes(SECRET.toString(encoding).toLowerCase()), `${encoding}, any case`);
  }
  // Nor a plain (unkeyed) hash of it.
  const plain = createHash('sha256').update(SECRET).digest('base64url');
  t.not(id, plain);
});

// The store against a plain model of its promise: a Map in write order, the oldest evicted.

class ModelStore {
  private readonly entries = new Map<string, { value: number; expiresAt: number }>();
  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {}
  get size() {
    return this.entries.size;
  }
  private read(id: string) {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }
  private write(id: string, value: number, expiresAt: number) {
    if (this.entries.has(id)) this.entries.delete(id);
    else if (this.entries.size === this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, { value, expiresAt });
  }
  acceptStep(key: string, step: number, ttlMs: number) {
    const last = this.read(`step:${key}`);
    if (last && last.value >= step) return false;
    this.write(`step:${key}`, step, this.now() + ttlMs);
    return true;
  }
  countAttempt(key: string, windowMs: number) {
    const current = this.read(`attempts:${key}`);
    const next = current ? { value: current.value + 1, expiresAt: current.expiresAt } : { value: 1, expiresAt: this.now() + windowMs };
    this.write(`attempts:${key}`, next.value, next.expiresAt);
    return { attempts: next.value, resetInMs: next.expiresAt - this.now() };
  }
  clearAttempts(key: string) {
    this.entries.delete(`attempts:${key}`);
  }
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed from its seed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

for (const [max, keyCount, seed] of [
  [1, 3, 1],
  [3, 8, 2],
  [64, 200, 3],
  [2000, 5000, 4],
  [5000, 4000, 5],
] as const) {
  test(`the store answers as the model does: 60 000 random operations, bound ${max}, ${keyCount} keys`, async (t) => {
    const next = random(seed);
    const c = clock();
    const store = new MemoryStore(max, c.now);
    const model = new ModelStore(max, c.now);
    const hash = createStateKeyHasher(STATE_KEY);
    // Real keyed hashes and short keys of every length, which share table runs.
    const keys = Array.from({ length: keyCount }, (_, i) => (i % 2 ? hash(Buffer.from(`s${i}`)) : i.toString(36)));
    let mismatches = 0;
    for (let op = 0; op < 60_000 && mismatches === 0; op++) {
      const key = keys[Math.floor(next() * keyCount)];
      const choice = next();
      let ours: unknown;
      let theirs: unknown;
      if (choice < 0.4) {
        const step = Math.floor(next() * 6);
        [ours, theirs] = [await store.acceptStep(key, step, 1_000), model.acceptStep(key, step, 1_000)];
      } else if (choice < 0.85) {
        [ours, theirs] = [await store.countAttempt(key, 2_000), model.countAttempt(key, 2_000)];
      } else {
        [ours, theirs] = [await store.clearAttempts(key), model.clearAttempts(key)];
      }
      if (JSON.stringify(ours) !== JSON.stringify(theirs) || store.size !== model.size) {
        mismatches++;
        t.fail(`operation ${op} on ${key}: ${JSON.stringify(ours)} (size ${store.size}) against ${JSON.stringify(theirs)} (size ${model.size})`);
      }
      c.advance(Math.floor(next() * 3));
    }
    t.is(mismatches, 0);
    t.true(store.size <= max);
  });
}

test('a key that is not 1 to 45 base64url characters is refused with a TypeError, and the store is left as it was', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await store.acceptStep('a', 1, 60_000);
  for (const key of ['', 'a'.repeat(46), 'a:b', 'a=', 'ä', '😀']) {
    await t.throwsAsync(store.acceptStep(key, 1, 60_000), { instanceOf: TypeError }, JSON.stringify(key));
    await t.throwsAsync(store.countAttempt(key, 60_000), { instanceOf: TypeError });
  }
  t.is(store.size, 1);
  t.true(await store.acceptStep('a'.repeat(45), 1, 60_000), 'the longest key');
  t.false(await store.acceptStep('a', 1, 60_000));
  t.true(await store.acceptStep('aA', 1, 60_000), 'a trailing A (zero bits) is another key');
  t.true(await store.acceptStep('aAA', 1, 60_000));
});
