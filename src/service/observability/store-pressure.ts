/**
 * What an operator sees of the embedded store's bound: how full it is, what
 * it evicted (records that protected nobody, or ones that did), and the new
 * secrets it refused. Protective evictions and refusals also make one
 * warning log line, at most one a minute with the counts since the last,
 * never one per call. What a store found at start is a warning line each.
 */
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Config } from '../config';
import type { StoreObserver } from '../state/index';
import type { StateStore } from '../state/store';

/** What the store found at start (a state file its last run did not close, a Redis that evicts): a warning line each. */
export async function logStoreWarnings(store: StateStore, logger: Logger): Promise<void> {
  for (const warning of await store.warnings().catch(() => [])) logger.warn({ event: 'store-warning' }, warning);
}

export function storePressure(
  registry: Registry,
  logger: Logger,
  config: Pick<Config, 'storeMaxEntries' | 'storeWhenFull'>,
  { now = Date.now, warningIntervalMs = 60_000 }: { now?: () => number; warningIntervalMs?: number } = {},
): StoreObserver {
  let size: () => number = () => 0;
  new Gauge({
    name: 'pin_store_entries',
    help: 'Entries in the embedded store (one per secret with a replay record or an attempt count)',
    registers: [registry],
    collect() {
      this.set(size());
    },
  });
  const evictions = new Counter({
    name: 'pin_store_evictions_total',
    help: 'Entries the full embedded store dropped to make room: unprotective (an attempt count below the lock, or expired), protective (a replay record or a locked count)',
    labelNames: ['kind'],
    registers: [registry],
  });
  const unprotective = evictions.labels('unprotective');
  const protective = evictions.labels('protective');
  // Both series from the start, so that a rate over them is defined before the first eviction.
  unprotective.inc(0);
  protective.inc(0);
  const refusals = new Counter({
    name: 'pin_store_refusals_total',
    help: 'ValidatePin calls for new secrets refused (failed closed) because the embedded store held only protective records (--store-when-full refuse)',
    registers: [registry],
  });

  // Counts since the last warning line, and when it was written.
  let evicted = 0;
  let refused = 0;
  let lastWarning = -Infinity;
  let pending: NodeJS.Timeout | undefined;
  const warn = () => {
    pending = undefined;
    lastWarning = now();
    logger.warn(
      {
        event: 'store-full',
        protectiveEvictions: evicted,
        refusals: refused,
        maxEntries: config.storeMaxEntries,
        whenFull: config.storeWhenFull,
      },
      config.storeWhenFull === 'refuse'
        ? 'the embedded store is full of records that still protect someone: new secrets are refused (raise --store-max-entries)'
        : 'the embedded store is full of records that still protect someone: it evicts replay records and locked counts (raise --store-max-entries, or --store-when-full refuse)',
    );
    evicted = refused = 0;
  };
  const noteTrouble = () => {
    if (pending) return;
    const wait = lastWarning + warningIntervalMs - now();
    if (wait <= 0) warn();
    else pending = setTimeout(warn, wait).unref();
  };

  const writeFailures = new Counter({
    name: 'pin_store_write_failures_total',
    help: 'Times the embedded store began failing to write its state file (a full disk, say); while it fails, ValidatePin fails closed',
    registers: [registry],
  });
  writeFailures.inc(0);

  return {
    writeFailed(reason) {
      writeFailures.inc();
      logger.error(
        { event: 'store-write-failed', reason },
        'the embedded store cannot write its state file: ValidatePin fails closed until it can (free space in the state directory)',
      );
    },
    writeRecovered() {
      logger.warn({ event: 'store-write-recovered' }, 'the embedded store writes its state file again');
    },
    watchSize(read) {
      size = read;
    },
    evicted(isProtective) {
      if (!isProtective) return unprotective.inc();
      protective.inc();
      evicted++;
      noteTrouble();
    },
    refused() {
      refusals.inc();
      refused++;
      noteTrouble();
    },
  };
}
