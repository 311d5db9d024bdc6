import type { Config } from '../config';
import { MemoryStore } from './memory-store';
import { IpcStore } from './ipc-store';
import type { StateStore, StoreEvents } from './store';

export type { StateStore } from './store';

/** What observes a bounded store: its events, and how many entries it holds (read when metrics are scraped). */
export interface StoreObserver extends StoreEvents {
  watchSize(size: () => number): void;
}

type StoreSettings = Pick<Config, 'store' | 'storeMaxEntries' | 'storeWhenFull' | 'storeTimeoutMs'>;

/** The embedded store of the settings, told to `observer`. */
export function createMemoryStore(config: StoreSettings, observer?: StoreObserver, now?: () => number): MemoryStore {
  const store = new MemoryStore(config.storeMaxEntries, now, { whenFull: config.storeWhenFull, events: observer });
  observer?.watchSize(() => store.size);
  return store;
}

export interface StoreContext {
  /** This process is a worker of `--workers N`: it shares the embedded store its primary holds (ipc-store.ts). */
  clusterWorker?: boolean;
  /** Called only when this process holds an embedded store. */
  observe?: () => StoreObserver;
  now?: () => number;
}

/** The store the settings name: `memory` (embedded) or a `redis://` / `rediss://` URL. */
export function createStore(config: StoreSettings, { clusterWorker = false, observe, now }: StoreContext = {}): StateStore {
  if (config.store === 'memory' && clusterWorker) return new IpcStore(config.storeTimeoutMs);
  if (config.store === 'memory') return createMemoryStore(config, observe?.(), now);
  // The Redis client is loaded only when configured: it is the largest module the service has
  // (about 6 MB of resident memory at start), and the embedded store needs none of it.
  const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
  return new RedisStore(config.store, { commandTimeoutMs: config.storeTimeoutMs });
}
