/**
 * The runtime: the service runs on Node.js 24 (LTS), and a newcomer whose own `node` is older meets it
 * through the README's command: `make run` in a fresh copy brings Node.js 24 from the npm registry and
 * serves on it. Run directly on an older Node.js, the service says what to install. It works on Node.js 26,
 * the next line, too: every variant of both operations, answers checked against the schema.
 *
 * In `make test-all` only: it installs Node.js builds from the npm registry (about 5 s each) and, for the
 * newcomer, the whole project (npm ci, the build).
 */
import test from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeBase32 } from '../../src/service/otp/base32';
import { BUILT_MAIN, startChildService, type ChildService } from '../support/child-service';
import { postJson, readD } from '../support/json-calls';
import { freePort } from '../support/ports';
import { loadReaders } from '../support/readers';
import { VARIANTS, call, isSoap, pinFor, readBoolean, versionOf, wrongPinFor } from '../support/requests';
import { copyRepository, run } from '../support/repository-copy';
import { assertSoapEnvelope, validateAgainstContract, validateElement } from '../support/xml-assertions';
import { requireTool } from './clients/harness';

const folders: string[] = [];
const children: ChildProcess[] = [];
const services: ChildService[] = [];

test.before(loadReaders);

test.after.always(async () => {
  for (const service of services) await service.kill();
  for (const child of children) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  }
  await sleep(200);
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

const majorOf = (node: string) =>
  Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim() || Number.NaN);

/** A Node.js build of `version` (a version or a major line) from the npm registry, as make brings one: its `node`. */
async function nodeFromRegistry(version: string): Promise<string> {
  requireTool('npm', ['--version'], 'npm');
  const folder = newFolder(`pin-node-${version}-`);
  const name = `node-${process.platform}-${process.arch}`;
  // A build of some 30 MB from the registry: on a busy machine and a slow registry it has taken over 3 minutes.
  const limit = 12 * 60_000;
  const installed = await run(
    'npm',
    ['install', '--prefix', folder, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${name}@${version}`],
    folder,
    limit,
  );
  if (installed.status === null && installed.output.trim() === '') {
    throw new Error(`npm install ${name}@${version} did not finish within ${limit / 60_000} minutes`);
  }
  if (installed.status !== 0) throw new Error(`npm install ${name}@${version}:\n${installed.output}`);
  const node = join(folder, 'node_modules', name, 'bin', 'node');
  if (!existsSync(node)) throw new Error(`${name}@${version} has no bin/node`);
  return node;
}

/** The machine's own Node.js when it is older than 24 (this machine's is 20), else Node.js 20 from the registry. */
async function olderNode(): Promise<string> {
  const own = spawnSync('sh', ['-c', 'PATH=/usr/local/bin:/usr/bin:/bin command -v node'], { encoding: 'utf8' }).stdout.trim();
  if (own !== '' && majorOf(own) < 24) return own;
  return nodeFromRegistry('20');
}

/** The `nodejs_version_info` series of a service's /metrics: the Node.js that serves. */
async function servingNodeMajor(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const major = /^pin_nodejs_version_info\{[^}]*major="(\d+)"/m.exec(metrics);
  return major ? Number(major[1]) : Number.NaN;
}

test.serial('a newcomer whose node is older than 24: `make run` in a fresh copy brings Node.js 24 and serves on it', async (t) => {
  t.timeout(15 * 60_000);
  requireTool('make', ['--version'], 'make');
  const older = await olderNode();
  t.true(majorOf(older) < 24, 'the newcomer’s node is older than 24');
  const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  t.not(npm, '', 'npm is on PATH');
  const copy = join(newFolder('pin-service-newcomer-'), 'pin-service');
  copyRepository(copy);
  t.false(existsSync(join(copy, '.node')), 'the copy brings no Node.js of its own');

  // The newcomer's environment: their node first on PATH, then the system's folders (npm among them); nothing
  // of this checkout, nor what npm sets for the scripts it runs (NODE, npm_*: this test may run under npm).
  const path = [dirname(older), dirname(npm), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(NODE|npm_|MAKE|MFLAGS)/i.test(name) || name === 'NODE_ENV'),
  );
  const port = await freePort();
  const child = spawn('make', ['run', `ARGS=--host 127.0.0.1 --port ${port} --metrics-on-public-port`], {
    cwd: copy,
    env: { ...env, PATH: path },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 12 * 60_000;
  let serving = false;
  while (!serving && child.exitCode === null && Date.now() < deadline) {
    serving = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!serving) await sleep(250);
  }
  if (!serving) return t.fail(`make run did not serve:\n${output}`);

  t.regex(output, /Node\.js 2\d\.\d+\.\d+ is on PATH; this service runs on Node\.js 24\. Installing node-\S+@24\.\d+\.\d+/);
  t.is(await servingNodeMajor(url), 24, 'pin_nodejs_version_info: the service runs on Node.js 24');
  const secretCode = 'newcomer-secret-1';
  const answer = await call(url, 'httpGet', 'ValidatePin', { pin: '12345', secretCode });
  t.is(answer.status, 200, answer.body);
  t.false(readBoolean('httpGet', answer));
  process.kill(-child.pid!, 'SIGTERM');
});

test.serial('run directly on an older Node.js, the built service says what to install, and exits 2', async (t) => {
  t.true(existsSync(BUILT_MAIN), 'make test-all builds dist/');
  const older = await olderNode();
  const ran = spawnSync(older, [BUILT_MAIN, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
  t.is(ran.status, 2);
  t.regex(
    ran.stderr,
    /^pin-service: needs Node\.js 24 or later; this is Node\.js \d+\.\d+\.\d+\. Install Node\.js 24 \(https:\/\/nodejs\.org\/\), or start it with `make run`/,
  );
  t.notRegex(ran.stderr, /\n\s+at /, 'no stack trace');
});

test.serial('on Node.js 26 too: every variant of both operations answers, checked against the schema', async (t) => {
  t.timeout(20 * 60_000, 'install Node.js 26 from the registry, then call every variant');
  t.true(existsSync(BUILT_MAIN), 'make test-all builds dist/');
  const node = await nodeFromRegistry('26');
  t.is(majorOf(node), 26);
  const service = await startChildService({ built: true, node, args: ['--log-level', 'warn', '--metrics-on-public-port'] });
  services.push(service);
  t.is(await servingNodeMajor(service.url), 26);
  const clock = { clock: { now: () => Date.now() } };
  for (const variant of VARIANTS) {
    const secretCode = `node-26-${variant}-secret`;
    const pair = await call(service.url, variant, 'Pair', { appName: 'Node', appInfo: 'alice@example.com', secretCode });
    t.is(pair.status, 200, `${variant} Pair: ${pair.body}`);
    const validation = isSoap(variant)
      ? assertSoapEnvelope(t, pair.body, versionOf(variant), (content) => validateElement(content))
      : validateAgainstContract(pair.body);
    t.true(validation.valid, `${variant} Pair answer is valid: ${JSON.stringify(validation)}`);
    t.true(pair.body.includes(`<ManualSetupCode>${encodeBase32(Buffer.from(secretCode, 'utf8'))}</ManualSetupCode>`), pair.body);
    const wrong = await call(service.url, variant, 'ValidatePin', { pin: wrongPinFor(clock, secretCode), secretCode });
    t.false(readBoolean(variant, wrong), `${variant}: a wrong PIN is false`);
    const right = await call(service.url, variant, 'ValidatePin', { pin: pinFor(clock, secretCode), secretCode });
    t.true(readBoolean(variant, right), `${variant}: the right PIN is true`);
  }
  const json = await postJson(service.url, 'ValidatePin', { pin: '000000x', secretCode: 'node-26-json-secret' });
  t.is(readD(t, json), false);
});
