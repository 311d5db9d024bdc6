/**
 * `make bench-store`: the embedded store (src/state/memory-store.ts) alone,
 * in this process: what a write costs as the store fills and, once full,
 * evicts on every write, and what an entry costs in memory.
 *
 * Writes go as ValidatePin makes them: countAttempt on keyed hashes of
 * distinct secrets (43 base64url characters), three times the bound in all,
 * timed in tenths; every third call also records an accepted step and clears
 * the count, as a right PIN does. Memory is the growth of the heap and of
 * array buffers from an empty store to a full one, after a full collection
 * (node --expose-gc, which the make target passes).
 *
 * Settings (environment): STORE_BENCH_ENTRIES the bound (100000, the default of --store-max-entries).
 */
import { MemoryStore } from '../src/state/memory-store';
import { createStateKeyHasher } from '../src/state/keyed-hash';

const bound = Number(process.env.STORE_BENCH_ENTRIES ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (make bench-store does)');

function memory(): number {
  gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

(async () => {
  const hash = createStateKeyHasher(undefined);
  const writes = 3 * bound;
  // The keys first, so that hashing is not timed and their strings are not counted as the store's.
  const keys = Array.from({ length: writes }, (_, i) => hash(Buffer.from(`bench-store-secret-${i}`)));
  const before = memory();
  const store = new MemoryStore(bound);
  const tenth = writes / 10;
  const rows: string[] = [];
  let full = 0;
  for (let part = 0; part < 10; part++) {
    const start = process.hrtime.bigint();
    for (let i = part * tenth; i < (part + 1) * tenth; i++) {
      const key = keys[i];
      await store.countAttempt(key, 300_000, 5);
      if (i % 3 === 0) {
        await store.acceptStep(key, 1, 120_000);
        await store.clearAttempts(key);
      }
    }
    const ns = Number(process.hrtime.bigint() - start) / tenth;
    rows.push(`| ${part * 10}–${(part + 1) * 10} % | ${store.size} | ${(ns / 1000).toFixed(2)} |`);
    if (store.size === bound && full === 0) full = memory();
  }
  const bytes = (full || memory()) - before;
  console.log(`Embedded store, bound ${bound}: ${writes} calls (countAttempt; every third also acceptStep and clearAttempts)\n`);
  console.log('| calls done | entries after | µs per call |\n|---|---:|---:|');
  console.log(rows.join('\n'));
  console.log(
    `\nfull store: ${(bytes / 2 ** 20).toFixed(1)} MiB, ${(bytes / bound).toFixed(0)} bytes per entry (heap + array buffers, after gc)`,
  );
  if (store.size !== bound) throw new Error(`the store holds ${store.size} entries, not its bound ${bound}`);
})();
