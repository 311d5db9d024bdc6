/**
 * The store of --workers (src/state/ipc-store.ts), between a real child
 * process and this one as its primary: the calls a worker makes in one turn
 * of its event loop travel as one message and are answered in one, in
 * order, exactly as the shared store answers them; a primary that does not
 * answer fails the calls closed after --store-timeout, not before.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Worker } from 'node:cluster';
import test from 'ava';
import { serveStoreTo } from '../src/state/ipc-store';
import { MemoryStore } from '../src/state/memory-store';

interface Result {
  ms: number;
  results: ({ value: unknown } | { error: string })[];
}

function child(timeoutMs: number): Promise<ChildProcess> {
  const worker = fork(join(__dirname, 'support', 'ipc-store-child.ts'), [String(timeoutMs)], {
    execArgv: ['--import=tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: { kind?: string }) => m.kind === 'test-ready' && resolve(worker));
  });
}

/** The child, as the cluster Worker serveStoreTo expects. */
const asWorker = (worker: ChildProcess) =>
  ({ on: worker.on.bind(worker), send: worker.send.bind(worker), isConnected: () => worker.connected }) as unknown as Worker;

function burst(worker: ChildProcess, keys: string[]): Promise<Result> {
  return new Promise((resolve) => {
    const onMessage = (m: { kind?: string } & Result) => {
      if (m.kind !== 'test-result') return;
      worker.off('message', onMessage);
      resolve(m);
    };
    worker.on('message', onMessage);
    worker.send({ kind: 'test-burst', keys });
  });
}

test('the calls of one turn go as one message, answered in order as the shared store answers them', async (t) => {
  const worker = await child(5000);
  try {
    const store = new MemoryStore(1000);
    const messages: number[] = [];
    worker.on('message', (m: { kind?: string; calls?: unknown[] }) => m.kind === 'pin-store' && messages.push(m.calls?.length ?? 0));
    serveStoreTo(asWorker(worker), store);
    const keys = ['a', 'b', 'c', 'd'];
    const { results } = await burst(worker, keys);
    t.deepEqual(messages, [12], 'twelve calls, one message');
    t.deepEqual(
      results.slice(0, 8).map((r) => ('value' in r ? r.value : r.error)),
      [true, true, true, true, false, false, false, false],
      'each step accepted once: the second of each is a replay',
    );
    t.deepEqual(
      results.slice(8).map((r) => ('value' in r ? (r.value as { attempts: number }).attempts : r.error)),
      [1, 1, 1, 1],
    );
    // The shared store holds what the worker did.
    t.false(await store.acceptStep('a', 7, 60_000));
  } finally {
    worker.kill('SIGKILL');
  }
});

test('a primary that does not answer fails every call closed once --store-timeout has passed, not before', async (t) => {
  const worker = await child(300);
  try {
    // Nobody serves the store: the messages are read and left unanswered.
    worker.on('message', () => {});
    const { ms, results } = await burst(worker, ['a', 'b']);
    t.is(results.length, 6);
    for (const r of results)
      t.deepEqual(r, { error: 'StoreUnavailableError: the primary process did not answer within 300 ms (--store-timeout)' });
    t.true(ms >= 290, `failed after ${ms} ms`);
    t.true(ms < 3000, `failed after ${ms} ms`);
  } finally {
    worker.kill('SIGKILL');
  }
});
