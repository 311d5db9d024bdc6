import { threadId } from 'node:worker_threads';
import {
  type AttemptCount,
  MIN_KEY_PREFIX,
  type RecordView,
  type StateStore,
  type StoreEvents,
  StoreFullError,
  type WhenFull,
} from './store';

/*
 * Each entry is one secret's record: its key, as Int32s (a tag holding the
 * key's length, then 5 base64url characters, 30 bits, per lane), the last
 * accepted step with its expiry, and the attempt count with its window's
 * end. The encoding is exact — two keys share a record only if they are the
 * same string — so no entry is ever mistaken for another's.
 */
const LANES = 9;
const RECORD = LANES + 1;
const MAX_KEY_LENGTH = LANES * 5;
const FIRST_CAPACITY = 1024;
/** Slots a scan (keysStartingWith) reads per hold of a shared table's lock, so that calls in other threads wait at most that long. */
const SCAN_CHUNK = 1024;
/** A protective entry checked past the head of its list, when the store is full, for protection that has lapsed. */
const LAPSED_LOOKAHEAD = 8;

/** The eviction lists: entries that protect nobody, replay records, locked throttle counts. */
const OPEN = 0;
const REPLAY = 1;
const LOCKED = 2;
const LISTS = 3;
/** The list mark of a slot that holds no entry (freed, or never handed out). */
const FREE = 3;

/** An entry's fields, in this order, as changedEntry() writes them and restore() takes them. */
export const ENTRY_FIELDS = 5;
export type EntryFields = Float64Array;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const SIXBITS = new Int8Array(128).fill(-1);
for (const [i, c] of [...BASE64URL].entries()) SIXBITS[c.charCodeAt(0)] = i;

/** The table's counters, kept in an Int32Array so that threads sharing the table share them. */
const LOCK = 0;
const CAPACITY = 1;
const COUNT = 2;
const HANDED_OUT = 3;
const FREE_COUNT = 4;
const MASK = 5;
/** Slots in the list of changed entries (takeChanges). */
const CHANGED = 6;
/** 1 when changes are listed (a kept store), for every thread that attaches. */
const TRACKING = 7;
/** 1 while the kept store cannot write its file: new protective records are refused (persistent-store.ts). */
const REFUSING = 8;
/** The threadId + 1 of the thread holding the lock (0: none), so that a thread that died holding it is known. */
const OWNER = 9;
const OLDEST = 10;
const NEWEST = OLDEST + LISTS;
const HEADER = NEWEST + LISTS;
/** Lock states: free, held, held with threads waiting for it. */
const HELD = 1;
const CONTENDED = 2;
/** Tries for a held lock before a thread sleeps on it (an operation holds it for about a microsecond). */
const SPINS = 64;

const THIS_THREAD = threadId + 1;

/**
 * The threadId of the thread holding a shared table's lock, or undefined.
 * A thread that ended while holding it (killed mid-operation: out of
 * memory, terminate()) left the table half-changed and every other thread
 * waiting: the process must stop (cli/workers.ts), as after a crash.
 */
export function lockHolderOf(table: SharedArrayBuffer, maxEntries: number): number | undefined {
  const owner = Atomics.load(carve(table, maxEntries).header, OWNER);
  return owner === 0 ? undefined : owner - 1;
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

/** The table's arrays, carved out of one buffer. */
interface Arrays {
  header: Int32Array;
  records: Int32Array;
  hashes: Int32Array;
  steps: Float64Array;
  stepEnds: Float64Array;
  attempts: Float64Array;
  attemptEnds: Float64Array;
  lockEnds: Float64Array;
  lists: Uint8Array;
  /** 1 while the slot is in the changed list. */
  marks: Uint8Array;
  older: Int32Array;
  newer: Int32Array;
  free: Int32Array;
  changed: Int32Array;
  table: Int32Array;
}

/** Hash table positions for `capacity` slots: a power of two, at least twice as many. */
function positionsFor(capacity: number): number {
  let positions = 2;
  while (positions < 2 * capacity) positions *= 2;
  return positions;
}

/** Bytes of a buffer holding a table of `capacity` slots. */
function bytesFor(capacity: number): number {
  return 8 * 5 * capacity + 4 * (HEADER + capacity * (RECORD + 5) + positionsFor(capacity)) + 2 * capacity;
}

/** The arrays of a table of `capacity` slots in `buffer` (of bytesFor(capacity) bytes). */
function carve(buffer: ArrayBufferLike, capacity: number): Arrays {
  let at = 0;
  const f64 = (length: number) => {
    const array = new Float64Array(buffer, at, length);
    at += 8 * length;
    return array;
  };
  const i32 = (length: number) => {
    const array = new Int32Array(buffer, at, length);
    at += 4 * length;
    return array;
  };
  const u8 = (length: number) => {
    const array = new Uint8Array(buffer, at, length);
    at += length;
    return array;
  };
  return {
    steps: f64(capacity),
    stepEnds: f64(capacity),
    attempts: f64(capacity),
    attemptEnds: f64(capacity),
    lockEnds: f64(capacity),
    header: i32(HEADER),
    records: i32(capacity * RECORD),
    hashes: i32(capacity),
    older: i32(capacity),
    newer: i32(capacity),
    free: i32(capacity),
    changed: i32(capacity),
    table: i32(positionsFor(capacity)),
    lists: u8(capacity),
    marks: u8(capacity),
  };
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
 * Entries live in typed arrays, not in JavaScript objects: an open-addressing
 * hash table (linear probing, deletion by backward shift, at most half full)
 * over slots that hold the entry and its place in one of three doubly linked
 * lists in write order. Every operation costs the same at any fill, and a
 * full store that evicts on every write allocates nothing, so it gives the
 * garbage collector no work; the arrays double as the store fills, up to the
 * bound (bench/store.ts measures both). Keys are keyed hashes
 * (keyed-hash.ts) that no caller can choose, so no caller can crowd one part
 * of the table either.
 *
 * All of it, counters included, is carved out of one buffer. Shared
 * (`share`), the buffer is a SharedArrayBuffer of the bound's size, made
 * once, that the worker threads of `--workers` attach to: each operation
 * takes the table's lock (a futex-style Atomics mutex: one compare-exchange
 * when free), so the threads see one store, exact, with no hop between them.
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
      this.initialise(maxEntries);
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
    const hash = this.encode(key);
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
      this.place(slot, now);
      this.changedSlot(slot);
      return true;
    } finally {
      this.unlock();
    }
  }

  /** countAttempt, answered at once. */
  countAttemptNow(key: string, windowMs: number, lockAt: number): AttemptCount {
    const hash = this.encode(key);
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
      this.place(slot, now);
      this.changedSlot(slot);
      return { attempts: a.attempts[slot], resetInMs: a.attemptEnds[slot] - now };
    } finally {
      this.unlock();
    }
  }

  /** clearAttempts, done at once. */
  clearAttemptsNow(key: string): void {
    const hash = this.encode(key);
    this.lock();
    try {
      const a = this.a;
      const position = this.locate(hash);
      if (position < 0) return;
      const slot = a.table[position] - 1;
      const now = this.now();
      // A listed change keeps its entry, expired, until it has been written (the write-behind drops it from the file too).
      if (a.stepEnds[slot] <= now && a.header[TRACKING] === 0) {
        this.remove(position);
        return;
      }
      a.attempts[slot] = a.attemptEnds[slot] = a.lockEnds[slot] = 0;
      this.place(slot, now);
      this.changedSlot(slot);
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
    const hash = this.encode(key);
    this.lock();
    try {
      const position = this.locate(hash);
      if (position < 0) return undefined;
      const a = this.a;
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
    if (prefix.length < MIN_KEY_PREFIX || prefix.length > MAX_KEY_LENGTH) {
      throw new TypeError(`a key prefix is ${MIN_KEY_PREFIX} to ${MAX_KEY_LENGTH} base64url characters`);
    }
    // The prefix as encode() writes a key, and which bits of each lane it fixes.
    const wanted = new Int32Array(LANES);
    const masks = new Int32Array(LANES);
    for (let i = 0; i < prefix.length; i++) {
      const code = prefix.charCodeAt(i);
      const sixBits = code < 128 ? SIXBITS[code] : -1;
      if (sixBits < 0) throw new TypeError(`a key prefix is ${MIN_KEY_PREFIX} to ${MAX_KEY_LENGTH} base64url characters`);
      const shift = 24 - 6 * (i % 5);
      wanted[Math.floor(i / 5)] |= sixBits << shift;
      masks[Math.floor(i / 5)] |= 63 << shift;
    }
    const lanes = Math.ceil(prefix.length / 5);
    const found: string[] = [];
    for (let start = 0; ; start += SCAN_CHUNK) {
      this.lock();
      try {
        const a = this.a;
        const end = Math.min(a.header[HANDED_OUT], start + SCAN_CHUNK);
        if (start >= end) return found;
        const now = this.now();
        for (let slot = start; slot < end; slot++) {
          const base = slot * RECORD;
          if (a.lists[slot] === FREE || a.records[base] < prefix.length) continue;
          let lane = 0;
          while (lane < lanes && (a.records[base + 1 + lane] & masks[lane]) === wanted[lane]) lane++;
          if (lane === lanes && (a.stepEnds[slot] > now || a.attemptEnds[slot] > now)) found.push(this.keyOf(slot));
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
      const a = this.a;
      const count = a.header[CHANGED];
      for (let i = 0; i < count; i++) {
        const slot = a.changed[i];
        into[i] = slot;
        a.marks[slot] = 0;
      }
      a.header[CHANGED] = 0;
      return count;
    } finally {
      this.unlock();
    }
  }

  /** Lists the slots again (a write of them failed): the next takeChanges() answers them too. */
  putBackChanges(slots: Int32Array, count: number): void {
    this.lock();
    try {
      for (let i = 0; i < count; i++) if (slots[i] < this.a.header[HANDED_OUT]) this.changedSlot(slots[i]);
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
      return this.keyOf(slot);
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
    const hash = this.encode(key);
    this.lock();
    try {
      const now = this.now();
      const position = this.locate(hash);
      if (fields[1] <= now && fields[3] <= now) {
        if (position >= 0) this.remove(position);
        return;
      }
      const slot = position >= 0 ? this.a.table[position] - 1 : this.add(hash, now);
      const a = this.a;
      [a.steps[slot], a.stepEnds[slot], a.attempts[slot], a.attemptEnds[slot], a.lockEnds[slot]] = fields;
      this.place(slot, now);
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

  private lock(): void {
    if (this.shared === undefined) return;
    if (Atomics.compareExchange(this.a.header, LOCK, 0, HELD) !== 0) this.waitForLock();
    this.a.header[OWNER] = THIS_THREAD;
  }

  private waitForLock(): void {
    const header = this.a.header;
    for (let spin = 0; spin < SPINS; spin++) if (Atomics.compareExchange(header, LOCK, 0, HELD) === 0) return;
    while (Atomics.exchange(header, LOCK, CONTENDED) !== 0) Atomics.wait(header, LOCK, CONTENDED);
  }

  private unlock(): void {
    if (this.shared === undefined) return;
    this.a.header[OWNER] = 0;
    if (Atomics.exchange(this.a.header, LOCK, 0) === CONTENDED) Atomics.notify(this.a.header, LOCK, 1);
  }

  /** Lists a changed slot for the write-behind (once until it is taken). */
  private changedSlot(slot: number): void {
    const a = this.a;
    if (a.header[TRACKING] === 0 || a.marks[slot] === 1) return;
    a.marks[slot] = 1;
    a.changed[a.header[CHANGED]++] = slot;
  }

  private keyOf(slot: number): string {
    const records = this.a.records;
    const base = slot * RECORD;
    const length = records[base];
    let key = '';
    for (let lane = 0; lane < LANES && key.length < length; lane++) {
      const bits = records[base + 1 + lane];
      for (let shift = 24; shift >= 0 && key.length < length; shift -= 6) key += BASE64URL[(bits >>> shift) & 63];
    }
    return key;
  }

  private fieldsOf(slot: number, out: EntryFields): void {
    const a = this.a;
    out[0] = a.steps[slot];
    out[1] = a.stepEnds[slot];
    out[2] = a.attempts[slot];
    out[3] = a.attemptEnds[slot];
    out[4] = a.lockEnds[slot];
  }

  /** Writes the key in `probe` and answers its hash. */
  private encode(key: string): number {
    const length = key.length;
    if (length === 0 || length > MAX_KEY_LENGTH) throw new TypeError(`a store key is 1 to ${MAX_KEY_LENGTH} base64url characters`);
    const probe = this.probe;
    let hash = length;
    probe[0] = hash;
    for (let lane = 0, i = 0; lane < LANES; lane++) {
      let bits = 0;
      for (const end = i + 5; i < end; i++) {
        const code = i < length ? key.charCodeAt(i) : 65; // past the end: 'A', 0 bits
        const sixBits = code < 128 ? SIXBITS[code] : -1;
        if (sixBits < 0) throw new TypeError(`a store key is 1 to ${MAX_KEY_LENGTH} base64url characters`);
        bits = (bits << 6) | sixBits;
      }
      probe[lane + 1] = bits;
      hash = Math.imul(hash ^ bits, 0x9e3779b1);
      hash ^= hash >>> 15;
    }
    return hash;
  }

  /** The table position of the key in `probe`, or -1. */
  private locate(hash: number): number {
    const { table, hashes, records, header } = this.a;
    const probe = this.probe;
    const mask = header[MASK];
    for (let position = hash & mask; ; position = (position + 1) & mask) {
      const reference = table[position];
      if (reference === 0) return -1;
      const slot = reference - 1;
      if (hashes[slot] !== hash) continue;
      let base = slot * RECORD;
      let lane = 0;
      while (lane < RECORD && records[base++] === probe[lane]) lane++;
      if (lane === RECORD) return position;
    }
  }

  /** The slot of the key in `probe` if it holds anything unexpired (a wholly expired entry is dropped), or -1. */
  private live(hash: number, now: number): number {
    const position = this.locate(hash);
    if (position < 0) return -1;
    const a = this.a;
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
    this.append(slot, OPEN);
    this.insert(slot);
    a.header[COUNT]++;
    return slot;
  }

  /** Makes a slot the newest of the list its protection puts it in. */
  private place(slot: number, now: number): void {
    const a = this.a;
    const list = a.lockEnds[slot] > now ? LOCKED : a.stepEnds[slot] > now ? REPLAY : OPEN;
    this.unlink(slot);
    a.lists[slot] = list;
    this.append(slot, list);
  }

  /** When the entry stops protecting anyone: its replay record and its lock have both expired. */
  private protectedUntil(slot: number): number {
    return Math.max(this.a.stepEnds[slot], this.a.lockEnds[slot]);
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
   * Frees one slot of a full store: the least recently written entry that
   * protects nobody; else a protective one whose protection has lapsed;
   * else, as `whenFull` says, the protective entry whose protection ends
   * first, or nothing (StoreFullError).
   */
  private makeRoom(now: number): void {
    const { header, newer } = this.a;
    if (header[OLDEST + OPEN] >= 0) {
      this.evict(header[OLDEST + OPEN], false);
      return;
    }
    let first = -1;
    for (let list = REPLAY; list < LISTS; list++) {
      let slot = header[OLDEST + list];
      for (let seen = 0; slot >= 0 && seen < LAPSED_LOOKAHEAD; seen++, slot = newer[slot]) {
        if (this.protectedUntil(slot) <= now) {
          this.evict(slot, false);
          return;
        }
        if (first < 0 || this.protectedUntil(slot) < this.protectedUntil(first)) first = slot;
      }
    }
    if (this.whenFull === 'refuse') {
      this.events?.refused();
      throw new StoreFullError('the embedded store is full of records that still protect someone (--store-when-full refuse)');
    }
    this.evict(first, true);
  }

  private evict(slot: number, protective: boolean): void {
    this.remove(this.positionOf(slot));
    this.events?.evicted(protective);
  }

  private insert(slot: number): void {
    const { table, header } = this.a;
    const mask = header[MASK];
    let position = this.a.hashes[slot] & mask;
    while (table[position] !== 0) position = (position + 1) & mask;
    table[position] = slot + 1;
  }

  private positionOf(slot: number): number {
    const { table, header } = this.a;
    const mask = header[MASK];
    let position = this.a.hashes[slot] & mask;
    while (table[position] !== slot + 1) position = (position + 1) & mask;
    return position;
  }

  /** Drops the entry at a table position; the entries after it in its run move back (no tombstones). */
  private remove(position: number): void {
    const { table, hashes, header, lists, free } = this.a;
    const mask = header[MASK];
    const slot = table[position] - 1;
    let hole = position;
    for (let next = (hole + 1) & mask; table[next] !== 0; next = (next + 1) & mask) {
      const home = hashes[table[next] - 1] & mask;
      const movable = next > hole ? home <= hole || home > next : home <= hole && home > next;
      if (movable) {
        table[hole] = table[next];
        hole = next;
      }
    }
    table[hole] = 0;
    this.unlink(slot);
    lists[slot] = FREE;
    free[header[FREE_COUNT]++] = slot;
    header[COUNT]--;
  }

  private unlink(slot: number): void {
    const { header, older, newer, lists } = this.a;
    const list = lists[slot];
    const before = older[slot];
    const after = newer[slot];
    if (before >= 0) newer[before] = after;
    else header[OLDEST + list] = after;
    if (after >= 0) older[after] = before;
    else header[NEWEST + list] = before;
  }

  private append(slot: number, list: number): void {
    const { header, older, newer } = this.a;
    const last = header[NEWEST + list];
    older[slot] = last;
    newer[slot] = -1;
    if (last >= 0) newer[last] = slot;
    else header[OLDEST + list] = slot;
    header[NEWEST + list] = slot;
  }

  /** An own table, moved into arrays for `capacity` slots (a shared one is made at its bound and never grows). */
  private grow(capacity: number): void {
    const old = this.a;
    const a = carve(new ArrayBuffer(bytesFor(capacity)), capacity);
    for (const name of Object.keys(a) as (keyof Arrays)[]) if (name !== 'table') (a[name] as Int32Array).set(old[name] as Int32Array);
    a.header[CAPACITY] = capacity;
    a.header[MASK] = a.table.length - 1;
    this.a = a;
    for (let list = 0; list < LISTS; list++) for (let slot = a.header[OLDEST + list]; slot >= 0; slot = a.newer[slot]) this.insert(slot);
  }

  /** Sets up an empty table in the arrays as carved for `capacity` slots. */
  private initialise(capacity: number): void {
    const header = this.a.header;
    header.fill(0, 0, OLDEST);
    header.fill(-1, OLDEST);
    header[CAPACITY] = capacity;
    header[MASK] = this.a.table.length - 1;
  }

  private reset(): void {
    const tracking = this.a.header[TRACKING];
    this.a = carve(new ArrayBuffer(bytesFor(0)), 0);
    this.initialise(0);
    this.a.header[TRACKING] = tracking;
    this.grow(Math.min(this.maxEntries, FIRST_CAPACITY));
  }
}
