import { LRUCache } from 'lru-cache';
import type { AttemptCount, StateStore } from './store';

interface Entry {
  value: number;
  expiresAt: number;
}

/**
 * The embedded store: in-process, no server. Bounded, so that a flood of
 * distinct secrets evicts the least recently written entries instead of
 * exhausting memory. lru-cache keeps the order in a linked list over typed
 * arrays, so a write costs the same at any fill. Reads use peek, so only a
 * write makes an entry recent; expiry is the entry's own, checked against
 * the injected clock.
 */
export class MemoryStore implements StateStore {
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new LRUCache<string, Entry>({ max: maxEntries });
  }

  get size(): number {
    return this.entries.size;
  }

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    const id = `step:${key}`;
    const last = this.read(id);
    if (last !== undefined && last.value >= step) return false;
    this.entries.set(id, { value: step, expiresAt: this.now() + ttlMs });
    return true;
  }

  async countAttempt(key: string, windowMs: number): Promise<AttemptCount> {
    const id = `attempts:${key}`;
    const now = this.now();
    const current = this.read(id);
    const entry = current ? { value: current.value + 1, expiresAt: current.expiresAt } : { value: 1, expiresAt: now + windowMs };
    this.entries.set(id, entry);
    return { attempts: entry.value, resetInMs: entry.expiresAt - now };
  }

  async clearAttempts(key: string): Promise<void> {
    this.entries.delete(`attempts:${key}`);
  }

  async ping(): Promise<void> {}

  async waitUntilReady(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private read(id: string): Entry | undefined {
    const entry = this.entries.peek(id);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return entry;
  }
}
