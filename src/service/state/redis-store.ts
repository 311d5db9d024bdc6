import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import { createRedisClient } from './redis-client';
import { parseStoreUrl } from './redis-url';
import { type AttemptCount, MIN_KEY_PREFIX, type RecordView, type StateStore, StoreUnavailableError } from './store';

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

/** Keys a SCAN step asks each server for (an operator's lookup by fingerprint). */
const SCAN_COUNT = 1000;
const BASE64URL_PREFIX = /^[A-Za-z0-9_-]+$/;

/** The rejection of a command that outlived --store-timeout. */
const TIMED_OUT = new Error('timed out');

type ScriptedRedis = (Redis | Cluster) & {
  acceptStep(key: string, step: number, ttlMs: number): Promise<number>;
  countAttempt(key: string, windowMs: number): Promise<[number, number]>;
};

/**
 * The shared store: Redis, for several processes or machines: one server, a
 * master under Sentinel, or a Redis Cluster (redis-url.ts, redis-client.ts).
 * Commands are never queued while the connection is down, so a call fails
 * at once (and ValidatePin fails closed) instead of waiting; the client
 * reconnects by itself, to a new master after a failover, and the next call
 * works again. Every call is bounded by the command timeout, retries by
 * the Cluster client included.
 *
 * Keys: `pin:step:…` and `pin:attempts:…`. On a Cluster the keyed hash is a
 * hash tag, `pin:step:{…}` and `pin:attempts:{…}`, so both keys of a secret
 * live in one slot, on one master: a call needs that one master (not two,
 * either of which could be failing over), and an operation over both keys
 * would stay possible. Secrets still spread evenly over every master, their
 * hashes being uniform. The other topologies keep the names without braces
 * that instances before this one used, so instances of both kinds can share
 * a server during a rolling upgrade.
 *
 * With `replicas` > 0, an accepted step is answered only once that many
 * replicas hold it: the script and `WAIT replicas timeout` go in one
 * pipeline on one connection (WAIT counts the replicas that have this
 * connection's writes, and cannot run inside a script), to the master of the
 * key's slot. Fewer replicas within the timeout: the call fails closed.
 * WAIT holds its connection until it is answered, so these pipelines have a
 * client (connections) of their own: the other operations never queue
 * behind a WAIT.
 */
export class RedisStore implements StateStore {
  private readonly redis: ScriptedRedis;
  /** The client of the pipelines with WAIT (the same as `redis` without replicas). */
  private readonly writer: Redis | Cluster;
  private readonly timeoutMs: number;
  private readonly replicas: number;
  private readonly tagged: boolean;
  /** Every key's prefix (ioredis adds it to keys, but not to SCAN's pattern). */
  private readonly prefix: string;
  private closed = false;

  constructor(url: string, options: { prefix?: string; commandTimeoutMs?: number; replicas?: number; tlsCaFile?: string } = {}) {
    const target = parseStoreUrl(url);
    this.timeoutMs = options.commandTimeoutMs ?? 1000;
    this.replicas = options.replicas ?? 0;
    this.tagged = target.topology === 'cluster';
    this.prefix = options.prefix ?? 'pin:';
    this.redis = createRedisClient(target, {
      keyPrefix: this.prefix,
      commandTimeoutMs: this.timeoutMs,
      tlsCaFile: options.tlsCaFile,
    }) as ScriptedRedis;
    this.writer = this.replicas > 0 ? this.redis.duplicate() : this.redis;
    for (const client of new Set([this.redis, this.writer])) {
      client.on('error', () => {
        // Reported per call (StoreUnavailableError) and by /readyz; the client keeps reconnecting.
      });
      client.on('node error', () => {
        // The same, for one node of a Cluster.
      });
      client.on('end', () => this.restart(client));
    }
    this.redis.defineCommand('acceptStep', { numberOfKeys: 1, lua: ACCEPT_STEP });
    this.redis.defineCommand('countAttempt', { numberOfKeys: 1, lua: COUNT_ATTEMPT });
  }

  /** The key of `kind` for a keyed hash; on a Cluster, the hash is the hash tag (see above). */
  private key(kind: 'step' | 'attempts', id: string): string {
    return this.tagged ? `${kind}:{${id}}` : `${kind}:${id}`;
  }

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    if (this.replicas > 0) return this.call(() => this.acceptStepReplicated(this.key('step', key), step, Math.ceil(ttlMs)));
    return (await this.call(() => this.redis.acceptStep(this.key('step', key), step, Math.ceil(ttlMs)))) === 1;
  }

  /**
   * The script as a plain EVAL (not the client's EVALSHA, which on NOSCRIPT
   * resends the script after the pipeline, so after the WAIT), then WAIT, in
   * one write to one connection. A step already recorded (a replay) is
   * false whatever WAIT answers; WAIT still runs, and is quick when the
   * replicas have this connection's writes.
   */
  private async acceptStepReplicated(key: string, step: number, ttlMs: number): Promise<boolean> {
    // WAIT gives up a fifth of the timeout early, so that its count, not the timeout, decides the answer.
    const waitMs = Math.max(1, Math.floor(this.timeoutMs * 0.8));
    const results = await this.writer.pipeline().eval(ACCEPT_STEP, 1, key, step, ttlMs).wait(this.replicas, waitMs).exec();
    const [accepted, acknowledged] = results ?? [];
    const failed = accepted?.[0] ?? acknowledged?.[0];
    if (!accepted || !acknowledged || failed) throw new StoreUnavailableError(this.causeOf(failed ?? new Error('no answer')));
    if (accepted[1] !== 1) return false;
    this.checkAcknowledged(Number(acknowledged[1]), waitMs);
    return true;
  }

  private checkAcknowledged(acknowledged: number, waitMs: number): void {
    if (acknowledged < this.replicas) {
      throw new StoreUnavailableError(
        `${acknowledged} of ${this.replicas} Redis replicas acknowledged the write within ${waitMs} ms (--store-replicas)`,
      );
    }
  }

  /** Redis keeps every record until it expires (see warnings() on the eviction policy), so the lock needs no mark. */
  async countAttempt(key: string, windowMs: number): Promise<AttemptCount> {
    const [attempts, resetInMs] = await this.call(() => this.redis.countAttempt(this.key('attempts', key), Math.ceil(windowMs)));
    return { attempts, resetInMs };
  }

  async clearAttempts(key: string): Promise<void> {
    await this.call(() => this.redis.del(this.key('attempts', key)));
  }

  /** Both keys of the secret read in one pipeline (one slot on a Cluster: the hash tag). */
  async inspect(key: string): Promise<RecordView | undefined> {
    const stepKey = this.key('step', key);
    const attemptsKey = this.key('attempts', key);
    const results = await this.call(() => this.redis.pipeline().get(stepKey).get(attemptsKey).pttl(attemptsKey).exec());
    const failed = results?.find(([error]) => error)?.[0];
    if (!results || failed) throw new StoreUnavailableError(this.causeOf(failed ?? new Error('no answer')));
    const [step, attempts, ttl] = results.map(([, value]) => value) as [string | null, string | null, number];
    if (step === null && attempts === null) return undefined;
    const counting = attempts !== null && ttl > 0;
    return {
      attempts: counting ? Number(attempts) : 0,
      attemptsResetInMs: counting ? ttl : 0,
      ...(step !== null && { lastStep: Number(step) }),
    };
  }

  /** SCAN of every master (a Cluster's each), for both kinds of key; each step is bounded by the command timeout. */
  async keysStartingWith(prefix: string): Promise<string[]> {
    if (prefix.length < MIN_KEY_PREFIX || !BASE64URL_PREFIX.test(prefix)) {
      throw new TypeError(`a key prefix is ${MIN_KEY_PREFIX} or more base64url characters`);
    }
    const servers = this.tagged ? (this.redis as Cluster).nodes('master') : [this.redis as Redis];
    const found = new Set<string>();
    for (const kind of ['attempts', 'step'] as const) {
      // base64url has none of the characters special to SCAN's glob patterns.
      const named = `${this.prefix}${kind}:${this.tagged ? '{' : ''}`;
      const pattern = `${named}${prefix}*`;
      for (const server of servers) {
        let cursor = '0';
        do {
          const [next, keys] = await this.call(() => server.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT));
          for (const name of keys) found.add(name.slice(named.length).replace(/\}$/, ''));
          cursor = next;
        } while (cursor !== '0');
      }
    }
    return [...found];
  }

  /**
   * One server or Sentinel: the master answers. A Cluster: every slot has a
   * master, and each answers that the cluster is ok. With `replicas` > 0, a
   * write is also acknowledged by that many replicas (WAIT), as an accepted
   * PIN must be: ready then means a ValidatePin would succeed.
   */
  async ping(): Promise<void> {
    await this.call(async () => {
      if (this.writer.status !== 'ready') throw new StoreUnavailableError(`not connected to the Redis store (${this.writer.status})`);
      if (this.replicas > 0) await this.probeReplicas();
      if (!this.tagged) return void (await this.redis.ping());
      const cluster = this.redis as Cluster;
      if (cluster.status !== 'ready') throw new Error('not ready');
      const owners = new Set<string>();
      for (let slot = 0; slot < 16384; slot++) owners.add(cluster.slots[slot]?.[0] ?? '');
      const masters = new Map(cluster.nodes('master').map((node) => [`${node.options.host}:${node.options.port}`, node]));
      await Promise.all(
        [...owners].map(async (owner) => {
          const info = await masters.get(owner)?.cluster('INFO');
          if (typeof info !== 'string' || !info.includes('cluster_state:ok')) throw new Error('a slot has no master that answers');
        }),
      );
    });
  }

  /** A short-lived write to the readiness key, answered once `replicas` replicas hold it. */
  private async probeReplicas(): Promise<void> {
    const waitMs = Math.max(1, Math.floor(this.timeoutMs * 0.8));
    const results = await this.writer.pipeline().set('ready-probe', String(Date.now()), 'PX', 60_000).wait(this.replicas, waitMs).exec();
    const [written, acknowledged] = results ?? [];
    const failed = written?.[0] ?? acknowledged?.[0];
    if (!written || !acknowledged || failed) throw new StoreUnavailableError(this.causeOf(failed ?? new Error('no answer')));
    this.checkAcknowledged(Number(acknowledged[1]), waitMs);
  }

  /**
   * Under memory pressure a Redis server with any maxmemory-policy but
   * noeviction drops keys silently, replay records and locked counts among
   * them (every key here has a TTL, so the volatile-* policies take them
   * too); with noeviction a write fails instead and ValidatePin fails closed.
   * On a Cluster, every master is asked.
   */
  async warnings(): Promise<string[]> {
    const servers = this.tagged ? (this.redis as Cluster).nodes('master') : [this.redis as Redis];
    const policies = new Set<string>();
    for (const server of servers) {
      try {
        policies.add(/^maxmemory_policy:(\S+)/m.exec(await server.info('memory'))?.[1] ?? 'unknown');
      } catch {
        // An ACL may deny INFO; the store works without it.
        policies.add('unknown');
      }
    }
    policies.delete('noeviction');
    return [...policies].map((policy) =>
      policy === 'unknown'
        ? "the Redis server's maxmemory-policy could not be read (INFO memory): make sure it is noeviction"
        : `the Redis server's maxmemory-policy is ${policy}: under memory pressure it evicts replay and throttle records silently; set it to noeviction`,
    );
  }

  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const ready = await Promise.all(
      [...new Set([this.redis, this.writer])].map((client) => this.clientReady(client, deadline - Date.now())),
    );
    return ready.every(Boolean);
  }

  private clientReady(client: Redis | Cluster, timeoutMs: number): Promise<boolean> {
    if (client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        client.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      client.on('ready', onReady);
    });
  }

  /**
   * A client that has given up ('end') is started again, unless the store is
   * closing. ioredis 5 (5.11) ends a Sentinel client for good when a failover
   * notice (failoverDetector) arrives while it is asking a Sentinel for the
   * master: its connector's connect() then throws, and nothing reconnects.
   * The failover tests hit that in about one failover in four.
   */
  private restart(client: Redis | Cluster): void {
    if (this.closed) return;
    setTimeout(() => {
      if (!this.closed && client.status === 'end') client.connect().catch(() => {});
    }, 100).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.redis.disconnect();
    if (this.writer !== this.redis) this.writer.disconnect();
  }

  /** Runs a command, bounded by the timeout; any failure is StoreUnavailableError, naming its cause. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(TIMED_OUT), this.timeoutMs);
        }),
      ]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError(this.causeOf(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Why a command failed, in words for the log line: never a key or an argument, only Redis's error code. */
  private causeOf(error: unknown): string {
    // ioredis's own commandTimeout ends a command at the same moment, with its own error.
    if (error === TIMED_OUT || (error as Error)?.message === 'Command timed out')
      return `the Redis store did not answer within ${this.timeoutMs} ms (--store-timeout)`;
    for (const client of new Set([this.redis, this.writer])) {
      if (client.status !== 'ready') return `not connected to the Redis store (${client.status})`;
    }
    if ((error as Error)?.message === 'Connection is closed.') return 'the connection to the Redis store closed';
    if ((error as Error)?.name === 'ReplyError') {
      const code = /^[A-Z]+/.exec((error as Error).message)?.[0] ?? 'ERR';
      return `the Redis store refused the command (${code})`;
    }
    return `the Redis store failed (${(error as Error)?.name ?? 'error'})`;
  }
}
