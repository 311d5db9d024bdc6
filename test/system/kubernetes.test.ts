/**
 * deploy/kubernetes/'s pods run here as their manifests run them, without a
 * cluster (support/pod-sandbox.ts: bubblewrap, uid 65534, read-only root,
 * only the state volume writable, the TLS Secret as kubelet keeps it, the
 * containers' own commands, args and env, one process namespace), with the
 * variables kubelet injects for a Service named `pin-service` and one named
 * `pin` in their environment, on the built service (`make build`): the
 * StatefulSet's pod answers over HTTPS, keeps its records across a restart,
 * takes a renewed certificate through its sidecar, and stops within its grace
 * period on SIGTERM; the Deployment's two pods share their records through
 * Redis.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { STOP_GRACE_MS } from '../../src/service/cli/serve';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { createTestCa, type TestCa } from '../support/certificates';
import { getHttps, sendHttps } from '../support/https';
import { containers, type Manifest, workload } from '../support/kubernetes';
import { givenPorts, type PodRun, processStatus, requireSandboxTools, runPod } from '../support/pod-sandbox';
import { freePort } from '../support/ports';
import { startRedis } from '../support/redis';
import { buildRequest, pinFor, readBoolean } from '../support/requests';
import { writeSecretVolume } from '../support/secret-volume';
import { pinServiceLinks } from '../support/service-links';

const now = { clock: { now: () => Date.now() } };

test.before(async () => {
  requireSandboxTools();
  await loadXmlEngine();
});

/** The pod's HTTPS port on this machine. */
const httpsPort = (pod: PodRun, template: Manifest) =>
  pod.ports.get((containers(template).service.ports as Manifest[]).find((p) => p.name === 'https')!.containerPort)!;

async function ready(pod: PodRun, url: string, ca: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const exited = pod.child.exitCode !== null;
    if (exited) throw new Error(`the pod's service exited:\n${pod.output()}`);
    const status = await getHttps(url, '/readyz', { ca }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error(`the pod was not ready within 60 s:\n${pod.output()}`);
}

/** The pod's output once it matches `pattern`, or as it is after 5 s. */
async function outputMatching(pod: PodRun, pattern: RegExp): Promise<string> {
  for (let tries = 0; tries < 50 && !pattern.test(pod.output()); tries++) await sleep(100);
  return pod.output();
}

async function validate(url: string, ca: string, pin: string, secretCode: string): Promise<boolean> {
  return readBoolean('httpPost', await sendHttps(url, buildRequest('httpPost', 'ValidatePin', { pin, secretCode }), { ca }));
}

/** A Secret volume of kubernetes.io/tls as kubelet writes it for this pod (defaultMode, fsGroup), holding a new certificate. */
async function writeTlsSecret(directory: string, ca: TestCa, template: Manifest): Promise<string> {
  const { cert, key, serialNumber } = await ca.issue();
  const volume = (template.spec.volumes as Manifest[]).find((v) => v.secret?.secretName === 'pin-service-tls') as Manifest;
  writeSecretVolume(
    directory,
    { 'tls.crt': cert, 'tls.key': key },
    { mode: volume.secret.defaultMode, group: template.spec.securityContext.fsGroup },
  );
  return serialNumber;
}

function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/** The mount points a process may write to (its /proc/PID/mountinfo: the mount's own options start with rw). */
function writableMounts(pid: number): string[] {
  return readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '))
    .filter((fields) => fields[5].split(',').includes('rw'))
    .map((fields) => fields[4]);
}

const stateMountPath = (template: Manifest) =>
  (containers(template).service.volumeMounts as Manifest[]).find((m) => !m.readOnly)?.mountPath;

/** SIGTERM to the service, as kubelet sends it once preStop is over: it must be gone before the rest of the grace period ends. */
async function stopWithinGrace(t: import('ava').ExecutionContext, pod: PodRun, template: Manifest): Promise<number> {
  const pause = containers(template).service.lifecycle.preStop.sleep.seconds as number;
  const allowedMs = (template.spec.terminationGracePeriodSeconds - pause) * 1000;
  const started = Date.now();
  process.kill(pod.pid, 'SIGTERM');
  const result = await Promise.race([pod.exited, sleep(allowedMs).then(() => 'late' as const)]);
  const tookMs = Date.now() - started;
  t.not(result, 'late', `stopped within ${allowedMs} ms of SIGTERM:\n${pod.output()}`);
  if (result !== 'late') t.is(result.code, 0, pod.output());
  t.regex(pod.output(), /"event":"stopping".*\n(.*\n)*.*"event":"stopped"/);
  t.true(allowedMs >= STOP_GRACE_MS, 'the grace left after preStop covers the service’s own');
  return tookMs;
}

test('the StatefulSet’s pod: answers over HTTPS as nobody on a read-only root, keeps its records across a restart, reloads a renewed certificate, stops within its grace', async (t) => {
  const { manifest } = workload('StatefulSet').document;
  const template = manifest.spec.template as Manifest;
  const dir = mkdtempSync(join(tmpdir(), 'pin-pod-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The volume a PersistentVolumeClaim gives, with fsGroup applied: the group owns it and may write it.
  const state = join(dir, 'state');
  mkdirSync(state);
  chmodSync(state, 0o2770);
  chownSync(state, 0, template.spec.securityContext.fsGroup);
  const ca = await createTestCa();
  const tls = join(dir, 'tls');
  const firstSerial = await writeTlsSecret(tls, ca, template);
  const claim = manifest.spec.volumeClaimTemplates[0].metadata.name as string;
  const ports = await givenPorts(template, freePort);
  const links = pinServiceLinks();
  const start = () => runPod({ template, volumes: { [claim]: state, tls }, kubeletEnv: links, ports });

  const pod = await start();
  t.teardown(() => pod.kill());
  const url = `https://127.0.0.1:${httpsPort(pod, template)}`;
  await ready(pod, url, ca.cert);

  // As the manifest says: uid and gid 65534, no capability, no way to gain one.
  const status = processStatus(pod.pid);
  t.regex(status.Uid, /^65534\s+65534\s+65534\s+65534$/);
  t.regex(status.Gid, /^65534\s+65534\s+65534\s+65534$/);
  t.is(status.CapEff, '0000000000000000');
  t.is(status.CapBnd, '0000000000000000');
  t.is(status.NoNewPrivs, '1');
  // Its file system: read-only but for the state volume (and the kernel's own /proc and /dev, as in any container).
  const writable = writableMounts(pod.pid);
  t.deepEqual(
    writable.filter((path) => !/^\/(proc|dev)(\/|$)/.test(path)),
    [stateMountPath(template)],
    writable.join(' '),
  );
  // The sidecar: the same user, and well within its memory limit.
  const [sidecar] = containers(template).sidecars;
  const sidecarPid = childrenOf(pod.pid).find((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(sidecar.command[1]),
  );
  t.truthy(sidecarPid, 'the sidecar runs beside the service');
  const sidecarStatus = processStatus(sidecarPid!);
  t.regex(sidecarStatus.Uid, /^65534\s/);
  const rssMiB = Number(/^(\d+) kB$/.exec(sidecarStatus.VmRSS)?.[1]) / 1024;
  t.log(
    `the sidecar's RSS: ${rssMiB.toFixed(1)} MiB, the service's: ${(Number(/^(\d+) kB$/.exec(status.VmRSS)?.[1]) / 1024).toFixed(1)} MiB`,
  );
  t.true(rssMiB < Number(/^(\d+)Mi$/.exec(sidecar.resources.limits.memory)?.[1]) * 0.8, `${rssMiB} MiB`);
  // The service-link variables were named once, and left out.
  const warnings = pod.output().match(/.*"event":"service-links-ignored".*/g) ?? [];
  t.is(warnings.length, 1, pod.output());
  const warning = warnings[0] ?? '';
  t.true(warning.includes('PIN_SERVICE_SERVICE_HOST') && warning.includes('"PIN_PORT"'), warning);

  // An accepted PIN, refused the second time.
  const secret = `k8s-${randomBytes(6).toString('hex')}`;
  const pin = pinFor(now, secret);
  t.true(await validate(url, ca.cert, pin, secret));
  t.false(await validate(url, ca.cert, pin, secret));
  t.is((await getHttps(url, '/readyz', { ca: ca.cert })).serialNumber, firstSerial);

  // A renewed certificate: kubelet swaps the Secret's files; the sidecar sends SIGHUP; new connections get it.
  const secondSerial = await writeTlsSecret(tls, ca, template);
  const interval = Number(/--interval=(\d+)/.exec(containers(template).sidecars[0].args.join(' '))?.[1]);
  const deadline = Date.now() + (interval + 5) * 1000;
  let served = firstSerial;
  while (served !== secondSerial && Date.now() < deadline) {
    await sleep(250);
    served = (await getHttps(url, '/healthz', { ca: ca.cert })).serialNumber;
  }
  t.is(served, secondSerial, pod.output());
  // The line is written up to a batch (10 ms) after the reload, and may reach this process after the new certificate did.
  t.regex(await outputMatching(pod, /"event":"tls-reloaded"/), /"event":"tls-reloaded"/);

  const tookMs = await stopWithinGrace(t, pod, template);
  t.log(`stopped ${tookMs} ms after SIGTERM`);
  // Only the state volume was written, and only with the store's own files.
  const written = readdirSync(state);
  t.true(written.includes('state-key') && written.includes('state.db'), written.join(' '));
  for (const name of written) t.true(/^(state-key|state\.db(-wal|-shm)?)$/.test(name), `${name} is the store's`);

  // The next pod on the same volume: the accepted PIN is still refused (within its window), a new one is accepted.
  const again = await start();
  t.teardown(() => again.kill());
  await ready(again, url, ca.cert);
  t.false(await validate(url, ca.cert, pin, secret), 'the replay record survived the restart');
  const other = `k8s-${randomBytes(6).toString('hex')}`;
  t.true(await validate(url, ca.cert, pinFor(now, other), other));
  await stopWithinGrace(t, again, template);
});

test('the Deployment’s pods: two of them, as nobody on read-only roots with no volume but the TLS Secret, share their records through Redis', async (t) => {
  const { manifest } = workload('Deployment').document;
  const template = manifest.spec.template as Manifest;
  const redis = await startRedis();
  t.teardown(() => redis.stop());
  const dir = mkdtempSync(join(tmpdir(), 'pin-pod-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const ca = await createTestCa();
  const tls = join(dir, 'tls');
  await writeTlsSecret(tls, ca, template);
  const secrets = { 'pin-service-redis': { 'store-url': `${redis.url}/0`, 'state-key': randomBytes(32).toString('hex') } };
  const pods: Array<{ pod: PodRun; url: string }> = [];
  for (let i = 0; i < manifest.spec.replicas; i++) {
    const ports = await givenPorts(template, freePort);
    const pod = await runPod({ template, volumes: { tls }, secrets, kubeletEnv: pinServiceLinks(), ports });
    t.teardown(() => pod.kill());
    pods.push({ pod, url: `https://127.0.0.1:${httpsPort(pod, template)}` });
  }
  t.is(pods.length, 2);
  for (const { pod, url } of pods) {
    await ready(pod, url, ca.cert);
    t.regex(processStatus(pod.pid).Uid, /^65534\s/);
    t.deepEqual(
      writableMounts(pod.pid).filter((path) => !/^\/(proc|dev)(\/|$)/.test(path)),
      [],
      'nothing of its own to write',
    );
  }
  // A PIN accepted by one pod is refused by the other: one state, in Redis.
  const secret = `k8s-${randomBytes(6).toString('hex')}`;
  const pin = pinFor(now, secret);
  t.true(await validate(pods[0].url, ca.cert, pin, secret));
  t.false(await validate(pods[1].url, ca.cert, pin, secret));
  for (const { pod } of pods) await stopWithinGrace(t, pod, template);
});
