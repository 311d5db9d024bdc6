/**
 * The operator's side with the built service (dist/, as users run it; the
 * commands too): six wrong PINs then the right one leave audit lines that
 * share one fingerprint and name the caller — directly, and through
 * deploy/nginx.conf with --trust-proxy — with `locked`, then `throttled`;
 * `pin-service unlock` with that fingerprint (or the secret on standard
 * input) unlocks the running service, and the next right PIN is accepted:
 * the embedded store in one process, with `--workers 2`, and Redis shared by
 * two instances (unlocked through one, accepted through the other). The
 * admin endpoints refuse without a token and with a wrong one; /metrics is
 * on the management port only; SIGHUP opens a rotated audit file anew; no
 * secret, PIN or token is in any log or audit line.
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStateKeyHasher, fingerprintOf } from '../../src/service/state/keyed-hash';
import { BUILT_MAIN, REPO, startChildService } from '../support/child-service';
import { startNginx } from '../support/nginx';
import { freePort } from '../support/ports';
import { startRedis } from '../support/redis';
import { pinFor, wrongPinFor } from '../support/requests';

const TOKEN = randomBytes(32).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'pin-operator-'));
const tokenFile = join(dir, 'admin-token');
writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const now = { clock: { now: () => Date.now() } };
const rightPin = (secret: string) => pinFor(now, secret);
const wrongPin = (secret: string) => wrongPinFor(now, secret, 2);

type Line = Record<string, unknown>;
const parse = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
const auditLines = (text: string, fingerprint: string) => parse(text).filter((l) => l.event === 'audit' && l.fingerprint === fingerprint);

/** A built instance with a management port, the admin token and an audit file. */
async function startOperated(name: string, args: string[] = [], env: Record<string, string> = {}, listening = 1) {
  const managementPort = await freePort();
  const auditFile = join(dir, `${name}-audit.log`);
  const service = await startChildService({
    built: true,
    args: ['--management-port', String(managementPort), '--admin-token-file', tokenFile, '--audit-file', auditFile, ...args],
    env,
    listening,
    stateDir: join(dir, `${name}-state`),
  });
  return { service, managementPort, auditFile, management: `http://127.0.0.1:${managementPort}` };
}

/** `pin-service COMMAND …` as built, with no PIN_* of this process; the secret, when given, on standard input. */
function pinService(args: string[], input = '') {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PIN_')));
  const result = spawnSync(process.execPath, [BUILT_MAIN, ...args], { cwd: REPO, env, input, encoding: 'utf8', timeout: 30_000 });
  if (result.error) throw result.error;
  return result;
}

async function validateGet(base: string, secret: string, pin: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${base}/api.asmx/ValidatePin?pin=${pin}&secretCode=${encodeURIComponent(secret)}`);
  return { status: answer.status, body: await answer.text() };
}

/** Six wrong PINs, then the right one: the answers' statuses. */
async function sixWrongThenRight(call: (pin: string) => Promise<{ status: number }>, secret: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await call(wrongPin(secret))).status);
  statuses.push((await call(rightPin(secret))).status);
  return statuses;
}

const LOCKED_OUT = ['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'locked', 'throttled', 'throttled'];

/**
 * The audit lines of the lock-out, from `text`, all of one fingerprint: their outcomes and addresses. `any order`: the
 * log or audit file of --workers, where each thread writes its own lines in order, but two threads' batches (10 ms) can
 * reach it in either order: the same lines, in any order.
 */
function assertLockedOut(
  t: ExecutionContext,
  text: string,
  fingerprint: string,
  address: string,
  order: 'in order' | 'any order' = 'in order',
): void {
  const lines = auditLines(text, fingerprint);
  const outcomes = lines.map((l) => l.outcome as string);
  if (order === 'any order') t.deepEqual([...outcomes].sort(), [...LOCKED_OUT].sort());
  else t.deepEqual(outcomes, LOCKED_OUT);
  for (const line of lines) t.like(line, { address, operation: 'ValidatePin' });
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await sleep(50);
  if (!check()) throw new Error(`waited in vain for ${what}`);
}

/** Nothing secret in `texts`: no secret, none of its PINs around now, not the token. */
function assertNothingSecret(t: ExecutionContext, texts: string[], secret: string): void {
  const pins = [-2, -1, 0, 1, 2].map((d) => pinFor(now, secret, d));
  for (const text of texts) {
    t.false(text.includes(secret), 'no secret');
    t.false(text.includes(TOKEN), 'no token');
    for (const pin of [...pins, wrongPin(secret)]) t.false(new RegExp(`(?<!\\d)${pin}(?!\\d)`).test(text), `no PIN ${pin}`);
  }
}

test('one process: the lock-out in the audit file and the log, unlocked by fingerprint, the right PIN accepted; admin refusals, /metrics, SIGHUP', async (t) => {
  const { service, managementPort, auditFile, management } = await startOperated('single');
  t.teardown(() => service.kill());
  const secret = `operator-single-${randomBytes(6).toString('hex')}`;
  t.deepEqual(await sixWrongThenRight((pin) => validateGet(service.url, secret, pin), secret), [200, 200, 200, 200, 200, 429, 429]);
  // The secret's fingerprint, as an operator cannot compute it: here from the state key the service made in its directory.
  const fingerprint = fingerprintOf(
    createStateKeyHasher(readFileSync(join(dir, 'single-state', 'state-key'), 'utf8').trim())(Buffer.from(secret)),
  );
  t.regex(fingerprint, /^[0-9a-f]{18}$/);
  await waitFor(() => auditLines(readFileSync(auditFile, 'utf8'), fingerprint).length === 8, 'eight lines in the audit file');
  await waitFor(() => auditLines(service.output(), fingerprint).length === 8, 'eight lines in the log');
  assertLockedOut(t, service.output(), fingerprint, '127.0.0.1');
  assertLockedOut(t, readFileSync(auditFile, 'utf8'), fingerprint, '127.0.0.1');

  const settings = ['--management-port', String(managementPort), '--admin-token-file', tokenFile];
  const status = pinService(['secret-status', fingerprint, ...settings]);
  t.is(status.status, 0, status.stderr);
  t.regex(status.stdout, /^failures: +7 of 5 allowed/m);
  t.regex(status.stdout, /^locked: +yes, until /m);
  const unlocked = pinService(['unlock', fingerprint, ...settings]);
  t.is(unlocked.status, 0, unlocked.stderr);
  t.regex(unlocked.stdout, /^unlocked: 7 failures cleared \(it was locked\)$/m);
  t.regex((await validateGet(service.url, secret, rightPin(secret))).body, />true</);

  // The admin endpoints refuse without a token and with a wrong one; /metrics is the management port's.
  t.is((await fetch(`${management}/admin/secrets/${fingerprint}/unlock`, { method: 'POST' })).status, 401);
  const wrongToken = await fetch(`${management}/admin/secrets/${fingerprint}`, { headers: { Authorization: `Bearer ${TOKEN.slice(1)}x` } });
  t.is(wrongToken.status, 401);
  t.is((await fetch(`${service.url}/metrics`)).status, 404);
  const metrics = await fetch(`${management}/metrics`);
  t.is(metrics.status, 200);
  t.regex(await metrics.text(), /^pin_audit_events_total\{outcome="unlocked"\} 1$/m);

  // logrotate's rename, then SIGHUP: the next line goes to a new file of the old name.
  renameSync(auditFile, `${auditFile}.1`);
  service.child.kill('SIGHUP');
  await waitFor(() => service.output().includes('"event":"audit-file-reopened"'), 'the reopening');
  await validateGet(service.url, secret, wrongPin(secret));
  await waitFor(() => existsSync(auditFile) && readFileSync(auditFile, 'utf8').includes('"outcome":"wrong"'), 'a line in the new file');
  const rotated = readFileSync(`${auditFile}.1`, 'utf8');
  t.deepEqual(
    auditLines(rotated, fingerprint).map((l) => l.outcome),
    ['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'locked', 'throttled', 'throttled', 'inspected', 'unlocked', 'accepted'],
    'everything before the reopening is in the rotated file',
  );
  t.like(parse(readFileSync(auditFile, 'utf8'))[0], { outcome: 'wrong', fingerprint });
  t.deepEqual(
    parse(rotated)
      .filter((l) => String(l.outcome).startsWith('admin'))
      .map((l) => [l.outcome, l.reason]),
    [
      ['admin-refused', 'no token'],
      ['admin-refused', 'wrong token'],
    ],
  );
  assertNothingSecret(t, [service.output(), rotated, readFileSync(auditFile, 'utf8'), status.stdout, unlocked.stdout], secret);
});

test('--workers 2: the lock-out audited under one fingerprint, whichever thread answers; unlocked with the secret on standard input', async (t) => {
  const { service, managementPort, auditFile } = await startOperated('workers', ['--workers', '2'], {}, 2);
  t.teardown(() => service.kill());
  const secret = `operator-workers-${randomBytes(6).toString('hex')}`;
  t.deepEqual(await sixWrongThenRight((pin) => validateGet(service.url, secret, pin), secret), [200, 200, 200, 200, 200, 429, 429]);
  const fingerprint = fingerprintOf(
    createStateKeyHasher(readFileSync(join(dir, 'workers-state', 'state-key'), 'utf8').trim())(Buffer.from(secret)),
  );
  await waitFor(() => existsSync(auditFile) && auditLines(readFileSync(auditFile, 'utf8'), fingerprint).length === 8, 'eight lines');
  await waitFor(() => auditLines(service.output(), fingerprint).length === 8, 'eight lines in the log');
  assertLockedOut(t, readFileSync(auditFile, 'utf8'), fingerprint, '127.0.0.1', 'any order');
  assertLockedOut(t, service.output(), fingerprint, '127.0.0.1', 'any order');

  // The state key is read from the service's state directory; the secret never leaves this command.
  const settings = [
    '--management-port',
    String(managementPort),
    '--admin-token-file',
    tokenFile,
    '--state-dir',
    join(dir, 'workers-state'),
  ];
  const unlocked = pinService(['unlock', ...settings], `${secret}\n`);
  t.is(unlocked.status, 0, unlocked.stderr);
  t.regex(unlocked.stdout, new RegExp(`^fingerprint: +${fingerprint}$`, 'm'));
  t.regex(unlocked.stdout, /^unlocked: 7 failures cleared \(it was locked\)$/m);
  for (let i = 0; i < 2; i++) {
    // Either thread answers from the one table: the first right PIN is accepted, the same one again is a replay.
    const answer = await validateGet(service.url, secret, rightPin(secret));
    t.regex(answer.body, i === 0 ? />true</ : />false</);
  }
  const status = pinService(['secret-status', '--json', ...settings], `${secret}\n`);
  t.is(status.status, 0, status.stderr);
  t.like(JSON.parse(status.stdout), { fingerprint, failures: 1, locked: false });
  assertNothingSecret(t, [service.output(), readFileSync(auditFile, 'utf8'), unlocked.stdout, status.stdout], secret);
});

test('Redis, two instances behind nginx with --trust-proxy: the caller’s address in the audit lines; unlocked through one, accepted through the other', async (t) => {
  const redis = await startRedis();
  t.teardown(() => redis.stop());
  const stateKey = randomBytes(32).toString('hex');
  const env = { PIN_STORE: redis.url, PIN_STATE_KEY: stateKey, PIN_TRUST_PROXY: 'true' };
  const a = await startOperated('redis-a', [], env);
  t.teardown(() => a.service.kill());
  const b = await startOperated('redis-b', [], env);
  t.teardown(() => b.service.kill());
  const nginx = await startNginx([`127.0.0.1:${a.service.port}`, `127.0.0.1:${b.service.port}`]);
  t.teardown(() => nginx.stop());

  // The caller connects from 127.0.0.3 (loopback is all of 127/8) and writes an address of its own in X-Forwarded-For.
  const throughNginx = (secret: string, pin: string) =>
    new Promise<{ status: number }>((resolve, reject) => {
      const url = new URL(`${nginx.base}/api.asmx/ValidatePin?pin=${pin}&secretCode=${encodeURIComponent(secret)}`);
      const req = httpsRequest(
        url,
        { localAddress: '127.0.0.3', ca: nginx.caPem, headers: { 'X-Forwarded-For': '198.51.100.23' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const secret = `operator-redis-${randomBytes(6).toString('hex')}`;
  t.deepEqual(await sixWrongThenRight((pin) => throughNginx(secret, pin), secret), [200, 200, 200, 200, 200, 429, 429]);
  const fingerprint = fingerprintOf(createStateKeyHasher(stateKey)(Buffer.from(secret)));
  const audited = () => [a.auditFile, b.auditFile].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('');
  await waitFor(() => auditLines(audited(), fingerprint).length === 8, 'eight lines over both instances');
  const lines = auditLines(audited(), fingerprint).sort((x, y) => String(x.time).localeCompare(String(y.time)));
  t.deepEqual(
    lines.map((l) => l.outcome),
    ['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'locked', 'throttled', 'throttled'],
  );
  for (const line of lines) t.is(line.address, '127.0.0.3', 'the address nginx saw, not the one the caller wrote');
  t.true(
    auditLines(a.service.output(), fingerprint).length > 0 && auditLines(b.service.output(), fingerprint).length > 0,
    'both took calls',
  );

  const unlocked = pinService(['unlock', fingerprint, '--management-port', String(a.managementPort), '--admin-token-file', tokenFile]);
  t.is(unlocked.status, 0, unlocked.stderr);
  t.regex(unlocked.stdout, /^unlocked: 7 failures cleared \(it was locked\)$/m);
  const accepted = await validateGet(b.service.url, secret, rightPin(secret));
  t.regex(accepted.body, />true</, 'the other instance sees the unlock');
  await waitFor(() => auditLines(b.service.output(), fingerprint).some((l) => l.outcome === 'accepted'), 'the accepted line');
  t.like(
    auditLines(b.service.output(), fingerprint).find((l) => l.outcome === 'accepted'),
    { address: '127.0.0.1' },
    'called directly: the connection’s address',
  );
  assertNothingSecret(t, [a.service.output(), b.service.output(), audited(), unlocked.stdout, nginx.output()], secret);
});
