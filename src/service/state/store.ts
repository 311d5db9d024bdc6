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

/** What a store holds for one key, as an operator sees it (secret-status, unlock). */
export interface RecordView {
  /** Attempts counted in the current window: 0 when none is counted. */
  attempts: number;
  /** Milliseconds until the count's window ends and it starts again; 0 when none is counted. */
  attemptsResetInMs: number;
  /** The last accepted step, while its replay record lasts. */
  lastStep?: number;
}

/** The shortest prefix keysStartingWith takes: a fingerprint's (keyed-hash.ts), so that a scan matches one key or very few. */
export const MIN_KEY_PREFIX = 12;

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
  /** Throttling: a success clears the count; an operator's unlock too. */
  clearAttempts(key: string): Promise<void>;
  /** An operator's view of the key's record; undefined when the store holds nothing unexpired for it. */
  inspect(key: string): Promise<RecordView | undefined>;
  /**
   * The keys held whose names start with `prefix` (MIN_KEY_PREFIX characters
   * or more): an operator's lookup by fingerprint. It scans the whole store,
   * so it is for operators, never for a call.
   */
  keysStartingWith(prefix: string): Promise<string[]>;
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
