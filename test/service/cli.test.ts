/**
 * The command line (docs/operations.md, *Command line*): `serve` (the default) runs the service,
 * `secret` prints a new random Base32 secret, `pair` prints the manual setup
 * code and a QR code in the terminal; each takes --help. Usage mistakes exit 2
 * with one line on stderr, never a stack trace. Run as a user runs it: a
 * child process of `node --import=tsx src/service/main.ts`.
 */
import test from 'ava';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeBase32 } from '../../src/service/otp/base32';
import { freePort } from '../support/ports';
import { call, pinFor, validatePin } from '../support/requests';

const ROOT = join(__dirname, '..', '..');
const MAIN = 'src/service/main.ts';

/** The caller's environment without its PIN_* variables, and a state directory of its own (never the repository's ./state). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PIN_')));
  return { ...env, PIN_STATE_DIR: mkdtempSync(join(tmpdir(), 'pin-state-')) };
}

/** Runs the command line to completion; PIN_* variables of the caller are left out. */
function run(...args: string[]): SpawnSyncReturns<string> {
  const env = cleanEnv();
  const result = spawnSync(process.execPath, ['--import=tsx', MAIN, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  if (result.error) throw result.error;
  return result;
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

test('secret prints 160 random bits as 32 Base32 characters, different each run', (t) => {
  const first = run('secret');
  const second = run('secret');
  t.is(first.status, 0, first.stderr);
  t.is(second.status, 0, second.stderr);
  t.regex(first.stdout, /^[A-Z2-7]{32}\n$/);
  t.regex(second.stdout, /^[A-Z2-7]{32}\n$/);
  t.not(first.stdout, second.stdout);
  t.is(first.stderr, '');
});

test('secret --bytes 32 prints 256 bits as 52 Base32 characters', (t) => {
  for (const args of [['--bytes', '32'], ['--bytes=32']]) {
    const result = run('secret', ...args);
    t.is(result.status, 0, result.stderr);
    t.regex(result.stdout, /^[A-Z2-7]{52}\n$/, args.join(' '));
  }
});

test('pair prints the ManualSetupCode, the otpauth URI and a QR code for the terminal', (t) => {
  const result = run('pair', '--app', 'X', '--account', 'y', '--secret', '12345678BXYT');
  t.is(result.status, 0, result.stderr);
  t.true(result.stdout.includes('GEZDGNBVGY3TQQSYLFKA'), "the manual setup code (the reference's for this secret)");
  t.true(result.stdout.includes('otpauth://totp/X:y?secret=GEZDGNBVGY3TQQSYLFKA&issuer=X'), 'the otpauth URI');
  // The QR code is drawn with block characters, a square of many lines.
  const blocks = lines(result.stdout).filter((l) => /[█▀▄]/.test(l));
  t.true(blocks.length >= 10, `a QR code of block characters (${blocks.length} lines)`);
  t.is(result.stderr, '');
});

test('pair follows the pairing settings (Base32 secrets, 8 digits)', (t) => {
  const result = run(
    'pair',
    '--app=Example',
    '--account=alice@example.com',
    '--secret=jbsw y3dp ehpk 3pxp',
    '--secret-encoding',
    'base32',
    '--digits',
    '8',
  );
  t.is(result.status, 0, result.stderr);
  t.true(result.stdout.includes('JBSWY3DPEHPK3PXP'));
  t.true(result.stdout.includes('digits=8'));
});

test('--help of each command exits 0 and prints its usage', (t) => {
  for (const args of [['--help'], ['serve', '--help'], ['secret', '--help'], ['pair', '--help'], ['-h'], ['help']]) {
    const result = run(...args);
    t.is(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
    t.regex(result.stdout, /^Usage: pin-service/m, `${args.join(' ')} prints a usage`);
    t.is(result.stderr, '', `${args.join(' ')}: nothing on stderr`);
  }
  t.true(run('--help').stdout.includes('--namespace'), 'serve --help lists the settings');
  t.true(run('secret', '--help').stdout.includes('--bytes'));
  t.true(run('pair', '--help').stdout.includes('--account'));
});

test('usage mistakes exit 2 with one line on stderr and no stack trace', (t) => {
  for (const args of [
    ['frobnicate'],
    ['--frobnicate'],
    ['serve', '--port', 'eighty'],
    ['secret', '--bytes', 'many'],
    ['secret', '--bytes', '4'],
    ['secret', '--colour'],
    ['pair', '--app', 'X'],
    ['pair', '--account', 'y', '--secret'],
    ['pair', '--account', 'y', '--secret', 's3cret-long-enough', '--digits', '7'],
  ]) {
    const result = run(...args);
    t.is(result.status, 2, `${args.join(' ')}: exit code (${result.stderr.trim()})`);
    t.is(lines(result.stderr).length, 1, `${args.join(' ')}: one line on stderr`);
    t.false(/\n\s+at /.test(result.stderr), `${args.join(' ')}: no stack trace`);
    t.is(result.stdout, '', `${args.join(' ')}: nothing on stdout`);
  }
});

test('serve runs the service until SIGTERM, then exits 0', async (t) => {
  const port = await freePort();
  const env = cleanEnv();
  const child = spawn(process.execPath, ['--import=tsx', MAIN, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close': after the last of its output has been read.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  const base = `http://127.0.0.1:${port}`;
  let healthy = false;
  for (let i = 0; i < 150 && !healthy && child.exitCode === null; i++) {
    healthy = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!healthy) await sleep(100);
  }
  t.true(healthy, `/healthz answered (${output.slice(0, 500)})`);

  const secret = 'cli-serve-secret-1234';
  const pin = pinFor({ clock: Date }, secret);
  const answer = await validatePin(base, 'httpGet', pin, secret);
  t.is(answer.status, 200);
  t.regex(answer.body, />true<\/boolean>/);
  const pair = await call(base, 'httpGet', 'Pair', { appName: 'X', appInfo: 'y', secretCode: secret });
  t.true(pair.body.includes(encodeBase32(Buffer.from(secret, 'utf8'))));

  const sent = Date.now();
  child.kill('SIGTERM');
  const timeout = sleep(10_000).then(() => 'timeout' as const);
  const result = await Promise.race([exited, timeout]);
  t.not(result, 'timeout', 'exited within 10 s of SIGTERM');
  t.deepEqual(result, { code: 0, signal: null }, `exit code 0 (${output.slice(-500)})`);
  t.true(Date.now() - sent < 10_000);
  t.false(output.includes(secret), 'the secret is never logged');
});

test('--help prints one usage, within 80 columns, every environment variable in one column', (t) => {
  for (const args of [
    ['--help'],
    ['serve', '--help'],
    ['help'],
    ['secret', '--help'],
    ['pair', '--help'],
    ['unlock', '--help'],
    ['secret-status', '--help'],
  ]) {
    const out = run(...args).stdout;
    t.is(out.match(/^Usage:/gm)?.length, 1, `${args.join(' ')}: one usage`);
    for (const line of out.split('\n')) t.true(line.length <= 80, `${args.join(' ')}: ${line.length} columns: ${line}`);
  }
  const rows = run('--help')
    .stdout.split('\n')
    .filter((l) => /^ {2}--[a-z-]+ </.test(l));
  t.true(rows.length >= 20, 'a row per setting');
  const columns = new Set(rows.map((row) => row.indexOf(' PIN_')));
  t.is(columns.size, 1, 'every variable starts in the same column');
  t.true(rows.some((row) => row.startsWith('  --log-level <') && row.includes(' PIN_LOG_LEVEL')));
});

test('an address or port the service cannot listen on: one line naming the setting, exit 2', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const busy = (blocker.address() as AddressInfo).port;
  for (const [args, message] of [
    [['--host', '999.1.1.1'], 'pin-service: invalid --host: must be an IP address or a host name'],
    [['--host', 'bad_host!'], 'pin-service: invalid --host: must be an IP address or a host name'],
    [['--host', '192.0.2.1', '--port', '0'], 'pin-service: --host 192.0.2.1: not an address of this machine'],
    [['--host', '127.0.0.1', '--port', String(busy)], `pin-service: --port ${busy}: already in use on 127.0.0.1`],
  ] as const) {
    const result = run(...args, '--log-level', 'silent');
    t.is(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    t.is(result.stderr, `${message}\n`, args.join(' '));
  }
  // With --workers, the worker thread that cannot listen says so through the main thread, which stops the rest.
  const workers = run('--host', '127.0.0.1', '--port', String(busy), '--workers', '2', '--store', 'memory', '--log-level', 'silent');
  t.is(workers.status, 2, workers.stderr);
  t.is(workers.stderr, `pin-service: --port ${busy}: already in use on 127.0.0.1\n`);
});

test("pair names its own flags in the operation's errors", (t) => {
  for (const [args, message] of [
    [['--account', 'alice', '--secret', 'short'], 'pin-service: --secret must be at least 10 bytes (80 bits) long.'],
    [['--account', 'a'.repeat(257), '--secret', 'long-enough-secret'], 'pin-service: --account must be at most 256 characters long.'],
    [
      ['--app', 'x'.repeat(101), '--account', 'alice', '--secret', 'long-enough-secret'],
      'pin-service: --app must be at most 100 characters long.',
    ],
  ] as const) {
    const result = run('pair', ...args);
    t.is(result.status, 2, result.stderr);
    t.is(result.stderr, `${message}\n`);
  }
});
