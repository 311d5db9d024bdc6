/**
 * The nonces of accepted UsernameTokens, each remembered until its window is over, so a token sent again within it
 * is refused. Bounded: at most `capacity` nonces; when all are still in their window, a new one is refused (the
 * cache never forgets a live nonce to make room, which would let its replay through).
 */
export class NonceCache {
  /** By nonce, the time it may be forgotten; insertion order is expiry order (every window is the same length). */
  readonly #expiries = new Map<string, number>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error('The nonce cache holds at least one nonce.');
  }

  get size(): number {
    return this.#expiries.size;
  }

  /** Whether `nonce` was accepted and is still in its window. */
  has(nonce: string, now: number): boolean {
    const expiry = this.#expiries.get(nonce);
    return expiry !== undefined && expiry > now;
  }

  /** Remembers `nonce` until `expiry`: `replayed` when it is already remembered, `full` when there is no room. */
  add(nonce: string, now: number, expiry: number): 'added' | 'replayed' | 'full' {
    this.#forgetExpired(now);
    if (this.#expiries.has(nonce)) return 'replayed';
    if (this.#expiries.size >= this.capacity) return 'full';
    this.#expiries.set(nonce, expiry);
    return 'added';
  }

  #forgetExpired(now: number): void {
    for (const [nonce, expiry] of this.#expiries) {
      if (expiry > now) return;
      this.#expiries.delete(nonce);
    }
  }
}
