import { MemoryStore } from './memory-store';
import { IpcStore } from './ipc-store';
import type { StateStore, StoreEvents, WhenFull } from './store';

export type { StateStore } from './store';

/** The settings a store is made from (config.ts's, by the same names). */
export interface StoreSettings {
  /** `memory`, or a Redis URL (redis-url.ts: one server, Sentinel or Cluster). */
  store: string;
  storeMaxEntries: number;
  storeWhenFull: WhenFull;
  storeTimeoutMs: number;
  storeReplicas: number;
  storeTlsCa: string | undefined;
}

/** What observes a bounded store: its events, and how many entries it holds (read when metrics are scraped). */
export interface StoreObserver extends StoreEvents {
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

export interface StoreContext {
  /** This process is a worker of `--workers N`: it shares the embedded store its primary holds (ipc-store.ts). */
  clusterWorker?: boolean;
  /** Called only when this process holds an embedded store. */
  observe?: () => StoreObserver;
  now?: () => number;
}

/** The store the settings name: `memory` (embedded) or a Redis URL. */
export function createStore(config: StoreSettings, { clusterWorker = false, observe, now }: StoreContext = {}): StateStore {
  if (config.store === 'memory' && clusterWorker) return new IpcStore(config.storeTimeoutMs);
  if (config.store === 'memory') return createMemoryStore(config, observe?.(), now);
  // The Redis client is loaded only when configured: it is the largest module the service has
  // (about 6 MB of resident memory at start), and the embedded store needs none of it.
  const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
  return new RedisStore(config.store, {
    commandTimeoutMs: config.storeTimeoutMs,
    replicas: config.storeReplicas,
    tlsCaFile: config.storeTlsCa,
  });
}
