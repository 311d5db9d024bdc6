/**
 * The table's index of its slots: an open-addressing hash table (linear
 * probing, at most half full, deletion by backward shift so that no
 * tombstone is left) whose positions hold slot + 1 (0: empty), over the
 * records and hashes of layout.ts. Every operation costs the same at any
 * fill, and none allocates.
 */
import { type Arrays, MASK, RECORD } from './layout';

/** The position of the key whose record `probe` holds (keys.ts: encodeKey, which gave `hash`), or -1. */
export function locate(a: Arrays, probe: Int32Array, hash: number): number {
  const { table, hashes, records, header } = a;
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

/** Places `slot` (its hash already in `hashes`) at the first free position of its run. */
export function insert(a: Arrays, slot: number): void {
  const { table, header } = a;
  const mask = header[MASK];
  let position = a.hashes[slot] & mask;
  while (table[position] !== 0) position = (position + 1) & mask;
  table[position] = slot + 1;
}

/** The position that holds `slot`. */
export function positionOf(a: Arrays, slot: number): number {
  const { table, header } = a;
  const mask = header[MASK];
  let position = a.hashes[slot] & mask;
  while (table[position] !== slot + 1) position = (position + 1) & mask;
  return position;
}

/** Empties a position, the positions after it in its run moving back; answers the slot it held. */
export function unplace(a: Arrays, position: number): number {
  const { table, hashes, header } = a;
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
  return slot;
}
