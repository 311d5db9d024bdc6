/**
 * The store on a Redis Cluster (redis+cluster://), with real servers on
 * loopback: three masters and three replicas (`redis-server
 * --cluster-enabled yes`, joined by `redis-cli --cluster create`;
 * test/support/redis-topologies.ts), two instances sharing it.
 *
 * - the subset every topology passes (test/support/store-conformance.ts);
 * - replay protection and throttling exact across the two instances for
 *   secrets on every master; the keys spread over all three masters, both
 *   keys of a secret in one slot (the hash tag);
 * - a master killed under load: calls for its slots fail closed (never a
 *   wrong true), /readyz answers 503, its replica takes over and every call
 *   succeeds again, nothing restarted.
 */
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStateKeyHasher } from '../../src/service/state/keyed-hash';
import { replayAccepted, startLoad, summarize } from '../support/failover-load';
import {
  startCluster,
  redisCommand,
  redisCommands,
  waitFor,
  type ClusterNode,
  type ClusterView,
  type TestCluster,
} from '../support/redis-topologies';
import { pinFor, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { SHARED_STATE_KEY, sharedStoreConformance, startInstancePair, validate, isTrue } from '../support/store-conformance';

let cluster: TestCluster;
let a: TestService;
let b: TestService;

test.before(async () => {
  cluster = await startCluster({ masters: 3, replicasPerMaster: 1 });
  ({ a, b } = await startInstancePair(cluster.url));
});

test.after.always(async () => {
  await a?.close();
  await b?.close();
  await cluster?.stop();
});

sharedStoreConformance(() => ({ store: cluster.url, a, b }), 'cluster');

const idOf = createStateKeyHasher(SHARED_STATE_KEY);
const keysOf = (secret: string) => {
  const id = idOf(Buffer.from(secret, 'utf8'));
  return { step: `pin:step:{${id}}`, attempts: `pin:attempts:{${id}}` };
};

/** The master serving `key` in `view`. */
async function ownerOf(view: ClusterView, key: string): Promise<{ node: ClusterNode; slot: number }> {
  const slot = Number(await redisCommand(view.masters[0].node.port, ['CLUSTER', 'KEYSLOT', key]));
  const owner = view.masters.find((m) => m.slots.some(([from, to]) => slot >= from && slot <= to));
  if (!owner) throw new Error(`no master serves slot ${slot}`);
  return { node: owner.node, slot };
}

test.serial(
  'replay protection and throttling exact across both instances, for secrets on every master; both keys of a secret in one slot',
  async (t) => {
    const replaySecrets = Array.from({ length: 48 }, (_, i) => `cluster-exact-replay-${i}`);
    const replays = await Promise.all(
      replaySecrets.map(async (secret) => {
        const pin = pinFor(a, secret);
        return Promise.all(Array.from({ length: 6 }, (_, i) => validate(i % 2 ? a : b, secret, pin)));
      }),
    );
    replays.forEach((answers, i) => {
      t.true(
        answers.every((x) => x.status === 200 || x.status === 429),
        replaySecrets[i],
      );
      t.is(answers.filter((x) => isTrue(x.body)).length, 1, `${replaySecrets[i]}: exactly one true`);
    });

    const throttleSecrets = Array.from({ length: 24 }, (_, i) => `cluster-exact-throttle-${i}`);
    const throttled = await Promise.all(
      throttleSecrets.map((secret) =>
        Promise.all(Array.from({ length: 8 }, (_, i) => validate(i % 2 ? a : b, secret, wrongPinFor(a, secret)))),
      ),
    );
    throttled.forEach((answers, i) => {
      t.is(answers.filter((x) => x.status === 200 && !isTrue(x.body)).length, 5, `${throttleSecrets[i]}: exactly 5 guesses checked`);
      t.is(answers.filter((x) => x.status === 429).length, 3, `${throttleSecrets[i]}: the rest refused`);
    });

    // Where the keys went: every master holds some, each key on the master of its slot.
    const view = await cluster.view();
    t.is(view.masters.length, 3);
    const perMaster = new Map<ClusterNode, number>();
    for (const secret of replaySecrets) {
      const { node } = await ownerOf(view, keysOf(secret).step);
      perMaster.set(node, (perMaster.get(node) ?? 0) + 1);
      t.is(await redisCommand(node.port, ['EXISTS', keysOf(secret).step]), 1, `${secret}: its step record is on the master of its slot`);
    }
    t.is(perMaster.size, 3, `secrets on every master: ${[...perMaster.values()].join(', ')}`);
    for (const { node } of view.masters) t.true(Number(await redisCommand(node.port, ['DBSIZE'])) > 0, `${node.address} holds keys`);

    // Both keys of a secret share a slot: a throttled secret (attempts) that was then also accepted elsewhere in time (step).
    const both = 'cluster-both-keys-1';
    t.true(isTrue((await validate(a, both, pinFor(a, both))).body));
    t.false(isTrue((await validate(b, both, wrongPinFor(a, both))).body));
    const step = await ownerOf(view, keysOf(both).step);
    const attempts = await ownerOf(view, keysOf(both).attempts);
    t.is(attempts.slot, step.slot, 'one slot for both keys');
    t.is(await redisCommand(step.node.port, ['EXISTS', keysOf(both).step, keysOf(both).attempts]), 2);
    t.true(Number(await redisCommand(step.node.port, ['CLUSTER', 'COUNTKEYSINSLOT', step.slot])) >= 2);
  },
);

test.serial(
  '--store-replicas 1 on a Cluster: the record and its WAIT go to the master of the key’s slot; one true across instances with and without it',
  async (t) => {
    const replicated = await startTestService({ store: cluster.url, stateKey: SHARED_STATE_KEY, storeReplicas: 1 });
    try {
      replicated.clock.set(a.clock.now());
      const view = await cluster.view();
      const secrets = Array.from({ length: 12 }, (_, i) => `cluster-replicas-${i}`);
      for (const secret of secrets) {
        const pin = pinFor(a, secret);
        const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => validate(i % 2 ? replicated : a, secret, pin)));
        t.true(
          answers.every((x) => x.status === 200 || x.status === 429),
          secret,
        );
        t.is(answers.filter((x) => isTrue(x.body)).length, 1, `${secret}: exactly one true`);
        const first = `${secret}-first`;
        t.true(isTrue((await validate(replicated, first, pinFor(a, first))).body), `${first}: accepted once its replica holds it`);
        t.false(isTrue((await validate(b, first, pinFor(a, first))).body), `${first}: refused by an instance without --store-replicas`);
        const { node } = await ownerOf(view, keysOf(first).step);
        t.is(await redisCommand(node.port, ['EXISTS', keysOf(first).step]), 1);
        const replica = view.replicas.find((r) => r.master === node)!.node;
        t.deepEqual(
          await redisCommands(replica.port, [['READONLY'], ['EXISTS', keysOf(first).step]]),
          ['OK', 1],
          `${first}: its master's replica holds the record`,
        );
      }
    } finally {
      await replicated.close();
    }
  },
);

test.serial(
  'a master killed under load: its slots fail closed, /readyz 503, its replica takes over and calls resume by themselves',
  async (t) => {
    t.timeout(110_000);
    const load = startLoad({
      targets: [a.url, b.url],
      clients: 4,
      pauseMs: 40,
      maxMs: 60_000,
      secretPrefix: 'cluster-failover',
      pinOf: (secret) => pinFor(a, secret),
      wrongPinOf: (secret) => wrongPinFor(a, secret, 2),
    });
    const readiness = [a, b].map(() => [] as [number, number][]);
    let watching = true;
    const watcher = Promise.all(
      [a, b].map(async (service, i) => {
        while (watching) {
          readiness[i].push([
            Date.now(),
            await fetch(`${service.url}/readyz`).then(
              (r) => r.status,
              () => 0,
            ),
          ]);
          await sleep(100);
        }
      }),
    );
    await sleep(3000);
    const before = await cluster.view();
    const victim = before.masters[1].node;
    const { promoted, killedAt } = await cluster.failOver(victim, 30_000);
    const promotedAt = Date.now();
    await waitFor(
      'calls to succeed again for 4 s',
      30_000,
      async () => {
        const since = Date.now() - 4000;
        const recent = load.calls.filter((c) => c.sentAt >= since && c.sentAt > promotedAt);
        return recent.length > 20 && recent.every((c) => c.outcome === 'true' || c.outcome === 'false') ? true : undefined;
      },
      250,
    );
    const calls = await load.stop();
    watching = false;
    await watcher;

    const summary = summarize(calls, killedAt);
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
    t.true(summary.failedClosed > 0, 'calls for the killed master’s slots failed closed');
    t.truthy(summary.recoveredSeconds, 'calls succeed again');
    t.true(summary.afterRecovery > 20);
    readiness.forEach((seen, i) => {
      t.true(
        seen.some(([at, status]) => at > killedAt && status === 503),
        `instance ${i}: /readyz answered 503 during the failover`,
      );
      t.is(seen.at(-1)?.[1], 200, `instance ${i}: /readyz answers 200 again`);
    });

    // Calls for secrets on the promoted replica's slots are among those answered after the recovery.
    const after = await cluster.view();
    t.true(after.masters.some((m) => m.node === promoted) && !after.masters.some((m) => m.node === victim));
    const recoveredAt = killedAt + (summary.recoveredSeconds ?? 0) * 1000;
    const late = calls.filter((c) => c.kind === 'right' && c.outcome === 'true' && c.sentAt >= recoveredAt);
    let onPromoted = 0;
    for (const c of late) if ((await ownerOf(after, keysOf(c.secret).step)).node === promoted) onPromoted++;
    t.true(onPromoted > 0, `PINs accepted on the promoted replica after the failover: ${onPromoted}`);

    // The replay window, logged: PINs accepted before the kill whose master was the killed one, replayed now.
    const acceptedBefore = calls.filter((c) => c.kind === 'right' && c.outcome === 'true' && c.answeredAt < killedAt);
    const replayed = await replayAccepted(a.url, acceptedBefore);
    t.deepEqual(
      replayed.filter((c) => c.outcome === 'unexpected').map((c) => `${c.status} ${c.detail}`),
      [],
    );
    t.log(
      JSON.stringify({
        calls: summary.calls,
        promotedSeconds: (promotedAt - killedAt) / 1000,
        firstAnswerSeconds: summary.firstAnswerSeconds,
        recoveredSeconds: summary.recoveredSeconds,
        failedClosed: summary.failedClosed,
        answeredWrongly: summary.wrong.length,
        acceptedBeforeKill: acceptedBefore.length,
        acceptedTwice: replayed.filter((c) => c.outcome === 'true').length + summary.replayWindow.length,
      }),
    );
  },
);
