/**
 * The service as a real process (`node --import=tsx src/service/main.ts …`) on a free
 * loopback port: what an operator runs, so a crash shows as the child dying,
 * signals reach the real handlers, and RSS is the process's own. Every child
 * is killed by `kill()` (tests call it in `after.always`/`finally`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHttps } from './https';
import { freePort } from './ports';

export const REPO = join(__dirname, '..', '..');
export const MAIN = join(REPO, 'src', 'service', 'main.ts');
/** The service as `make build` leaves it, as users run it. */
export const BUILT_MAIN = join(REPO, 'dist', 'src', 'service', 'main.js');

export interface ChildService {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the child wrote to stdout (when read) and stderr so far. */
  output(): string;
  /** Resolves with the exit code and signal once the child has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** SIGKILL if still running, and wait for the exit (bounded). */
  kill(): Promise<void>;
}

export interface ChildServiceOptions {
  args?: string[];
  /** Run the built service (dist/, `make build`; make test-all builds it) instead of the sources under tsx. */
  built?: boolean;
  /** Run the sources of this checkout (a copy of the repository, say) instead of this one's. */
  repo?: string;
  /** The program to run, relative to the repository (a `.ts` file runs under tsx): default src/service/main.ts, or dist/'s with `built`. */
  entry?: string;
  /** The Node.js to run it on (default: this process's). */
  node?: string;
  env?: Record<string, string>;
  /** The embedded store's directory (--store embedded, the default). Default: a new temporary one, removed after the exit. */
  stateDir?: string;
  port?: number;
  /** Log lines with `"event":"listening"` to wait for (one per worker; needs log level info) besides /healthz. Default 1. */
  listening?: number;
  readyTimeoutMs?: number;
  /**
   * What the child's stdout is: a pipe read into output() (default), a pipe
   * whose reading end is closed at once, or a pipe nobody reads (it fills).
   */
  stdout?: 'read' | 'closed' | 'unread';
  /** Keep only the last this many characters of output (long runs). Default: all. */
  keepOutputChars?: number;
  /** The service serves HTTPS (--tls-cert in args): the CA its certificate chains to, trusted by the readiness check. */
  tlsCa?: string;
}

export async function startChildService(options: ChildServiceOptions = {}): Promise<ChildService> {
  const port = options.port ?? (await freePort());
  if (options.built && !existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: run make build (make test-all does)`);
  const repo = options.repo ?? REPO;
  const program = options.entry && join(repo, options.entry);
  const entry = program
    ? [...(program.endsWith('.ts') ? ['--import=tsx'] : []), program]
    : options.built
      ? [BUILT_MAIN]
      : ['--import=tsx', options.repo === undefined ? MAIN : join(repo, 'src', 'service', 'main.ts')];
  // Never the repository's ./state: each child keeps its state where the test says, or in a directory of its own.
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'pin-state-'));
  const child = spawn(
    options.node ?? process.execPath,
    [...entry, ...(options.args ?? []), '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: repo,
      env: { ...process.env, PIN_STATE_DIR: stateDir, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const chunks: string[] = [];
  let kept = 0;
  const keep = (d: string) => {
    chunks.push(d);
    kept += d.length;
    const limit = options.keepOutputChars;
    while (limit !== undefined && kept > limit && chunks.length > 1) kept -= chunks.shift()!.length;
  };
  if (options.stdout === 'closed') child.stdout!.destroy();
  else if (options.stdout !== 'unread') child.stdout!.setEncoding('utf8').on('data', keep);
  child.stderr!.setEncoding('utf8').on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      if (options.stateDir === undefined) rmSync(stateDir, { recursive: true, force: true });
      // Its last lines may still be in the pipe: wait for the pipes to close (an unread one never does), at most 2 s.
      void Promise.race([new Promise((closed) => child.once('close', closed)), sleep(2000)]).then(() => resolve({ code, signal }));
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async () => {
    if (!alive()) return;
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(5000)]);
  };
  const output = () => chunks.join('');
  const wanted = options.listening ?? 1;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  const url = `${options.tlsCa ? 'https' : 'http'}://127.0.0.1:${port}`;
  const ca = options.tlsCa;
  const checkHealth = () => (ca ? getHttps(url, '/healthz', { ca }) : fetch(`${url}/healthz`));
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the service exited before it was ready:\n${output()}`);
    const listening = (output().match(/"event":"listening"/g) ?? []).length;
    const healthy = await checkHealth().then(
      (r) => r.status === 200,
      () => false,
    );
    if (healthy && (wanted <= 1 || listening >= wanted)) {
      return { url, port, child, output, exited, alive, kill };
    }
    await sleep(50);
  }
  await kill();
  throw new Error(`the service did not start within the time allowed:\n${output()}`);
}
