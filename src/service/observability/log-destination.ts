import { fstatSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';

/** Bytes the log may hold waiting for a slow reader before lines are dropped (about 5 000 request lines). */
const MAX_WAITING_BYTES = 1024 * 1024;

/** Lines are gathered this long before they are written: under load, hundreds of lines a write. */
const BATCH_MS = 10;
/** A batch this large is written at once, without waiting for the rest of BATCH_MS. */
const BATCH_BYTES = 64 * 1024;

/** Where log lines go: pino's destination, plus a bounded drain before exit. */
export interface LogDestination {
  write(line: string): void;
  /** Hands every line to the system, waiting at most `timeoutMs` for a slow reader; never throws. */
  drain(timeoutMs: number): Promise<void>;
  /** Lines dropped because the output failed or was not read. */
  readonly dropped: number;
}

/**
 * Log lines to a file descriptor (stdout by default) that never block, crash
 * or slow the service, whatever the reader does.
 *
 * Lines are gathered for up to 10 ms (or 64 KiB) and written together: each
 * write of a stream costs far more than the bytes of one line, and a line
 * written 10 ms late costs nobody anything. A pipe or socket is written without blocking (a libuv
 * stream): a reader that stops reading makes lines wait, up to 1 MiB, then
 * they are dropped; a reader that is gone (EPIPE) or any other write error
 * drops every later line. Each of the two is said once on stderr. A file or
 * terminal is written synchronously, as console.log does. No write goes
 * through the thread pool: a thread blocked on a full pipe would keep
 * process.exit from returning. pino's own destination (sonic-boom) writes
 * through the thread pool, or blocks the event loop with `sync: true`, on
 * the blocking pipe a service manager gives: docs/performance.md, *The log
 * destination*, has the tests it fails.
 */
export function openLogDestination(fd = 1, notice: (text: string) => void = noticeOnStderr): LogDestination {
  let batch: string[] = [];
  let batchBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let failed = false;
  let dropped = 0;
  const said = new Set<string>();
  const say = (kind: string, text: string) => {
    if (said.has(kind)) return;
    said.add(kind);
    notice(text);
  };
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    const code = (error as NodeJS.ErrnoException)?.code ?? 'error';
    say('failed', `pin-service: cannot write the log (${code}); log lines are dropped from now on, the service keeps running`);
  };
  const socket = isStream(fd) ? openSocket(fd, fail) : undefined;

  const writeOut = () => {
    clearTimeout(timer);
    timer = undefined;
    if (batch.length === 0) return;
    const lines = batch;
    batch = [];
    batchBytes = 0;
    if (failed) {
      dropped += lines.length;
      return;
    }
    if (socket) {
      if (socket.writableLength > MAX_WAITING_BYTES) {
        dropped += lines.length;
        say('full', 'pin-service: the log is not being read; log lines are dropped while it is not');
        return;
      }
      socket.write(lines.join(''));
      return;
    }
    try {
      writeSync(fd, lines.join(''));
    } catch (error) {
      dropped += lines.length;
      // A terminal someone made non-blocking may be momentarily full: drop this batch only.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') fail(error);
    }
  };

  return {
    write(line: string) {
      if (failed) return void dropped++;
      batch.push(line);
      batchBytes += line.length;
      if (batchBytes >= BATCH_BYTES) writeOut();
      else timer ??= setTimeout(writeOut, BATCH_MS);
    },
    drain(timeoutMs: number) {
      writeOut();
      if (!socket || failed || socket.writableLength === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(giveUp);
          socket.off('drain', done).off('close', done).off('error', done);
          resolve();
        };
        const giveUp = setTimeout(done, timeoutMs);
        socket.on('drain', done).on('close', done).on('error', done);
      });
    },
    get dropped() {
      return dropped;
    },
  };
}

function isStream(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

function openSocket(fd: number, fail: (error: unknown) => void): Socket | undefined {
  try {
    const socket = new Socket({ fd, readable: false, writable: true });
    socket.on('error', fail);
    // The log alone must not keep a process alive (a command that ends, a test that embeds the service).
    socket.unref();
    return socket;
  } catch (error) {
    fail(error);
    return undefined;
  }
}

/** Best effort: stderr may be gone too. */
function noticeOnStderr(text: string): void {
  try {
    writeSync(2, `${text}\n`);
  } catch {
    // Nowhere left to say it.
  }
}
