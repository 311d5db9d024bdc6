/**
 * The audit trail (docs/operations.md, *Audit trail*): one line per
 * ValidatePin outcome and per Pair, naming the secret by its fingerprint,
 * with the caller's address, the variant and the request id; in the log and
 * in --audit-file, which SIGHUP opens again; --audit-required fails calls
 * closed while the file cannot be written. The request line says accepted,
 * wrong or replay. No line holds a secret or a PIN.
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStateKeyHasher, fingerprintOf } from '../../src/service/state/keyed-hash';
import { call, pinFor, validatePin, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const STATE_KEY = 'the-state-key-of-the-audit-tests-0123456789';
const fingerprintOfSecret = (secret: string) => fingerprintOf(createStateKeyHasher(STATE_KEY)(Buffer.from(secret, 'utf8')));

type Line = Record<string, unknown>;
const parse = (text: string): Line[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
const auditLines = (service: TestService, fingerprint?: string) =>
  parse(service.logs()).filter((l) => l.event === 'audit' && (fingerprint === undefined || l.fingerprint === fingerprint));
const requestLine = (service: TestService, id: unknown) => parse(service.logs()).find((l) => l.event === 'request' && l.id === id);

function directory(): string {
  return mkdtempSync(join(tmpdir(), 'pin-audit-'));
}

test('six wrong PINs then the right one: five wrong, locked, then throttled twice, one fingerprint, the caller and each request id', async (t) => {
  const service = await startTestService({ stateKey: STATE_KEY });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const secret = 'audit-locked-secret-1';
  const wrong = wrongPinFor(service, secret);
  for (let i = 0; i < 6; i++) await validatePin(service, 'httpGet', wrong, secret);
  const right = await validatePin(service, 'soap11', pinFor(service, secret), secret);
  t.is(right.status, 500, 'the right PIN is refused while locked (a SOAP fault)');

  const fingerprint = fingerprintOfSecret(secret);
  t.regex(fingerprint, /^[0-9a-f]{18}$/);
  const lines = auditLines(service, fingerprint);
  t.deepEqual(
    lines.map((l) => l.outcome),
    ['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'locked', 'throttled', 'throttled'],
  );
  t.deepEqual(
    lines.map((l) => l.attempts),
    [1, 2, 3, 4, 5, 5, 6, 7],
  );
  for (const line of lines) {
    t.like(line, { level: 30, address: '127.0.0.1', operation: 'ValidatePin' });
    t.is(typeof line.id, 'string');
  }
  t.deepEqual(
    lines.map((l) => l.variant),
    ['httpGet', 'httpGet', 'httpGet', 'httpGet', 'httpGet', 'httpGet', 'httpGet', 'soap11'],
  );
  t.is(lines[5].id, lines[4].id, 'the lock is the fifth call’s');
  const until = Date.parse(String(lines[5].until));
  t.true(Math.abs(until - (service.clock.now() + 300_000)) < 2000, 'locked for the throttle window');
  t.is(lines[7].until, lines[5].until, 'throttled until the lock ends');
  // The request lines of the same calls: wrong, then throttled.
  t.deepEqual(
    lines.filter((l) => l.outcome !== 'locked').map((l) => requestLine(service, l.id)?.outcome),
    ['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'throttled', 'throttled'],
  );
  t.false(service.logs().includes(secret));
  t.false(service.logs().includes(`"${wrong}"`));
});

test('accepted, then replay; Pair is audited with the same fingerprint; the request line says which', async (t) => {
  const service = await startTestService({ stateKey: STATE_KEY });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const secret = 'audit-accepted-secret-2';
  const paired = await call(service, 'httpPost', 'Pair', { appName: 'A', appInfo: 'a@example.com', secretCode: secret });
  t.is(paired.status, 200);
  const pin = pinFor(service, secret);
  for (const variant of ['json' as const, 'soap12' as const]) {
    if (variant === 'json') {
      await fetch(`${service.url}/api.asmx/ValidatePin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'audit-accept-1' },
        body: JSON.stringify({ pin, secretCode: secret }),
      });
    } else {
      await validatePin(service, variant, pin, secret);
    }
  }
  const lines = auditLines(service, fingerprintOfSecret(secret));
  t.deepEqual(
    lines.map((l) => [l.outcome, l.operation, l.variant]),
    [
      ['paired', 'Pair', 'httpPost'],
      ['accepted', 'ValidatePin', 'json'],
      ['replay', 'ValidatePin', 'soap12'],
    ],
  );
  t.is(lines[1].id, 'audit-accept-1', 'the caller’s X-Request-Id');
  t.is(requestLine(service, 'audit-accept-1')?.outcome, 'accepted');
  t.is(requestLine(service, lines[2].id)?.outcome, 'replay');
  t.false(service.logs().includes(secret));
});

test('the address: the connection’s; with --trust-proxy the last X-Forwarded-For hop (the one the proxy added), never one the caller wrote before it', async (t) => {
  const direct = await startTestService({ stateKey: STATE_KEY });
  const proxied = await startTestService({ stateKey: STATE_KEY, trustProxy: true });
  t.teardown(() => Promise.all([direct.close({ idleGraceMs: 0 }), proxied.close({ idleGraceMs: 0 })]));
  const secret = 'audit-address-secret-3';
  const headers = { 'X-Forwarded-For': '198.51.100.66, 203.0.113.7' };
  for (const service of [direct, proxied]) {
    await fetch(`${service.url}/api.asmx/ValidatePin?pin=000000&secretCode=${secret}`, { headers });
  }
  t.is(auditLines(direct, fingerprintOfSecret(secret))[0]?.address, '127.0.0.1', 'without --trust-proxy the header is ignored');
  t.is(auditLines(proxied, fingerprintOfSecret(secret))[0]?.address, '203.0.113.7');
});

test('--audit-file: the same lines in a file of their own; reopened, a rotated file is left and a new one started', async (t) => {
  const dir = directory();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'audit.log');
  const service = await startTestService({ stateKey: STATE_KEY, auditFile: file });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const secret = 'audit-file-secret-4';
  await validatePin(service, 'httpGet', '000000', secret);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the file is written every 10 ms
  const first = parse(readFileSync(file, 'utf8'));
  t.is(first.length, 1);
  t.like(first[0], { event: 'audit', outcome: 'wrong', fingerprint: fingerprintOfSecret(secret), address: '127.0.0.1' });
  t.is(typeof first[0].time, 'string');
  const logged = auditLines(service, fingerprintOfSecret(secret))[0];
  t.is(first[0].id, logged.id, 'the log’s line and the file’s are of the same call');

  renameSync(file, `${file}.1`); // what logrotate does before it signals the service
  await validatePin(service, 'httpGet', '000001', secret);
  service.reopenAudit(); // SIGHUP: what is waiting goes to the rotated file, then a new one is opened
  await validatePin(service, 'httpGet', '000002', secret);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.is(parse(readFileSync(`${file}.1`, 'utf8')).length, 2, 'the line written before the reopen is in the rotated file');
  const after = parse(readFileSync(file, 'utf8'));
  t.deepEqual(
    after.map((l) => l.attempts),
    [3],
  );
  t.regex(service.logs(), /"event":"audit-file-reopened"/);
  t.false(readFileSync(`${file}.1`, 'utf8').includes(secret));
});

test('an audit file that cannot be written: said at start and in /readyz; ValidatePin still answers, its lines in the log only', async (t) => {
  const dir = directory();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'missing', 'audit.log');
  const service = await startTestService({ stateKey: STATE_KEY, auditFile: file, managementPort: 0 });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  t.regex(service.logs(), /"event":"audit-file-failed".*cannot be written \(ENOENT\)/);
  for (const url of [service.url, service.managementUrl]) {
    const ready = await fetch(`${url}/readyz`);
    t.is(ready.status, 200);
    t.regex(
      await ready.text(),
      /^ready\nwarning: the audit file .*audit\.log cannot be written \(ENOENT\): audit lines go to the log only\n$/,
    );
  }
  const answer = await validatePin(service, 'httpGet', '000000', 'audit-unwritable-secret-5');
  t.is(answer.status, 200);
  t.is(auditLines(service, fingerprintOfSecret('audit-unwritable-secret-5')).length, 1);
  const metrics = await (await fetch(`${service.managementUrl}/metrics`)).text();
  t.regex(metrics, /^pin_audit_file_failures_total 1$/m);
  t.regex(metrics, /^pin_audit_lines_dropped_total [1-9]/m);
});

test('--audit-required: while the file cannot be written ValidatePin and Pair fail closed (503) before the PIN is checked; then they recover', async (t) => {
  const dir = directory();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'later', 'audit.log');
  const service = await startTestService({ stateKey: STATE_KEY, auditFile: file, auditRequired: true, managementPort: 0 });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const secret = 'audit-required-secret-6';
  const ready = await fetch(`${service.managementUrl}/readyz`);
  t.is(ready.status, 503);
  t.regex(await ready.text(), /^not ready: the audit file .* cannot be written \(ENOENT\) \(--audit-required\)\n$/);
  const refused = await validatePin(service, 'httpGet', pinFor(service, secret), secret);
  t.is(refused.status, 503);
  t.false(refused.body.includes(secret));
  t.is((await call(service, 'soap11', 'Pair', { appName: 'A', appInfo: 'b', secretCode: secret })).status, 500);
  t.regex(service.logs(), /"kind":"unavailable","cause":"the audit file .* cannot be written \(ENOENT\)"/);

  mkdirSync(join(dir, 'later'));
  await new Promise((resolve) => setTimeout(resolve, 1100)); // a failed file is tried again once a second
  const accepted = await validatePin(service, 'httpGet', pinFor(service, secret), secret);
  t.regex(accepted.body, />true</, 'the PIN refused before was never checked, so it is not spent');
  t.is((await fetch(`${service.managementUrl}/readyz`)).status, 200);
  // Written before the answer: the line is in the file already.
  t.like(parse(readFileSync(file, 'utf8')).at(-1), { outcome: 'accepted', fingerprint: fingerprintOfSecret(secret) });
  t.regex(service.logs(), /"event":"audit-file-recovered"/);
});

test('a full disk (/dev/full): said once, its lines counted as dropped; with --audit-required the call that met it fails closed, and the next ones until a write works', async (t) => {
  const relaxed = await startTestService({ stateKey: STATE_KEY, auditFile: '/dev/full', managementPort: 0 });
  const required = await startTestService({ stateKey: STATE_KEY, auditFile: '/dev/full', auditRequired: true });
  t.teardown(() => Promise.all([relaxed.close({ idleGraceMs: 0 }), required.close({ idleGraceMs: 0 })]));
  const secret = 'audit-full-disk-secret-7';
  for (let i = 0; i < 3; i++) t.is((await validatePin(relaxed, 'httpGet', '000000', secret)).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.is(relaxed.logs().match(/"event":"audit-file-failed"/g)?.length, 1, 'one line for the episode');
  t.regex(relaxed.logs(), /"reason":"the audit file \/dev\/full cannot be written \(ENOSPC\)"/);
  t.is(auditLines(relaxed, fingerprintOfSecret(secret)).length, 3, 'every line is in the log');
  const metrics = await (await fetch(`${relaxed.managementUrl}/metrics`)).text();
  t.regex(metrics, /^pin_audit_file_failures_total 1$/m);
  t.regex(metrics, /^pin_audit_lines_dropped_total [1-3]$/m);

  const first = await validatePin(required, 'httpGet', pinFor(required, secret), secret);
  t.is(first.status, 503, 'the line could not be written: no answer');
  const next = await validatePin(required, 'soap11', pinFor(required, secret, 1), secret);
  t.is(next.status, 500, 'refused before its PIN is checked, while the file is failing (a SOAP fault)');
  t.regex(next.body, /soap:Server/);
  t.false(required.logs().includes('"event":"audit-file-recovered"'));
  t.is(required.logs().match(/"event":"audit-file-failed"/g)?.length, 1);
});
