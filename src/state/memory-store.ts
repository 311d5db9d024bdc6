import type { AttemptCount, StateStore } from './store';

/*
 * Each entry is one record of Int32s: a tag (the key's length and the
 * entry's kind) and the key itself, 5 base64url characters (30 bits) per
 * lane. That encoding is exact — two keys share a record only if they are
 * the same string — so no entry is ever mistaken for another's.
 */
const LANES = 9;
const RECORD = LANES + 1;
const MAX_KEY_LENGTH = LANES * 5;
const STEP = 0;
const ATTEMPTS = 1;
const FIRST_CAPACITY = 1024;

const SIXBITS = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].forEach((c, i) => (SIXBITS[c.charCodeAt(0)] = i));

/**
 * The embedded store: in-process, no server. Bounded, so that a flood of
 * distinct secrets evicts the least recently written entries instead of
 * exhausting memory. Only a write makes an entry recent; expiry is the
 * entry's own, checked against the injected clock when it is read.
 *
 * Entries live in typed arrays, not in JavaScript objects: an open-addressing
 * hash table (linear probing, deletion by backward shift, at most half full)
 * over slots that hold the key, value and expiry and a doubly linked list
 * in write order. Every operation costs the same at any fill, and a full
 * store that evicts on every write allocates nothing, so it gives the
 * garbage collector no work; the arrays double as the store fills, up to the
 * bound (about 80 bytes an entry; bench/store.ts measures both). Keys are
 * keyed hashes (keyed-hash.ts) that no caller can choose, so no caller can
 * crowd one part of the table either.
 */
export class MemoryStore implements StateStore {
  private capacity = 0;
  private count = 0;
  private handedOut = 0;
  private freeCount = 0;
  private oldest = -1;
  private newest = -1;
  private mask = 0;
  private records = new Int32Array(0);
  private hashes = new Int32Array(0);
  private values = new Float64Array(0);
  private expiries = new Float64Array(0);
  private older = new Int32Array(0);
  private newer = new Int32Array(0);
  private free = new Int32Array(0);
  /** Slot + 1 per position; 0 is empty. */
  private table = new Int32Array(0);
  /** The record of the key being looked up. */
  private readonly probe = new Int32Array(RECORD);

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
    this.reset();
  }

  get size(): number {
    return this.count;
  }

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    const hash = this.encode(STEP, key);
    const now = this.now();
    const slot = this.live(hash, now);
    if (slot >= 0 && this.values[slot] >= step) return false;
    this.write(slot, hash, step, now + ttlMs);
    return true;
  }

  async countAttempt(key: string, windowMs: number): Promise<AttemptCount> {
    const hash = this.encode(ATTEMPTS, key);
    const now = this.now();
    let slot = this.live(hash, now);
    slot = slot >= 0 ? this.write(slot, hash, this.values[slot] + 1, this.expiries[slot]) : this.write(-1, hash, 1, now + windowMs);
    return { attempts: this.values[slot], resetInMs: this.expiries[slot] - now };
  }

  async clearAttempts(key: string): Promise<void> {
    const position = this.locate(this.encode(ATTEMPTS, key));
    if (position >= 0) this.remove(position);
  }

  async ping(): Promise<void> {}

  async waitUntilReady(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.reset();
  }

  /** Writes the key in `probe` and answers its hash. */
  private encode(kind: number, key: string): number {
    const length = key.length;
    if (length === 0 || length > MAX_KEY_LENGTH) throw new TypeError(`a store key is 1 to ${MAX_KEY_LENGTH} base64url characters`);
    const probe = this.probe;
    let hash = (length << 1) | kind;
    probe[0] = hash;
    for (let lane = 0, i = 0; lane < LANES; lane++) {
      let bits = 0;
      for (const end = i + 5; i < end; i++) {
        const code = i < length ? key.charCodeAt(i) : 65; // past the end: 'A', 0 bits
        const sixBits = code < 128 ? SIXBITS[code] : -1;
        if (sixBits < 0) throw new TypeError('a store key is 1 to 45 base64url characters');
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

  /** The slot of the key in `probe` if it is there and not expired (an expired one is dropped), or -1. */
  private live(hash: number, now: number): number {
    const position = this.locate(hash);
    if (position < 0) return -1;
    const slot = this.table[position] - 1;
    if (this.expiries[slot] > now) return slot;
    this.remove(position);
    return -1;
  }

  /** Sets a slot's value and expiry and makes it the newest; slot -1 adds the key in `probe`. Answers the slot. */
  private write(slot: number, hash: number, value: number, expiresAt: number): number {
    if (slot < 0) {
      slot = this.allocate();
      this.records.set(this.probe, slot * RECORD);
      this.hashes[slot] = hash;
      this.insert(slot);
      this.count++;
    } else {
      this.unlink(slot);
    }
    this.values[slot] = value;
    this.expiries[slot] = expiresAt;
    this.append(slot);
    return slot;
  }

  private allocate(): number {
    if (this.freeCount > 0) return this.free[--this.freeCount];
    if (this.handedOut === this.capacity) {
      if (this.capacity < this.maxEntries) this.grow(Math.min(this.maxEntries, this.capacity * 2));
      else {
        this.remove(this.positionOf(this.oldest));
        return this.free[--this.freeCount];
      }
    }
    return this.handedOut++;
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
    this.free[this.freeCount++] = slot;
    this.count--;
  }

  private unlink(slot: number): void {
    const before = this.older[slot];
    const after = this.newer[slot];
    if (before >= 0) this.newer[before] = after;
    else this.oldest = after;
    if (after >= 0) this.older[after] = before;
    else this.newest = before;
  }

  private append(slot: number): void {
    this.older[slot] = this.newest;
    this.newer[slot] = -1;
    if (this.newest >= 0) this.newer[this.newest] = slot;
    else this.oldest = slot;
    this.newest = slot;
  }

  private grow(capacity: number): void {
    const grown = <T extends Int32Array | Float64Array>(old: T, length: number): T => {
      const array = new (old.constructor as new (length: number) => T)(length);
      array.set(old);
      return array;
    };
    this.records = grown(this.records, capacity * RECORD);
    this.hashes = grown(this.hashes, capacity);
    this.values = grown(this.values, capacity);
    this.expiries = grown(this.expiries, capacity);
    this.older = grown(this.older, capacity);
    this.newer = grown(this.newer, capacity);
    this.free = grown(this.free, capacity);
    this.capacity = capacity;
    let positions = 2;
    while (positions < 2 * capacity) positions *= 2;
    this.table = new Int32Array(positions);
    this.mask = positions - 1;
    for (let slot = this.oldest; slot >= 0; slot = this.newer[slot]) this.insert(slot);
  }

  private reset(): void {
    this.capacity = this.count = this.handedOut = this.freeCount = 0;
    this.oldest = this.newest = -1;
    this.records = new Int32Array(0);
    this.hashes = new Int32Array(0);
    this.values = new Float64Array(0);
    this.expiries = new Float64Array(0);
    this.older = new Int32Array(0);
    this.newer = new Int32Array(0);
    this.free = new Int32Array(0);
    this.grow(Math.min(this.maxEntries, FIRST_CAPACITY));
  }
}
