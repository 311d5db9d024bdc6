/**
 * The embedded store of --workers: one table in shared memory that worker
 * threads change directly (src/service/state/memory-store.ts, `share`). Real threads
 * race on the same keys: every operation stays atomic (no step accepted
 * twice, no attempt lost), and with the kept store every change a thread
 * answered reaches the state file, even when that thread then dies.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import test from 'ava';
import { createStore, openPersistentStore, type SharedStore } from '../../src/service/state/index';
import { lockHolderOf, MemoryStore } from '../../src/service/state/memory-store';

const THREAD = join(__dirname, '..', 'support', 'shared-table-thread.ts');
const KEY = 'a-state-key-of-at-least-thirty-two-characters';
const KEYS = Array.from({ length: 8 }, (_, i) => `key${i}`);
const STEPS = 20_000;
const ATTEMPTS = 20_000;

interface Seen {
  accepted: string[];
}

function thread(
  shared: SharedStore,
  maxEntries: number,
  { die = false, threads = 1, barrier = new SharedArrayBuffer(4) } = {},
): Promise<{ seen: Seen; exitCode: number }> {
  const worker = new Worker(THREAD, {
    execArgv: ['--import=tsx'],
    workerData: { shared, maxEntries, keys: KEYS, steps: STEPS, attempts: ATTEMPTS, die, threads, barrier },
    stderr: true,
  });
  let seen: Seen | undefined;
  worker.on('message', (message: Seen) => {
    seen = message;
  });
  worker.on('error', () => {});
  return new Promise((resolve) => worker.on('exit', (exitCode) => resolve({ seen: seen ?? { accepted: [] }, exitCode })));
}

const settings = (maxEntries: number, store: string, stateDir?: string) => ({
  store,
  stateDir,
  stateKey: KEY,
  storeMaxEntries: maxEntries,
  storeWhenFull: 'evict' as const,
  storeTimeoutMs: 1000,
  storeReplicas: 0,
  storeTlsCa: undefined,
});

test('two threads race on the same keys: no step is accepted twice, none is lost, and every attempt is counted', async (t) => {
  const { store, shares } = createStore(settings(1000, 'memory'), { share: true });
  t.truthy(shares, 'the store is made in shared memory');
  const race = { threads: 2, barrier: new SharedArrayBuffer(4) };
  const runs = await Promise.all([thread(shares!, 1000, race), thread(shares!, 1000, race)]);
  const accepted = runs.flatMap((run) => run.seen.accepted);
  t.is(new Set(accepted).size, accepted.length, 'no step of a key accepted by both threads');
  // Each step of a key is accepted by the thread that came first, unless the other had already accepted a later one.
  t.true(accepted.length <= KEYS.length * STEPS);
  for (const run of runs) t.is(run.exitCode, 0);
  const memory = store as MemoryStore;
  for (const key of KEYS) {
    t.false(await memory.acceptStep(key, STEPS, 600_000), `${key}: the last step is recorded`);
    const { attempts } = await memory.countAttempt(`${key}c`, 600_000, 1_000_000);
    t.is(attempts, 2 * ATTEMPTS + 1, `${key}: every attempt of both threads counted`);
  }
  t.is(memory.size, 2 * KEYS.length);
});

test('kept: what a thread answered reaches the state file though the thread dies at once, and a restart finds it', async (t) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'pin-shared-test-'));
  const { store, shares } = openPersistentStore(settings(1000, 'embedded', stateDir), undefined, undefined, true);
  t.truthy(shares?.file, 'the threads are told the file');
  const run = await thread(shares!, 1000, { die: true });
  t.not(run.exitCode, 0, 'the thread died');
  t.is(run.seen.accepted.length, KEYS.length * STEPS, 'alone, it accepted every step');
  // The main thread writes what the dead thread changed in the table.
  await store.close();
  const again = openPersistentStore(settings(1000, 'embedded', stateDir)).store;
  for (const key of KEYS) {
    t.false(await again.acceptStep(key, STEPS, 600_000), `${key}: its last accepted step is still refused`);
    t.true(await again.acceptStep(key, STEPS + 1, 600_000));
    t.is((await again.countAttempt(`${key}c`, 600_000, 1_000_000)).attempts, ATTEMPTS + 1, `${key}: its attempts still counted`);
  }
  await again.close();
});

test('a table shared for one bound cannot be attached under another', (t) => {
  const maker = new MemoryStore(100, Date.now, { share: true });
  t.throws(() => new MemoryStore(200, Date.now, { share: maker.sharedTable }), { instanceOf: RangeError });
});

test('a thread that ends holding the table’s lock is named by lockHolderOf (the main thread then stops, as after a crash)', async (t) => {
  const maker = new MemoryStore(100, Date.now, { share: true });
  const table = maker.sharedTable!;
  t.is(lockHolderOf(table, 100), undefined, 'free');
  // A thread that takes the lock the way an operation does, and ends before releasing it.
  const worker = new Worker(join(__dirname, '..', 'support', 'lock-holding-thread.ts'), {
    execArgv: ['--import=tsx'],
    workerData: { table, maxEntries: 100 },
  });
  const threadId = worker.threadId;
  await new Promise((resolve) => worker.on('exit', resolve));
  t.is(lockHolderOf(table, 100), threadId);
});
