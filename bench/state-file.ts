/**
 * `make bench-state-file`: what keeping the embedded store in its state
 * directory costs (src/state/persistent-store.ts), in this process.
 *
 * 1. CPU per call, kept against volatile: the calls of a ValidatePin with a
 *    new secret each (countAttempt; every third also acceptStep and
 *    clearAttempts, as a right PIN does), on a MemoryStore and on a
 *    PersistentStore in interleaved rounds, the kept one flushed every
 *    FLUSH_EVERY calls (a 50 ms batch at ~8 000 calls a second). CPU is the
 *    process's (user + system: SQLite's writes included); the figure is the
 *    median of the rounds.
 * 2. Disk: the state directory's bytes once the store has been filled to
 *    its bound and written over twice more (the log folded as it runs).
 * 3. Start-up: opening that directory again (loading every entry), wall and CPU time.
 *
 * Settings (environment): STORE_BENCH_ENTRIES the bound (100000, the default of --store-max-entries).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPersistentStore } from '../src/state';
import { createStateKeyHasher } from '../src/state/keyed-hash';
import { MemoryStore } from '../src/state/memory-store';
import type { StateStore } from '../src/state/store';

const bound = Number(process.env.STORE_BENCH_ENTRIES ?? 100_000);
const ROUNDS = 10;
const CALLS_PER_ROUND = 20_000;
const FLUSH_EVERY = 400;
const STATE_KEY = 'bench-state-file-key-of-thirty-two-characters';

const hash = createStateKeyHasher(STATE_KEY);
let secrets = 0;
const freshKey = () => hash(Buffer.from(`bench-state-file-secret-${secrets++}`));
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function calls(store: StateStore, keys: string[], flush?: () => void): Promise<void> {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    await store.countAttempt(key, 300_000, 5);
    if (i % 3 === 0) {
      await store.acceptStep(key, 1, 120_000);
      await store.clearAttempts(key);
    }
    if (flush && i % FLUSH_EVERY === FLUSH_EVERY - 1) flush();
  }
  flush?.();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function directoryBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-state-file-'));
  const settings = { storeMaxEntries: bound, storeWhenFull: 'evict' as const, stateDir: dir, stateKey: STATE_KEY };
  try {
    const volatile = new MemoryStore(bound);
    const kept = openPersistentStore(settings).store;
    const volatileCpu: number[] = [];
    const keptCpu: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // The keys of both halves first, so that hashing is not timed.
      const a = Array.from({ length: CALLS_PER_ROUND }, freshKey);
      const b = Array.from({ length: CALLS_PER_ROUND }, freshKey);
      let start = cpuMicros();
      await calls(volatile, a);
      volatileCpu.push((cpuMicros() - start) / CALLS_PER_ROUND);
      start = cpuMicros();
      await calls(kept, b, () => kept.flush());
      keptCpu.push((cpuMicros() - start) / CALLS_PER_ROUND);
    }
    const v = median(volatileCpu);
    const k = median(keptCpu);
    console.log(
      `Embedded store, bound ${bound}: CPU per call (a new secret each), median of ${ROUNDS} interleaved rounds of ${CALLS_PER_ROUND}\n`,
    );
    console.log('| store | µs per call | rounds (min–max) |\n|---|---:|---:|');
    console.log(`| memory (volatile) | ${v.toFixed(2)} | ${Math.min(...volatileCpu).toFixed(2)}–${Math.max(...volatileCpu).toFixed(2)} |`);
    console.log(
      `| embedded (kept, flushed every ${FLUSH_EVERY} calls) | ${k.toFixed(2)} | ${Math.min(...keptCpu).toFixed(2)}–${Math.max(...keptCpu).toFixed(2)} |`,
    );
    console.log(`\nkeeping costs ${(k - v).toFixed(2)} µs per call`);

    // Fill to the bound and write it over twice more, flushing as the service does.
    const fill = 3 * bound;
    for (let done = 0; done < fill; done += CALLS_PER_ROUND) {
      await calls(kept, Array.from({ length: Math.min(CALLS_PER_ROUND, fill - done) }, freshKey), () => kept.flush());
    }
    const entries = kept.size;
    await kept.close();
    const bytes = directoryBytes(dir);
    console.log(
      `\nstate directory after ${fill} calls: ${entries} entries, ${(bytes / 2 ** 20).toFixed(1)} MiB (${(bytes / entries).toFixed(0)} bytes per entry)`,
    );
    const start = process.hrtime.bigint();
    const cpuStart = cpuMicros();
    const reopened = openPersistentStore(settings).store;
    const cpuMs = (cpuMicros() - cpuStart) / 1000;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    console.log(`start-up: ${reopened.size} entries loaded in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms of CPU)`);
    await reopened.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();
