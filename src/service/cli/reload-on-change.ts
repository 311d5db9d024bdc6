/**
 * The TLS sidecar of deploy/kubernetes/ (docs/operations.md, *Kubernetes*):
 *
 *   node dist/src/service/cli/reload-on-change.js --watch=DIR --process=PATH [--interval=SECONDS]
 *
 * Kubelet rewrites a mounted Secret's files when the Secret changes (all at
 * once, by swapping a symbolic link), but nothing tells the service, which
 * reads its certificate and key again only on SIGHUP. Every interval this
 * reads DIR's files; when they differ from what was last signalled, it sends
 * SIGHUP to every process whose command line holds PATH (the service, seen
 * through the pod's shared process namespace), once that process catches
 * SIGHUP: a Node.js process that has not yet set its handler would be ended
 * by it. Until then the change waits for the next interval.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { createLogger } from '../observability/logger';

/**
 * The command line, split by node:util's parseArgs. The sidecar imports nothing of the runtime (whose front door
 * brings the XML engine and Koa): it runs beside the service in a container of its own with a memory limit.
 */
export function parseOptions(argv: string[]): { watch: string; process: string; interval: number } {
  const { values } = parseArgs({
    args: argv,
    options: { watch: { type: 'string' }, process: { type: 'string' }, interval: { type: 'string', default: '5' } },
    strict: true,
    allowPositionals: false,
  });
  const absolute = (name: 'watch' | 'process') => {
    const value = values[name];
    if (value === undefined) throw new Error('--watch and --process are needed');
    if (!value.startsWith('/')) throw new Error(`--${name}: must be an absolute path`);
    return value;
  };
  const interval = Number(values.interval);
  if (!/^\d+$/.test(values.interval) || interval < 1 || interval > 3600) throw new Error('--interval: seconds from 1 to 3600');
  return { watch: absolute('watch'), process: absolute('process'), interval };
}

/** A digest of the directory's files (symbolic links followed; kubelet's `..data` and the like left out), or why it cannot be read. */
export function readDirectory(directory: string): { digest: string } | { error: string } {
  try {
    const hash = createHash('sha256');
    for (const name of readdirSync(directory)
      .filter((n) => !n.startsWith('.'))
      .sort()) {
      hash
        .update(`${name}\0`)
        .update(readFileSync(join(directory, name)))
        .update('\0');
    }
    return { digest: hash.digest('hex') };
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? 'error' };
  }
}

/** Processes (not this one) whose command line holds `program`, and whether each catches SIGHUP now (/proc/PID/status, SigCgt). */
export function findProcesses(program: string, proc = '/proc', self = process.pid): Array<{ pid: number; catchesHangup: boolean }> {
  const found: Array<{ pid: number; catchesHangup: boolean }> = [];
  for (const entry of readdirSync(proc)) {
    const pid = Number(entry);
    if (!/^\d+$/.test(entry) || pid === self) continue;
    try {
      const args = readFileSync(join(proc, entry, 'cmdline'), 'utf8').split('\0');
      if (!args.includes(program)) continue;
      const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(join(proc, entry, 'status'), 'utf8'))?.[1];
      // Bit 0 of the mask is signal 1, SIGHUP.
      found.push({ pid, catchesHangup: caught !== undefined && (BigInt(`0x${caught}`) & 1n) === 1n });
    } catch {
      // Gone in the meantime, or not ours to read.
    }
  }
  return found;
}

/** One reading: SIGHUP to the service when the files changed since the last signal; returns the digest now signalled. */
export function checkOnce(options: { watch: string; process: string }, signalled: string, logger: Logger): string {
  const reading = readDirectory(options.watch);
  if ('error' in reading) {
    logger.warn({ event: 'watch-failed', directory: options.watch, code: reading.error }, 'cannot read the watched directory');
    return signalled;
  }
  if (reading.digest === signalled) return signalled;
  const processes = findProcesses(options.process);
  const ready = processes.filter((p) => p.catchesHangup);
  if (ready.length === 0) {
    logger.info({ event: 'change-waiting', found: processes.length }, 'the files changed; no process of the service catches SIGHUP yet');
    return signalled;
  }
  for (const { pid } of ready) {
    try {
      process.kill(pid, 'SIGHUP');
    } catch (error) {
      logger.warn({ event: 'signal-failed', pid, code: (error as NodeJS.ErrnoException).code }, 'could not signal the service');
      return signalled;
    }
  }
  logger.info({ event: 'reload-sent', pids: ready.map((p) => p.pid) }, 'the files changed: SIGHUP sent');
  return reading.digest;
}

function main(argv: string[]): void {
  const logger = createLogger('info');
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    console.error(`reload-on-change: ${(error as Error).message.split('\n')[0]}`);
    process.exit(2);
  }
  const first = readDirectory(options.watch);
  // What the service read at its start: only a later change is worth a signal.
  let signalled = 'digest' in first ? first.digest : '';
  logger.info({ event: 'watching', directory: options.watch, intervalSeconds: options.interval }, 'watching for changes');
  setInterval(() => {
    signalled = checkOnce(options, signalled, logger);
  }, options.interval * 1000);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
}

if (require.main === module) main(process.argv.slice(2));
