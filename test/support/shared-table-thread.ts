/**
 * A worker thread of test/service/shared-store.test.ts: attaches to the table it is
 * given, as a worker thread of --workers does (createStore with `shared`),
 * runs its part of the test's operations, and answers what it saw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createStore, type SharedStore } from '../../src/service/state/index';
import { MemoryStore } from '../../src/service/state/memory-store';

interface Job {
  shared: SharedStore;
  /** The threads wait for each other here, so that they race from the first operation. */
  barrier: SharedArrayBuffer;
  threads: number;
  maxEntries: number;
  keys: string[];
  steps: number;
  attempts: number;
  /** Throw an uncaught error once done, without saying goodbye (a thread that dies). */
  die?: boolean;
}

const job = workerData as Job;
const { store } = createStore(
  {
    store: job.shared.file === undefined ? 'memory' : 'embedded',
    stateDir: undefined,
    stateKey: undefined,
    storeMaxEntries: job.maxEntries,
    storeWhenFull: 'evict',
    storeTimeoutMs: 1000,
    storeReplicas: 0,
    storeTlsCa: undefined,
  },
  { shared: job.shared },
);

async function run(): Promise<void> {
  const barrier = new Int32Array(job.barrier);
  Atomics.add(barrier, 0, 1);
  while (Atomics.load(barrier, 0) < job.threads);
  const accepted: string[] = [];
  // The volatile table is answered at once, with no promise between operations: the tightest race there is.
  const memory = store instanceof MemoryStore ? store : undefined;
  // Steps in rising order, key by key in turn: the other thread tries the same ones at the same time.
  for (let step = 1; step <= job.steps; step++) {
    for (const key of job.keys) {
      const ok = memory ? memory.acceptStepNow(key, step, 600_000) : await store.acceptStep(key, step, 600_000);
      if (ok) accepted.push(`${key}/${step}`);
    }
  }
  for (let i = 0; i < job.attempts; i++)
    for (const key of job.keys) {
      if (memory) memory.countAttemptNow(`${key}c`, 600_000, 1_000_000);
      else await store.countAttempt(`${key}c`, 600_000, 1_000_000);
    }
  parentPort?.postMessage({ accepted });
  if (job.die) throw new Error('this thread dies');
}

void run();
