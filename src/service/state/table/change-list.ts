/**
 * The list of changed entries a kept store writes behind (persistent-store.ts):
 * the slots whose entries changed, each listed once until it is taken,
 * kept in the table itself (layout.ts's `changed`, `marks` and CHANGED) so
 * that every thread sharing the table lists into the same one. Only a table
 * made to track changes (TRACKING) lists any.
 */
import { type Arrays, CHANGED, TRACKING } from './layout';

/** Lists a changed slot for the write-behind (once until it is taken). */
export function listChange(a: Arrays, slot: number): void {
  if (a.header[TRACKING] === 0 || a.marks[slot] === 1) return;
  a.marks[slot] = 1;
  a.changed[a.header[CHANGED]++] = slot;
}

/** Moves the listed slots into `into` (sized for the bound), emptying the list; answers how many. */
export function takeChanges(a: Arrays, into: Int32Array): number {
  const count = a.header[CHANGED];
  for (let i = 0; i < count; i++) {
    const slot = a.changed[i];
    into[i] = slot;
    a.marks[slot] = 0;
  }
  a.header[CHANGED] = 0;
  return count;
}
