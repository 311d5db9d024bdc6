/**
 * The state ValidatePin keeps between calls, behind one small interface whose
 * operations are each atomic: the embedded store because each operation
 * runs whole, with no await inside, and under --workers, whose threads
 * share its table, holds the table's lock; the Redis store because each
 * operation is one Lua script (or one command) over one key. One key per
 * operation is also what lets the same scripts run unchanged on a Redis
 * Cluster: an operation never spans two slots, so it runs whole on the one
 * master of its key.
 * Keep it so: an operation over several keys would need them in one slot
 * (redis-store.ts puts both keys of a secret in one, with a hash tag).
 * Keys are keyed hashes of secrets, never secrets.
 */

export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  attempts: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetInMs: number;
}

export interface StateStore {
  /**
   * Replay protection: records `step` as the last accepted step of `key` and
   * answers true, unless a step ≥ `step` is already recorded (then false).
   */
  acceptStep(key: string, step: number, ttlMs: number): Promise<boolean>;
  /**
   * Throttling: counts one attempt in a window of `windowMs` that starts at
   * the first attempt. From `lockAt` attempts on, the count is locked (the
   * next call is refused): a bounded store then keeps it as it keeps a
   * replay record, as a record that protects someone.
   */
  countAttempt(key: string, windowMs: number, lockAt: number): Promise<AttemptCount>;
  /** Throttling: a success clears the count. */
  clearAttempts(key: string): Promise<void>;
  /** Resolves when the store can be reached; rejects otherwise. */
  ping(): Promise<void>;
  /** What an operator should know about the store's setup (e.g. a server that may evict records); empty when all is well. */
  warnings(): Promise<string[]>;
  /** At start-up: waits up to `timeoutMs` for a first connection; answers whether there is one. */
  waitUntilReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The store could not be reached or answered wrongly: ValidatePin fails closed. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** The embedded store is full and refuses a new secret (`--store-when-full refuse`): ValidatePin fails closed. */
export class StoreFullError extends StoreUnavailableError {
  override name = 'StoreFullError';
}

/** When only records that protect someone are left in the full embedded store. */
export type WhenFull = 'evict' | 'refuse';

/** What a bounded store tells its observer (metrics, the warning log line). */
export interface StoreEvents {
  /** An entry was dropped to make room; `protective`: it still held a replay record or a locked count. */
  evicted(protective: boolean): void;
  /** A new secret was refused because only protective records were left (`refuse`). */
  refused(): void;
}
