/**
 * The TLS sidecar of deploy/kubernetes/ (src/service/cli/reload-on-change.ts): a
 * Secret's files swapped as kubelet swaps them reach the service as one
 * SIGHUP, never before the service catches SIGHUP (it would end it), never
 * again without a change, never to itself. Real processes: a stand-in for
 * the service whose command line holds a path of its own, so that no other
 * process on the machine matches; the service itself is signalled through
 * the sidecar in test/system/kubernetes.test.ts.
 */
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { checkOnce, findProcesses, readDirectory } from '../../src/service/cli/reload-on-change';
import { writeSecretVolume } from '../support/secret-volume';

const ROOT = join(__dirname, '..', '..');
const quiet = pino({ level: 'silent' });

/** A process that catches SIGHUP after `delayMs` and says `hup` for each; `program` is its made-up program path. */
function standIn(program: string, delayMs: number): { child: ChildProcess; hangups: () => number; catching: Promise<void> } {
  const script = `setTimeout(() => { process.on('SIGHUP', () => console.log('hup')); console.log('catching'); }, ${delayMs}); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script, program], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let caught: () => void = () => {};
  const catching = new Promise<void>((resolve) => {
    caught = resolve;
  });
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (out.includes('catching')) caught();
  });
  return { child, hangups: () => (out.match(/^hup$/gm) ?? []).length, catching };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

test('a change reaches the service as one SIGHUP, only once it catches SIGHUP, and nothing else is signalled', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pin-reload-'));
  const program = join(dir, 'service.js');
  const secret = join(dir, 'tls');
  writeSecretVolume(secret, { 'tls.crt': 'certificate 1', 'tls.key': 'key 1' });
  const service = standIn(program, 1500);
  t.teardown(() => {
    service.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  await until(() => findProcesses(program).length === 1, 5000);
  t.deepEqual(findProcesses(program), [{ pid: service.child.pid!, catchesHangup: false }]);
  t.deepEqual(findProcesses(program, '/proc', service.child.pid), [], 'never the process itself');

  let signalled = (readDirectory(secret) as { digest: string }).digest;
  t.is(checkOnce({ watch: secret, process: program }, signalled, quiet), signalled, 'no change, nothing sent');

  writeSecretVolume(secret, { 'tls.crt': 'certificate 2', 'tls.key': 'key 2' });
  const changed = (readDirectory(secret) as { digest: string }).digest;
  t.not(changed, signalled);
  // Not catching SIGHUP yet: the change waits, and the process lives.
  t.is(checkOnce({ watch: secret, process: program }, signalled, quiet), signalled);
  await service.catching;
  t.deepEqual(findProcesses(program), [{ pid: service.child.pid!, catchesHangup: true }]);
  signalled = checkOnce({ watch: secret, process: program }, signalled, quiet);
  t.is(signalled, changed);
  t.true(await until(() => service.hangups() === 1, 5000), 'one SIGHUP');
  t.is(checkOnce({ watch: secret, process: program }, signalled, quiet), changed);
  await sleep(300);
  t.is(service.hangups(), 1, 'and no second without a change');
  t.is(service.child.exitCode, null);
});

test('the sidecar as it runs: files swapped as kubelet swaps them bring one SIGHUP within the interval', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pin-reload-'));
  const program = join(dir, 'service.js');
  const secret = join(dir, 'tls');
  writeSecretVolume(secret, { 'tls.crt': 'certificate 1', 'tls.key': 'key 1' });
  const service = standIn(program, 0);
  await service.catching;
  const sidecar = spawn(
    process.execPath,
    ['--import=tsx', join(ROOT, 'src/service/cli/reload-on-change.ts'), `--watch=${secret}`, `--process=${program}`, '--interval=1'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  sidecar.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  sidecar.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  t.teardown(() => {
    service.child.kill('SIGKILL');
    sidecar.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  t.true(await until(() => log.includes('"event":"watching"'), 20_000), log);
  // Its start is no change: the service read these files when it started.
  await sleep(1500);
  t.is(service.hangups(), 0, log);
  writeSecretVolume(secret, { 'tls.crt': 'certificate 2', 'tls.key': 'key 2' });
  t.true(await until(() => service.hangups() === 1, 5000), log);
  // The sidecar logs the signal after sending it: its line may come a moment after the SIGHUP.
  const sent = new RegExp(`"event":"reload-sent","pids":\\[${service.child.pid}\\]`);
  t.true(await until(() => sent.test(log), 5000), log);
  await sleep(1500);
  t.is(service.hangups(), 1, 'one change, one SIGHUP');
  // SIGTERM (the pod stopping) ends it cleanly.
  const exited = new Promise<number | null>((resolve) => sidecar.once('exit', (code) => resolve(code)));
  sidecar.kill('SIGTERM');
  t.is(await exited, 0);
});

test('a wrong command line is one line and exit 2', async (t) => {
  for (const args of [[], ['--watch=relative', '--process=/x'], ['--watch=/x', '--process=/y', '--interval=0'], ['--watcj=/x']]) {
    const child = spawn(process.execPath, ['--import=tsx', join(ROOT, 'src/service/cli/reload-on-change.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    t.is(code, 2, args.join(' '));
    t.regex(err, /^reload-on-change: [^\n]+\n$/, args.join(' '));
  }
});
