import { type AttemptCount, type RecordView, type StateStore, type StoreEvents, StoreFullError, type WhenFull } from './store';
import { listChange, takeChanges } from './table/change-list';
import { append, evictionCandidate, place, unlink } from './table/eviction-lists';
import { insert, locate, positionOf, unplace } from './table/hash-table';
import { encodeKey, encodePrefix, keyOf, startsWithPrefix } from './table/keys';
import {
  type Arrays,
  bytesFor,
  CAPACITY,
  carve,
  COUNT,
  FREE,
  FREE_COUNT,
  HANDED_OUT,
  initialise,
  LANES,
  LISTS,
  MASK,
  OLDEST,
  OPEN,
  RECORD,
  REFUSING,
  TRACKING,
} from './table/layout';
import { acquire, holderOf, release } from './table/lock';

const FIRST_CAPACITY = 1024;
/** Slots a scan (keysStartingWith) reads per hold of a shared table's lock, so that calls in other threads wait at most that long. */
const SCAN_CHUNK = 1024;

/** An entry's fields, in this order, as changedEntry() writes them and restore() takes them. */
export const ENTRY_FIELDS = 5;
export type EntryFields = Float64Array;

/**
 * The threadId of the thread holding a shared table's lock, or undefined.
 * A thread that ended while holding it (killed mid-operation: out of
 * memory, terminate()) left the table half-changed and every other thread
 * waiting: the process must stop (cli/workers.ts), as after a crash.
 */
export function lockHolderOf(table: SharedArrayBuffer, maxEntries: number): number | undefined {
  return holderOf(carve(table, maxEntries).header);
}

export interface MemoryStoreOptions {
  /** When every entry left protects someone: drop the one whose protection ends first (evict), or refuse new secrets (refuse). */
  whenFull?: WhenFull;
  events?: StoreEvents;
  /** List the slots whose entries change, for a write-behind (persistent-store.ts takes them with takeChanges). */
  trackChanges?: boolean;
  /**
   * Hold the table in shared memory, sized for `maxEntries` at once, so that
   * worker threads can use it too: `true` makes one; a table's `sharedTable`
   * attaches another thread to it. Every operation then holds the table's
   * lock (Atomics) while it runs, so it stays atomic across threads.
   */
  share?: true | SharedArrayBuffer;
}

/**
 * The embedded store: in-process, no server. Bounded, so that a flood of
 * distinct secrets cannot exhaust memory, and ordered so that it cannot
 * wash out protection either: when room is needed, entries that protect
 * nobody (an attempt count below the lock, expired records) go first, least
 * recently written first; replay records and locked counts go only after
 * them, and then only as `whenFull` says. Expiry is each part's own, checked
 * against the injected clock when it is read.
 *
 * Entries live in typed arrays, not in JavaScript objects (table/layout.ts):
 * an open-addressing hash table (table/hash-table.ts) over slots that hold
 * the entry (table/keys.ts) and its place in one of three doubly linked
 * lists in write order (table/eviction-lists.ts). Every operation costs the
 * same at any fill, and a full store that evicts on every write allocates
 * nothing, so it gives the garbage collector no work; the arrays double as
 * the store fills, up to the bound (bench/store.ts measures both). Keys are keyed hashes
 * (keyed-hash.ts) that no caller can choose, so no caller can crowd one part
 * of the table either.
 *
 * All of it, counters included, is carved out of one buffer. Shared
 * (`share`), the buffer is a SharedArrayBuffer of the bound's size, made
 * once, that the worker threads of `--workers` attach to: each operation
 * takes the table's lock (table/lock.ts: a futex-style Atomics mutex, one
 * compare-exchange when free), so the threads see one store, exact, with no
 * hop between them. A kept store lists what changed (table/change-list.ts).
 */
export class MemoryStore implements StateStore {
  private a: Arrays;
  /** The record of the key being looked up (this thread's own). */
  private readonly probe = new Int32Array(RECORD);
  private readonly whenFull: WhenFull;
  private readonly events: StoreEvents | undefined;
  private readonly shared: SharedArrayBuffer | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
    options: MemoryStoreOptions = {},
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.whenFull = options.whenFull ?? 'evict';
    this.events = options.events;
    if (options.share instanceof SharedArrayBuffer) {
      if (options.share.byteLength !== bytesFor(maxEntries)) throw new RangeError('the shared table was made for another bound');
      this.shared = options.share;
      this.a = carve(this.shared, maxEntries);
      return;
    }
    if (options.share) {
      this.shared = new SharedArrayBuffer(bytesFor(maxEntries));
      this.a = carve(this.shared, maxEntries);
      initialise(this.a, maxEntries);
    } else {
      this.a = carve(new ArrayBuffer(bytesFor(0)), 0);
      this.reset();
    }
    this.a.header[TRACKING] = options.trackChanges ? 1 : 0;
  }

  /** The most entries the table holds. */
  get bound(): number {
    return this.maxEntries;
  }

  /** Whether the table lists its changed entries (takeChanges). */
  get tracksChanges(): boolean {
    return this.a.header[TRACKING] === 1;
  }

  /** The shared table, for another thread's MemoryStore (`share`); undefined when this one is not shared. */
  get sharedTable(): SharedArrayBuffer | undefined {
    return this.shared;
  }

  /** Entries held: one per secret with a replay record or an attempt count. */
  get size(): number {
    return this.a.header[COUNT];
  }

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    return this.acceptStepNow(key, step, ttlMs);
  }

  async countAttempt(key: string, windowMs: number, lockAt: number): Promise<AttemptCount> {
    return this.countAttemptNow(key, windowMs, lockAt);
  }

  async clearAttempts(key: string): Promise<void> {
    this.clearAttemptsNow(key);
  }

  /** acceptStep, answered at once (the stores built on this table call it without a promise of their own). */
  acceptStepNow(key: string, step: number, ttlMs: number): boolean {
    const hash = encodeKey(key, this.probe);
    this.lock();
    try {
      const now = this.now();
      let slot = this.live(hash, now);
      if (slot >= 0 && this.a.stepEnds[slot] > now && this.a.steps[slot] >= step) return false;
      if (slot < 0) slot = this.add(hash, now);
      // Read after add(), which may have moved an own table into larger arrays.
      const a = this.a;
      a.steps[slot] = step;
      a.stepEnds[slot] = now + ttlMs;
      place(a, slot, now);
      listChange(a, slot);
      return true;
    } finally {
      this.unlock();
    }
  }

  /** countAttempt, answered at once. */
  countAttemptNow(key: string, windowMs: number, lockAt: number): AttemptCount {
    const hash = encodeKey(key, this.probe);
    this.lock();
    try {
      const now = this.now();
      let slot = this.live(hash, now);
      if (slot < 0) slot = this.add(hash, now);
      const a = this.a;
      if (a.attemptEnds[slot] > now) a.attempts[slot]++;
      else {
        a.attempts[slot] = 1;
        a.attemptEnds[slot] = now + windowMs;
      }
      a.lockEnds[slot] = a.attempts[slot] >= lockAt ? a.attemptEnds[slot] : 0;
      place(a, slot, now);
      listChange(a, slot);
      return { attempts: a.attempts[slot], resetInMs: a.attemptEnds[slot] - now };
    } finally {
      this.unlock();
    }
  }

  /** clearAttempts, done at once. */
  clearAttemptsNow(key: string): void {
    const hash = encodeKey(key, this.probe);
    this.lock();
    try {
      const a = this.a;
      const position = locate(a, this.probe, hash);
      if (position < 0) return;
      const slot = a.table[position] - 1;
      const now = this.now();
      // A listed change keeps its entry, expired, until it has been written (the write-behind drops it from the file too).
      if (a.stepEnds[slot] <= now && a.header[TRACKING] === 0) {
        this.remove(position);
        return;
      }
      a.attempts[slot] = a.attemptEnds[slot] = a.lockEnds[slot] = 0;
      place(a, slot, now);
      listChange(a, slot);
    } finally {
      this.unlock();
    }
  }

  async inspect(key: string): Promise<RecordView | undefined> {
    return this.inspectNow(key);
  }

  async keysStartingWith(prefix: string): Promise<string[]> {
    return this.keysStartingWithNow(prefix);
  }

  /** inspect, answered at once. */
  inspectNow(key: string): RecordView | undefined {
    const hash = encodeKey(key, this.probe);
    this.lock();
    try {
      const a = this.a;
      const position = locate(a, this.probe, hash);
      if (position < 0) return undefined;
      const slot = a.table[position] - 1;
      const now = this.now();
      const counting = a.attemptEnds[slot] > now;
      const stepKept = a.stepEnds[slot] > now;
      if (!counting && !stepKept) return undefined;
      return {
        attempts: counting ? a.attempts[slot] : 0,
        attemptsResetInMs: counting ? a.attemptEnds[slot] - now : 0,
        ...(stepKept && { lastStep: a.steps[slot] }),
      };
    } finally {
      this.unlock();
    }
  }

  /**
   * keysStartingWith, answered at once: every slot is read, comparing the
   * prefix's encoded bits with each record's lanes (no key is decoded but
   * those that match), under the lock a chunk of slots at a time.
   */
  keysStartingWithNow(prefix: string): string[] {
    // The prefix as encodeKey() writes a key, and which bits of each lane it fixes.
    const wanted = new Int32Array(LANES);
    const masks = new Int32Array(LANES);
    const lanes = encodePrefix(prefix, wanted, masks);
    const found: string[] = [];
    for (let start = 0; ; start += SCAN_CHUNK) {
      this.lock();
      try {
        const a = this.a;
        const end = Math.min(a.header[HANDED_OUT], start + SCAN_CHUNK);
        if (start >= end) return found;
        const now = this.now();
        for (let slot = start; slot < end; slot++) {
          if (a.lists[slot] === FREE || !startsWithPrefix(a.records, slot, prefix.length, lanes, wanted, masks)) continue;
          if (a.stepEnds[slot] > now || a.attemptEnds[slot] > now) found.push(keyOf(a.records, slot));
        }
      } finally {
        this.unlock();
      }
    }
  }

  /**
   * Moves the slots of the entries changed since the last call into `into`
   * (sized for the bound) and answers how many; each slot once, however
   * often its entry changed. For the write-behind (persistent-store.ts),
   * which reads each with changedEntry().
   */
  takeChanges(into: Int32Array): number {
    this.lock();
    try {
      return takeChanges(this.a, into);
    } finally {
      this.unlock();
    }
  }

  /** Lists the slots again (a write of them failed): the next takeChanges() answers them too. */
  putBackChanges(slots: Int32Array, count: number): void {
    this.lock();
    try {
      for (let i = 0; i < count; i++) if (slots[i] < this.a.header[HANDED_OUT]) listChange(this.a, slots[i]);
    } finally {
      this.unlock();
    }
  }

  /**
   * The key of the entry in `slot`, its fields written into `out`, expired
   * or not (a row that loading drops); undefined when the slot holds no entry.
   */
  changedEntry(slot: number, out: EntryFields): string | undefined {
    this.lock();
    try {
      if (slot >= this.a.header[HANDED_OUT] || this.a.lists[slot] === FREE) return undefined;
      this.fieldsOf(slot, out);
      return keyOf(this.a.records, slot);
    } finally {
      this.unlock();
    }
  }

  /** While set, acceptStep and countAttempt are refused (the kept store cannot write its file), in every thread. */
  get refusing(): boolean {
    return Atomics.load(this.a.header, REFUSING) === 1;
  }

  set refusing(refusing: boolean) {
    Atomics.store(this.a.header, REFUSING, refusing ? 1 : 0);
  }

  /**
   * Sets the key's fields as changedEntry() wrote them (loading saved state): a new
   * entry is made room for by the same rules as a call's; fields that have
   * all expired drop the entry.
   */
  restore(key: string, fields: EntryFields): void {
    const hash = encodeKey(key, this.probe);
    this.lock();
    try {
      const now = this.now();
      const position = locate(this.a, this.probe, hash);
      if (fields[1] <= now && fields[3] <= now) {
        if (position >= 0) this.remove(position);
        return;
      }
      const slot = position >= 0 ? this.a.table[position] - 1 : this.add(hash, now);
      const a = this.a;
      [a.steps[slot], a.stepEnds[slot], a.attempts[slot], a.attemptEnds[slot], a.lockEnds[slot]] = fields;
      place(a, slot, now);
    } finally {
      this.unlock();
    }
  }

  /** Slots handed out so far: entryAt() takes 0 to this, less one. */
  get slots(): number {
    return this.a.header[HANDED_OUT];
  }

  /** changedEntry(), but undefined when the slot holds nothing unexpired (the snapshot's entries). */
  entryAt(slot: number, out: EntryFields): string | undefined {
    const key = this.changedEntry(slot, out);
    const now = this.now();
    return key !== undefined && (out[1] > now || out[3] > now) ? key : undefined;
  }

  async ping(): Promise<void> {}

  async waitUntilReady(): Promise<boolean> {
    return true;
  }

  async warnings(): Promise<string[]> {
    return [];
  }

  /** Empties an own table; a shared one stays as it is for the threads still using it. */
  async close(): Promise<void> {
    if (!this.shared) this.reset();
  }

  /** Only a shared table is locked: an own one is this thread's alone. */
  private lock(): void {
    if (this.shared !== undefined) acquire(this.a.header);
  }

  private unlock(): void {
    if (this.shared !== undefined) release(this.a.header);
  }

  private fieldsOf(slot: number, out: EntryFields): void {
    const a = this.a;
    out[0] = a.steps[slot];
    out[1] = a.stepEnds[slot];
    out[2] = a.attempts[slot];
    out[3] = a.attemptEnds[slot];
    out[4] = a.lockEnds[slot];
  }

  /** The slot of the key in `probe` if it holds anything unexpired (a wholly expired entry is dropped), or -1. */
  private live(hash: number, now: number): number {
    const a = this.a;
    const position = locate(a, this.probe, hash);
    if (position < 0) return -1;
    const slot = a.table[position] - 1;
    if (a.stepEnds[slot] > now || a.attemptEnds[slot] > now) return slot;
    this.remove(position);
    return -1;
  }

  /** A new, empty entry for the key in `probe`; makes room first when the store is full. */
  private add(hash: number, now: number): number {
    const slot = this.allocate(now);
    const a = this.a;
    a.records.set(this.probe, slot * RECORD);
    a.hashes[slot] = hash;
    a.steps[slot] = a.stepEnds[slot] = a.attempts[slot] = a.attemptEnds[slot] = a.lockEnds[slot] = 0;
    a.lists[slot] = OPEN;
    append(a, slot, OPEN);
    insert(a, slot);
    a.header[COUNT]++;
    return slot;
  }

  private allocate(now: number): number {
    const header = this.a.header;
    if (header[FREE_COUNT] > 0) return this.a.free[--header[FREE_COUNT]];
    if (header[HANDED_OUT] < header[CAPACITY]) return header[HANDED_OUT]++;
    if (header[CAPACITY] < this.maxEntries) {
      this.grow(Math.min(this.maxEntries, header[CAPACITY] * 2));
      return this.a.header[HANDED_OUT]++;
    }
    this.makeRoom(now);
    return this.a.free[--header[FREE_COUNT]];
  }

  /**
   * Frees one slot of a full store: the entry the eviction lists give up
   * (one that protects nobody); else, as `whenFull` says, the protective
   * entry whose protection ends first, or nothing (StoreFullError).
   */
  private makeRoom(now: number): void {
    const candidate = evictionCandidate(this.a, now);
    if (candidate >= 0) {
      this.evict(candidate, false);
      return;
    }
    if (this.whenFull === 'refuse') {
      this.events?.refused();
      throw new StoreFullError('the embedded store is full of records that still protect someone (--store-when-full refuse)');
    }
    this.evict(~candidate, true);
  }

  private evict(slot: number, protective: boolean): void {
    this.remove(positionOf(this.a, slot));
    this.events?.evicted(protective);
  }

  /** Drops the entry at a table position: out of the hash table and its list, its slot freed. */
  private remove(position: number): void {
    const a = this.a;
    const slot = unplace(a, position);
    unlink(a, slot);
    a.lists[slot] = FREE;
    a.free[a.header[FREE_COUNT]++] = slot;
    a.header[COUNT]--;
  }

  /** An own table, moved into arrays for `capacity` slots (a shared one is made at its bound and never grows). */
  private grow(capacity: number): void {
    const old = this.a;
    const a = carve(new ArrayBuffer(bytesFor(capacity)), capacity);
    for (const name of Object.keys(a) as (keyof Arrays)[]) if (name !== 'table') (a[name] as Int32Array).set(old[name] as Int32Array);
    a.header[CAPACITY] = capacity;
    a.header[MASK] = a.table.length - 1;
    this.a = a;
    for (let list = 0; list < LISTS; list++) for (let slot = a.header[OLDEST + list]; slot >= 0; slot = a.newer[slot]) insert(a, slot);
  }

  private reset(): void {
    const tracking = this.a.header[TRACKING];
    this.a = carve(new ArrayBuffer(bytesFor(0)), 0);
    initialise(this.a, 0);
    this.a.header[TRACKING] = tracking;
    this.grow(Math.min(this.maxEntries, FIRST_CAPACITY));
  }
}
