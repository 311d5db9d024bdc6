/**
 * The embedded state store (src/service/state/memory-store.ts) and the keyed hash
 * that names its entries (src/service/state/keyed-hash.ts), with an injected clock;
 * and the store's bound seen through the running service.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { MemoryStore } from '../../src/service/state/memory-store';
import { StoreFullError, StoreUnavailableError, type StoreEvents, type WhenFull } from '../../src/service/state/store';
import { createStateKeyHasher, FINGERPRINT, fingerprintOf, keyPrefixOf } from '../../src/service/state/keyed-hash';
import { startTestService } from '../support/service';
import { validatePin } from '../support/requests';

/** The attempts at which a count is locked (ValidatePin's --throttle-attempts). */
const LOCK = 5;

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    set: (ms: number) => {
      now = ms;
    },
  };
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
  t.deepEqual(await store.countAttempt('k', 300_000, LOCK), { attempts: 1, resetInMs: 300_000 });
  c.advance(1_000);
  t.deepEqual(await store.countAttempt('k', 300_000, LOCK), { attempts: 2, resetInMs: 299_000 });
  c.advance(100_000);
  t.deepEqual(await store.countAttempt('k', 300_000, LOCK), { attempts: 3, resetInMs: 199_000 });
  c.advance(198_999);
  t.deepEqual(
    await store.countAttempt('k', 300_000, LOCK),
    { attempts: 4, resetInMs: 1 },
    'the window starts at the first attempt; later ones do not extend it',
  );
});

test('countAttempt: a new window starts after the old one expires', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  for (let i = 1; i <= 5; i++) t.is((await store.countAttempt('k', 60_000, LOCK)).attempts, i);
  c.advance(60_000);
  t.deepEqual(await store.countAttempt('k', 60_000, LOCK), { attempts: 1, resetInMs: 60_000 }, 'a fresh window');
  c.advance(10_000);
  t.deepEqual(await store.countAttempt('k', 60_000, LOCK), { attempts: 2, resetInMs: 50_000 });
});

test('countAttempt: keys are counted separately', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await store.countAttempt('a', 60_000, LOCK);
  await store.countAttempt('a', 60_000, LOCK);
  t.is((await store.countAttempt('b', 60_000, LOCK)).attempts, 1);
  t.is((await store.countAttempt('a', 60_000, LOCK)).attempts, 3);
});

test('countAttempt and acceptStep of one key keep their own values in its one entry', async (t) => {
  const store = new MemoryStore(100, clock().now);
  t.true(await store.acceptStep('k', 5, 60_000));
  t.is((await store.countAttempt('k', 60_000, LOCK)).attempts, 1, 'the accepted step is not an attempt count');
  t.is((await store.countAttempt('k', 60_000, LOCK)).attempts, 2);
  t.false(await store.acceptStep('k', 2, 60_000), 'the attempt count is not an accepted step');
  t.true(await store.acceptStep('k', 6, 60_000));
  t.is(store.size, 1, 'one entry per secret');
});

test('clearAttempts: the next attempt starts a new window at 1', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  await store.countAttempt('k', 60_000, LOCK);
  await store.countAttempt('k', 60_000, LOCK);
  c.advance(30_000);
  await store.clearAttempts('k');
  t.deepEqual(await store.countAttempt('k', 60_000, LOCK), { attempts: 1, resetInMs: 60_000 });
});

test('clearAttempts: leaves other keys and the accepted step alone', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await store.countAttempt('a', 60_000, LOCK);
  await store.countAttempt('b', 60_000, LOCK);
  t.true(await store.acceptStep('a', 9, 60_000));
  await store.clearAttempts('a');
  await store.clearAttempts('never-seen'); // clearing what is not there is harmless
  t.is((await store.countAttempt('b', 60_000, LOCK)).attempts, 2);
  t.false(await store.acceptStep('a', 9, 60_000), 'the accepted step survives clearing the attempts');
});

test('ping resolves; close empties the store', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await t.notThrowsAsync(store.ping());
  await store.acceptStep('a', 1, 60_000);
  await store.countAttempt('a', 60_000, LOCK);
  await store.countAttempt('b', 60_000, LOCK);
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
  await store.countAttempt('a', 60_000, LOCK);
  await store.countAttempt('b', 60_000, LOCK);
  await store.countAttempt('c', 60_000, LOCK);
  await store.countAttempt('a', 60_000, LOCK); // a is now the most recently written
  await store.countAttempt('d', 60_000, LOCK); // evicts b, the least recently written
  t.is(store.size, 3);
  t.is((await store.countAttempt('a', 60_000, LOCK)).attempts, 3, 'a was kept');
  t.is((await store.countAttempt('b', 60_000, LOCK)).attempts, 1, 'b was evicted and starts again');
});

test('bound: expired entries are dropped when read', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  await store.countAttempt('a', 1_000, LOCK);
  t.is(store.size, 1);
  c.advance(1_000);
  t.is((await store.countAttempt('a', 1_000, LOCK)).attempts, 1);
  t.is(store.size, 1);
});

// Protective records last.

test('a flood of attempt counts for made-up keys evicts only its own kind: a locked count and a replay record survive it', async (t) => {
  const c = clock();
  const { seen, events } = counting();
  const store = new MemoryStore(1000, c.now, { events });
  for (let i = 0; i < LOCK; i++) await store.countAttempt('locked', 300_000, LOCK);
  t.true(await store.acceptStep('accepted', 7, 120_000));
  for (let i = 0; i < 50_000; i++) await store.countAttempt(`made-up-${i}`, 300_000, LOCK);
  t.is(store.size, 1000);
  t.deepEqual(seen, { unprotective: 50_000 - 998, protective: 0, refused: 0 });
  t.is((await store.countAttempt('locked', 300_000, LOCK)).attempts, LOCK + 1, 'the lock held: the count went on');
  t.false(await store.acceptStep('accepted', 7, 120_000), 'the replay record held');
});

test('a count below the lock protects nobody; at the lock it does, until its window ends', async (t) => {
  const c = clock();
  const { seen, events } = counting();
  const store = new MemoryStore(2, c.now, { events });
  for (let i = 0; i < LOCK - 1; i++) await store.countAttempt('almost', 60_000, LOCK);
  await store.countAttempt('other', 60_000, LOCK);
  await store.countAttempt('new', 60_000, LOCK); // evicts the count below the lock, though it is older than none
  t.is(seen.unprotective, 1);
  t.is((await store.countAttempt('almost', 60_000, LOCK)).attempts, 1, 'the count below the lock went');
  for (let i = 1; i < LOCK; i++) await store.countAttempt('almost', 60_000, LOCK);
  await store.countAttempt('newer', 60_000, LOCK); // evicts 'new' or 'other', never the locked count
  t.is((await store.countAttempt('almost', 60_000, LOCK)).attempts, LOCK + 1, 'the locked count stayed');
  c.advance(60_000);
  t.is((await store.countAttempt('almost', 60_000, LOCK)).attempts, 1, 'the window ended: a new count, not locked');
  await store.countAttempt('newest', 60_000, LOCK);
  t.deepEqual(seen, { unprotective: 4, protective: 0, refused: 0 }, 'nothing protective was ever evicted');
});

test('evict: when only protective records are left, the one whose protection ends first goes, counted as protective', async (t) => {
  const c = clock();
  const { seen, events } = counting();
  const store = new MemoryStore(3, c.now, { whenFull: 'evict', events });
  t.true(await store.acceptStep('long', 1, 300_000));
  t.true(await store.acceptStep('short', 1, 60_000)); // written later, but protects for less time
  for (let i = 0; i < LOCK; i++) await store.countAttempt('locked', 200_000, LOCK);
  await store.countAttempt('made-up', 200_000, LOCK);
  t.deepEqual(seen, { unprotective: 0, protective: 1, refused: 0 });
  t.true(await store.acceptStep('short', 1, 60_000), 'the replay record that ended first was evicted');
  t.false(await store.acceptStep('long', 1, 300_000), 'the others stay');
  t.is((await store.countAttempt('locked', 200_000, LOCK)).attempts, LOCK + 1);
});

test('a protective record whose protection has ended is evicted as unprotective', async (t) => {
  const c = clock();
  const { seen, events } = counting();
  const store = new MemoryStore(2, c.now, { whenFull: 'refuse', events });
  t.true(await store.acceptStep('a', 1, 60_000));
  for (let i = 0; i < LOCK; i++) await store.countAttempt('b', 30_000, LOCK);
  await store.clearAttempts('a'); // a keeps its replay record; the entry stays
  t.is(store.size, 2);
  c.advance(30_000); // b's lock ended; a still protects
  await store.countAttempt('c', 60_000, LOCK);
  t.deepEqual(seen, { unprotective: 1, protective: 0, refused: 0 });
  t.false(await store.acceptStep('a', 1, 60_000), 'a kept its record');
});

test('refuse: a new key is refused (StoreFullError, a StoreUnavailableError) while held keys keep working, until expiry makes room', async (t) => {
  const c = clock();
  const { seen, events } = counting();
  const store = new MemoryStore(100, c.now, { whenFull: 'refuse', events });
  // A flood of right PINs for made-up secrets: a replay record per call.
  for (let i = 0; i < 100; i++) {
    await store.countAttempt(`made-up-${i}`, 300_000, LOCK);
    t.true(await store.acceptStep(`made-up-${i}`, 1, 120_000));
    await store.clearAttempts(`made-up-${i}`);
  }
  t.is(store.size, 100);
  const refusal = await t.throwsAsync(store.countAttempt('new', 300_000, LOCK), { instanceOf: StoreFullError });
  t.true(refusal instanceof StoreUnavailableError, 'ValidatePin fails closed on it');
  await t.throwsAsync(store.acceptStep('new', 1, 120_000), { instanceOf: StoreFullError });
  t.is(seen.refused, 2);
  t.is(store.size, 100, 'nothing was dropped');
  // A held secret: its count and its next step are written in its own entry.
  t.is((await store.countAttempt('made-up-0', 300_000, LOCK)).attempts, 1);
  t.false(await store.acceptStep('made-up-0', 1, 120_000), 'its replay record is still there');
  c.advance(1_000);
  t.true(await store.acceptStep('made-up-0', 2, 120_000));
  c.advance(119_000); // the first records expire (made-up-0's second one does not)
  t.is((await store.countAttempt('new', 300_000, LOCK)).attempts, 1, 'room again');
  t.false(await store.acceptStep('made-up-0', 2, 120_000));
  t.deepEqual(seen, { unprotective: 1, protective: 0, refused: 2 });
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

// The store against a plain model of its promise: Maps in write order, one per eviction list.

interface ModelEntry {
  step: number;
  stepEnd: number;
  attempts: number;
  attemptEnd: number;
  lockEnd: number;
}

/** Entries that protect nobody, replay records, locked counts: each a Map in write order. */
const OPEN = 0;
const REPLAY = 1;
const LOCKED = 2;

class ModelStore {
  private readonly entries = new Map<string, ModelEntry>();
  private readonly lists = [new Map<string, true>(), new Map<string, true>(), new Map<string, true>()];
  readonly seen = { unprotective: 0, protective: 0, refused: 0 };
  constructor(
    private readonly max: number,
    private readonly now: () => number,
    private readonly whenFull: WhenFull,
  ) {}
  get size() {
    return this.entries.size;
  }
  private drop(key: string) {
    this.entries.delete(key);
    for (const list of this.lists) list.delete(key);
  }
  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry && entry.stepEnd <= this.now() && entry.attemptEnd <= this.now()) {
      this.drop(key);
      return undefined;
    }
    return entry;
  }
  private place(key: string, entry: ModelEntry) {
    for (const list of this.lists) list.delete(key);
    this.lists[entry.lockEnd > this.now() ? LOCKED : entry.stepEnd > this.now() ? REPLAY : OPEN].set(key, true);
  }
  private add(key: string) {
    if (this.entries.size === this.max) this.makeRoom();
    const entry = { step: 0, stepEnd: 0, attempts: 0, attemptEnd: 0, lockEnd: 0 };
    this.entries.set(key, entry);
    return entry;
  }
  /** The oldest that protects nobody; else a lapsed one among the first 8 of each protective list; else by whenFull. */
  private makeRoom() {
    const open = this.lists[OPEN].keys().next();
    if (!open.done) {
      this.drop(open.value);
      this.seen.unprotective++;
      return;
    }
    let first: { key: string; until: number } | undefined;
    for (const list of [REPLAY, LOCKED]) {
      for (const key of [...this.lists[list].keys()].slice(0, 8)) {
        const entry = this.entries.get(key)!;
        const until = Math.max(entry.stepEnd, entry.lockEnd);
        if (until <= this.now()) {
          this.drop(key);
          this.seen.unprotective++;
          return;
        }
        if (!first || until < first.until) first = { key, until };
      }
    }
    if (this.whenFull === 'refuse') {
      this.seen.refused++;
      throw new StoreFullError('full');
    }
    this.drop(first!.key);
    this.seen.protective++;
  }
  acceptStep(key: string, step: number, ttlMs: number) {
    let entry = this.live(key);
    if (entry && entry.stepEnd > this.now() && entry.step >= step) return false;
    entry ??= this.add(key);
    entry.step = step;
    entry.stepEnd = this.now() + ttlMs;
    this.place(key, entry);
    return true;
  }
  countAttempt(key: string, windowMs: number, lockAt: number) {
    const entry = this.live(key) ?? this.add(key);
    if (entry.attemptEnd > this.now()) entry.attempts++;
    else [entry.attempts, entry.attemptEnd] = [1, this.now() + windowMs];
    entry.lockEnd = entry.attempts >= lockAt ? entry.attemptEnd : 0;
    this.place(key, entry);
    return { attempts: entry.attempts, resetInMs: entry.attemptEnd - this.now() };
  }
  clearAttempts(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    if (entry.stepEnd <= this.now()) return this.drop(key);
    entry.attempts = entry.attemptEnd = entry.lockEnd = 0;
    this.place(key, entry);
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

/** What a store told its observer. */
function counting() {
  const seen = { unprotective: 0, protective: 0, refused: 0 };
  const events: StoreEvents = {
    evicted: (protective) => void (protective ? seen.protective++ : seen.unprotective++),
    refused: () => void seen.refused++,
  };
  return { seen, events };
}

/** An answer or the error it threw, as text. */
async function outcome(run: () => unknown): Promise<string> {
  try {
    return JSON.stringify(await run());
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
}

// Each case names what it must reach: evictions of either kind, refusals (or nothing: the table growing).
for (const [max, keyCount, seed, whenFull, reaches] of [
  [1, 3, 1, 'evict', ['unprotective', 'protective']],
  [3, 8, 2, 'evict', ['unprotective', 'protective']],
  [3, 8, 12, 'refuse', ['unprotective', 'refused']],
  [64, 200, 3, 'evict', ['unprotective', 'protective']],
  [64, 200, 13, 'refuse', ['unprotective', 'refused']],
  [2000, 5000, 4, 'evict', ['unprotective']],
  [2000, 5000, 14, 'refuse', ['unprotective']],
  [5000, 4000, 5, 'evict', []],
] as const) {
  for (const shared of [false, true]) {
    // Shared (--workers' worker threads): the table made at its bound in a SharedArrayBuffer, used through a second view of it.
    const table = shared ? ' (shared table)' : '';
    test(`the store answers as the model does: 60 000 random operations, bound ${max}, ${keyCount} keys, ${whenFull} when full${table}`, async (t) => {
      const next = random(seed);
      const c = clock();
      const { seen, events } = counting();
      const maker = shared ? new MemoryStore(max, c.now, { whenFull, share: true }) : undefined;
      const store = new MemoryStore(max, c.now, { whenFull, events, ...(maker && { share: maker.sharedTable }) });
      const model = new ModelStore(max, c.now, whenFull);
      const hash = createStateKeyHasher(STATE_KEY);
      // Real keyed hashes and short keys of every length, which share table runs.
      const keys = Array.from({ length: keyCount }, (_, i) => (i % 2 ? hash(Buffer.from(`s${i}`)) : i.toString(36)));
      let mismatches = 0;
      for (let op = 0; op < 60_000 && mismatches === 0; op++) {
        const key = keys[Math.floor(next() * keyCount)];
        const choice = next();
        let ours: string;
        let theirs: string;
        if (choice < 0.3) {
          const step = Math.floor(next() * 6);
          // Two lifetimes, so that replay records do not expire in write order.
          const ttl = next() < 0.5 ? 1_000 : 3_000;
          [ours, theirs] = [await outcome(() => store.acceptStep(key, step, ttl)), await outcome(() => model.acceptStep(key, step, ttl))];
        } else if (choice < 0.85) {
          [ours, theirs] = [await outcome(() => store.countAttempt(key, 2_000, 3)), await outcome(() => model.countAttempt(key, 2_000, 3))];
        } else {
          [ours, theirs] = [await outcome(() => store.clearAttempts(key)), await outcome(() => model.clearAttempts(key))];
        }
        if (ours !== theirs || store.size !== model.size || JSON.stringify(seen) !== JSON.stringify(model.seen)) {
          mismatches++;
          t.fail(
            `operation ${op} on ${key}: ${ours} (size ${store.size}, ${JSON.stringify(seen)}) against ${theirs} (size ${model.size}, ${JSON.stringify(model.seen)})`,
          );
        }
        c.advance(Math.floor(next() * 3));
      }
      t.is(mismatches, 0);
      t.true(store.size <= max);
      for (const kind of reaches) t.true(seen[kind] > 0, `the run reached: ${kind}`);
    });
  }
}

test('a key that is not 1 to 45 base64url characters is refused with a TypeError, and the store is left as it was', async (t) => {
  const store = new MemoryStore(100, clock().now);
  await store.acceptStep('a', 1, 60_000);
  for (const key of ['', 'a'.repeat(46), 'a:b', 'a=', 'ä', '😀']) {
    await t.throwsAsync(store.acceptStep(key, 1, 60_000), { instanceOf: TypeError }, JSON.stringify(key));
    await t.throwsAsync(store.countAttempt(key, 60_000, LOCK), { instanceOf: TypeError });
  }
  t.is(store.size, 1);
  t.true(await store.acceptStep('a'.repeat(45), 1, 60_000), 'the longest key');
  t.false(await store.acceptStep('a', 1, 60_000));
  t.true(await store.acceptStep('aA', 1, 60_000), 'a trailing A (zero bits) is another key');
  t.true(await store.acceptStep('aAA', 1, 60_000));
});

// What an operator reads and clears (secret-status, unlock), and finds by fingerprint.

test('inspect: the count, when its window ends and the last accepted step; nothing for a key never seen or wholly expired', async (t) => {
  const c = clock();
  const store = new MemoryStore(100, c.now);
  t.is(await store.inspect('unknown'), undefined);
  t.true(await store.acceptStep('k', 1234, 90_000));
  t.deepEqual(await store.inspect('k'), { attempts: 0, attemptsResetInMs: 0, lastStep: 1234 });
  await store.countAttempt('k', 300_000, LOCK);
  c.advance(1000);
  await store.countAttempt('k', 300_000, LOCK);
  t.deepEqual(await store.inspect('k'), { attempts: 2, attemptsResetInMs: 299_000, lastStep: 1234 });
  c.advance(89_000);
  t.deepEqual(await store.inspect('k'), { attempts: 2, attemptsResetInMs: 210_000 }, 'the replay record has expired');
  await store.clearAttempts('k');
  t.is(await store.inspect('k'), undefined, 'cleared, with no replay record left: nothing');
});

test('clearAttempts unlocks a locked count: the next call is counted from 1', async (t) => {
  const store = new MemoryStore(100, clock().now);
  for (let i = 0; i < LOCK + 2; i++) await store.countAttempt('k', 300_000, LOCK);
  t.is((await store.inspect('k'))?.attempts, LOCK + 2);
  await store.clearAttempts('k');
  t.is((await store.countAttempt('k', 300_000, LOCK)).attempts, 1);
});

test('keysStartingWith: the live keys of a fingerprint, among many; a prefix too short or not base64url is refused', async (t) => {
  const c = clock();
  for (const shared of [false, true]) {
    const store = new MemoryStore(5000, c.now, shared ? { share: true } : {});
    const hashOf = createStateKeyHasher('a-state-key-for-the-fingerprint-tests');
    const keys = Array.from({ length: 3000 }, (_, i) => hashOf(Buffer.from(`secret-${i}`)));
    for (const key of keys) await store.countAttempt(key, 60_000, LOCK);
    const wanted = keys[1777];
    t.deepEqual(await store.keysStartingWith(keyPrefixOf(fingerprintOf(wanted))), [wanted]);
    // Two keys sharing 12 characters, a third differing in the 12th only (its last bits in the third lane).
    await store.acceptStep('abcdefghijkl-one', 1, 60_000);
    await store.acceptStep('abcdefghijkl_two', 1, 60_000);
    await store.acceptStep('abcdefghijkm', 1, 60_000);
    t.deepEqual((await store.keysStartingWith('abcdefghijkl')).sort(), ['abcdefghijkl-one', 'abcdefghijkl_two']);
    t.deepEqual(await store.keysStartingWith('abcdefghijklm'), []);
    c.advance(60_000);
    t.deepEqual(await store.keysStartingWith('abcdefghijkl'), [], 'expired records are not found');
    for (const prefix of ['abcdefghijk', 'abcdefghijk=', 'a'.repeat(46)]) {
      await t.throwsAsync(store.keysStartingWith(prefix), { instanceOf: TypeError }, prefix);
    }
  }
});

test('a fingerprint is 18 hex digits, the first 72 bits of the keyed hash, the same for the same secret and state key', (t) => {
  const key = 'a-state-key-for-the-fingerprint-tests';
  const id = createStateKeyHasher(key)(Buffer.from('JBSWY3DPEHPK3PXP'));
  const fingerprint = fingerprintOf(id);
  t.regex(fingerprint, FINGERPRINT);
  t.is(fingerprint, Buffer.from(id, 'base64url').subarray(0, 9).toString('hex'));
  t.is(fingerprintOf(createStateKeyHasher(key)(Buffer.from('JBSWY3DPEHPK3PXP'))), fingerprint, 'another process, the same key');
  t.not(fingerprintOf(createStateKeyHasher(`${key}-other`)(Buffer.from('JBSWY3DPEHPK3PXP'))), fingerprint, 'another state key');
  t.true(id.startsWith(keyPrefixOf(fingerprint)));
});
