import Redis from 'ioredis';
import { type AttemptCount, type StateStore, StoreUnavailableError } from './store';

// Each operation is one script, so it is atomic across every process sharing the server.
const ACCEPT_STEP = `
local last = redis.call('GET', KEYS[1])
if last and tonumber(last) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const COUNT_ATTEMPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

type ScriptedRedis = Redis & {
  acceptStep(key: string, step: number, ttlMs: number): Promise<number>;
  countAttempt(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * The shared store: Redis, for several processes or machines. Commands are
 * never queued while the connection is down, so a call fails at once (and
 * ValidatePin fails closed) instead of waiting; the client reconnects by
 * itself and the next call works again.
 */
export class RedisStore implements StateStore {
  private readonly redis: ScriptedRedis;

  constructor(url: string, options: { prefix?: string; commandTimeoutMs?: number } = {}) {
    this.redis = new Redis(url, {
      keyPrefix: options.prefix ?? 'pin:',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 100, 1000),
      lazyConnect: false,
    }) as ScriptedRedis;
    this.redis.on('error', () => {
      // Reported per call (StoreUnavailableError) and by /readyz; the client keeps reconnecting.
    });
    this.redis.defineCommand('acceptStep', { numberOfKeys: 1, lua: ACCEPT_STEP });
    this.redis.defineCommand('countAttempt', { numberOfKeys: 1, lua: COUNT_ATTEMPT });
  }

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    return (await this.call(() => this.redis.acceptStep(`step:${key}`, step, Math.ceil(ttlMs)))) === 1;
  }

  /** Redis keeps every record until it expires (see warnings() on the eviction policy), so the lock needs no mark. */
  async countAttempt(key: string, windowMs: number): Promise<AttemptCount> {
    const [attempts, resetInMs] = await this.call(() => this.redis.countAttempt(`attempts:${key}`, Math.ceil(windowMs)));
    return { attempts, resetInMs };
  }

  async clearAttempts(key: string): Promise<void> {
    await this.call(() => this.redis.del(`attempts:${key}`));
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping());
  }

  /**
   * Under memory pressure a Redis server with any maxmemory-policy but
   * noeviction drops keys silently, replay records and locked counts among
   * them (every key here has a TTL, so the volatile-* policies take them
   * too); with noeviction a write fails instead and ValidatePin fails closed.
   */
  async warnings(): Promise<string[]> {
    let policy: string | undefined;
    try {
      policy = /^maxmemory_policy:(\S+)/m.exec(await this.redis.info('memory'))?.[1];
    } catch {
      // An ACL may deny INFO; the store works without it.
    }
    if (policy === undefined) return ["the Redis server's maxmemory-policy could not be read (INFO memory): make sure it is noeviction"];
    if (policy === 'noeviction') return [];
    return [`the Redis server's maxmemory-policy is ${policy}: under memory pressure it evicts replay and throttle records silently; set it to noeviction`];
  }

  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.on('ready', onReady);
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch {
      throw new StoreUnavailableError('The state store cannot be reached.');
    }
  }
}
