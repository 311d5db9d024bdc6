/**
 * Several instances behind a real nginx, sharing a real redis-server, all on
 * loopback, with the shipped deploy/ files: deploy/nginx.conf rendered with
 * this test's ports, paths and a private CA's certificate (the nine placeholders, as docs/operations.md says),
 * the instances started with the ExecStart arguments of
 * deploy/pin-service.service and the settings of deploy/pin-service.env.
 *
 * - callers speak HTTPS (TLS 1.2 or later, HSTS), plain HTTP only redirects;
 * - X-Forwarded-* reach the instances (--trust-proxy), request ids flow
 *   through, /metrics is not served through the proxy (nor on the
 *   instances' public ports: on their management ports);
 * - a PIN accepted through one instance is refused through the other;
 * - throttling counts failures made through both;
 * - killing one instance mid-run loses no call nginx retried, and no replay
 *   state: no PIN is ever accepted twice;
 * - Redis restarting makes ValidatePin fail closed, then recover;
 * - nginx's logs hold no query string, secret or PIN.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { connect as connectTls } from 'node:tls';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { totp } from '../../src/service/otp/totp';
import { startChildService, REPO, type ChildService } from '../support/child-service';
import { NGINX_CONF, NGINX_TEST_HOST, startNginx, type TestNginx } from '../support/nginx';
import { freePort } from '../support/ports';
import { startRedis, type TestRedis } from '../support/redis';
import { DEFAULT_TOTP, buildRequest, sendRequest, type Variant } from '../support/requests';
import { SOAP_CONTENT_TYPES } from '../support/xml-assertions';

const UNIT = join(REPO, 'deploy', 'pin-service.service');
const ENV_FILE = join(REPO, 'deploy', 'pin-service.env');
const SECRET_PREFIX = 'ngx-secret-';

/** The unit's [Service] keys (a key given twice keeps every value). */
function unitKeys(text: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    const eq = line.indexOf('=');
    const key = `${section}.${line.slice(0, eq)}`;
    keys.set(key, [...(keys.get(key) ?? []), line.slice(eq + 1)]);
  }
  return keys;
}

/** PIN_* settings of the example environment file. */
function envFile(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(ENV_FILE, 'utf8').split('\n')) {
    const m = /^(PIN_[A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

const STATE_KEY = randomBytes(32).toString('hex');
let redis: TestRedis;
let a: ChildService;
let b: ChildService;
let nginx: TestNginx;
let dir: string;
let base: string;
let unitArgs: string[];

/** The management port of each instance (as an instance's env file gives it), by the instance's own port. */
const managementPorts = new Map<number, number>();

async function startInstance(port?: number): Promise<ChildService> {
  const ownPort = port ?? (await freePort());
  const managementPort = managementPorts.get(ownPort) ?? (await freePort());
  managementPorts.set(ownPort, managementPort);
  return startChildService({
    port: ownPort,
    args: unitArgs,
    env: { ...envFile(), PIN_STORE: redis.url, PIN_STATE_KEY: STATE_KEY, PIN_MANAGEMENT_PORT: String(managementPort) },
    keepOutputChars: 2_000_000,
  });
}

test.before(async () => {
  redis = await startRedis();
  // The unit's ExecStart: `/opt/pin-service/.node/bin/node /opt/pin-service/dist/src/service/main.js serve`: its arguments after main.js.
  const execStart = unitKeys(readFileSync(UNIT, 'utf8')).get('Service.ExecStart')?.[0] ?? '';
  unitArgs = execStart.split(/\s+/).slice(execStart.split(/\s+/).findIndex((w) => w.endsWith('main.js')) + 1);
  a = await startInstance();
  b = await startInstance();
  nginx = await startNginx([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
  ({ base, dir } = nginx);
});

test.after.always(async () => {
  await nginx?.stop();
  await a?.kill();
  await b?.kill();
  await redis?.stop();
});

const pinOf = (secret: string, offsetSteps = 0) =>
  totp(Buffer.from(secret), DEFAULT_TOTP, Math.floor(Date.now() / 1000) + offsetSteps * DEFAULT_TOTP.period);

const accessLog = () => nginx.accessLog();

/** `call` over every item, at most `width` at a time, answers in the items' order. */
async function inBatches<T, R>(items: T[], call: (item: T) => Promise<R>, width = 32): Promise<R[]> {
  const answers: R[] = [];
  for (let i = 0; i < items.length; i += width) answers.push(...(await Promise.all(items.slice(i, i + width).map(call))));
  return answers;
}

async function validate(
  variant: Variant,
  pin: string,
  secret: string,
  requestId?: string,
): Promise<{ status: number; body: string; result?: boolean }> {
  // SOAP 1.2 without the optional action parameter.
  const request = buildRequest(
    variant,
    'ValidatePin',
    { pin, secretCode: secret },
    variant === 'soap12' ? { contentType: SOAP_CONTENT_TYPES['1.2'] } : {},
  );
  if (requestId) request.headers['X-Request-Id'] = requestId;
  const { status, body } = await sendRequest(base, request);
  const m = />(true|false)</.exec(body);
  return { status, body, result: status === 200 && m ? m[1] === 'true' : undefined };
}

test.serial('the unit file: systemd-analyze verify (when present), and the keys docs/operations.md promises', (t) => {
  const text = readFileSync(UNIT, 'utf8');
  const keys = unitKeys(text);
  for (const [key, value] of [
    ['Service.KillSignal', 'SIGTERM'],
    ['Service.KillMode', 'mixed'],
    ['Service.ExecReload', '/bin/kill -HUP $MAINPID'],
    ['Service.Restart', 'on-failure'],
    ['Service.DynamicUser', 'yes'],
    ['Service.NoNewPrivileges', 'yes'],
    ['Service.ProtectSystem', 'strict'],
    ['Service.ProtectHome', 'yes'],
    ['Service.PrivateTmp', 'yes'],
    ['Service.CapabilityBoundingSet', ''],
    ['Service.SystemCallFilter', '@system-service'],
    // The embedded store's directory: pin-service, or pin-service@NAME per template instance.
    ['Service.StateDirectory', '%N'],
    ['Service.StateDirectoryMode', '0700'],
  ]) {
    t.deepEqual(keys.get(key), [value], key);
  }
  t.true(Number(keys.get('Service.TimeoutStopSec')?.[0]) > 10, 'TimeoutStopSec exceeds the service’s own 10 s limit');
  t.deepEqual(keys.get('Service.EnvironmentFile'), ['/etc/pin-service/pin-service.env', '-/etc/pin-service/instance-%i.env']);
  t.regex(keys.get('Service.ExecStart')?.[0] ?? '', /^\/opt\/pin-service\/\.node\/bin\/node \S+\/dist\/src\/service\/main\.js serve$/);
  t.false(keys.has('Service.MemoryDenyWriteExecute'), 'V8 needs W+X memory');
  t.deepEqual(unitArgs, ['serve']);
  const env = envFile();
  t.like(env, { PIN_HOST: '127.0.0.1', PIN_TRUST_PROXY: 'true', PIN_MANAGEMENT_PORT: '9081' });
  t.deepEqual(keys.get('Service.LoadCredential'), ['admin-token:/etc/pin-service/admin-token']);
  t.deepEqual(keys.get('Service.Environment'), ['PIN_AUDIT_FILE=/var/log/%N/audit.log', 'PIN_ADMIN_TOKEN_FILE=%d/admin-token']);
  t.deepEqual(keys.get('Service.LogsDirectory'), ['%N']);
  t.regex(env.PIN_STORE ?? '', /^redis:\/\//);

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  if (analyze.error || analyze.status !== 0) {
    t.log('systemd-analyze is not installed here: the unit was checked by its keys only');
    return;
  }
  // As the single unit and as a template instance; the unit's node must exist for verify.
  const unitDir = mkdtempSync(join(tmpdir(), 'pin-unit-'));
  try {
    const body = text.replace('/opt/pin-service/.node/bin/node', process.execPath);
    for (const name of ['pin-service.service', 'pin-service@.service']) writeFileSync(join(unitDir, name), body);
    for (const name of ['pin-service.service', 'pin-service@a.service']) {
      const verify = spawnSync('systemd-analyze', ['verify', join(unitDir, name)], { encoding: 'utf8', timeout: 30_000 });
      t.is(verify.status, 0, `systemd-analyze verify ${name}: ${verify.stderr}`);
      t.is(verify.stderr.trim(), '', `no warning for ${name}`);
    }
  } finally {
    rmSync(unitDir, { recursive: true, force: true });
  }
});

test.serial(
  'through nginx: X-Forwarded-* give the WSDL the caller’s host; request ids flow through; /metrics is not exposed',
  async (t) => {
    // fetch cannot set Host: node:https can (and asks for that name's certificate, which the test CA made).
    const wsdl = await new Promise<{ status: number; text: string; id: string }>((resolve, reject) => {
      const req = httpsRequest(`${base}/api.asmx?WSDL`, { headers: { Host: NGINX_TEST_HOST, 'X-Request-Id': 'wsdl-call-1' } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, id: String(res.headers['x-request-id']) }));
      });
      req.on('error', reject);
      req.end();
    });
    t.is(wsdl.status, 200);
    t.regex(wsdl.text, /location="https:\/\/pins\.example\.test\/api\.asmx"/);
    t.is(wsdl.id, 'wsdl-call-1');
    const plain = await (await fetch(`${base}/api.asmx?wsdl`)).text();
    t.regex(plain, new RegExp(`location="${base.replace(/[.]/g, '\\.')}/api\\.asmx"`), 'host and port as the caller used them');
    const generated = await fetch(`${base}/healthz`);
    const id = generated.headers.get('x-request-id') ?? '';
    t.regex(id, /^[0-9a-f]{32}$/, 'nginx’s $request_id when the caller sends none');
    await sleep(100);
    t.truthy(accessLog().find((l) => l.request_id === id && l.path === '/healthz' && l.status === 200));
    const both = a.output() + b.output();
    t.true(both.includes(`"id":"${id}"`), 'the instance logged the same id');

    for (const path of ['/metrics', '/METRICS', '/metrics/']) t.is((await fetch(`${base}${path}`)).status, 403, path);
    t.is((await fetch(`${a.url}/metrics`)).status, 404, 'not on an instance’s public port either');
    t.is((await fetch(`http://127.0.0.1:${managementPorts.get(a.port)}/metrics`)).status, 200, 'each on its management port');
    t.is((await fetch(`${base}/readyz`)).status, 200);
  },
);

test.serial('callers speak HTTPS to nginx: the WSDL says https, HSTS is sent, TLS 1.1 is refused, plain HTTP only redirects', async (t) => {
  t.true(base.startsWith('https://'));
  const wsdl = await fetch(`${base}/api.asmx?WSDL`);
  t.is(wsdl.status, 200);
  t.regex(
    await wsdl.text(),
    new RegExp(`location="${base.replace(/[.]/g, '\\.')}/api\\.asmx"`),
    'the https address, as the caller used it',
  );
  t.is(wsdl.headers.get('strict-transport-security'), 'max-age=31536000');
  const answer = await validate('soap11', '000000', `${SECRET_PREFIX}tls-${randomBytes(4).toString('hex')}`);
  t.is(answer.result, false, 'a SOAP call over HTTPS through nginx');

  for (const path of ['/api.asmx?WSDL', '/api.asmx/ValidatePin?pin=1&secretCode=x', '/']) {
    const redirect = await fetch(`${nginx.httpBase}${path}`, { redirect: 'manual' });
    t.is(redirect.status, 301, path);
    t.is(redirect.headers.get('location'), `${base}${path}`, path);
  }
  const post = await fetch(`${nginx.httpBase}/api.asmx`, { method: 'POST', body: 'x', redirect: 'manual' });
  t.is(post.status, 301, 'no call is proxied in clear');

  const { hostname, port } = new URL(base);
  const oldHandshake = await new Promise<string>((resolve) => {
    const socket = connectTls({
      host: hostname,
      port: Number(port),
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    socket.once('secureConnect', () => resolve('accepted'));
    socket.once('error', (error) => resolve(error.message));
    socket.once('close', () => resolve('closed'));
  });
  t.regex(oldHandshake, /alert protocol version/, 'TLS 1.1 is refused by nginx');
});

test.serial('a PIN accepted through one instance is refused through the other (round robin)', async (t) => {
  const secret = `${SECRET_PREFIX}replay-${randomBytes(4).toString('hex')}`;
  const pin = pinOf(secret);
  const first = await validate('httpPost', pin, secret, 'replay-first');
  t.is(first.result, true);
  await sleep(50);
  const accepted = accessLog().find((l) => l.request_id === 'replay-first')?.upstream;
  t.truthy(accepted);
  // Round robin: within a few calls one reaches the other instance; every one is refused.
  const others: string[] = [];
  for (let i = 0; i < 4 && others.length === 0; i++) {
    const again = await validate(i % 2 ? 'soap11' : 'httpGet', pin, secret, `replay-again-${i}`);
    t.is(again.result, false, `replay ${i}`);
    await sleep(50);
    const upstream = accessLog().find((l) => l.request_id === `replay-again-${i}`)?.upstream;
    if (upstream && upstream !== accepted) others.push(upstream);
  }
  t.is(others.length, 1, 'a replay went through the other instance');
});

test.serial('throttling counts failures made through both instances', async (t) => {
  const secret = `${SECRET_PREFIX}throttle-${randomBytes(4).toString('hex')}`;
  const wrong = String((Number(pinOf(secret)) + 500_000) % 1_000_000).padStart(6, '0');
  for (let i = 0; i < 5; i++) t.is((await validate('httpGet', wrong, secret, `throttle-${i}`)).result, false);
  const refused = await validate('httpPost', pinOf(secret), secret, 'throttle-5');
  t.is(refused.status, 429);
  const soap = await validate('soap12', pinOf(secret), secret, 'throttle-6');
  t.is(soap.status, 500);
  t.regex(soap.body, /soap:Sender/);
  await sleep(100);
  const upstreams = new Set(
    accessLog()
      .filter((l) => l.request_id.startsWith('throttle-'))
      .map((l) => l.upstream),
  );
  t.is(upstreams.size, 2, 'the calls were spread over both instances');
});

test.serial('killing one instance mid-run: every call nginx retried is answered, no PIN is accepted twice', async (t) => {
  const variants: Variant[] = ['httpGet', 'httpPost', 'soap11', 'soap12'];
  const CLIENTS = 8;
  const BEFORE_KILL = 16;
  // The calls in flight on the killed instance fail (a POST gets 502), and the first failure leaves it out
  // of the round robin for fail_timeout: the load goes on past that, so nginx tries it again, finds the
  // connection refused and retries on the other instance. Paced after the kill, and bounded.
  const failTimeoutMs = Number(/fail_timeout=(\d+)s/.exec(readFileSync(NGINX_CONF, 'utf8'))?.[1] ?? NaN) * 1000;
  t.true(failTimeoutMs > 0, 'deploy/nginx.conf sets fail_timeout in seconds');
  const stopAfterKillMs = failTimeoutMs + 2000;
  const MAX_CALLS = 400;
  const results: { id: string; variant: Variant; secret: string; pin: string; status: number; result?: boolean; error?: string }[] = [];
  let killedAt = 0;
  const load = Array.from({ length: CLIENTS }, async (_, c) => {
    for (let i = 0; i < MAX_CALLS && !(killedAt && Date.now() - killedAt > stopAfterKillMs); i++) {
      const secret = `${SECRET_PREFIX}kill-${c}-${i}-${randomBytes(3).toString('hex')}`;
      const pin = pinOf(secret);
      const variant = variants[(c + i) % 4];
      const id = `kill-${c}-${i}`;
      try {
        const answer = await validate(variant, pin, secret, id);
        results.push({ id, variant, secret, pin, status: answer.status, result: answer.result });
      } catch (error) {
        results.push({ id, variant, secret, pin, status: 0, error: (error as Error).message });
      }
      if (c === 0 && i === BEFORE_KILL - 1) {
        a.child.kill('SIGKILL');
        killedAt = Date.now();
      }
      if (killedAt) await sleep(50);
    }
  });
  await Promise.all(load);
  t.true(killedAt > 0);
  t.true(Date.now() - killedAt > failTimeoutMs, 'the load outlasted fail_timeout');
  await a.exited;
  await sleep(200);

  const log = new Map(accessLog().map((l) => [l.request_id, l]));
  const retried = results.filter((r) => (log.get(r.id)?.upstream ?? '').includes(','));
  const failed = results.filter((r) => r.status !== 200);
  t.log(
    `${results.length} calls, ${retried.length} retried by nginx on the other instance, ${failed.length} not answered 200: ${failed.map((f) => `${f.variant} ${f.status}`).join(', ')}`,
  );
  t.true(retried.length > 0, 'nginx retried calls after the kill');
  t.deepEqual(
    retried.filter((r) => r.status !== 200).map((r) => `${r.id} ${r.variant} ${r.status}`),
    [],
    'every retried call got its answer',
  );
  // Only a POST in flight on the killed instance may be lost (502): nginx does not resend a non-idempotent call.
  for (const f of failed) {
    t.true(f.status === 502 && f.variant !== 'httpGet', `${f.id} ${f.variant}: ${f.status} ${f.error ?? ''}`);
  }
  t.true(failed.length <= CLIENTS, 'at most the calls in flight at the kill');
  t.true(results.filter((r) => r.result === true).length >= results.length - 2 * CLIENTS, 'nearly every fresh PIN was accepted');

  // Replay state: a PIN accepted during the run is refused now. A PIN whose call was lost (502) may or
  // may not have been used by the killed instance; either way it is accepted at most once from here on.
  const again = await inBatches(results, (r) => validate('httpPost', r.pin, r.secret));
  t.deepEqual(
    again
      .map((x, i) => (results[i].result !== true || x.result === false ? undefined : `${results[i].id}: ${x.status} ${x.result}`))
      .filter(Boolean),
    [],
    'every PIN accepted during the run is refused as a replay through the surviving instance',
  );
  const third = await inBatches(results, (r) => validate('soap12', r.pin, r.secret));
  t.deepEqual(
    third.map((x, i) => (x.result === false ? undefined : `${results[i].id}: ${x.status} ${x.result}`)).filter(Boolean),
    [],
    'no PIN of the run is accepted twice',
  );
  t.deepEqual(
    again.map((x, i) => (x.result === true && results[i].status === 200 ? results[i].id : undefined)).filter(Boolean),
    [],
    'only a PIN whose call was lost (502) could still be accepted, once',
  );
});

test.serial('Redis restarting: ValidatePin through nginx fails closed, /readyz 503, then both recover', async (t) => {
  const secret = `${SECRET_PREFIX}outage-${randomBytes(4).toString('hex')}`;
  await redis.stop();
  const down = await validate('httpGet', pinOf(secret), secret);
  t.is(down.status, 503);
  t.is(down.result, undefined);
  const soap = await validate('soap11', pinOf(secret), secret);
  t.is(soap.status, 500);
  t.regex(soap.body, /<faultcode>soap:Server<\/faultcode>/);
  t.is((await fetch(`${base}/readyz`)).status, 503);

  await redis.start();
  let ready = 0;
  for (let i = 0; i < 100 && ready !== 200; i++) {
    await sleep(100);
    ready = (await fetch(`${base}/readyz`)).status;
  }
  t.is(ready, 200);
  const back = await validate('soap12', pinOf(secret), secret);
  t.is(back.result, true);
  t.is((await validate('httpGet', pinOf(secret), secret)).result, false, 'and replay protection holds again');
});

test.serial('nginx’s logs hold no query string, secret or PIN', async (t) => {
  await sleep(100);
  const access = readFileSync(join(dir, 'access.log'), 'utf8');
  const errors = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '';
  t.true(access.split('\n').filter(Boolean).length > 100);
  for (const [name, text] of [
    ['access.log', access],
    ['error.log', errors],
  ]) {
    t.false(text.includes(SECRET_PREFIX), `${name} holds no secret`);
    t.false(/[?&](pin|secretCode|appInfo)=/i.test(text), `${name} holds no query string`);
  }
  t.false((a.output() + b.output()).includes(SECRET_PREFIX), 'neither do the instances’ logs');
});
