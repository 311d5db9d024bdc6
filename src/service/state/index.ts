import { MemoryStore, type MemoryStoreOptions } from './memory-store';
import { KeptStore, type PersistenceEvents, PersistentStore } from './persistent-store';
import { openStateDirectory, stateDirectoryPath } from './state-directory';
import { isRedisUrl, orList, parseStoreUrl, REDIS_URL_FORMS, StoreUrlError } from './redis-url';
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
 * place a new backend is added. Its values and their check, its words in
 * --help (config.ts's `--store` row, and so the docs' table) and in the error
 * of a value no backend takes, whether it is embedded, and how it opens.
 */
export interface StoreBackend {
  /** The name in logs and metrics: `embedded`, `memory`, `redis`. */
  kind: string;
  /** Its values as --help's column of values writes them (`redis://…`). */
  value: string;
  /** Its values in full, for the error of a value no backend takes. */
  forms: readonly string[];
  /** What its values mean, for --help (`memory (embedded, forgotten when the process ends)`). */
  help: string;
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
    value: 'embedded',
    forms: ['embedded'],
    help: 'embedded (in memory, kept in --state-dir across restarts)',
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
    value: 'memory',
    forms: ['memory'],
    help: 'memory (embedded, forgotten when the process ends)',
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
    value: 'redis://…',
    forms: REDIS_URL_FORMS,
    help: 'a shared Redis: redis://host:port/db, rediss://… (TLS), redis+sentinel://host:port[,host:port…]/mastername or redis+cluster://host:port[,host:port…]',
    takes: isRedisUrl,
    check: (text) => void parseStoreUrl(text),
    embedded: false,
    open(config) {
      // Loaded only when configured: the Redis client is the largest module the service has, and the embedded store
      // needs none of it (bench/RESULTS.md has its resident memory).
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

/** The `--store` values as --help's column of values writes them: `embedded|memory|redis://…`. */
export const STORE_VALUES = STORE_BACKENDS.map((b) => b.value).join('|');

/** What each backend's values mean, for `--store`'s help: `embedded (…), memory (…), or a shared Redis: …`. */
export const STORE_CHOICES = `${STORE_BACKENDS.slice(0, -1)
  .map((b) => `${b.help}, `)
  .join('')}or ${STORE_BACKENDS[STORE_BACKENDS.length - 1].help}`;

/** The backend a `--store` value names; a value none takes, or a malformed one, throws a one-line Error. */
export function storeBackend(text: string): StoreBackend {
  const backend = STORE_BACKENDS.find((b) => b.takes(text));
  if (!backend) throw new StoreUrlError(`must be ${orList(STORE_BACKENDS.flatMap((b) => b.forms))}`);
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
