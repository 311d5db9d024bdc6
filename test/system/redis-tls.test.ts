/**
 * rediss://: the store over TLS, against a real redis-server listening on a
 * TLS port only, its certificate signed by a CA made here with openssl.
 * With --store-tls-ca naming that CA the service works; without it the
 * certificate is not trusted, so ValidatePin fails closed and /readyz
 * answers 503.
 */
import test from 'ava';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOpensslCa, type OpensslCa } from '../support/openssl-ca';
import { freePort } from '../support/ports';
import { requireRedisServer } from '../support/redis';
import { pinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { isTrue, validate } from '../support/store-conformance';

const run = promisify(execFile);
let caMade: OpensslCa | undefined;
let redis: ChildProcess | undefined;
let port: number;
let ca: string;
const services: TestService[] = [];

test.before(async () => {
  requireRedisServer();
  const made = createOpensslCa();
  caMade = made;
  ca = made.caFile;
  const server = made.issue('server');
  port = await freePort();
  redis = spawn(
    'redis-server',
    [
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--tls-cert-file',
      server.certFile,
      '--tls-key-file',
      server.keyFile,
      '--tls-ca-cert-file',
      ca,
      '--tls-auth-clients',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { cwd: made.dir, stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const ping = await run('redis-cli', ['--tls', '--cacert', ca, '-p', String(port), 'ping']).then(
      (r) => r.stdout.trim(),
      () => '',
    );
    if (ping === 'PONG') return;
    await sleep(50);
  }
  throw new Error(`redis-server did not answer over TLS on port ${port}`);
});

test.after.always(async () => {
  for (const service of services) await service.close();
  redis?.kill('SIGKILL');
  caMade?.remove();
});

test.serial('rediss:// with --store-tls-ca: the store works over TLS', async (t) => {
  const service = await startTestService({ store: `rediss://127.0.0.1:${port}`, storeTlsCa: ca });
  services.push(service);
  t.is((await fetch(`${service.url}/readyz`)).status, 200);
  const secret = 'tls-secret-1';
  t.true(isTrue((await validate(service, secret, pinFor(service, secret))).body));
  const again = await validate(service, secret, pinFor(service, secret));
  t.is(again.status, 200);
  t.false(isTrue(again.body), 'replay protection holds');
});

test.serial('rediss:// without the CA: the certificate is not trusted, ValidatePin fails closed, /readyz 503', async (t) => {
  const service = await startTestService({ store: `rediss://127.0.0.1:${port}` });
  services.push(service);
  t.is((await fetch(`${service.url}/readyz`)).status, 503);
  const secret = 'tls-secret-2';
  const answer = await validate(service, secret, pinFor(service, secret));
  t.is(answer.status, 503);
  t.false(isTrue(answer.body));
  t.regex(service.logs(), /"event":"store-unreachable"/);
});
