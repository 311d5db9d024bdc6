/**
 * The order in which a full table gives up its entries: three doubly linked
 * lists of slots in write order (layout.ts's OPEN, REPLAY, LOCKED), each
 * entry in the one its protection puts it in, so that entries that protect
 * nobody go first, least recently written first, and replay records and
 * locked counts only after them. Links live in the table's arrays: nothing
 * is allocated.
 */
import { type Arrays, LISTS, LOCKED, NEWEST, OLDEST, OPEN, REPLAY } from './layout';

/** A protective entry checked past the head of its list, when the store is full, for protection that has lapsed. */
const LAPSED_LOOKAHEAD = 8;

/** Takes `slot` out of its list. */
export function unlink(a: Arrays, slot: number): void {
  const { header, older, newer, lists } = a;
  const list = lists[slot];
  const before = older[slot];
  const after = newer[slot];
  if (before >= 0) newer[before] = after;
  else header[OLDEST + list] = after;
  if (after >= 0) older[after] = before;
  else header[NEWEST + list] = before;
}

/** Makes `slot` the newest of `list`. */
export function append(a: Arrays, slot: number, list: number): void {
  const { header, older, newer } = a;
  const last = header[NEWEST + list];
  older[slot] = last;
  newer[slot] = -1;
  if (last >= 0) newer[last] = slot;
  else header[OLDEST + list] = slot;
  header[NEWEST + list] = slot;
}

/** Makes a slot the newest of the list its protection puts it in. */
export function place(a: Arrays, slot: number, now: number): void {
  const list = a.lockEnds[slot] > now ? LOCKED : a.stepEnds[slot] > now ? REPLAY : OPEN;
  unlink(a, slot);
  a.lists[slot] = list;
  append(a, slot, list);
}

/** When the entry stops protecting anyone: its replay record and its lock have both expired. */
function protectedUntil(a: Arrays, slot: number): number {
  return Math.max(a.stepEnds[slot], a.lockEnds[slot]);
}

/**
 * The entry a full table gives up: `slot` when it protects nobody (the least
 * recently written such entry, else a protective one whose protection has
 * lapsed), or `~slot` (negative) when every entry looked at still protects
 * someone: the one whose protection ends first, which only the store's
 * `whenFull` may evict.
 */
export function evictionCandidate(a: Arrays, now: number): number {
  const { header, newer } = a;
  if (header[OLDEST + OPEN] >= 0) return header[OLDEST + OPEN];
  let first = -1;
  for (let list = REPLAY; list < LISTS; list++) {
    let slot = header[OLDEST + list];
    for (let seen = 0; slot >= 0 && seen < LAPSED_LOOKAHEAD; seen++, slot = newer[slot]) {
      if (protectedUntil(a, slot) <= now) return slot;
      if (first < 0 || protectedUntil(a, slot) < protectedUntil(a, first)) first = slot;
    }
  }
  return ~first;
}
