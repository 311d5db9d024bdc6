/**
 * Redis past one server, for tests and benchmarks, on loopback and free
 * ports, each in a temporary directory (removed by stop()):
 *
 * - startReplicatedSet: one master, replicas of it, and Sentinels watching
 *   them (Debian's redis-server and redis-sentinel);
 * - startCluster: a Redis Cluster of masters and replicas
 *   (`redis-server --cluster-enabled yes`, joined by `redis-cli --cluster create`).
 *
 * Every server is a child process of the test, killed with SIGKILL by
 * kill() or stop(); call stop() in test.after.always. Nothing here blocks
 * the event loop (no spawnSync once started): tests run load while they
 * query the servers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { freePort } from './ports';
import { requireRedisServer } from './redis';

/** Fails loudly when redis-sentinel is missing: `make test-all` needs it (installed by .ci/run). */
export function requireRedisSentinel(): void {
  requireRedisServer();
  const found = spawnSync('redis-sentinel', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error('redis-sentinel is not installed: run `apt-get install -y redis-sentinel` (see .ci/run)');
  }
}

export interface RedisProcess {
  port: number;
  /** host:port */
  address: string;
  alive(): boolean;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** Starts it again with the same arguments (after kill()). */
  restart(): Promise<void>;
}

/** One command to the server on `port`, on a connection of its own; rejects when it cannot be reached within `timeoutMs`. */
export async function redisCommand(port: number, args: (string | number)[], timeoutMs = 2000): Promise<unknown> {
  return (await redisCommands(port, [args], timeoutMs)).at(-1);
}

/** Commands in turn on one connection of their own (e.g. READONLY, then a read from a Cluster replica); answers each reply. */
export async function redisCommands(port: number, commands: (string | number)[][], timeoutMs = 2000): Promise<unknown[]> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    enableOfflineQueue: false,
    enableReadyCheck: false,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    const replies: unknown[] = [];
    for (const [name, ...rest] of commands) replies.push(await client.call(String(name), ...rest));
    return replies;
  } finally {
    client.disconnect();
  }
}

/** `INFO <section>` as name → value. */
export async function redisInfo(port: number, section: string): Promise<Record<string, string>> {
  const text = String(await redisCommand(port, ['INFO', section]));
  return Object.fromEntries(
    text
      .split('\r\n')
      .filter((line) => line.includes(':') && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
  );
}

/** Polls `check` every `everyMs` until it answers a value (not undefined), or throws `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(everyMs);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
  );
}

/** A server process; answers once it answers PING. */
async function startProcess(command: string, args: string[], port: number, dir: string, log: string): Promise<RedisProcess> {
  let child: ChildProcess | undefined;
  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const start = async () => {
    child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'] });
    await waitFor(
      `${command} on port ${port} (see ${join(dir, log)})`,
      10_000,
      async () => {
        if (!alive()) throw new Error(`${command} on port ${port} exited`);
        return (await redisCommand(port, ['PING'], 500)) === 'PONG' ? true : undefined;
      },
      50,
    );
  };
  const kill = async () => {
    if (!child || !alive()) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(5000, undefined, { ref: false })]);
  };
  await start();
  return { port, address: `127.0.0.1:${port}`, alive, kill, restart: start };
}

const COMMON = (port: number, log: string) => [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  '--logfile',
  log,
  // Replicas synchronise at once, over the socket, instead of after the default 5 s.
  '--repl-diskless-sync',
  'yes',
  '--repl-diskless-sync-delay',
  '0',
];

export interface ReplicatedSet {
  masterName: string;
  /** The --store URL: every Sentinel, and the master's name. */
  url: string;
  /** The master the set started with, then the replicas. */
  servers: RedisProcess[];
  sentinels: RedisProcess[];
  /** The master the Sentinels name now. */
  master(): Promise<RedisProcess>;
  /** Waits until the Sentinels name a master other than `old` and it answers as one; answers it. */
  waitForNewMaster(old: RedisProcess, timeoutMs: number): Promise<RedisProcess>;
  /** The Sentinels' log lines about failovers (elections, promotions, switches), to show when a test fails. */
  failoverLog(): string;
  stop(): Promise<void>;
}

export interface ReplicatedSetOptions {
  replicas?: number;
  sentinels?: number;
  /**
   * Sentinel's down-after-milliseconds: how long a master must not answer
   * before it is thought down. Default 2000: with 1000 on a loaded 2-core
   * machine, Sentinels now and then took a just-promoted replica for down
   * too (its clients are killed as it is promoted) and failed over twice.
   */
  downAfterMs?: number;
}

/**
 * One master, `replicas` replicas (default 2) and `sentinels` Sentinels
 * (default 3, quorum 2). Answers once every replica is in sync and every
 * Sentinel knows the replicas and the other Sentinels, so a failover can
 * happen at once.
 */
export async function startReplicatedSet(options: ReplicatedSetOptions = {}): Promise<ReplicatedSet> {
  requireRedisSentinel();
  const replicaCount = options.replicas ?? 2;
  const sentinelCount = options.sentinels ?? 3;
  const masterName = 'pins';
  const dir = mkdtempSync(join(tmpdir(), 'pin-sentinel-'));
  const servers: RedisProcess[] = [];
  const sentinels: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all([...sentinels, ...servers].map((p) => p.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const masterPort = await freePort();
    servers.push(
      await startProcess('redis-server', COMMON(masterPort, `redis-${masterPort}.log`), masterPort, dir, `redis-${masterPort}.log`),
    );
    for (let i = 0; i < replicaCount; i++) {
      const port = await freePort();
      const args = [...COMMON(port, `redis-${port}.log`), '--replicaof', '127.0.0.1', String(masterPort)];
      servers.push(await startProcess('redis-server', args, port, dir, `redis-${port}.log`));
    }
    await waitFor('the replicas to be in sync', 15_000, async () => {
      const states = await Promise.all(servers.slice(1).map((s) => redisInfo(s.port, 'replication')));
      return states.every((info) => info.master_link_status === 'up') ? true : undefined;
    });
    for (let i = 0; i < sentinelCount; i++) {
      const port = await freePort();
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `logfile sentinel-${port}.log`,
          `sentinel monitor ${masterName} 127.0.0.1 ${masterPort} ${Math.floor(sentinelCount / 2) + 1}`,
          `sentinel down-after-milliseconds ${masterName} ${options.downAfterMs ?? 2000}`,
          `sentinel failover-timeout ${masterName} 10000`,
          `sentinel parallel-syncs ${masterName} ${replicaCount}`,
          '',
        ].join('\n'),
      );
      sentinels.push(await startProcess('redis-sentinel', [conf], port, dir, `sentinel-${port}.log`));
    }
    await waitFor('every Sentinel to know the replicas and the other Sentinels', 20_000, async () => {
      for (const sentinel of sentinels) {
        const [fields] = (await redisCommand(sentinel.port, ['SENTINEL', 'MASTERS'])) as string[][];
        const master = pairs(fields);
        if (Number(master['num-slaves']) !== replicaCount || Number(master['num-other-sentinels']) !== sentinelCount - 1) return undefined;
      }
      return true;
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const byPort = (port: number) => servers.find((s) => s.port === port);
  const named = async (): Promise<RedisProcess | undefined> => {
    for (const sentinel of sentinels.filter((s) => s.alive())) {
      try {
        const [, port] = (await redisCommand(sentinel.port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName], 1000)) as string[];
        return byPort(Number(port));
      } catch {
        // the next Sentinel
      }
    }
    return undefined;
  };
  return {
    masterName,
    url: `redis+sentinel://${sentinels.map((s) => s.address).join(',')}/${masterName}`,
    servers,
    sentinels,
    master: async () => {
      const master = await named();
      if (!master) throw new Error('no Sentinel names a master');
      return master;
    },
    waitForNewMaster: (old, timeoutMs) =>
      waitFor('the Sentinels to promote a replica', timeoutMs, async () => {
        const master = await named();
        if (!master || master === old) return undefined;
        return (await redisInfo(master.port, 'replication')).role === 'master' ? master : undefined;
      }),
    failoverLog: () =>
      readdirSync(dir)
        .filter((name) => name.startsWith('sentinel-') && name.endsWith('.log') && existsSync(join(dir, name)))
        .flatMap((name) =>
          readFileSync(join(dir, name), 'utf8')
            .split('\n')
            .filter((line) =>
              /[+-](sdown|odown|try-failover|elected-leader|selected-slave|promoted-slave|failover-end|switch-master|failover-abort\S*|convert-to-slave)\b/.test(
                line,
              ),
            )
            .map((line) => `${name}: ${line}`),
        )
        .join('\n'),
    stop,
  };
}

/** A flat [name, value, name, value, …] reply as an object. */
export function pairs(fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]] = fields[i + 1];
  return out;
}

export interface ClusterNode extends RedisProcess {
  id: string;
}

export interface ClusterView {
  /** Masters holding slots, with their slot ranges, as the node asked sees them. */
  masters: { node: ClusterNode; slots: [number, number][] }[];
  /** Replica → its master. */
  replicas: { node: ClusterNode; master: ClusterNode }[];
}

export interface TestCluster {
  /** The --store URL: every node. */
  url: string;
  nodes: ClusterNode[];
  /** The cluster as a live node sees it (CLUSTER NODES). */
  view(): Promise<ClusterView>;
  /**
   * SIGKILLs `master` (a master holding slots), then waits until its replica
   * serves its slots as a master and the cluster state is ok on every live
   * node. Answers the killed master, its replica now a master, and when the
   * kill happened.
   */
  failOver(master: ClusterNode, timeoutMs: number): Promise<{ killed: ClusterNode; promoted: ClusterNode; killedAt: number }>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  masters?: number;
  replicasPerMaster?: number;
  /** cluster-node-timeout: how long a node must not answer before it is thought failing. */
  nodeTimeoutMs?: number;
}

/**
 * A Redis Cluster of `masters` (default 3) masters with `replicasPerMaster`
 * (default 1) replicas each; answers once the cluster state is ok on every
 * node and every replica is in sync. Each node's cluster bus has a port of
 * its own (cluster-port), so no port + 10000 arithmetic.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  requireRedisServer();
  const masterCount = options.masters ?? 3;
  const total = masterCount * (1 + (options.replicasPerMaster ?? 1));
  const dir = mkdtempSync(join(tmpdir(), 'pin-cluster-'));
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < total; i++) {
      const port = await freePort();
      const busPort = await freePort();
      const log = `redis-${port}.log`;
      const args = [
        ...COMMON(port, log),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        String(options.nodeTimeoutMs ?? 2000),
        '--cluster-port',
        String(busPort),
      ];
      const node = await startProcess('redis-server', args, port, dir, log);
      nodes.push({ ...node, id: String(await redisCommand(port, ['CLUSTER', 'MYID'])) });
    }
    const create = spawn(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((n) => n.address),
        '--cluster-replicas',
        String(options.replicasPerMaster ?? 1),
        '--cluster-yes',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    create.stdout!.on('data', (d) => (output += d));
    create.stderr!.on('data', (d) => (output += d));
    const code = await Promise.race([
      new Promise<number | null>((resolve) => create.once('exit', resolve)),
      sleep(60_000, undefined, { ref: false }).then(() => 'timeout' as const),
    ]);
    if (code !== 0) {
      create.kill('SIGKILL');
      throw new Error(`redis-cli --cluster create failed (${code}):\n${output}`);
    }
    await waitFor('the cluster state to be ok on every node, every replica in sync', 30_000, async () => {
      for (const node of nodes) {
        const info = String(await redisCommand(node.port, ['CLUSTER', 'INFO']));
        if (!info.includes('cluster_state:ok') || !info.includes(`cluster_known_nodes:${total}`)) return undefined;
        const replication = await redisInfo(node.port, 'replication');
        if (replication.role === 'slave' && replication.master_link_status !== 'up') return undefined;
      }
      return true;
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const view = async (): Promise<ClusterView> => {
    for (const asked of nodes.filter((n) => n.alive())) {
      let text: string;
      try {
        text = String(await redisCommand(asked.port, ['CLUSTER', 'NODES'], 1000));
      } catch {
        continue;
      }
      const masters: ClusterView['masters'] = [];
      const replicas: ClusterView['replicas'] = [];
      const rows = text
        .trim()
        .split('\n')
        .map((line) => line.split(' '));
      const byId = (id: string) => nodes.find((n) => n.id === id);
      for (const [id, , flags, masterId, , , , , ...slots] of rows) {
        const node = byId(id);
        if (!node || flags.includes('fail')) continue;
        if (flags.includes('master') && slots.length > 0) {
          masters.push({
            node,
            slots: slots
              .filter((s) => !s.startsWith('['))
              .map((s) => s.split('-').map(Number) as [number, number])
              .map(([a, b]) => [a, b ?? a]),
          });
        } else if (flags.includes('slave') && byId(masterId)) {
          replicas.push({ node, master: byId(masterId)! });
        }
      }
      return { masters, replicas };
    }
    throw new Error('no cluster node answers');
  };
  return {
    url: `redis+cluster://${nodes.map((n) => n.address).join(',')}`,
    nodes,
    view,
    failOver: async (master, timeoutMs) => {
      const before = await view();
      const slots = before.masters.find((m) => m.node === master)?.slots;
      const replica = before.replicas.find((r) => r.master === master)?.node;
      if (!slots || !replica) throw new Error(`${master.address} is not a master with slots and a replica`);
      const killedAt = Date.now();
      await master.kill();
      const promoted = await waitFor('the replica to take over the killed master’s slots', timeoutMs, async () => {
        const now = await view();
        const serving = now.masters.find((m) => m.node === replica);
        if (!serving || JSON.stringify(serving.slots) !== JSON.stringify(slots)) return undefined;
        for (const node of nodes.filter((n) => n.alive())) {
          if (!String(await redisCommand(node.port, ['CLUSTER', 'INFO'], 1000)).includes('cluster_state:ok')) return undefined;
        }
        return replica;
      });
      return { killed: master, promoted, killedAt };
    },
    stop,
  };
}
