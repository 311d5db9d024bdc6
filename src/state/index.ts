import type { Config } from '../config';
import { MemoryStore } from './memory-store';
import { IpcStore } from './ipc-store';
import type { StateStore } from './store';

export type { StateStore } from './store';

/** The store the settings name: `memory` (embedded) or a Redis URL (redis-url.ts: one server, Sentinel or Cluster). */
export function createStore(config: Pick<Config, 'store' | 'storeMaxEntries' | 'storeTimeoutMs' | 'storeReplicas' | 'storeTlsCa'>, now?: () => number): StateStore {
  // A cluster worker shares the primary's embedded store (see ipc-store.ts).
  if (config.store === 'memory' && process.env.PINSERVICE_CLUSTER_WORKER === '1') return new IpcStore(config.storeTimeoutMs);
  if (config.store === 'memory') return new MemoryStore(config.storeMaxEntries, now);
  // The Redis client is loaded only when configured: it is the largest module the service has
  // (its resident memory: README, Performance), and the embedded store needs none of it.
  const { RedisStore } = require('./redis-store') as typeof import('./redis-store');
  return new RedisStore(config.store, { commandTimeoutMs: config.storeTimeoutMs, replicas: config.storeReplicas, tlsCaFile: config.storeTlsCa });
}
