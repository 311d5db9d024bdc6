/**
 * The typed client example of docs/clients.md, run as a user runs it: this repository
 * built (`make build`), installed from its folder into a separate project in
 * the system's temporary folder (`npm install /path/to/pin-service`, a link:
 * nothing is downloaded), the page's very block saved there as
 * `example.mjs` and run with `node` against a running service; the same
 * block saved as `example.mts` type-checks against the package's
 * declarations and runs with tsx.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinFor } from '../support/requests';
import { startTestService } from '../support/service';

const REPO = join(__dirname, '..', '..');
const page = readFileSync(join(REPO, 'docs', 'clients.md'), 'utf8');
const SECRET = '12345678BXYT'; // the example's

/** The fenced blocks of docs/clients.md, with their info string. */
function blocks(): { lang: string; code: string }[] {
  return [...page.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

/** Runs a command without blocking this process (the service under test answers from it), bounded in time. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 45_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (error) => resolve({ status: null, stdout, stderr, error }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const describe = (r: Ran) => `status ${r.status}${r.error ? ` (${r.error.message})` : ''}\n${r.stdout}\n${r.stderr}`;

test('the typed client example of docs/clients.md runs as written, from a separate project, against a running service', async (t) => {
  const examples = blocks().filter((b) => b.code.includes("from 'pin-service'"));
  t.is(examples.length, 1, 'one example imports the package');
  const example = examples[0]!;
  t.is(example.lang, 'js', 'a JavaScript block (valid TypeScript too), so `node example.mjs` runs it');

  // How the page says to get the package.
  const install = blocks().find((b) => b.lang === 'sh' && b.code.includes('npm install /path/to/pin-service'));
  t.truthy(install, 'the page says how to install the package');
  t.regex(install!.code, /^make build\b/m, 'after `make build`');

  // `make build`, minus the `npm ci` it starts when package.json is newer: never reinstall under running tests.
  const build = await run('make', ['-o', 'node_modules/.installed', 'build'], REPO);
  t.is(build.status, 0, `make build: ${describe(build)}`);

  const project = mkdtempSync(join(tmpdir(), 'pin-service-example-'));
  t.teardown(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'example-app', private: true }));
  const npm = await run('npm', ['install', '--no-audit', '--no-fund', '--offline', REPO], project);
  t.is(npm.status, 0, `npm install ${REPO}: ${describe(npm)}`);
  const installed = join(project, 'node_modules', 'pin-service');
  t.true(lstatSync(installed).isSymbolicLink() && realpathSync(installed) === realpathSync(REPO), 'npm linked the folder');

  const service = await startTestService();
  t.teardown(() => service.close());
  // 123456 must not be a valid PIN at the service's time, so the first five runs answer false.
  const window = () => [-1, 0, 1].map((d) => pinFor(service, SECRET, d));
  while (window().includes('123456')) service.clock.set(service.clock.now() + 30_000);

  writeFileSync(join(project, 'example.mjs'), example.code);
  const outputs: string[][] = [];
  for (let runNumber = 1; runNumber <= 6; runNumber++) {
    const result = await run(process.execPath, ['example.mjs'], project, { PIN_SERVICE_URL: service.url });
    t.is(result.status, 0, `run ${runNumber}: ${describe(result)}`);
    outputs.push(result.stdout.trimEnd().split('\n'));
  }
  for (const [i, lines] of outputs.slice(0, 5).entries()) {
    t.deepEqual(lines, ['GEZDGNBVGY3TQQSYLFKA', 'false'], `run ${i + 1}: the setup code, then false for a wrong PIN`);
  }
  const [code, throttled] = outputs[5]!;
  t.is(code, 'GEZDGNBVGY3TQQSYLFKA');
  t.regex(
    throttled ?? '',
    /^http:429 Too many failed validations for this secret; try again in (\d+) seconds\. 429 \1$/,
    'run 6: the AuthenticatorApiError of a throttled secret, as the page shows it',
  );

  // The variants the example chose reached the service: Pair over SOAP 1.2, ValidatePin over HTTP POST.
  const requests = service
    .logs()
    .split('\n')
    .filter((l) => l.includes('"event":"request"'))
    .map((l) => JSON.parse(l) as { operation?: string; variant?: string });
  t.deepEqual([...new Set(requests.map((r) => `${r.operation} ${r.variant}`))].sort(), ['Pair soap12', 'ValidatePin httpPost']);

  // The same block as TypeScript, checked against the package's own declarations.
  writeFileSync(join(project, 'example.mts'), example.code);
  const tsc = await run(
    process.execPath,
    [
      join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      '--typeRoots',
      join(REPO, 'node_modules', '@types'),
      '--types',
      'node',
      'example.mts',
    ],
    project,
  );
  t.is(tsc.status, 0, `tsc example.mts: ${describe(tsc)}`);
  // And it runs as TypeScript with tsx (this repository's copy; `npx tsx` fetches the same).
  const tsx = await run(join(REPO, 'node_modules', '.bin', 'tsx'), ['example.mts'], project, { PIN_SERVICE_URL: service.url });
  t.is(tsx.status, 0, `tsx example.mts: ${describe(tsx)}`);
  const tsxLines = tsx.stdout.trimEnd().split('\n');
  t.is(tsxLines[0], 'GEZDGNBVGY3TQQSYLFKA');
  t.regex(tsxLines[1] ?? '', /^http:429 /, 'still throttled: the same example, the same answer');
});
