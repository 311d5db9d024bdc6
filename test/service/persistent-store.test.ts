/**
 * The kept embedded store (src/service/state/persistent-store.ts, state-directory.ts):
 * what it writes behind the memory table is what a restart finds, and every
 * state directory it cannot use is one line naming the path.
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import test from 'ava';
import { openPersistentStore } from '../../src/service/state/index';
import { StateFileError } from '../../src/service/state/persistent-store';

const KEY = 'a-state-key-of-at-least-thirty-two-characters';
const keyOf = (n: number) => createHash('sha256').update(String(n)).digest('base64url');

function directory(): string {
  return mkdtempSync(join(tmpdir(), 'pin-state-test-'));
}

/** What a SIGKILL leaves: a copy of the directory's files as they are, nothing closed. */
function crashCopy(dir: string): string {
  const copy = directory();
  for (const name of readdirSync(dir)) copyFileSync(join(dir, name), join(copy, name));
  return copy;
}

function open(stateDir: string, now: () => number, settings: { stateKey?: string; storeMaxEntries?: number } = {}) {
  return openPersistentStore({ storeMaxEntries: 1000, storeWhenFull: 'evict', stateDir, stateKey: KEY, ...settings }, undefined, now).store;
}

test('a graceful restart keeps an accepted step refused, a lock locked, a count counted and a cleared count cleared', async (t) => {
  const dir = directory();
  const now = () => 1_000_000;
  const before = open(dir, now);
  t.true(await before.acceptStep(keyOf(1), 10, 90_000));
  for (let i = 0; i < 5; i++) await before.countAttempt(keyOf(2), 300_000, 5);
  await before.countAttempt(keyOf(3), 300_000, 5);
  await before.countAttempt(keyOf(4), 300_000, 5);
  await before.clearAttempts(keyOf(4));
  await before.close();

  const after = open(dir, now);
  t.false(await after.acceptStep(keyOf(1), 10, 90_000), 'the accepted step is refused again');
  t.true(await after.acceptStep(keyOf(1), 11, 90_000), 'a later step is accepted');
  t.is((await after.countAttempt(keyOf(2), 300_000, 5)).attempts, 6, 'the locked count goes on');
  t.is((await after.countAttempt(keyOf(3), 300_000, 5)).attempts, 2, 'the open count goes on');
  t.is((await after.countAttempt(keyOf(4), 300_000, 5)).attempts, 1, 'the cleared count starts again');
  t.deepEqual(await after.warnings(), [], 'a closed file: nothing missing, nothing said');
  await after.close();
});

test('loading drops what expired while the service was stopped', async (t) => {
  const dir = directory();
  let clock = 1_000_000;
  const before = open(dir, () => clock);
  await before.acceptStep(keyOf(1), 10, 90_000);
  await before.countAttempt(keyOf(2), 300_000, 5);
  await before.close();
  clock += 120_000;
  const after = open(dir, () => clock);
  t.is(after.size, 1, 'only the attempt count is still in its window');
  t.true(await after.acceptStep(keyOf(1), 10, 90_000));
  await after.close();
});

test('a crash loses nothing flushed: a copy of the files taken after a flush, the store still open, holds every record', async (t) => {
  const dir = directory();
  const now = () => 1_000_000;
  const store = open(dir, now);
  await store.acceptStep(keyOf(1), 10, 90_000);
  await store.countAttempt(keyOf(2), 300_000, 5);
  store.flush();
  const after = open(crashCopy(dir), now);
  t.is(after.size, 2);
  t.regex((await after.warnings()).join('\n'), /was not closed by the run before this one .* 2 entries were loaded/);
  t.false(await after.acceptStep(keyOf(1), 10, 90_000));
  t.is((await after.countAttempt(keyOf(2), 300_000, 5)).attempts, 2);
  await after.close();
  await store.close();
});

test('a batch torn by a crash mid-write: the batches before it are kept, the torn one is dropped whole, the store opens', async (t) => {
  const dir = directory();
  const now = () => 1_000_000;
  const store = open(dir, now);
  await store.acceptStep(keyOf(1), 10, 90_000);
  store.flush();
  for (let n = 2; n < 200; n++) await store.acceptStep(keyOf(n), 10, 90_000);
  store.flush();
  // The files as a crash mid-write leaves them: the write-ahead log cut inside its last frame.
  const copy = crashCopy(dir);
  const wal = join(copy, 'state.db-wal');
  t.true(statSync(wal).size > 4096, 'both batches are in the write-ahead log');
  truncateSync(wal, statSync(wal).size - 100);
  const after = open(copy, now);
  t.false(await after.acceptStep(keyOf(1), 10, 90_000), 'the first batch is kept');
  t.is(after.size, 1, 'the torn batch is dropped whole');
  const warnings = await after.warnings();
  t.is(warnings.length, 1, 'one line says so');
  t.regex(warnings[0], /state\.db was not closed by the run before this one .*torn mid-write was dropped whole.*; 1 entries were loaded$/);
  await after.close();
  await store.close();
  // Closed now: the next start has nothing to say.
  const again = open(copy, now);
  t.deepEqual(await again.warnings(), []);
  await again.close();
});

test('a second store on the same state directory stops at start with a line naming the file', async (t) => {
  const dir = directory();
  const first = open(dir, () => 1);
  const error = t.throws(() => open(dir, () => 1), { instanceOf: StateFileError });
  t.regex(error.message, /state\.db is in use by another process: give each instance its own --state-dir, or share a Redis store/);
  await first.close();
  await open(dir, () => 1).close();
  t.pass('once the first is closed, the directory opens');
});

test('the file stays bounded: the log is folded into a snapshot of the live entries, and a restart finds the same', async (t) => {
  const dir = directory();
  const now = () => 1_000_000;
  const store = open(dir, now, { storeMaxEntries: 500 });
  for (let n = 0; n < 40_000; n++) {
    await store.acceptStep(keyOf(n), 10, 90_000);
    if (n % 1000 === 999) store.flush();
  }
  for (let i = 0; i < 5; i++) store.flush();
  await store.close();
  const reader = new DatabaseSync(join(dir, 'state.db'), { readOnly: true });
  const count = (table: string) => (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const rows = count('log') + count('snapshot');
  reader.close();
  t.true(rows < 40_000 / 2, `${rows} rows for 500 entries after 40 000 writes`);
  const after = open(dir, now, { storeMaxEntries: 500 });
  t.is(after.size, 500);
  t.false(await after.acceptStep(keyOf(39_999), 10, 90_000), 'the newest entries are kept');
  t.true(await after.acceptStep(keyOf(0), 10, 90_000), 'the oldest were evicted, as in memory');
  await after.close();
});

test('the state key is made once in the directory, mode 0600, and used again', async (t) => {
  const dir = directory();
  const now = () => 1_000_000;
  const first = openPersistentStore({ storeMaxEntries: 1000, storeWhenFull: 'evict', stateDir: dir, stateKey: undefined }, undefined, now);
  await first.store.acceptStep(keyOf(1), 10, 90_000);
  await first.store.close();
  const file = join(dir, 'state-key');
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(readFileSync(file, 'utf8').trim(), first.stateKey);
  const second = openPersistentStore({ storeMaxEntries: 1000, storeWhenFull: 'evict', stateDir: dir, stateKey: undefined }, undefined, now);
  t.is(second.stateKey, first.stateKey);
  t.false(await second.store.acceptStep(keyOf(1), 10, 90_000));
  await second.store.close();
});

test('a state file written under another state key stops start-up with a line naming it', async (t) => {
  const dir = directory();
  await open(dir, () => 1).close();
  const error = t.throws(() => open(dir, () => 1, { stateKey: 'another-state-key-of-thirty-two-characters-or-more' }), {
    instanceOf: StateFileError,
  });
  t.regex(error.message, /state\.db was written under another state key/);
  t.notRegex(error.message, /\n/);
});

test('a state file that is not a database stops start-up with a line naming it', (t) => {
  const dir = directory();
  writeFileSync(join(dir, 'state.db'), 'not a database, just text that happens to be here '.repeat(200));
  const error = t.throws(() => open(dir, () => 1), { instanceOf: StateFileError });
  t.true(error.message.includes(join(dir, 'state.db')), error.message);
  t.regex(error.message, /move it away/);
  t.notRegex(error.message, /\n/);
});

test('a state directory that cannot be made stops start-up with a line naming it', (t) => {
  const file = join(directory(), 'a-file');
  writeFileSync(file, '');
  const error = t.throws(() => open(join(file, 'state'), () => 1), { instanceOf: StateFileError });
  t.regex(error.message, /^the state directory .*a-file\/state cannot be used \(ENOTDIR\): .*--state-dir$/);
});

test('an empty state key file stops start-up rather than starting with a new key', (t) => {
  const dir = directory();
  writeFileSync(join(dir, 'state-key'), '');
  chmodSync(join(dir, 'state-key'), 0o600);
  const error = t.throws(() => openPersistentStore({ storeMaxEntries: 1000, storeWhenFull: 'evict', stateDir: dir, stateKey: undefined }), {
    instanceOf: StateFileError,
  });
  t.regex(error.message, /state-key holds no key/);
});
