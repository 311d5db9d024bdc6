import { MemoryStore } from './memory-store';
import { IpcStore } from './ipc-store';
import { type PersistenceEvents, PersistentStore } from './persistent-store';
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
): MemoryStore {
  const store = new MemoryStore(config.storeMaxEntries, now, { whenFull: config.storeWhenFull, events: observer });
  observer?.watchSize(() => store.size);
  return store;
}

/** The stores held in this process's memory: the embedded one, kept or volatile. */
export const isEmbedded = (store: string): boolean => store === 'embedded' || store === 'memory';

/**
 * The kept embedded store of the settings: its state directory opened (the
 * state key made there when none is configured) and its records loaded.
 * Throws StateFileError, one line, when the directory or its file cannot be used.
 */
export function openPersistentStore(
  config: Pick<StoreSettings, 'storeMaxEntries' | 'storeWhenFull' | 'stateDir' | 'stateKey'>,
  observer?: StoreObserver,
  now?: () => number,
): { store: PersistentStore; stateKey: string } {
  const directory = openStateDirectory(stateDirectoryPath(config.stateDir), config.stateKey);
  const store = new PersistentStore(createMemoryStore(config, observer, now), directory.file, directory.stateKey, observer);
  return { store, stateKey: directory.stateKey };
}

export interface StoreContext {
  /** This process is a worker of `--workers N`: it shares the embedded store its primary holds (ipc-store.ts). */
  clusterWorker?: boolean;
  /** Called only when this process holds an embedded store. */
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
  { clusterWorker = false, observe, now }: StoreContext = {},
): { store: StateStore; stateKey: string | undefined } {
  const { stateKey } = config;
  if (isEmbedded(config.store) && clusterWorker) return { store: new IpcStore(config.storeTimeoutMs), stateKey };
  if (config.store === 'embedded') return openPersistentStore(config, observe?.(), now);
  if (config.store === 'memory') return { store: createMemoryStore(config, observe?.(), now), stateKey };
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
