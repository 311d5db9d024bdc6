/**
 * The store under Redis Sentinel (redis+sentinel://), with real servers on
 * loopback: one master, two replicas and three Sentinels (Debian's
 * redis-server and redis-sentinel; test/support/redis-topologies.ts).
 *
 * - the subset every topology passes (test/support/store-conformance.ts);
 * - a failover under load: two instances behind nginx (deploy/nginx.conf),
 *   a steady mixed load, the master SIGKILLed. Calls fail closed while
 *   there is no master, never answer true wrongly, and succeed again once a
 *   replica is promoted, without restarting anything; /readyz answers 503
 *   meanwhile. Logged: seconds until calls succeed again, calls failed
 *   closed, calls answered wrongly (0);
 * - the replay window: every PIN accepted before the kill is replayed after
 *   it. With --store-replicas 0 the PINs accepted twice are counted and
 *   logged (whatever their number; docs/operations.md records it), with
 *   --store-replicas 1 there are none;
 * - the same with the replicas cut off from the master for 1 s before the
 *   kill (a network fault): with --store-replicas 0 the PINs accepted
 *   meanwhile are on no replica and are accepted twice (so the window is
 *   real, and the --store-replicas 1 run shows what closes it), with
 *   --store-replicas 1 those calls fail closed and none is accepted twice;
 * - --store-replicas 1 with no replica left: an accepted PIN fails closed
 *   within --store-timeout, a wrong one is still answered false.
 *
 * Each failover has a replicated set, two instances and nginx of its own,
 * stopped when its test ends. The figures are logged as one JSON line per
 * failover (t.log).
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildService, type ChildService } from '../support/child-service';
import { replayAccepted, startLoad, summarize, validateOutcome, type LoadCall } from '../support/failover-load';
import { startNginx, type TestNginx } from '../support/nginx';
import { redisCommand, redisInfo, startReplicatedSet, waitFor, type RedisProcess, type ReplicatedSet } from '../support/redis-topologies';
import { pinFor, wrongPinFor } from '../support/requests';
import type { TestService } from '../support/service';
import { sharedStoreConformance, startInstancePair } from '../support/store-conformance';

/** Everything a test started, stopped in after.always whatever happened. */
const cleanups: (() => Promise<unknown>)[] = [];
let set: ReplicatedSet;
let a: TestService;
let b: TestService;

test.before(async () => {
  set = await startReplicatedSet();
  cleanups.push(() => set.stop());
  ({ a, b } = await startInstancePair(set.url));
  cleanups.push(
    () => a.close(),
    () => b.close(),
  );
});

test.after.always(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

sharedStoreConformance(() => ({ store: set.url, a, b }), 'sentinel');

const STATE_KEY = randomBytes(32).toString('hex');
/** ±3 steps: a PIN accepted before the kill is still within the window when it is replayed after the failover. */
const DRIFT_WINDOW = 3;
const STORE_TIMEOUT_MS = 1000;
/** PINs against the real clock, as the services behind nginx use it. */
const REAL_CLOCK = { clock: Date };
const pinAt = (secret: string) => pinFor(REAL_CLOCK, secret);
/** Wrong in a window one step wider than the services', so that it stays wrong while the test runs. */
const wrongPinOf = (secret: string) => wrongPinFor(REAL_CLOCK, secret, DRIFT_WINDOW + 1);

interface Deployment {
  set: ReplicatedSet;
  instances: ChildService[];
  nginx: TestNginx;
  /**
   * Stops all of it. Each test stops its own before the next starts: Sentinels
   * left running would take a new server on a port their dead master had
   * for that master back, and make it a replica.
   */
  stop(): Promise<void>;
}

/** A replicated set of its own, two instances with `--store-replicas replicas` and nginx in front. */
async function deploy(replicas: number): Promise<Deployment> {
  const parts: { stop(): Promise<unknown> }[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const part of parts.reverse()) await part.stop().catch(() => {});
    })());
  cleanups.push(stop);
  const own = await startReplicatedSet();
  parts.push(own);
  const instances: ChildService[] = [];
  for (let i = 0; i < 2; i++) {
    const instance = await startChildService({
      args: [
        '--store',
        own.url,
        '--state-key',
        STATE_KEY,
        '--store-replicas',
        String(replicas),
        '--store-timeout',
        String(STORE_TIMEOUT_MS),
      ],
      env: { PIN_TRUST_PROXY: 'true', PIN_DRIFT_WINDOW: String(DRIFT_WINDOW), PIN_LOG_LEVEL: 'warn' },
      keepOutputChars: 100_000,
    });
    parts.push({ stop: () => instance.kill() });
    instances.push(instance);
  }
  const nginx = await startNginx([`127.0.0.1:${instances[0].port}`, `127.0.0.1:${instances[1].port}`]);
  parts.push(nginx);
  return { set: own, instances, nginx, stop };
}

/** /readyz of each instance every 100 ms until stopped: [time, status] per instance. */
function watchReadiness(instances: ChildService[]) {
  const seen = instances.map(() => [] as [number, number][]);
  let stopped = false;
  const done = Promise.all(
    instances.map(async (instance, i) => {
      while (!stopped) {
        const status = await fetch(`${instance.url}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        seen[i].push([Date.now(), status]);
        await sleep(100);
      }
    }),
  );
  return {
    seen,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/**
 * The failover under load, then the replay window; answers the deployment
 * for more checks. With `linkDownMs`, the replicas lose their link to the
 * master that long before it is killed (as in a network fault): what the
 * master accepts meanwhile is on no replica.
 */
async function failover(
  t: ExecutionContext,
  replicas: number,
  linkDownMs = 0,
  then?: (deployment: Deployment) => Promise<void>,
): Promise<void> {
  const deployment = await deploy(replicas);
  try {
    await failoverOn(t, deployment, replicas, linkDownMs);
    await then?.(deployment);
  } finally {
    await deployment.stop();
  }
}

async function failoverOn(t: ExecutionContext, deployment: Deployment, replicas: number, linkDownMs: number): Promise<void> {
  const { nginx, instances } = deployment;
  const load = startLoad({
    targets: [nginx.base],
    clients: 4,
    pauseMs: 40,
    maxMs: 60_000,
    secretPrefix: `sentinel-failover-${replicas}-${linkDownMs}`,
    pinOf: (secret) => pinAt(secret),
    wrongPinOf,
  });
  const readiness = watchReadiness(instances);
  let calls: LoadCall[];
  let killedAt = 0;
  let linkDownAt = 0;
  let promotedAt = 0;
  let master: RedisProcess;
  let promoted: RedisProcess;
  try {
    await sleep(3000);
    master = await deployment.set.master();
    const replicaServers = deployment.set.servers.filter((s) => s !== master);
    if (linkDownMs > 0) {
      // A wrong masterauth keeps each replica from reconnecting (the master has no password: AUTH fails).
      for (const r of replicaServers) {
        await redisCommand(r.port, ['CONFIG', 'SET', 'masterauth', 'not-the-password']);
        await redisCommand(r.port, ['CLIENT', 'KILL', 'TYPE', 'master']);
      }
      linkDownAt = Date.now();
      for (const r of replicaServers) t.is((await redisInfo(r.port, 'replication')).master_link_status, 'down');
      await sleep(linkDownMs);
    }
    killedAt = Date.now();
    await master.kill();
    for (const r of linkDownMs > 0 ? replicaServers : []) await redisCommand(r.port, ['CONFIG', 'SET', 'masterauth', '']);
    promoted = await deployment.set.waitForNewMaster(master, 30_000);
    promotedAt = Date.now();
    // Calls go on until every call has succeeded for 4 s and more than 20 right PINs were accepted since the
    // kill, for the replay window below (bounded: 30 s after the promotion; a busy machine makes fewer calls a second).
    await waitFor(
      'calls to succeed again for 4 s, and more than 20 PINs accepted since the kill',
      30_000,
      async () => {
        const since = Date.now() - 4000;
        const recent = load.calls.filter((c) => c.sentAt >= since && c.sentAt > promotedAt);
        const acceptedSinceKill = load.calls.filter((c) => c.kind === 'right' && c.outcome === 'true' && c.sentAt > killedAt);
        return recent.length > 20 && acceptedSinceKill.length > 20 && recent.every((c) => c.outcome === 'true' || c.outcome === 'false')
          ? true
          : undefined;
      },
      250,
    );
  } catch (error) {
    // What the calls did, second by second from the kill, to see why.
    const timeline = new Map<number, Record<string, number>>();
    for (const c of load.calls.filter((c) => killedAt && c.sentAt >= killedAt)) {
      const second = Math.floor((c.sentAt - killedAt) / 1000);
      const row = timeline.get(second) ?? {};
      row[`${c.kind}:${c.outcome}`] = (row[`${c.kind}:${c.outcome}`] ?? 0) + 1;
      timeline.set(second, row);
    }
    t.log(JSON.stringify([...timeline]));
    t.log(deployment.set.failoverLog());
    t.log(instances.map((i) => i.output().slice(-1000)).join('\n----\n'));
    throw error;
  } finally {
    calls = await load.stop();
    await readiness.stop();
  }

  const summary = summarize(calls, killedAt);
  const figures = {
    replicas,
    linkDownMs,
    calls: summary.calls,
    promotedSeconds: (promotedAt - killedAt) / 1000,
    firstAnswerSeconds: summary.firstAnswerSeconds,
    recoveredSeconds: summary.recoveredSeconds,
    failedClosed: summary.failedClosed,
    answeredWrongly: summary.wrong.length,
    immediateReplaysInWindow: summary.replayWindow.length,
  };
  t.deepEqual(
    summary.unexpected.map((c) => `${c.kind} ${c.variant} ${c.status} ${c.detail ?? ''}`),
    [],
    'every call answered true, false, or failed closed',
  );
  t.deepEqual(
    summary.wrong.map((c) => `${c.kind} ${c.variant} ${c.secret}`),
    [],
    'no true for a wrong or replayed PIN',
  );
  t.true(summary.failedClosed > 0, 'calls failed closed while there was no master');
  t.truthy(summary.recoveredSeconds, 'calls succeed again');
  t.true(summary.afterRecovery > 20, 'and kept succeeding');
  t.true(
    instances.every((i) => i.alive()),
    'no instance restarted or died',
  );
  t.not(promoted, master);

  // /readyz: 503 after the kill, 200 again at the end, on each instance.
  readiness.seen.forEach((seen, i) => {
    t.true(
      seen.some(([at, status]) => at > killedAt && status === 503),
      `instance ${i}: /readyz answered 503 during the failover`,
    );
    t.is(seen.at(-1)?.[1], 200, `instance ${i}: /readyz answers 200 again`);
  });

  // The replay window: every PIN accepted before the kill, again, after the failover.
  const before = calls.filter((c) => c.kind === 'right' && c.outcome === 'true' && c.answeredAt < killedAt);
  const after = calls.filter((c) => c.kind === 'right' && c.outcome === 'true' && c.sentAt > killedAt);
  const outcomes = (kind: string) =>
    JSON.stringify(
      Object.fromEntries(
        ['true', 'false', 'failed-closed'].map((o) => [
          o,
          calls.filter((c) => c.kind === kind && c.sentAt > killedAt && c.outcome === o).length,
        ]),
      ),
    );
  t.true(
    before.length > 20 && after.length > 20,
    `PINs accepted before (${before.length}) and after (${after.length}) the kill; after it, right: ${outcomes('right')}, wrong: ${outcomes('wrong')}; ${JSON.stringify(figures)}`,
  );
  t.true(Date.now() - before[0].answeredAt < (DRIFT_WINDOW * 30 - 30) * 1000, 'every replayed PIN is still within the drift window');
  const replayedBefore = await replayAccepted(nginx.base, before);
  const replayedAfter = await replayAccepted(nginx.base, after);
  t.deepEqual(
    [...replayedBefore, ...replayedAfter].filter((c) => c.outcome === 'unexpected').map((c) => `${c.status} ${c.detail}`),
    [],
  );
  t.deepEqual(
    replayedAfter.filter((c) => c.outcome === 'true').map((c) => c.secret),
    [],
    'a PIN accepted by the new master is refused',
  );
  const twice = replayedBefore.filter((c) => c.outcome === 'true').length + summary.replayWindow.length;
  const duringLinkDown = before.filter((c) => linkDownAt > 0 && c.sentAt >= linkDownAt).length;
  t.log(JSON.stringify({ ...figures, acceptedBeforeKill: before.length, acceptedWhileLinkDown: duringLinkDown, acceptedTwice: twice }));
  if (replicas > 0) t.is(twice, 0, `with --store-replicas ${replicas}, no PIN accepted before the kill is accepted again`);
  // What the master accepted with no replica linked was on no replica, so it is accepted again: the window is real.
  if (replicas === 0 && linkDownMs > 0)
    t.true(twice > 0 && duringLinkDown > 0, 'PINs accepted while the replicas were cut off are accepted twice');
  if (replicas > 0 && linkDownMs > 0) t.is(duringLinkDown, 0, 'no PIN was accepted while no replica could acknowledge it');
}

test.serial(
  'failover under load behind nginx, --store-replicas 0: fail closed, no wrong answer, recovery by itself; the replay window counted',
  async (t) => {
    t.timeout(110_000);
    await failover(t, 0);
  },
);

test.serial(
  'replication cut off for 1 s before the kill, --store-replicas 0: the PINs accepted meanwhile are accepted twice (counted)',
  async (t) => {
    t.timeout(110_000);
    await failover(t, 0, 1000);
  },
);

test.serial(
  'replication cut off for 1 s before the kill, --store-replicas 1: those calls failed closed instead, no PIN is accepted twice',
  async (t) => {
    t.timeout(110_000);
    await failover(t, 1, 1000);
  },
);

test.serial(
  'failover under load behind nginx, --store-replicas 1: the same, and no PIN accepted before the kill is accepted again',
  async (t) => {
    t.timeout(110_000);
    await failover(t, 1, 0, async ({ set: own, nginx, instances }) => {
      // No replica left: an accepted PIN fails closed once --store-timeout has passed; a wrong PIN is still false.
      const master = await own.master();
      await Promise.all(own.servers.filter((s) => s !== master && s.alive()).map((s) => s.kill()));
      const secret = `sentinel-no-replica-${randomBytes(4).toString('hex')}`;
      const started = Date.now();
      const right = await validateOutcome(nginx.base, 'httpGet', pinAt(secret), secret);
      const waited = Date.now() - started;
      t.is(right.outcome, 'failed-closed');
      // Its error line names the cause: the instance nginx sent it to says how many replicas acknowledged it.
      const cause = /"kind":"unavailable","cause":"0 of 1 Redis replicas acknowledged the write within 800 ms \(--store-replicas\)"/;
      const logged = await waitFor('the error line', 5000, async () =>
        instances.some((instance) => cause.test(instance.output())) ? true : undefined,
      ).catch(() => false);
      t.true(logged, 'the error line names the replicas that acknowledged');
      // WAIT gives up at 4/5 of --store-timeout (redis-store.ts).
      t.true(waited >= STORE_TIMEOUT_MS * 0.8 - 50 && waited < STORE_TIMEOUT_MS + 4000, `failed closed after ${waited} ms`);
      t.is((await validateOutcome(nginx.base, 'httpPost', wrongPinOf(secret), secret)).outcome, 'false');
      // The record was written on the master, unacknowledged: the same PIN is now refused (the cost of failing
      // closed): false, or failed closed when the answer comes too close to --store-timeout on a loaded machine.
      const again = await validateOutcome(nginx.base, 'soap11', pinAt(secret), secret);
      t.true(again.outcome === 'false' || again.outcome === 'failed-closed', `${again.outcome} ${again.status} ${again.detail ?? ''}`);
    });
  },
);

test.serial('--store-replicas 1, a fresh start: the first ValidatePin after /readyz answers 200 succeeds (three starts)', async (t) => {
  t.timeout(110_000);
  for (let run = 0; run < 3; run++) {
    const instance = await startChildService({
      args: ['--store', set.url, '--state-key', STATE_KEY, '--store-replicas', '1', '--store-timeout', String(STORE_TIMEOUT_MS)],
      env: { PIN_LOG_LEVEL: 'warn' },
      keepOutputChars: 100_000,
    });
    try {
      await waitFor(
        '/readyz to answer 200',
        20_000,
        async () =>
          (await fetch(`${instance.url}/readyz`).then(
            (r) => r.status,
            () => 0,
          )) === 200
            ? true
            : undefined,
        20,
      );
      const secret = `sentinel-first-call-${run}-${randomBytes(4).toString('hex')}`;
      const first = await validateOutcome(instance.url, 'httpGet', pinAt(secret), secret);
      t.is(
        first.outcome,
        'true',
        `start ${run + 1}: ${first.outcome} ${first.status} ${first.detail ?? ''}\n${instance.output().slice(-2000)}`,
      );
    } finally {
      await instance.kill();
    }
  }
});
