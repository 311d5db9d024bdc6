/**
 * The embedded store alone, in this process, with the calls of a ValidatePin on a new secret each (countAttempt;
 * every third also acceptStep and clearAttempts, as a right PIN does), on keyed hashes made before the clock
 * starts.
 *
 * `make bench-store` (src/service/state/memory-store.ts): µs per call as the store fills and, once full, evicts on every
 * call (three times the bound, timed in tenths), and bytes per entry: the growth of the heap and of array buffers
 * from an empty store to a full one, after a full collection.
 *
 * `make bench-state-file` (argument `kept`, src/service/state/persistent-store.ts): CPU per call of the store kept in its
 * state directory against the volatile one, in interleaved rounds (the kept one flushed every 400 calls, a 50 ms
 * batch at ~8 000 calls a second; SQLite's writes included); the directory's bytes once filled to the bound and
 * written over twice more; the start-up that opens it again.
 *
 * STORE_BENCH_ENTRIES: the bound (100000, the default of --store-max-entries).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPersistentStore } from '../src/service/state/index';
import { createStateKeyHasher } from '../src/service/state/keyed-hash';
import { MemoryStore } from '../src/service/state/memory-store';
import type { StateStore } from '../src/service/state/store';

const bound = Number(process.env.STORE_BENCH_ENTRIES ?? 100_000);
const STATE_KEY = 'bench-store-key-of-at-least-thirty-two-characters';
const hash = createStateKeyHasher(STATE_KEY);
let secrets = 0;
const newKeys = (n: number) => Array.from({ length: n }, () => hash(Buffer.from(`bench-store-secret-${secrets++}`)));
const cpuMicros = () => (({ user, system }) => user + system)(process.cpuUsage());
const gc = (globalThis as { gc?: () => void }).gc;

async function calls(store: StateStore, keys: string[], flush?: () => void): Promise<void> {
  for (let i = 0; i < keys.length; i++) {
    await store.countAttempt(keys[i], 300_000, 5);
    if (i % 3 === 0) {
      await store.acceptStep(keys[i], 1, 120_000);
      await store.clearAttempts(keys[i]);
    }
    if (flush && i % 400 === 399) flush();
  }
  flush?.();
}

/** µs per call as the store fills and evicts, and bytes per entry. */
async function fillAndEvict(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc (make bench-store does)');
  const memory = () => {
    gc();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  };
  const tenth = (3 * bound) / 10;
  const parts = Array.from({ length: 10 }, () => newKeys(tenth));
  const before = memory();
  const store = new MemoryStore(bound);
  console.log(`Embedded store, bound ${bound}: ${3 * bound} calls\n\n| calls done | entries after | µs per call |\n|---|---:|---:|`);
  let full = 0;
  for (const [part, keys] of parts.entries()) {
    const start = process.hrtime.bigint();
    await calls(store, keys);
    console.log(
      `| ${part * 10}–${(part + 1) * 10} % | ${store.size} | ${(Number(process.hrtime.bigint() - start) / tenth / 1000).toFixed(2)} |`,
    );
    if (store.size === bound && full === 0) full = memory();
  }
  if (store.size !== bound) throw new Error(`the store holds ${store.size} entries, not its bound ${bound}`);
  const bytes = full - before;
  console.log(
    `\nfull store: ${(bytes / 2 ** 20).toFixed(1)} MiB, ${(bytes / bound).toFixed(0)} bytes per entry (heap + array buffers, after gc)`,
  );
}

/** What keeping the store in its state directory costs: CPU per call, disk, start-up. */
async function keptAgainstVolatile(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-state-file-'));
  const settings = { storeMaxEntries: bound, storeWhenFull: 'evict' as const, stateDir: dir, stateKey: STATE_KEY };
  try {
    const volatile = new MemoryStore(bound);
    const kept = openPersistentStore(settings).store;
    const cpu: Record<'volatile' | 'kept', number[]> = { volatile: [], kept: [] };
    for (let round = 0; round < 10; round++) {
      const [a, b] = [newKeys(20_000), newKeys(20_000)];
      let start = cpuMicros();
      await calls(volatile, a);
      cpu.volatile.push((cpuMicros() - start) / a.length);
      start = cpuMicros();
      await calls(kept, b, () => kept.flush());
      cpu.kept.push((cpuMicros() - start) / b.length);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
    const cell = (xs: number[]) => `${median(xs).toFixed(2)} | ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
    console.log(`Embedded store, bound ${bound}: CPU per call (a new secret each), median of 10 interleaved rounds of 20000\n`);
    console.log(`| store | µs per call | rounds (min–max) |\n|---|---:|---:|\n| memory (volatile) | ${cell(cpu.volatile)} |`);
    console.log(`| embedded (kept, flushed every 400 calls) | ${cell(cpu.kept)} |\n`);
    console.log(`keeping costs ${(median(cpu.kept) - median(cpu.volatile)).toFixed(2)} µs per call`);
    for (let done = 0; done < 3 * bound; done += 20_000) await calls(kept, newKeys(Math.min(20_000, 3 * bound - done)), () => kept.flush());
    const entries = kept.size;
    await kept.close();
    const bytes = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    console.log(
      `\nstate directory after ${3 * bound} calls: ${entries} entries, ${(bytes / 2 ** 20).toFixed(1)} MiB (${(bytes / entries).toFixed(0)} bytes per entry)`,
    );
    const [start, cpuStart] = [process.hrtime.bigint(), cpuMicros()];
    const reopened = openPersistentStore(settings).store;
    const [ms, cpuMs] = [Number(process.hrtime.bigint() - start) / 1e6, (cpuMicros() - cpuStart) / 1000];
    console.log(`start-up: ${reopened.size} entries loaded in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms of CPU)`);
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

(process.argv[2] === 'kept' ? keptAgainstVolatile() : fillAndEvict()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
