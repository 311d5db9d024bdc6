/**
 * The log's standard output may be closed (a `| head -1` that ended) or a
 * pipe nobody reads. Neither may hang, crash or slow the service: lines are
 * dropped, stderr says so once, calls are answered, and SIGTERM still ends
 * the process within its grace period. The destination itself is tested on a
 * FIFO; the service as a child process under a bounded load.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openLogDestination } from '../../src/service/observability/log-destination';
import { startChildService } from '../support/child-service';
import { load, sigtermWithStdout } from '../support/stdout-shutdown';

/** A FIFO in a fresh folder, its reading end opened without blocking, then its writing end. */
function fifo(t: { teardown(fn: () => void): void }): { reader: number; writer: number } {
  const dir = mkdtempSync(join(tmpdir(), 'pin-log-'));
  const path = join(dir, 'log.fifo');
  execFileSync('mkfifo', [path]); // coreutils: present wherever the tests run; this throws otherwise
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, 'w');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { reader, writer };
}

const line = (n: number) => `{"n":${n},"pad":"${'x'.repeat(200)}"}\n`;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function readAll(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65536);
  for (;;) {
    let n = 0;
    try {
      n = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

test('a reader that is gone: lines are dropped, stderr says so once, nothing throws', async (t) => {
  const { reader, writer } = fifo(t);
  closeSync(reader);
  const notices: string[] = [];
  const log = openLogDestination(writer, (text) => notices.push(text));
  for (let n = 0; n < 50; n++) {
    log.write(line(n));
    await turn();
  }
  await log.drain(1000);
  for (let n = 50; n < 100; n++) log.write(line(n));
  await log.drain(1000);
  t.deepEqual(notices.length, 1, notices.join('\n'));
  t.regex(notices[0]!, /cannot write the log \(EPIPE\); log lines are dropped/);
  t.true(log.dropped >= 50, `${log.dropped} lines dropped`);
});

test('a reader that does not read: writes never block, lines wait up to a bound and are then dropped, said once; what got through is whole lines in order', async (t) => {
  const { reader, writer } = fifo(t);
  const notices: string[] = [];
  const log = openLogDestination(writer, (text) => notices.push(text));
  // 4 MiB in batches of 100 lines: four times what the destination lets wait, sixty times the pipe.
  const LINES = 20_000;
  for (let n = 0; n < LINES; n++) {
    log.write(line(n));
    if (n % 100 === 99) await turn();
  }
  const drainStarted = Date.now();
  await log.drain(300);
  const drainMs = Date.now() - drainStarted;
  t.true(drainMs < 3000, `drain gave up after ${drainMs} ms`);
  t.deepEqual(notices, ['pin-service: the log is not being read; log lines are dropped while it is not']);
  t.true(log.dropped > 0 && log.dropped < LINES, `${log.dropped} of ${LINES} lines dropped`);

  // Reading now lets the waiting lines through: whole lines, increasing, none twice.
  let text = '';
  for (let quiet = 0, i = 0; quiet < 3 && i < 500; i++) {
    const more = readAll(reader);
    text += more;
    quiet = more ? 0 : quiet + 1;
    await sleep(20);
  }
  const numbers = text
    .trimEnd()
    .split('\n')
    .map((l) => (JSON.parse(l) as { n: number }).n);
  t.true(numbers.length > 0);
  t.true(
    numbers.every((n, i) => i === 0 || n > numbers[i - 1]!),
    'lines come out in order',
  );
  t.is(numbers[0], 0, 'the first lines were not dropped');
  t.is(numbers.length + log.dropped, LINES, 'every line was either written or counted as dropped');
  closeSync(reader);
});

test('a file: every line, in order', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pin-log-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'log.jsonl');
  writeFileSync(path, '');
  const fd = openSync(path, 'a');
  const notices: string[] = [];
  const log = openLogDestination(fd, (text) => notices.push(text));
  for (let n = 0; n < 1000; n++) {
    log.write(line(n));
    if (n % 7 === 0) await turn();
  }
  await log.drain(1000);
  closeSync(fd);
  const numbers = readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => (JSON.parse(l) as { n: number }).n);
  t.deepEqual(
    numbers,
    Array.from({ length: 1000 }, (_, n) => n),
  );
  t.deepEqual(notices, []);
  t.is(log.dropped, 0);
});

test('stdout a closed pipe: the service keeps answering, says so once, and SIGTERM ends it with exit 0 within the grace period', async (t) => {
  await sigtermWithStdout(t, 'closed');
});

test('stdout a pipe nobody reads (full): the service keeps answering, and SIGTERM ends it with exit 0 within the grace period', async (t) => {
  await sigtermWithStdout(t, 'unread');
});

test('--workers 2, stdout a closed pipe: the main thread and both worker threads end on SIGTERM with exit 0 within the grace period', async (t) => {
  await sigtermWithStdout(t, 'closed', ['--workers', '2']);
});

test('the forced exit fires with stdout full: a call that never ends its body, exit 1 at the end of the grace period', async (t) => {
  const service = await startChildService({ args: ['--log-level', 'info'], stdout: 'unread' });
  try {
    await load(service.port, 1000);
    // Headers of a form POST whose body never comes: close() waits for it until the grace period ends.
    const stuck = request({
      host: '127.0.0.1',
      port: service.port,
      method: 'POST',
      path: '/api.asmx/ValidatePin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '100' },
    });
    stuck.on('error', () => {});
    stuck.flushHeaders();
    await sleep(300);
    const sigtermAt = Date.now();
    service.child.kill('SIGTERM');
    const exit = await Promise.race([service.exited, sleep(15_000).then(() => undefined)]);
    const exitedAfterMs = Date.now() - sigtermAt;
    stuck.destroy();
    t.log(`exit ${JSON.stringify(exit)} after ${exitedAfterMs} ms`);
    t.deepEqual(exit, { code: 1, signal: null }, 'the forced exit, code 1');
    t.true(exitedAfterMs >= 9000 && exitedAfterMs < 11_000, 'at the end of the 10 s grace period');
  } finally {
    await service.kill();
  }
});
