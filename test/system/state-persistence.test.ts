/**
 * The embedded store kept in its state directory, with the built service
 * (dist/, as users run it) and its default settings: what survives a
 * graceful restart, what a SIGKILL under load may lose (at most the records
 * answered in the last 100 ms before it), each state directory it cannot
 * use (one start-up line naming the path), and a disk that fills while it
 * runs (a small tmpfs, mounted here: the tests run as root). The restart and
 * the SIGKILL run with one process and with --workers 2, whose worker
 * threads share the table the main thread writes behind (a worker thread
 * that dies loses nothing it answered: test/service/shared-store.test.ts).
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_MAIN, startChildService, type ChildService } from '../support/child-service';
import { pinFor, readBoolean, validatePin, wrongPinFor } from '../support/requests';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';

const CLOCK = { clock: { now: () => Date.now() } };
/** The SIGKILL test's bound: records answered longer ago than this before the kill must survive it. */
const CRASH_WINDOW_MS = 100;
const CLIENTS = 8;
const LOAD_MS = 4000;

// readBoolean reads the answers with the XML engine.
test.before(() => loadXmlEngine());

const stateDirectory = () => mkdtempSync(join(tmpdir(), 'pin-state-system-'));

async function validate(service: ChildService, pin: string, secret: string): Promise<boolean> {
  return readBoolean('httpGet', await validatePin(service.url, 'httpGet', pin, secret));
}

/** SIGTERM, and the exit it brings. */
async function stop(service: ChildService): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  service.child.kill('SIGTERM');
  return service.exited;
}

/** One process, and --workers 2 (worker threads that share the store's table, which the main thread writes behind). */
const LAYOUTS = [
  { name: '', args: [] as string[], listening: 1 },
  { name: '--workers 2: ', args: ['--workers', '2'], listening: 2 },
];

for (const { name, args, listening } of LAYOUTS) {
  test.serial(`${name}a graceful restart keeps an accepted PIN refused, a lock locked and a count counted`, async (t) => {
    const stateDir = stateDirectory();
    const accepted = `accepted-${randomBytes(8).toString('hex')}`;
    const locked = `locked-${randomBytes(8).toString('hex')}`;
    const counted = `counted-${randomBytes(8).toString('hex')}`;
    // The PIN is sent again as it was, not worked out again: a step may begin between the two.
    const acceptedPin = pinFor(CLOCK, accepted);
    const first = await startChildService({ built: true, stateDir, args, listening });
    try {
      t.true(await validate(first, acceptedPin, accepted));
      for (let i = 0; i < 5; i++) t.false(await validate(first, wrongPinFor(CLOCK, locked), locked));
      for (let i = 0; i < 4; i++) t.false(await validate(first, wrongPinFor(CLOCK, counted), counted));
      t.deepEqual(await stop(first), { code: 0, signal: null });
    } finally {
      await first.kill();
    }
    const second = await startChildService({ built: true, stateDir, args, listening });
    try {
      t.notRegex(second.output(), /"event":"store-warning"/, 'a graceful stop closed the file: nothing to warn of');
      t.false(await validate(second, acceptedPin, accepted), 'the accepted PIN is a replay');
      t.is((await validatePin(second.url, 'httpGet', pinFor(CLOCK, locked), locked)).status, 429, 'the lock holds');
      t.false(await validate(second, wrongPinFor(CLOCK, counted), counted), 'the fifth failure');
      t.is(
        (await validatePin(second.url, 'httpGet', pinFor(CLOCK, counted), counted)).status,
        429,
        'four before the restart and one after lock it',
      );
    } finally {
      await second.kill();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  test.serial(`${name}SIGKILL under load loses at most the PINs answered in the last ${CRASH_WINDOW_MS} ms before it`, async (t) => {
    const stateDir = stateDirectory();
    const first = await startChildService({ built: true, stateDir, args: [...args, '--log-level', 'warn'] });
    const answered: { secret: string; pin: string; at: number }[] = [];
    let killedAt = 0;
    try {
      const until = Date.now() + LOAD_MS;
      const client = async () => {
        while (Date.now() < until) {
          const secret = randomBytes(12).toString('hex');
          const pin = pinFor(CLOCK, secret);
          if (await validate(first, pin, secret)) answered.push({ secret, pin, at: Date.now() });
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      // Calls keep coming until the kill: its window holds answers, as a real crash's does.
      const last = Array.from({ length: CLIENTS }, async () => {
        for (let i = 0; i < 20 && first.alive(); i++) {
          const secret = randomBytes(12).toString('hex');
          const pin = pinFor(CLOCK, secret);
          const ok = await validate(first, pin, secret).catch(() => false);
          if (ok && killedAt === 0) answered.push({ secret, pin, at: Date.now() });
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      killedAt = Date.now();
      first.child.kill('SIGKILL');
      await Promise.all(last);
      t.is((await first.exited).signal, 'SIGKILL');
    } finally {
      await first.kill();
    }
    const second = await startChildService({ built: true, stateDir, args: [...args, '--log-level', 'warn'] });
    const acceptedAgain: number[] = [];
    try {
      t.regex(
        second.output(),
        /"level":40.*"event":"store-warning".*was not closed by the run before this one.*\d+ entries were loaded/,
        'the start after the kill says in one line what may be missing',
      );
      for (let i = 0; i < answered.length; i += CLIENTS) {
        await Promise.all(
          answered.slice(i, i + CLIENTS).map(async ({ secret, pin, at }) => {
            if (await validate(second, pin, secret)) acceptedAgain.push(killedAt - at);
          }),
        );
      }
    } finally {
      await second.kill();
      rmSync(stateDir, { recursive: true, force: true });
    }
    const oldest = acceptedAgain.length === 0 ? 0 : Math.max(...acceptedAgain);
    t.log(
      `${answered.length} PINs accepted by ${CLIENTS} clients in ${LOAD_MS} ms; after SIGKILL and a restart ${acceptedAgain.length} were accepted again, answered at most ${oldest} ms before the kill`,
    );
    t.true(answered.length > 500, `load: ${answered.length} PINs accepted`);
    t.true(oldest <= CRASH_WINDOW_MS, `a PIN answered ${oldest} ms before the kill was lost`);
  });
}

/** Runs the built service to its exit (it must stop at start-up): its exit code and stderr. */
function startUp(stateDir: string, ...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [BUILT_MAIN, '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, PIN_STATE_DIR: stateDir },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, stderr: run.stderr };
}

/** Whether the service's output comes to match `pattern` within 5 s (its log is read as it arrives). */
async function logged(service: ChildService, pattern: RegExp): Promise<boolean> {
  for (let i = 0; i < 100 && !pattern.test(service.output()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return pattern.test(service.output());
}

const oneLine = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

test.serial('a state directory the service cannot use stops start-up with one line naming the path and what to do', async (t) => {
  const base = stateDirectory();
  try {
    // A state file that is not a database.
    const damaged = join(base, 'damaged');
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'state.db'), 'text, not a database '.repeat(500));
    // A state file written under another state key.
    const otherKey = join(base, 'other-key');
    const made = await startChildService({ built: true, stateDir: otherKey });
    t.deepEqual(await stop(made), { code: 0, signal: null });
    // A "directory" that is a file.
    const file = join(base, 'a-file');
    writeFileSync(file, '');
    const cases: [string, string[], RegExp][] = [
      [damaged, [], /^pin-service: cannot open the state file .*damaged\/state\.db: file is not a database; .*move it away/],
      [
        otherKey,
        ['--state-key', 'another-state-key-of-thirty-two-characters'],
        /^pin-service: the state file .*other-key\/state\.db was written under another state key: /,
      ],
      [file, [], /^pin-service: the state directory .*a-file cannot be used \(EEXIST\): .*--state-dir$/],
    ];
    for (const [stateDir, args, expected] of cases) {
      const { status, stderr } = startUp(stateDir, ...args);
      t.is(status, 1, stderr);
      t.is(oneLine(stderr).length, 1, stderr);
      t.regex(stderr.trim(), expected);
      t.notRegex(stderr, /\n\s+at /, 'no stack trace');
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test.serial(
  'a disk that fills while the service runs: ValidatePin fails closed, visibly, and is answered again once there is room',
  async (t) => {
    const mount = stateDirectory();
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount], { encoding: 'utf8' });
    t.is(mounted.status, 0, `mount a tmpfs (the system tests run as root): ${mounted.stderr}`);
    if (mounted.status !== 0) return;
    const service = await startChildService({ built: true, stateDir: join(mount, 'state'), args: ['--metrics-on-public-port'] });
    const filler = join(mount, 'filler');
    let restarted: ChildService | undefined;
    // PINs are sent again as they were, not worked out again: a step may begin in the meantime.
    const firstPin = pinFor(CLOCK, 'before-the-disk-fills');
    try {
      t.true(await validate(service, firstPin, 'before-the-disk-fills'));
      // Fill the disk: write until the file system says it is full (bounded by its 2 MiB).
      const fd = openSync(filler, 'w');
      const block = Buffer.alloc(4096, 1);
      try {
        for (let i = 0; i < 1024; i++) writeSync(fd, block);
      } catch (error) {
        t.is((error as NodeJS.ErrnoException).code, 'ENOSPC');
      } finally {
        closeSync(fd);
      }
      // New records need room in the file: the first batch that finds none turns ValidatePin away.
      let refused = 0;
      for (let i = 0; i < 2000 && refused === 0; i++) {
        const secret = `fresh-${i}-${randomBytes(16).toString('hex')}`;
        const answer = await validatePin(service.url, 'httpGet', pinFor(CLOCK, secret), secret);
        if (answer.status === 503) refused++;
        else t.is(answer.status, 200);
      }
      t.is(refused, 1, 'a call fails closed once the disk is full');
      t.true(await logged(service, /"event":"store-write-failed".*"reason":"database or disk is full"/), service.output().slice(-2000));
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      t.regex(metrics, /^pin_store_write_failures_total 1$/m);
      rmSync(filler);
      let answeredAgain: { secret: string; pin: string } | undefined;
      for (let i = 0; i < 100 && answeredAgain === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const secret = `after-${i}-${randomBytes(16).toString('hex')}`;
        const pin = pinFor(CLOCK, secret);
        if ((await validatePin(service.url, 'httpGet', pin, secret)).status === 200) answeredAgain = { secret, pin };
      }
      t.truthy(answeredAgain, 'answered again once there is room');
      t.true(await logged(service, /"event":"store-write-recovered"/));
      t.deepEqual(await stop(service), { code: 0, signal: null });
      // Nothing accepted before the disk filled, nor once it had room again, is lost.
      restarted = await startChildService({ built: true, stateDir: join(mount, 'state') });
      t.false(await validate(restarted, firstPin, 'before-the-disk-fills'));
      if (answeredAgain) t.false(await validate(restarted, answeredAgain.pin, answeredAgain.secret));
    } finally {
      await service.kill();
      await restarted?.kill();
      spawnSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  },
);
