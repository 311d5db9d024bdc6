/**
 * The management port's /admin/ endpoints and the commands that use them
 * (`pin-service secret-status`, `unlock`): a secret's status and its
 * unlock by fingerprint or by the secret read from standard input; a bearer
 * token compared in constant time, refusals audited and throttled per
 * address as PINs are per secret; clear answers for a malformed or unknown
 * fingerprint; no token, secret or PIN in any line.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runCommand } from '../../src/service/cli/commands';
import { ConfigError, parseConfig, readToken } from '../../src/service/config';
import { createStateKeyHasher, fingerprintOf } from '../../src/service/state/keyed-hash';
import { pinFor, validatePin, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const STATE_KEY = 'the-state-key-of-the-admin-tests-0123456789';
const TOKEN = 'an-admin-token-of-the-tests-0123456789abcdef';
const fingerprintOfSecret = (secret: string) => fingerprintOf(createStateKeyHasher(STATE_KEY)(Buffer.from(secret, 'utf8')));

const dir = mkdtempSync(join(tmpdir(), 'pin-admin-'));
const tokenFile = join(dir, 'admin-token');
writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

async function startAdminService(): Promise<TestService> {
  return startTestService({ stateKey: STATE_KEY, managementPort: 0, adminTokenFile: tokenFile });
}

const admin = (service: TestService, path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${service.managementUrl}${path}`, {
    ...init,
    headers: init.token === undefined ? {} : { Authorization: `Bearer ${init.token}` },
  });

async function lock(service: TestService, secret: string): Promise<void> {
  for (let i = 0; i < 6; i++) await validatePin(service, 'httpGet', wrongPinFor(service, secret), secret);
}

/** Runs a command as main.ts does, its output captured; a usage mistake is its one line. */
async function command(args: string[], stdin?: string): Promise<{ code: number | undefined; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), stdin: Readable.from([stdin ?? '']) };
  try {
    const code = await runCommand(args, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } catch (error) {
    return { code: 2, out: out.join('\n'), err: (error as Error).message };
  }
}

const auditOf = (service: TestService) =>
  service
    .logs()
    .split('\n')
    .filter((l) => l.includes('"event":"audit"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test('a locked secret: its status by fingerprint, unlocked, and its next right PIN accepted; each action audited', async (t) => {
  const service = await startAdminService();
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const secret = 'admin-locked-secret-1';
  await lock(service, secret);
  const fingerprint = fingerprintOfSecret(secret);

  const status = await admin(service, `/admin/secrets/${fingerprint}`, { token: TOKEN });
  t.is(status.status, 200);
  t.is(status.headers.get('cache-control'), 'no-store');
  const body = (await status.json()) as Record<string, unknown>;
  t.like(body, { fingerprint, failures: 6, limit: 5, locked: true, lastAcceptedStep: null, lastAcceptedAt: null });
  t.true(Math.abs(Date.parse(String(body.countEndsAt)) - (service.clock.now() + 300_000)) < 2000);
  t.is((await validatePin(service, 'httpGet', pinFor(service, secret), secret)).status, 429, 'still locked');

  const unlocked = await admin(service, `/admin/secrets/${fingerprint}/unlock`, { method: 'POST', token: TOKEN });
  t.is(unlocked.status, 200);
  t.like(await unlocked.json(), { fingerprint, failures: 0, locked: false, countEndsAt: null, cleared: 7, wasLocked: true });
  t.regex((await validatePin(service, 'httpGet', pinFor(service, secret), secret)).body, />true</);

  const after = (await (await admin(service, `/admin/secrets/${fingerprint}`, { token: TOKEN })).json()) as Record<string, unknown>;
  t.like(after, { failures: 0, locked: false });
  t.is(after.lastAcceptedStep, Math.floor(service.clock.now() / 30_000), 'the step of the PIN just accepted');
  t.is(after.lastAcceptedAt, new Date(Math.floor(service.clock.now() / 30_000) * 30_000).toISOString());

  const actions = auditOf(service).filter((l) => ['inspected', 'unlocked'].includes(String(l.outcome)));
  t.deepEqual(
    actions.map((l) => [l.outcome, l.fingerprint, l.address, l.attempts]),
    [
      ['inspected', fingerprint, '127.0.0.1', 6],
      ['unlocked', fingerprint, '127.0.0.1', 7],
      ['inspected', fingerprint, '127.0.0.1', 0],
    ],
  );
  t.regex(service.logs(), /"event":"request".*"path":"\/admin\/secrets\/:fingerprint\/unlock".*"status":200/);
  t.false(service.logs().includes(TOKEN));
  t.false(service.logs().includes(secret));
});

test('no token, a wrong token: 401, audited; past the limit the address is refused (429) even with the right token, until the window ends', async (t) => {
  const service = await startAdminService();
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const fingerprint = fingerprintOfSecret('admin-refused-secret-2');
  const none = await admin(service, `/admin/secrets/${fingerprint}`);
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Bearer realm="pin-service admin"');
  t.regex(((await none.json()) as { error: string }).error, /admin token is required/);
  t.is((await admin(service, `/admin/secrets/${fingerprint}/unlock`, { method: 'POST', token: `${TOKEN}x` })).status, 401);
  t.is((await admin(service, `/admin/secrets/${fingerprint}`, { token: TOKEN.slice(0, -1) })).status, 401);
  t.is((await admin(service, `/admin/secrets/${fingerprint}`, { token: TOKEN })).status, 404, 'the right token clears the count');
  for (let i = 0; i < 5; i++) t.is((await admin(service, `/admin/secrets/${fingerprint}`, { token: 'wrong' })).status, 401);
  const throttled = await admin(service, `/admin/secrets/${fingerprint}`, { token: TOKEN });
  t.is(throttled.status, 429);
  t.true(Number(throttled.headers.get('retry-after')) > 0);
  service.clock.set(service.clock.now() + 301_000);
  t.is((await admin(service, `/admin/secrets/${fingerprint}`, { token: TOKEN })).status, 404, 'the window has ended');
  const outcomes = auditOf(service).map((l) => [l.outcome, l.reason]);
  t.deepEqual(outcomes.slice(0, 3), [
    ['admin-refused', 'no token'],
    ['admin-refused', 'wrong token'],
    ['admin-refused', 'wrong token'],
  ]);
  t.true(outcomes.some(([outcome]) => outcome === 'admin-throttled'));
  t.false(service.logs().includes(TOKEN.slice(0, -1)), 'no token, right or wrong, in a line');
});

test('a malformed fingerprint is 400, an unknown one 404, each a JSON error; the admin endpoints need a token file', async (t) => {
  const service = await startAdminService();
  const tokenless = await startTestService({ stateKey: STATE_KEY, managementPort: 0 });
  t.teardown(() => Promise.all([service.close({ idleGraceMs: 0 }), tokenless.close({ idleGraceMs: 0 })]));
  for (const bad of ['0123', 'ABCDEF0123456789AB', `${'0'.repeat(17)}g`, '..%2f..%2fetc']) {
    const answer = await admin(service, `/admin/secrets/${bad}`, { token: TOKEN });
    t.is(answer.status, 400, bad);
    t.regex(((await answer.json()) as { error: string }).error, /18 hexadecimal digits/);
  }
  const unknown = await admin(service, '/admin/secrets/0123456789abcdef01/unlock', { method: 'POST', token: TOKEN });
  t.is(unknown.status, 404);
  t.regex(((await unknown.json()) as { error: string }).error, /^No record for this fingerprint/);
  t.is(auditOf(service).filter((l) => l.outcome === 'admin-not-found').length, 5);
  t.is((await admin(tokenless, '/admin/secrets/0123456789abcdef01', { token: TOKEN })).status, 404, 'not served at all');
  t.is((await fetch(`${service.url}/admin/secrets/0123456789abcdef01`)).status, 404, 'never on the public port');
});

test('pin-service secret-status and unlock: by fingerprint, or by the secret on standard input; clear failures otherwise', async (t) => {
  const service = await startAdminService();
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const secret = 'admin-command-secret-3';
  await lock(service, secret);
  const fingerprint = fingerprintOfSecret(secret);
  const port = new URL(service.managementUrl ?? '').port;
  const settings = ['--management-port', port, '--admin-token-file', tokenFile];

  const status = await command(['secret-status', fingerprint, ...settings]);
  t.is(status.code, 0, status.err);
  t.regex(status.out, new RegExp(`^fingerprint: +${fingerprint}$`, 'm'));
  t.regex(status.out, /^failures: +6 of 5 allowed, counted until \d{4}-/m);
  t.regex(status.out, /^locked: +yes, until \d{4}-/m);

  // The secret from standard input needs the service's state key: here given, as it would be with Redis.
  const unlocked = await command(['unlock', '--json', ...settings, '--state-key', STATE_KEY], `${secret}\n`);
  t.is(unlocked.code, 0, unlocked.err);
  t.like(JSON.parse(unlocked.out), { fingerprint, cleared: 6, wasLocked: true, locked: false });
  t.regex((await validatePin(service, 'httpGet', pinFor(service, secret), secret)).body, />true</);

  const unknown = await command(['unlock', '0123456789abcdef01', ...settings]);
  t.is(unknown.code, 1);
  t.regex(unknown.err, /^pin-service: 0123456789abcdef01: No record for this fingerprint/);
  const malformed = await command(['unlock', 'not-a-fingerprint', ...settings]);
  t.is(malformed.code, 2);
  t.regex(malformed.err, /18 hexadecimal digits/);
  const wrongToken = join(dir, 'wrong-token');
  writeFileSync(wrongToken, 'x'.repeat(40));
  const refused = await command(['secret-status', fingerprint, '--management-port', port, '--admin-token-file', wrongToken]);
  t.is(refused.code, 1);
  t.regex(refused.err, /admin token is required/);
  const noPort = await command(['unlock', fingerprint, '--admin-token-file', tokenFile]);
  t.is(noPort.code, 2);
  t.regex(noPort.err, /--admin-token-file needs --management-port/);
  const noToken = await command(['unlock', fingerprint, '--management-port', port]);
  t.is(noToken.code, 2);
  t.regex(noToken.err, /--management-port and --admin-token-file/);
  const noSecret = await command(['unlock', ...settings, '--state-key', STATE_KEY], '');
  t.is(noSecret.code, 2);
  t.regex(noSecret.err, /no secret on standard input/);
  const randomKey = await command(['unlock', ...settings, '--store', 'memory'], `${secret}\n`);
  t.is(randomKey.code, 2);
  t.regex(randomKey.err, /state key is random/);
  for (const text of [status.out, unlocked.out, unknown.err, service.logs()]) t.false(text.includes(secret));
  t.false(service.logs().includes(TOKEN));
});

test('the settings of the operator’s side are checked at start: one line naming the setting', (t) => {
  const refused = (args: string[], names: string) => {
    const error = t.throws(() => parseConfig(args, {}), { instanceOf: ConfigError }, args.join(' '));
    t.true(error?.message.includes(names), `${args.join(' ')}: ${error?.message}`);
    t.false(/[\r\n]/.test(error?.message ?? ''));
  };
  const short = join(dir, 'short-token');
  writeFileSync(short, 'too-short\n');
  refused(['--management-port', '9090', '--admin-token-file', short], 'at least 32 characters');
  refused(['--management-port', '9090', '--admin-token-file', join(dir, 'missing')], 'cannot read');
  refused(['--admin-token-file', tokenFile], '--admin-token-file needs --management-port');
  refused(['--port', '9090', '--management-port', '9090'], '--management-port must differ');
  refused(['--audit-required'], '--audit-required needs --audit-file');
  refused(['--audit-file', ''], '--audit-file');
  const config = parseConfig([], { PIN_MANAGEMENT_PORT: '9081', PIN_ADMIN_TOKEN_FILE: tokenFile, PIN_AUDIT_FILE: 'audit.log' });
  t.like(config, {
    managementPort: 9081,
    managementHost: '127.0.0.1',
    adminTokenFile: tokenFile,
    auditFile: 'audit.log',
    auditRequired: false,
  });
  t.false(config.metricsOnPublicPort, '/metrics leaves the public port by default');
  t.is(readToken(tokenFile), TOKEN, 'the token without its line end');
});
