/**
 * The ioredis client for a `--store` URL (redis-url.ts): one server, the
 * master named by Sentinels, or a Redis Cluster. Whatever the topology, the
 * client never queues a command while it has no connection to the master
 * that should run it: the command fails at once (ValidatePin fails closed)
 * and the client keeps reconnecting by itself, following a failover. The
 * choices below were checked against real servers (test/system/redis-*.test.ts).
 */
import { readFileSync } from 'node:fs';
import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTarget } from './redis-url';

export interface RedisClientOptions {
  keyPrefix: string;
  /** Milliseconds a command may take before it fails (--store-timeout). */
  commandTimeoutMs: number;
  /** A PEM file of the CAs a rediss:// server's certificate must chain to; else Node's own list. */
  tlsCaFile?: string;
}

/** Reconnecting after a lost connection: soon, then at most every half second, for as long as it takes. */
const reconnectDelay = (attempt: number) => Math.min(attempt * 50, 500);

export function createRedisClient(target: RedisTarget, options: RedisClientOptions): Redis | Cluster {
  const common: RedisOptions = {
    keyPrefix: options.keyPrefix,
    // No queue while disconnected, no retry of a command that failed: the call fails closed at once.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: 2000,
    retryStrategy: reconnectDelay,
    username: target.username,
    password: target.password,
  };
  switch (target.topology) {
    case 'single':
      return new Redis({
        ...common,
        host: target.endpoint.host,
        port: target.endpoint.port,
        db: target.db,
        // Node checks the certificate against the host (name or IP address), as for any TLS connection.
        tls: target.tls ? (options.tlsCaFile ? { ca: readFileSync(options.tlsCaFile, 'utf8') } : {}) : undefined,
      });
    case 'sentinel':
      return new Redis({
        ...common,
        sentinels: target.sentinels,
        name: target.masterName,
        // Only the master: the client checks the role of the server a Sentinel names (INFO replication)
        // and asks again when it is not a master yet, e.g. a replica in the middle of its promotion.
        role: 'master',
        // Told of a failover by the Sentinels (+switch-master), the client leaves the old master at once,
        // even one still running (a manual failover, a partition) that would refuse writes as a replica.
        failoverDetector: true,
        sentinelRetryStrategy: reconnectDelay,
        sentinelCommandTimeout: options.commandTimeoutMs,
      });
    case 'cluster': {
      const clusterOptions: ClusterOptions = {
        keyPrefix: options.keyPrefix,
        enableOfflineQueue: false,
        // Writes only, so every command goes to the master of its key's slot.
        scaleReads: 'master',
        clusterRetryStrategy: reconnectDelay,
        // A command for a node whose connection is not ready (being opened: at start, after a failover;
        // or lost) is sent again after 50 ms, with the slot map read again, up to 16 times: a new
        // connection is bridged, a dead master's slots fail closed within --store-timeout. A MOVED
        // answer is followed at once: that is how calls reach a promoted replica. A cluster that says
        // it is down (CLUSTERDOWN) fails the call at once.
        retryDelayOnFailover: 50,
        retryDelayOnClusterDown: 0,
        // The slot map is also read again every 2 s, so a failover is noticed without a failed call.
        slotsRefreshInterval: 2000,
        slotsRefreshTimeout: Math.min(options.commandTimeoutMs, 2000),
        redisOptions: { ...common, keyPrefix: undefined },
      };
      return new Cluster(target.nodes, clusterOptions);
    }
  }
}
