/**
 * The lock of a table shared by threads: a futex-style mutex on Atomics in
 * the table's header (layout.ts's LOCK), one compare-exchange when free; a
 * waiter spins briefly, then sleeps in Atomics.wait. The holder's thread is
 * kept beside it (OWNER), so that one that died holding it is known.
 */
import { threadId } from 'node:worker_threads';
import { LOCK, OWNER } from './layout';

/** Lock states: free, held, held with threads waiting for it. */
const HELD = 1;
const CONTENDED = 2;
/** Tries for a held lock before a thread sleeps on it (an operation holds it for about a microsecond). */
const SPINS = 64;

const THIS_THREAD = threadId + 1;

/** Takes the lock of the table whose header this is, waiting for it if another thread holds it. */
export function acquire(header: Int32Array): void {
  if (Atomics.compareExchange(header, LOCK, 0, HELD) !== 0) waitFor(header);
  header[OWNER] = THIS_THREAD;
}

function waitFor(header: Int32Array): void {
  for (let spin = 0; spin < SPINS; spin++) if (Atomics.compareExchange(header, LOCK, 0, HELD) === 0) return;
  while (Atomics.exchange(header, LOCK, CONTENDED) !== 0) Atomics.wait(header, LOCK, CONTENDED);
}

/** Gives the lock back, waking one waiting thread if any. */
export function release(header: Int32Array): void {
  header[OWNER] = 0;
  if (Atomics.exchange(header, LOCK, 0) === CONTENDED) Atomics.notify(header, LOCK, 1);
}

/** The threadId of the thread holding the lock, or undefined. */
export function holderOf(header: Int32Array): number | undefined {
  const owner = Atomics.load(header, OWNER);
  return owner === 0 ? undefined : owner - 1;
}
