import { MemoryStore, type MemoryStoreOptions } from './memory-store';
import { KeptStore, type PersistenceEvents, PersistentStore } from './persistent-store';
import { openStateDirectory, stateDirectoryPath } from './state-directory';
import type { StateStore, StoreEvents, WhenFull } from './store';

export type { StateStore } from './store';

/** The settings a store is made from (config.ts's, by the same names). */
export interface StoreSettings {
  /** `embedded` (kept in the state directory), `memory` (volatile), or a Redis URL (redis-url.ts: one server, Sentinel or Cluster). */
  store: string;
  /** The embedded store's directory (default: state-directory.ts). */
  stateDir: string | undefined;
  stateKey: string | undefined;
  storeMaxEntries: number;
  storeWhenFull: WhenFull;
  storeTimeoutMs: number;
  storeReplicas: number;
  storeTlsCa: string | undefined;
}

/** What observes a bounded store: its events, and how many entries it holds (read when metrics are scraped). */
export interface StoreObserver extends StoreEvents, PersistenceEvents {
  watchSize(size: () => number): void;
}

/** The embedded store of the settings, told to `observer`. */
export function createMemoryStore(
  config: Pick<StoreSettings, 'storeMaxEntries' | 'storeWhenFull'>,
  observer?: StoreObserver,
  now?: () => number,
  table: Pick<MemoryStoreOptions, 'share' | 'trackChanges'> = {},
): MemoryStore {
  const store = new MemoryStore(config.storeMaxEntries, now, { whenFull: config.storeWhenFull, events: observer, ...table });
  // A shared table's size is reported once, by the thread that made it (the worker threads' registries are summed).
  if (!(table.share instanceof SharedArrayBuffer)) observer?.watchSize(() => store.size);
  return store;
}

/** The stores held in this process's memory: the embedded one, kept or volatile. */
export const isEmbedded = (store: string): boolean => store === 'embedded' || store === 'memory';

/** What the main thread of `--workers` hands each worker thread: the table they share, and the file it is kept in (none: volatile). */
export interface SharedStore {
  table: SharedArrayBuffer;
  file?: string;
}

/**
 * The kept embedded store of the settings: its state directory opened (the
 * state key made there when none is configured) and its records loaded.
 * Throws StateFileError, one line, when the directory or its file cannot be used.
 */
export function openPersistentStore(
  config: Pick<StoreSettings, 'storeMaxEntries' | 'storeWhenFull' | 'stateDir' | 'stateKey'>,
  observer?: StoreObserver,
  now?: () => number,
  share = false,
): { store: PersistentStore; stateKey: string; shares?: SharedStore } {
  const directory = openStateDirectory(stateDirectoryPath(config.stateDir), config.stateKey);
  const memory = createMemoryStore(config, observer, now, { trackChanges: true, ...(share && { share: true }) });
  const store = new PersistentStore(memory, directory.file, directory.stateKey, observer);
  const table = memory.sharedTable;
  return { store, stateKey: directory.stateKey, ...(table && { shares: { table, file: directory.file } }) };
}

export interface StoreContext {
  /** This thread is a worker thread of `--workers N`: it uses the embedded store its main thread holds, in shared memory. */
  shared?: SharedStore;
  /** This thread holds the embedded store for worker threads: it is made in shared memory (`shares` in the answer). */
  share?: boolean;
  /** Called only when this thread uses an embedded store. */
  observe?: () => StoreObserver;
  now?: () => number;
}

/**
 * The store the settings name, and the state key that names its entries:
 * `embedded` (kept in the state directory, whose key file gives the state
 * key when none is configured), `memory` (volatile) or a Redis URL.
 */
export function createStore(
  config: StoreSettings,
  { shared, share = false, observe, now }: StoreContext = {},
): { store: StateStore; stateKey: string | undefined; shares?: SharedStore } {
  const { stateKey } = config;
  if (isEmbedded(config.store) && shared) {
    // The main thread loaded the file into the table and writes it behind; this thread reads and changes the table.
    const memory = createMemoryStore(config, observe?.(), now, { share: shared.table });
    return { store: shared.file === undefined ? memory : new KeptStore(memory, shared.file), stateKey };
  }
  if (config.store === 'embedded') return openPersistentStore(config, observe?.(), now, share);
  if (config.store === 'memory') {
    const memory = createMemoryStore(config, observe?.(), now, share ? { share: true } : {});
    const table = memory.sharedTable;
    return { store: memory, stateKey, ...(table && { shares: { table } }) };
  }
  // The Redis client is loaded only when configured: it is the largest module the service has
  // (about 6 MB of resident memory at start), and the embedded store needs none of it.
  const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
  const store = new RedisStore(config.store, {
    commandTimeoutMs: config.storeTimeoutMs,
    replicas: config.storeReplicas,
    tlsCaFile: config.storeTlsCa,
  });
  return { store, stateKey };
}
