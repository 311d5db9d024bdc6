import type { AttemptCount, StateStore } from './store';

interface Entry {
  value: number;
  expiresAt: number;
}

/**
 * The embedded store: in-process, no server. A Map used as an LRU (insertion
 * order, re-inserted on write) with expiry, bounded so that a flood of
 * distinct secrets evicts the least recently written entries instead of
 * exhausting memory.
 */
export class MemoryStore implements StateStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    const last = this.read(`step:${key}`);
    if (last !== undefined && last.value >= step) return false;
    this.write(`step:${key}`, { value: step, expiresAt: this.now() + ttlMs });
    return true;
  }

  async countAttempt(key: string, windowMs: number): Promise<AttemptCount> {
    const now = this.now();
    const current = this.read(`attempts:${key}`);
    const entry = current ? { value: current.value + 1, expiresAt: current.expiresAt } : { value: 1, expiresAt: now + windowMs };
    this.write(`attempts:${key}`, entry);
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

  private read(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }
}
