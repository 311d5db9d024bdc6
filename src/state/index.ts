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

/**
 * The store the settings name: `memory` (embedded) or a `redis://` /
 * `rediss://` URL. `observe` is called only when this process holds an
 * embedded store.
 */
export function createStore(config: StoreSettings, observe?: () => StoreObserver, now?: () => number): StateStore {
  // A cluster worker shares the primary's embedded store (see ipc-store.ts).
  if (config.store === 'memory' && process.env.PINSERVICE_CLUSTER_WORKER === '1') return new IpcStore(config.storeTimeoutMs);
  if (config.store === 'memory') return createMemoryStore(config, observe?.(), now);
  // The Redis client is loaded only when configured: it is the largest module the service has
  // (its resident memory: README, Performance), and the embedded store needs none of it.
  const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
  return new RedisStore(config.store, { commandTimeoutMs: config.storeTimeoutMs });
}
