/**
 * Several worker processes (node:cluster) with the embedded store: the
 * primary holds the one store and answers each worker's operations over
 * the cluster IPC channel. Each operation runs whole on the primary's single
 * thread, so replay protection and throttling stay exact across workers, as
 * with Redis. A worker sends the operations its calls make in one turn of
 * its event loop as one message, and gets their answers in one: under load,
 * many calls share each hop.
 */
import type { Worker } from 'node:cluster';
import { type AttemptCount, type StateStore, StoreUnavailableError } from './store';

type Operation = 'acceptStep' | 'countAttempt' | 'clearAttempts';
interface StoreCall {
  id: number;
  op: Operation;
  args: (string | number)[];
}
/** The calls a worker made in one turn of its event loop, sent together. */
interface StoreRequest {
  kind: 'pin-store';
  /** Which of the worker's messages this is: its reply names it. */
  batch: number;
  calls: StoreCall[];
}
interface StoreAnswer {
  id: number;
  ok: boolean;
  value?: unknown;
  /** Why the primary's store failed (a StoreUnavailableError's message). */
  cause?: string;
}
/** The answers to one request's calls, in its order, sent together. */
interface StoreReply {
  kind: 'pin-store-reply';
  batch: number;
  answers: StoreAnswer[];
}

const isRequest = (m: unknown): m is StoreRequest => (m as StoreRequest)?.kind === 'pin-store';
const isReply = (m: unknown): m is StoreReply => (m as StoreReply)?.kind === 'pin-store-reply';

/**
 * In the primary: answers one worker's store operations from the shared
 * store, in the order the worker made them, all the answers to one message
 * in one message back.
 */
export function serveStoreTo(worker: Worker, store: StateStore): void {
  worker.on('message', (message: unknown) => {
    if (!isRequest(message)) return;
    const answers = message.calls.map(({ id, op, args }) =>
      (store[op] as (...a: (string | number)[]) => Promise<unknown>).apply(store, args).then(
        (value): StoreAnswer => ({ id, ok: true, value }),
        (error: unknown): StoreAnswer => ({ id, ok: false, cause: error instanceof StoreUnavailableError ? error.message : undefined }),
      ),
    );
    void Promise.all(answers).then((settled) => {
      if (worker.isConnected()) worker.send({ kind: 'pin-store-reply', batch: message.batch, answers: settled } satisfies StoreReply);
    });
  });
}

/** In a worker: the store, reached through the primary. */
export class IpcStore implements StateStore {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextBatch = 1;
  /** The timer of each message not answered yet: one for all its calls, not one a call. */
  private readonly deadlines = new Map<number, NodeJS.Timeout>();

  constructor(private readonly timeoutMs: number) {
    if (!process.send) throw new Error('IpcStore runs only in a worker process');
    process.on('message', (message: unknown) => {
      if (!isReply(message)) return;
      clearTimeout(this.deadlines.get(message.batch));
      this.deadlines.delete(message.batch);
      for (const answer of message.answers) {
        const waiter = this.pending.get(answer.id);
        if (!waiter) continue;
        this.pending.delete(answer.id);
        if (answer.ok) waiter.resolve(answer.value);
        else waiter.reject(new StoreUnavailableError(answer.cause ?? 'the primary process failed'));
      }
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
    for (const timer of this.deadlines.values()) clearTimeout(timer);
    this.deadlines.clear();
    for (const waiter of this.pending.values()) waiter.reject(new StoreUnavailableError('the state store was closed'));
    this.pending.clear();
    this.queued = [];
  }

  private call(op: Operation, args: (string | number)[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (!process.connected || !process.send) return reject(new StoreUnavailableError('the primary process is gone'));
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      if (this.queued.length === 0) setImmediate(this.sendQueued);
      this.queued.push({ id, op, args });
    });
  }

  /** The calls made since the last message, sent as one once this turn of the event loop has made them all. */
  private queued: StoreCall[] = [];
  private readonly sendQueued = () => {
    const calls = this.queued;
    this.queued = [];
    if (!process.connected || !process.send) {
      for (const { id } of calls) this.fail(id, 'the primary process is gone');
      return;
    }
    const batch = this.nextBatch++;
    // From the message's sending, at most one turn of the event loop after its calls were made.
    const deadline = setTimeout(() => {
      this.deadlines.delete(batch);
      for (const { id } of calls) this.fail(id, `the primary process did not answer within ${this.timeoutMs} ms (--store-timeout)`);
    }, this.timeoutMs);
    this.deadlines.set(batch, deadline);
    process.send({ kind: 'pin-store', batch, calls } satisfies StoreRequest);
  };

  private fail(id: number, why: string): void {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    waiter.reject(new StoreUnavailableError(why));
  }
}
