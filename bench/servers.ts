/**
 * The servers the bench and the soak measure, each a child process on a free 127.0.0.1 port, leading its own
 * process group (so that anything it starts goes with it): the built service (this checkout's or another build's),
 * the npm soap peer and the bare Koa ceiling. Their stdout and stderr are pipes read and discarded, as a service
 * manager reads them (ours writes a log line per request, and that is part of its cost); the last few kilobytes are
 * kept for error messages. And what a measurement reads from /proc: a server's CPU time and peak RSS (--workers
 * runs threads of the one process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../test/support/ports';

export const ROOT = resolve(__dirname, '..');

/** How to start one server: node's arguments (the script among them), where, a path that answers once it is up, which Node.js. */
export interface Command {
  label: string;
  cwd: string;
  argv: string[];
  readyPath: string;
  /** The Node.js that runs it (default: the bench's own). */
  node?: string;
  /** A build that keeps its store gets a new, empty --state-dir each start (removed at stop): no run loads another's records. */
  freshStateDir?: boolean;
}

/** Where a build keeps the service: dist/src/service/ (a revision from before the service had a folder of its own: dist/src/). */
export function serviceDist(root: string): string {
  return existsSync(join(root, 'dist/src/service/main.js')) ? join(root, 'dist/src/service') : join(root, 'dist/src');
}

/**
 * The service as users run it, built into `root`/dist. On another Node.js it starts from its cli/main.js,
 * past the entry point's check, which refuses a Node.js older than 24.
 */
export function builtService(label: string, root: string, args: string[] = [], nodeArgs: string[] = [], node?: string): Command {
  const entry = join(serviceDist(root), node === undefined ? 'main.js' : 'cli/main.js');
  // A build from before the kept store knows no --state-dir.
  const freshStateDir = existsSync(join(serviceDist(root), 'state/state-directory.js')) && args[args.indexOf('--store') + 1] !== 'memory';
  return { label, cwd: root, argv: [...nodeArgs, entry, '--host', '127.0.0.1', ...args], readyPath: '/healthz', node, freshStateDir };
}

/** The peer and the ceiling: scripts of this checkout, run under tsx. */
const script = (label: string, path: string, readyPath: string, args: string[] = []): Command => ({
  label,
  cwd: ROOT,
  argv: ['--import=tsx', path, ...args],
  readyPath,
});
export const peerCommand = () => script('peer', 'bench/peers/soap-peer.ts', '/api.asmx?wsdl');
export const ceilingCommand = (args: string[] = []) => script('ceiling', 'bench/peers/ceiling.ts', '/', args);

const children = new Set<ChildProcess>();

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function killAllServers(): void {
  for (const child of children) signalGroup(child, 'SIGKILL');
}
process.on('exit', killAllServers);
// Ctrl-C or a kill: exit through the handler above (the servers lead their own groups, so no signal reaches them otherwise).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export async function startServer(command: Command, readyTimeoutMs = 20_000) {
  const port = await freePort();
  const stateDir = command.freshStateDir ? mkdtempSync(join(tmpdir(), 'pin-bench-state-')) : undefined;
  const stateArgs = stateDir === undefined ? [] : ['--state-dir', stateDir];
  const child = spawn(command.node ?? process.execPath, [...command.argv, ...stateArgs, '--port', String(port)], {
    cwd: command.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async (graceMs = 5_000) => {
    if (alive()) {
      signalGroup(child, 'SIGTERM');
      await Promise.race([exited, sleep(graceMs)]);
      signalGroup(child, 'SIGKILL');
      await Promise.race([exited, sleep(2_000)]);
    }
    children.delete(child);
    if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + readyTimeoutMs;
  while (!(await answers(port, command.readyPath))) {
    if (!alive() || Date.now() > deadline) {
      await stop();
      throw new Error(
        `${command.label} ${alive() ? `did not answer within ${readyTimeoutMs / 1000} s` : 'exited at start-up'}: ${tail.trim()}`,
      );
    }
    await sleep(100);
  }
  // --workers: the port answers once the first thread listens; give the others a moment too.
  if (command.argv.includes('--workers')) await sleep(1500);
  // output: the last characters the server wrote; stop: SIGTERM to the group, SIGKILL after `graceMs`, resolved once it exited.
  return { port, url: `http://127.0.0.1:${port}`, pid: child.pid!, alive, output: () => tail, stop };
}

function answers(port: number, path: string): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const req = get({ host: '127.0.0.1', port, path, timeout: 1000 }, (res: IncomingMessage) => {
      res.resume();
      resolveAnswer(true);
    });
    req.on('error', () => resolveAnswer(false));
    req.on('timeout', () => {
      req.destroy();
      resolveAnswer(false);
    });
  });
}

/** CPU seconds (user + system, all its threads) the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after the command name, which may hold spaces
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime, in USER_HZ
}

/** The process's peak resident memory (VmHWM, all its threads), in MB. */
export function peakRssMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}
