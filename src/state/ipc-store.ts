/**
 * Several worker processes (node:cluster) with the embedded store: the
 * primary holds the one MemoryStore and answers each worker's operations
 * over the cluster IPC channel. Each operation runs whole on the primary's
 * single thread, so replay protection and throttling stay exact across
 * workers, as with Redis.
 */
import type { Worker } from 'node:cluster';
import { type AttemptCount, type StateStore, StoreUnavailableError } from './store';

type Operation = 'acceptStep' | 'countAttempt' | 'clearAttempts';
interface StoreRequest {
  kind: 'pin-store';
  id: number;
  op: Operation;
  args: (string | number)[];
}
interface StoreReply {
  kind: 'pin-store-reply';
  id: number;
  ok: boolean;
  value?: unknown;
  /** Why the primary's store failed (a StoreUnavailableError's message). */
  cause?: string;
}

const isRequest = (m: unknown): m is StoreRequest => (m as StoreRequest)?.kind === 'pin-store';
const isReply = (m: unknown): m is StoreReply => (m as StoreReply)?.kind === 'pin-store-reply';

/** In the primary: answers one worker's store operations from the shared store. */
export function serveStoreTo(worker: Worker, store: StateStore): void {
  worker.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const call = store[message.op] as (...args: (string | number)[]) => Promise<unknown>;
    call.apply(store, message.args).then(
      (value) => worker.isConnected() && worker.send({ kind: 'pin-store-reply', id: message.id, ok: true, value } satisfies StoreReply),
      (error: unknown) =>
        worker.isConnected() &&
        worker.send({
          kind: 'pin-store-reply',
          id: message.id,
          ok: false,
          cause: error instanceof StoreUnavailableError ? error.message : undefined,
        } satisfies StoreReply),
    );
  });
}

/** In a worker: the store, reached through the primary. */
export class IpcStore implements StateStore {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();

  constructor(private readonly timeoutMs: number) {
    if (!process.send) throw new Error('IpcStore runs only in a worker process');
    process.on('message', (message: unknown) => {
      if (!isReply(message)) return;
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      clearTimeout(waiter.timer);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new StoreUnavailableError(message.cause ?? 'the primary process failed'));
    });
  }

  acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    return this.call('acceptStep', [key, step, ttlMs]) as Promise<boolean>;
  }

  countAttempt(key: string, windowMs: number, lockAt: number): Promise<AttemptCount> {
    return this.call('countAttempt', [key, windowMs, lockAt]) as Promise<AttemptCount>;
  }

  async clearAttempts(key: string): Promise<void> {
    await this.call('clearAttempts', [key]);
  }

  async ping(): Promise<void> {
    if (!process.connected) throw new StoreUnavailableError('the primary process is gone');
  }

  /** The primary's embedded store has nothing to warn of at start-up; its pressure is logged and counted there. */
  async warnings(): Promise<string[]> {
    return [];
  }

  async waitUntilReady(): Promise<boolean> {
    return process.connected === true;
  }

  async close(): Promise<void> {
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new StoreUnavailableError('the state store was closed'));
    }
    this.pending.clear();
  }

  private call(op: Operation, args: (string | number)[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (!process.connected || !process.send) return reject(new StoreUnavailableError('the primary process is gone'));
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new StoreUnavailableError(`the primary process did not answer within ${this.timeoutMs} ms (--store-timeout)`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      process.send({ kind: 'pin-store', id, op, args } satisfies StoreRequest);
    });
  }
}
