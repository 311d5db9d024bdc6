/**
 * The service as operators run it with --tls-cert: SIGHUP (a certificate
 * renewal hook's signal) reads the certificate again, in the process and in
 * every worker of --workers; a wrong pair at start-up stops it with one line.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { Agent } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestCa, pemFolder, type TestCa } from '../support/certificates';
import { MAIN, REPO, startChildService, type ChildService } from '../support/child-service';
import { getHttps } from '../support/https';

const DAY_MS = 86_400_000;
let ca: TestCa;

test.before(async () => {
  ca = await createTestCa();
});

/** Waits (bounded) until the child's output holds `count` lines with `event`; returns those lines, parsed. */
async function logLines(service: ChildService, event: string, count = 1): Promise<Record<string, unknown>[]> {
  const lines = () =>
    service
      .output()
      .split('\n')
      .filter((l) => l.includes(`"event":"${event}"`));
  for (let i = 0; i < 200 && lines().length < count; i++) await sleep(50);
  return lines().map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function startWithCertificate(extraArgs: string[] = [], listening = 1) {
  const folder = pemFolder();
  const first = await ca.issue();
  const certFile = folder.write('cert.pem', first.cert);
  const keyFile = folder.write('key.pem', first.key);
  const service = await startChildService({
    args: ['--tls-cert', certFile, '--tls-key', keyFile, '--log-level', 'info', ...extraArgs],
    tlsCa: ca.cert,
    listening,
  });
  return { service, folder, first };
}

test('SIGHUP: a new connection sees the new certificate, one opened before still answers; a bad pair is refused in one log line', async (t) => {
  const { service, folder, first } = await startWithCertificate();
  t.teardown(() => service.kill());
  const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => keptAlive.destroy());
  const before = await getHttps(service.url, '/healthz', { ca: ca.cert, agent: keptAlive });
  t.is(before.serialNumber, first.serialNumber);

  const second = await ca.issue({ notAfter: new Date(Date.now() + 60 * DAY_MS) });
  folder.write('cert.pem', second.cert);
  folder.write('key.pem', second.key);
  service.child.kill('SIGHUP');
  const [reloaded] = await logLines(service, 'tls-reloaded');
  t.like(reloaded, { serialNumber: second.serialNumber, msg: 'certificate and key read again' });
  t.is((await getHttps(service.url, '/healthz', { ca: ca.cert })).serialNumber, second.serialNumber);
  const again = await getHttps(service.url, '/healthz', { ca: ca.cert, agent: keptAlive });
  t.is(again.status, 200);
  t.is(again.socket, before.socket, 'the connection opened before answered');

  // A renewal that wrote the certificate but not yet its key: the pair does not match.
  folder.write('cert.pem', (await ca.issue()).cert);
  service.child.kill('SIGHUP');
  const [failed] = await logLines(service, 'tls-reload-failed');
  t.regex(String(failed.msg), /^kept the previous certificate: .*key\.pem is not the key of the certificate in .*cert\.pem$/);
  t.false(service.output().includes('    at '), 'no stack trace');
  t.true(service.alive());
  t.is((await getHttps(service.url, '/healthz', { ca: ca.cert })).serialNumber, second.serialNumber, 'the previous pair is still served');
});

test('with --workers 2, SIGHUP reaches every worker thread', async (t) => {
  const { service, folder } = await startWithCertificate(['--workers', '2', '--metrics-on-public-port'], 2);
  t.teardown(() => service.kill());
  const second = await ca.issue({ notAfter: new Date(Date.now() + 90 * DAY_MS) });
  folder.write('cert.pem', second.cert);
  folder.write('key.pem', second.key);
  service.child.kill('SIGHUP');
  const reloaded = await logLines(service, 'tls-reloaded', 2);
  // Only worker threads log this line, each once per SIGHUP.
  t.is(reloaded.length, 2, 'each worker thread read it again');
  // The kernel spreads new connections over the threads' listeners: each serves the new certificate.
  for (let i = 0; i < 4; i++) t.is((await getHttps(service.url, '/healthz', { ca: ca.cert })).serialNumber, second.serialNumber);
  // The expiry metric over both workers: the earliest, here the new certificate's in each.
  const notAfter = Math.floor(new Date(new X509Certificate(second.cert).validTo).getTime() / 1000);
  const metrics = (await getHttps(service.url, '/metrics', { ca: ca.cert })).body;
  t.true(metrics.includes(`\npin_tls_certificate_not_after_seconds ${notAfter}\n`), 'the new certificate’s expiry, not a sum over workers');
  t.true(service.alive());
});

test('without --tls-cert, SIGHUP (systemctl reload) does not stop the service', async (t) => {
  const service = await startChildService({ args: ['--log-level', 'info'] });
  t.teardown(() => service.kill());
  service.child.kill('SIGHUP');
  const [line] = await logLines(service, 'reload');
  t.like(line, { msg: 'SIGHUP: nothing to read again (no --tls-cert)' });
  t.true(service.alive());
  t.is((await fetch(`${service.url}/healthz`)).status, 200);
});

test('an expired certificate stops start-up with one line naming the file, exit code 2', async (t) => {
  const folder = pemFolder();
  const expired = await ca.issue({ notBefore: new Date(Date.now() - 20 * DAY_MS), notAfter: new Date(Date.now() - 10 * DAY_MS) });
  const certFile = folder.write('cert.pem', expired.cert);
  const keyFile = folder.write('key.pem', expired.key);
  for (const workers of ['1', '2']) {
    const run = spawnSync(
      process.execPath,
      ['--import=tsx', MAIN, '--tls-cert', certFile, '--tls-key', keyFile, '--port', '0', '--workers', workers],
      {
        cwd: REPO,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    t.is(run.status, 2, `--workers ${workers}: ${run.stderr}`);
    t.regex(run.stderr, /^pin-service: the certificate in .*cert\.pem expired on \d{4}-\d\d-\d\dT[\d:.]+Z\n$/, `--workers ${workers}`);
  }
});
