/**
 * The embedded store's table as it lies in memory: typed arrays carved out
 * of one buffer (an ArrayBuffer, or a SharedArrayBuffer that worker threads
 * attach to), its counters included, so that threads sharing the buffer
 * share everything. What each part of the table is for is the business of
 * the modules beside this one: keys.ts (the records), hash-table.ts (the
 * positions), eviction-lists.ts (the lists), lock.ts, change-list.ts.
 */

/*
 * Each entry is one secret's record: its key, as Int32s (a tag holding the
 * key's length, then 5 base64url characters, 30 bits, per lane), the last
 * accepted step with its expiry, and the attempt count with its window's
 * end. The encoding is exact — two keys share a record only if they are the
 * same string — so no entry is ever mistaken for another's.
 */
export const LANES = 9;
export const RECORD = LANES + 1;
export const MAX_KEY_LENGTH = LANES * 5;

/** The eviction lists: entries that protect nobody, replay records, locked throttle counts. */
export const OPEN = 0;
export const REPLAY = 1;
export const LOCKED = 2;
export const LISTS = 3;
/** The list mark of a slot that holds no entry (freed, or never handed out). */
export const FREE = 3;

/** The table's counters, kept in an Int32Array so that threads sharing the table share them. */
export const LOCK = 0;
export const CAPACITY = 1;
export const COUNT = 2;
export const HANDED_OUT = 3;
export const FREE_COUNT = 4;
export const MASK = 5;
/** Slots in the list of changed entries (change-list.ts). */
export const CHANGED = 6;
/** 1 when changes are listed (a kept store), for every thread that attaches. */
export const TRACKING = 7;
/** 1 while the kept store cannot write its file: new protective records are refused (persistent-store.ts). */
export const REFUSING = 8;
/** The threadId + 1 of the thread holding the lock (0: none), so that a thread that died holding it is known. */
export const OWNER = 9;
/** The oldest and the newest slot of each eviction list (-1: empty). */
export const OLDEST = 10;
export const NEWEST = OLDEST + LISTS;
const HEADER = NEWEST + LISTS;

/** The table's arrays, carved out of one buffer. */
export interface Arrays {
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
export function bytesFor(capacity: number): number {
  return 8 * 5 * capacity + 4 * (HEADER + capacity * (RECORD + 5) + positionsFor(capacity)) + 2 * capacity;
}

/** The arrays of a table of `capacity` slots in `buffer` (of bytesFor(capacity) bytes). */
export function carve(buffer: ArrayBufferLike, capacity: number): Arrays {
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

/** Sets up an empty table in arrays carved for `capacity` slots (the TRACKING flag aside). */
export function initialise(a: Arrays, capacity: number): void {
  a.header.fill(0, 0, OLDEST);
  a.header.fill(-1, OLDEST);
  a.header[CAPACITY] = capacity;
  a.header[MASK] = a.table.length - 1;
}
