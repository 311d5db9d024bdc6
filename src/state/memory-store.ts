import { type AttemptCount, type StateStore, type StoreEvents, StoreFullError, type WhenFull } from './store';

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
/** A protective entry checked past the head of its list, when the store is full, for protection that has lapsed. */
const LAPSED_LOOKAHEAD = 8;

/** The eviction lists: entries that protect nobody, replay records, locked throttle counts. */
const OPEN = 0;
const REPLAY = 1;
const LOCKED = 2;
const LISTS = 3;
/** The list mark of a slot that holds no entry (freed, or never handed out). */
const FREE = 3;

/** An entry's fields, in this order, as read() writes them and restore() takes them. */
export const ENTRY_FIELDS = 5;
export type EntryFields = Float64Array;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const SIXBITS = new Int8Array(128).fill(-1);
for (const [i, c] of [...BASE64URL].entries()) SIXBITS[c.charCodeAt(0)] = i;

export interface MemoryStoreOptions {
  /** When every entry left protects someone: drop the one whose protection ends first (evict), or refuse new secrets (refuse). */
  whenFull?: WhenFull;
  events?: StoreEvents;
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
 */
export class MemoryStore implements StateStore {
  private capacity = 0;
  private count = 0;
  private handedOut = 0;
  private freeCount = 0;
  private mask = 0;
  private records = new Int32Array(0);
  private hashes = new Int32Array(0);
  /** The last accepted step, and when its record expires (0: none). */
  private steps = new Float64Array(0);
  private stepEnds = new Float64Array(0);
  /** Attempts in the window, when the window ends (0: none), and the same end once the count has reached the lock (else 0). */
  private attempts = new Float64Array(0);
  private attemptEnds = new Float64Array(0);
  private lockEnds = new Float64Array(0);
  private lists = new Uint8Array(0);
  private older = new Int32Array(0);
  private newer = new Int32Array(0);
  private free = new Int32Array(0);
  /** Slot + 1 per position; 0 is empty. */
  private table = new Int32Array(0);
  private readonly oldest = new Int32Array(LISTS).fill(-1);
  private readonly newest = new Int32Array(LISTS).fill(-1);
  /** The record of the key being looked up. */
  private readonly probe = new Int32Array(RECORD);
  private readonly whenFull: WhenFull;
  private readonly events: StoreEvents | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
    options: MemoryStoreOptions = {},
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.whenFull = options.whenFull ?? 'evict';
    this.events = options.events;
    this.reset();
  }

  /** Entries held: one per secret with a replay record or an attempt count. */
  get size(): number {
    return this.count;
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
    const now = this.now();
    let slot = this.live(hash, now);
    if (slot >= 0 && this.stepEnds[slot] > now && this.steps[slot] >= step) return false;
    if (slot < 0) slot = this.add(hash, now);
    this.steps[slot] = step;
    this.stepEnds[slot] = now + ttlMs;
    this.place(slot, now);
    return true;
  }

  /** countAttempt, answered at once. */
  countAttemptNow(key: string, windowMs: number, lockAt: number): AttemptCount {
    const hash = this.encode(key);
    const now = this.now();
    let slot = this.live(hash, now);
    if (slot < 0) slot = this.add(hash, now);
    if (this.attemptEnds[slot] > now) this.attempts[slot]++;
    else {
      this.attempts[slot] = 1;
      this.attemptEnds[slot] = now + windowMs;
    }
    this.lockEnds[slot] = this.attempts[slot] >= lockAt ? this.attemptEnds[slot] : 0;
    this.place(slot, now);
    return { attempts: this.attempts[slot], resetInMs: this.attemptEnds[slot] - now };
  }

  /** clearAttempts, done at once. */
  clearAttemptsNow(key: string): void {
    const position = this.locate(this.encode(key));
    if (position < 0) return;
    const slot = this.table[position] - 1;
    const now = this.now();
    if (this.stepEnds[slot] <= now) {
      this.remove(position);
      return;
    }
    this.attempts[slot] = this.attemptEnds[slot] = this.lockEnds[slot] = 0;
    this.place(slot, now);
  }

  /**
   * Writes the key's fields into `out` (step, its record's end, attempts,
   * their window's end, the lock's end) and answers true, or answers false
   * when the store holds nothing unexpired for it. For the write-behind
   * (persistent-store.ts): it changes nothing, not even the eviction order.
   */
  read(key: string, out: EntryFields): boolean {
    const position = this.locate(this.encode(key));
    if (position < 0) return false;
    const slot = this.table[position] - 1;
    const now = this.now();
    if (this.stepEnds[slot] <= now && this.attemptEnds[slot] <= now) return false;
    this.fieldsOf(slot, out);
    return true;
  }

  /**
   * Sets the key's fields as read() wrote them (loading saved state): a new
   * entry is made room for by the same rules as a call's; fields that have
   * all expired drop the entry.
   */
  restore(key: string, fields: EntryFields): void {
    const hash = this.encode(key);
    const now = this.now();
    const position = this.locate(hash);
    if (fields[1] <= now && fields[3] <= now) {
      if (position >= 0) this.remove(position);
      return;
    }
    const slot = position >= 0 ? this.table[position] - 1 : this.add(hash, now);
    [this.steps[slot], this.stepEnds[slot], this.attempts[slot], this.attemptEnds[slot], this.lockEnds[slot]] = fields;
    this.place(slot, now);
  }

  /** Slots handed out so far: entryAt() takes 0 to this, less one. */
  get slots(): number {
    return this.handedOut;
  }

  /** The key of the entry in `slot`, its fields written into `out`; undefined when the slot holds nothing unexpired. */
  entryAt(slot: number, out: EntryFields): string | undefined {
    if (slot >= this.handedOut || this.lists[slot] === FREE) return undefined;
    const now = this.now();
    if (this.stepEnds[slot] <= now && this.attemptEnds[slot] <= now) return undefined;
    this.fieldsOf(slot, out);
    const base = slot * RECORD;
    const length = this.records[base];
    let key = '';
    for (let lane = 0; lane < LANES && key.length < length; lane++) {
      const bits = this.records[base + 1 + lane];
      for (let shift = 24; shift >= 0 && key.length < length; shift -= 6) key += BASE64URL[(bits >>> shift) & 63];
    }
    return key;
  }

  async ping(): Promise<void> {}

  async waitUntilReady(): Promise<boolean> {
    return true;
  }

  async warnings(): Promise<string[]> {
    return [];
  }

  async close(): Promise<void> {
    this.reset();
  }

  private fieldsOf(slot: number, out: EntryFields): void {
    out[0] = this.steps[slot];
    out[1] = this.stepEnds[slot];
    out[2] = this.attempts[slot];
    out[3] = this.attemptEnds[slot];
    out[4] = this.lockEnds[slot];
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
    const { table, hashes, records, probe, mask } = this;
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
    const slot = this.table[position] - 1;
    if (this.stepEnds[slot] > now || this.attemptEnds[slot] > now) return slot;
    this.remove(position);
    return -1;
  }

  /** A new, empty entry for the key in `probe`; makes room first when the store is full. */
  private add(hash: number, now: number): number {
    const slot = this.allocate(now);
    this.records.set(this.probe, slot * RECORD);
    this.hashes[slot] = hash;
    this.steps[slot] = this.stepEnds[slot] = this.attempts[slot] = this.attemptEnds[slot] = this.lockEnds[slot] = 0;
    this.lists[slot] = OPEN;
    this.append(slot, OPEN);
    this.insert(slot);
    this.count++;
    return slot;
  }

  /** Makes a slot the newest of the list its protection puts it in. */
  private place(slot: number, now: number): void {
    const list = this.lockEnds[slot] > now ? LOCKED : this.stepEnds[slot] > now ? REPLAY : OPEN;
    this.unlink(slot);
    this.lists[slot] = list;
    this.append(slot, list);
  }

  /** When the entry stops protecting anyone: its replay record and its lock have both expired. */
  private protectedUntil(slot: number): number {
    return Math.max(this.stepEnds[slot], this.lockEnds[slot]);
  }

  private allocate(now: number): number {
    if (this.freeCount > 0) return this.free[--this.freeCount];
    if (this.handedOut < this.capacity) return this.handedOut++;
    if (this.capacity < this.maxEntries) {
      this.grow(Math.min(this.maxEntries, this.capacity * 2));
      return this.handedOut++;
    }
    this.makeRoom(now);
    return this.free[--this.freeCount];
  }

  /**
   * Frees one slot of a full store: the least recently written entry that
   * protects nobody; else a protective one whose protection has lapsed;
   * else, as `whenFull` says, the protective entry whose protection ends
   * first, or nothing (StoreFullError).
   */
  private makeRoom(now: number): void {
    if (this.oldest[OPEN] >= 0) {
      this.evict(this.oldest[OPEN], false);
      return;
    }
    let first = -1;
    for (let list = REPLAY; list < LISTS; list++) {
      let slot = this.oldest[list];
      for (let seen = 0; slot >= 0 && seen < LAPSED_LOOKAHEAD; seen++, slot = this.newer[slot]) {
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
    const { table, mask } = this;
    let position = this.hashes[slot] & mask;
    while (table[position] !== 0) position = (position + 1) & mask;
    table[position] = slot + 1;
  }

  private positionOf(slot: number): number {
    const { table, mask } = this;
    let position = this.hashes[slot] & mask;
    while (table[position] !== slot + 1) position = (position + 1) & mask;
    return position;
  }

  /** Drops the entry at a table position; the entries after it in its run move back (no tombstones). */
  private remove(position: number): void {
    const { table, hashes, mask } = this;
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
    this.lists[slot] = FREE;
    this.free[this.freeCount++] = slot;
    this.count--;
  }

  private unlink(slot: number): void {
    const list = this.lists[slot];
    const before = this.older[slot];
    const after = this.newer[slot];
    if (before >= 0) this.newer[before] = after;
    else this.oldest[list] = after;
    if (after >= 0) this.older[after] = before;
    else this.newest[list] = before;
  }

  private append(slot: number, list: number): void {
    const last = this.newest[list];
    this.older[slot] = last;
    this.newer[slot] = -1;
    if (last >= 0) this.newer[last] = slot;
    else this.oldest[list] = slot;
    this.newest[list] = slot;
  }

  private grow(capacity: number): void {
    const grown = <T extends Int32Array | Float64Array | Uint8Array>(old: T, length: number): T => {
      const array = new (old.constructor as new (length: number) => T)(length);
      array.set(old);
      return array;
    };
    this.records = grown(this.records, capacity * RECORD);
    this.hashes = grown(this.hashes, capacity);
    this.steps = grown(this.steps, capacity);
    this.stepEnds = grown(this.stepEnds, capacity);
    this.attempts = grown(this.attempts, capacity);
    this.attemptEnds = grown(this.attemptEnds, capacity);
    this.lockEnds = grown(this.lockEnds, capacity);
    this.lists = grown(this.lists, capacity);
    this.older = grown(this.older, capacity);
    this.newer = grown(this.newer, capacity);
    this.free = grown(this.free, capacity);
    this.capacity = capacity;
    let positions = 2;
    while (positions < 2 * capacity) positions *= 2;
    this.table = new Int32Array(positions);
    this.mask = positions - 1;
    for (let list = 0; list < LISTS; list++) for (let slot = this.oldest[list]; slot >= 0; slot = this.newer[slot]) this.insert(slot);
  }

  private reset(): void {
    this.capacity = this.count = this.handedOut = this.freeCount = 0;
    this.oldest.fill(-1);
    this.newest.fill(-1);
    this.records = new Int32Array(0);
    this.hashes = new Int32Array(0);
    this.steps = new Float64Array(0);
    this.stepEnds = new Float64Array(0);
    this.attempts = new Float64Array(0);
    this.attemptEnds = new Float64Array(0);
    this.lockEnds = new Float64Array(0);
    this.lists = new Uint8Array(0);
    this.older = new Int32Array(0);
    this.newer = new Int32Array(0);
    this.free = new Int32Array(0);
    this.grow(Math.min(this.maxEntries, FIRST_CAPACITY));
  }
}
