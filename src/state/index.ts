import type { Config } from '../config';
import { MemoryStore } from './memory-store';
import { RedisStore } from './redis-store';
import type { StateStore } from './store';

export type { StateStore } from './store';

/** The store the settings name: `memory` (embedded) or a `redis://` / `rediss://` URL. */
export function createStore(config: Pick<Config, 'store' | 'storeMaxEntries'>, now?: () => number): StateStore {
  if (config.store === 'memory') return new MemoryStore(config.storeMaxEntries, now);
  return new RedisStore(config.store);
}
