import { MemoryStore, type MemoryStoreOptions } from './memory-store';
import { KeptStore, type PersistenceEvents, PersistentStore } from './persistent-store';
import { openStateDirectory, stateDirectoryPath } from './state-directory';
import { parseStoreUrl, STORE_URL_FORMS, StoreUrlError } from './redis-url';
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

/** What opening a store answers: the store, the state key that names its entries, and the table it shares with worker threads. */
export interface OpenedStore {
  store: StateStore;
  stateKey: string | undefined;
  shares?: SharedStore;
}

/**
 * A kind of store `--store` can name: one row of STORE_BACKENDS, the one
 * place a new backend is added (its values, its check, and how it opens).
 */
export interface StoreBackend {
  /** The name in logs and metrics: `embedded`, `memory`, `redis`. */
  kind: string;
  /** Its values, for --help and the error of a value no backend takes. */
  forms: string;
  /** The `--store` value names this backend. */
  takes(text: string): boolean;
  /** Throws a one-line Error when a value of this backend is malformed. */
  check(text: string): void;
  /** Held in this process's memory: with --workers, the main thread holds it in memory the worker threads share. */
  embedded: boolean;
  open(config: StoreSettings, context: StoreContext): OpenedStore;
}

const none = () => {};

export const STORE_BACKENDS: readonly StoreBackend[] = [
  {
    kind: 'embedded',
    forms: 'embedded',
    takes: (text) => text === 'embedded',
    check: none,
    embedded: true,
    open(config, { shared, share = false, observe, now }) {
      // A worker thread: the main thread loaded the file into the table and writes it behind; this thread reads and changes the table.
      if (shared) {
        const memory = createMemoryStore(config, observe?.(), now, { share: shared.table });
        return { store: shared.file === undefined ? memory : new KeptStore(memory, shared.file), stateKey: config.stateKey };
      }
      return openPersistentStore(config, observe?.(), now, share);
    },
  },
  {
    kind: 'memory',
    forms: 'memory',
    takes: (text) => text === 'memory',
    check: none,
    embedded: true,
    open(config, { shared, share = false, observe, now }) {
      const memory = createMemoryStore(config, observe?.(), now, shared ? { share: shared.table } : share ? { share: true } : {});
      const table = share ? memory.sharedTable : undefined;
      return { store: memory, stateKey: config.stateKey, ...(table && { shares: { table } }) };
    },
  },
  {
    kind: 'redis',
    forms:
      'redis://host:port/db, rediss://host:port/db, redis+sentinel://host:port[,host:port…]/mastername or redis+cluster://host:port[,host:port…]',
    takes: (text) => text.includes('://'),
    check: (text) => void parseStoreUrl(text),
    embedded: false,
    open(config) {
      // The Redis client is loaded only when configured: it is the largest module the service has
      // (about 6 MB of resident memory at start), and the embedded store needs none of it.
      const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
      const store = new RedisStore(config.store, {
        commandTimeoutMs: config.storeTimeoutMs,
        replicas: config.storeReplicas,
        tlsCaFile: config.storeTlsCa,
      });
      return { store, stateKey: config.stateKey };
    },
  },
];

/** The backend a `--store` value names; a value none takes, or a malformed one, throws a one-line Error. */
export function storeBackend(text: string): StoreBackend {
  const backend = STORE_BACKENDS.find((b) => b.takes(text));
  if (!backend) throw new StoreUrlError(`must be ${STORE_URL_FORMS}`);
  backend.check(text);
  return backend;
}

/**
 * The store the settings name, and the state key that names its entries:
 * `embedded` (kept in the state directory, whose key file gives the state
 * key when none is configured), `memory` (volatile) or a Redis URL.
 */
export function createStore(config: StoreSettings, context: StoreContext = {}): OpenedStore {
  return storeBackend(config.store).open(config, context);
}
