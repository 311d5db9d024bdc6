/**
 * The servers the bench and the soak measure, each a child process on a free
 * 127.0.0.1 port, in its own process group (so that `--workers` children go
 * with it): the built service (ours, or another revision's build), the npm
 * soap peer and the bare Koa ceiling. Their stdout and stderr are pipes this
 * process reads and discards, as a service manager does (ours writes one
 * JSON log line per request there, and writing to a pipe is part of its
 * cost); the last few kilobytes are kept for error messages. Every child
 * still running when this process exits (or is interrupted) is killed.
 *
 * Also what the measurements read from /proc: CPU time and peak RSS of a
 * server's process tree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get, type IncomingMessage } from 'node:http';
import { get as getHttps } from 'node:https';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../test/support/ports';

export const ROOT = resolve(__dirname, '..');

/**
 * How to start one server: node's arguments (the script among them), the folder it runs in, a path that answers once
 * it is up, and the Node.js that runs it (this process's unless named).
 */
export interface Command {
  label: string;
  cwd: string;
  argv: string[];
  readyPath: string;
  /** It serves HTTPS (ours with --tls-cert): called at https:// (autocannon and the readiness check skip verifying the test certificate). */
  https?: boolean;
  /** The Node.js that runs it (default: the bench's own). */
  node?: string;
  /** Ours with its embedded store kept on disk: each start gets a new, empty --state-dir (removed at stop), so no run loads another's records. */
  freshStateDir?: boolean;
}

/**
 * The service as users run it, built into `root`/dist (this checkout's, or another revision's). On another Node.js
 * (`node`) it starts from dist/src/cli/main.js, past the entry point's check, which refuses a Node.js older than 24.
 */
export function builtService(label: string, root: string, args: string[] = [], nodeArgs: string[] = [], node?: string): Command {
  const entry = join(root, node === undefined ? 'dist/src/main.js' : 'dist/src/cli/main.js');
  return { label, cwd: root, argv: [...nodeArgs, entry, '--host', '127.0.0.1', ...args], readyPath: '/healthz', node };
}

export function peerCommand(args: string[] = []): Command {
  return { label: 'peer', cwd: ROOT, argv: ['--import=tsx', 'bench/peers/soap-peer.ts', ...args], readyPath: '/api.asmx?wsdl' };
}

export function ceilingCommand(args: string[] = []): Command {
  return { label: 'ceiling', cwd: ROOT, argv: ['--import=tsx', 'bench/peers/ceiling.ts', ...args], readyPath: '/' };
}

export interface Server {
  label: string;
  port: number;
  url: string;
  child: ChildProcess;
  pid: number;
  alive(): boolean;
  /** The last characters the server wrote (stdout and stderr together). */
  output(): string;
  /** SIGTERM to the group (ours finishes in-flight calls), SIGKILL after `graceMs`; resolves once it has exited (bounded). */
  stop(graceMs?: number): Promise<void>;
}

const OUTPUT_KEPT = 20_000;
const children = new Set<ChildProcess>();

/** Signals a server and everything it started (it leads its own process group). */
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
// Ctrl-C or a kill: exit through the handlers above (the servers lead their own groups, so no signal reaches them otherwise).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export async function startServer(command: Command, readyTimeoutMs = 20_000): Promise<Server> {
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
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
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
  for (;;) {
    if (!alive()) {
      await stop();
      throw new Error(`${command.label} exited at start-up: ${tail.trim()}`);
    }
    if (await answers(port, command.readyPath, command.https)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command.label} did not answer within ${readyTimeoutMs / 1000} s: ${tail.trim()}`);
    }
    await sleep(100);
  }
  // --workers: the port answers once the first worker listens; give the others a moment too.
  if (command.argv.includes('--workers')) await sleep(1500);
  return {
    label: command.label,
    port,
    url: `${command.https ? 'https' : 'http'}://127.0.0.1:${port}`,
    child,
    pid: child.pid!,
    alive,
    output: () => tail,
    stop,
  };
}

function answers(port: number, path: string, https = false): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const options = { host: '127.0.0.1', port, path, timeout: 1000 };
    const answered = (res: IncomingMessage) => {
      res.resume();
      resolveAnswer(true);
    };
    const req = https ? getHttps({ ...options, rejectUnauthorized: false }, answered) : get(options, answered);
    req.on('error', () => resolveAnswer(false));
    req.on('timeout', () => {
      req.destroy();
      resolveAnswer(false);
    });
  });
}

// ---- /proc ---------------------------------------------------------------------

/** The fields of /proc/PID/stat after the command name (which may hold spaces), or undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The processes of a tree: the server and, with --workers, the workers it forked. */
export function processTree(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields) parentOf.set(Number(entry), Number(fields[1]));
  }
  const tree = [root];
  for (let i = 0; i < tree.length && i < 1000; i++) {
    for (const [pid, ppid] of parentOf) if (ppid === tree[i]) tree.push(pid);
  }
  return tree;
}

/** CPU seconds (user + system, all threads) used so far by the process tree. */
export function cpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  }
  return ticks / 100; // USER_HZ
}

/** Peak resident memory (VmHWM, the kernel's high-water mark) of each process of the tree, in MB. */
export function peakRssPerProcessMb(root: number): number[] {
  const out: number[] = [];
  for (const pid of processTree(root)) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) out.push(Number(match[1]) / 1024);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}
