/**
 * What a Node.js user does with a fresh clone, without make: `npm ci`, `npm run build`, `npm start`, in a
 * copy of the repository's files (what git tracks, or, outside a git checkout such as CI's copy, every file
 * .gitignore does not exclude) in a new temporary folder. The service must serve from dist/ alone, help
 * pages included (their templates reach dist/ through `npm run build`), answer a real call, and stop
 * gracefully on SIGTERM sent to npm.
 *
 * In `make test-all` only: `npm ci` needs the npm registry or npm's cache (--prefer-offline), and takes a
 * minute or more.
 */
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeBase32 } from '../../src/service/otp/base32';
import { freePort } from '../support/ports';
import { copyRepository, run } from '../support/repository-copy';
import { call } from '../support/requests';
import { requireTool } from './clients/harness';

let parent: string | undefined;
let started: ChildProcess | undefined;

test.after.always(async () => {
  // npm start runs in a process group of its own: whatever is left of it goes, npm or not.
  if (started?.pid !== undefined) {
    try {
      process.kill(-started.pid, 'SIGKILL');
      await sleep(200);
    } catch {
      // the group is gone
    }
  }
  if (parent) rmSync(parent, { recursive: true, force: true });
});

test('a fresh copy: npm ci, npm run build and npm start serve the service, which stops on SIGTERM', async (t) => {
  t.timeout(15 * 60_000);
  requireTool('npm', ['--version'], 'npm');
  parent = mkdtempSync(join(tmpdir(), 'pin-service-npm-'));
  const copy = join(parent, 'pin-service');
  const files = copyRepository(copy);
  t.true(
    files.includes('package-lock.json') && files.includes('src/runtime/help/templates/layout.hbs'),
    'the copy has the lock file and the templates',
  );
  t.false(
    files.some((file) => file.startsWith('node_modules/') || file.startsWith('dist/') || file.startsWith('.node/')),
    'no installed or built files',
  );

  const install = await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], copy, 10 * 60_000);
  t.is(install.status, 0, `npm ci:\n${install.output}`);
  const build = await run('npm', ['run', 'build'], copy, 5 * 60_000);
  t.is(build.status, 0, `npm run build:\n${build.output}`);
  t.true(existsSync(join(copy, 'dist/src/runtime/help/templates/layout.hbs')), 'the help templates are in dist/');

  const port = await freePort();
  const child = spawn('npm', ['start', '--', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: copy,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started = child;
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let serving = false;
  while (!serving && child.exitCode === null && Date.now() < deadline) {
    serving = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!serving) await sleep(100);
  }
  if (!serving) return t.fail(`npm start did not serve:\n${output}`);

  const secretCode = 'npm-start-secret';
  const pair = await call(url, 'httpGet', 'Pair', { appName: 'Npm', appInfo: 'alice@example.com', secretCode });
  t.is(pair.status, 200, pair.body);
  t.true(pair.body.includes(`<ManualSetupCode>${encodeBase32(Buffer.from(secretCode, 'utf8'))}</ManualSetupCode>`), pair.body);
  const help = await fetch(`${url}/api.asmx?op=Pair`);
  t.is(help.status, 200, 'the help page, from the templates in dist/');
  t.regex(await help.text(), /<form\b/);
  t.true(output.includes('"event":"listening"'), output);

  // As a supervisor stops it: SIGTERM to npm alone, which passes it on (the script execs node, so no shell is in between).
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(30_000).then(() => 'still running' as const)]);
  t.is(code, 0, `npm start exits 0 after SIGTERM:\n${output}`);
  t.true(output.includes('"event":"stopped"'), `the service stopped gracefully:\n${output}`);
  t.false(
    await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    ),
    'nothing listens any more',
  );
});
