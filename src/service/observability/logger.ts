import { isMainThread, threadId } from 'node:worker_threads';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import { openLogDestination, type LogDestination } from './log-destination';

/** The destination each logger of createLogger writes to, for flushLogs. */
const destinations = new WeakMap<Logger, Partial<LogDestination>>();

/**
 * Structured JSON logs on stdout. Callers log paths, never query strings,
 * secrets or PINs. pino hands each line over synchronously; log-destination.ts
 * gathers up to 10 ms of lines into one write, to a pipe or socket without
 * blocking, to a file or terminal synchronously. A closed or unread stdout never blocks
 * the service: lines are dropped and stderr says so once.
 * `flushLogs` hands what is pending to the system before the process exits.
 */
export function createLogger(
  level: Config['logLevel'],
  destination: pino.DestinationStream & Partial<LogDestination> = openLogDestination(1),
): Logger {
  // A worker thread of --workers names itself in each line (the main thread's lines have no `thread`).
  const base = isMainThread ? undefined : { thread: threadId };
  // pino.stdTimeFunctions.isoTime's text, its Date formatted once a millisecond rather than once a line.
  const logger = pino({ level, base, timestamp: isoTimestamp }, destination);
  destinations.set(logger, destination);
  return logger;
}

let lastMs = 0;
let lastIso = '';

/** The time as pino's isoTime writes it; computed once a millisecond, however many lines share it. */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/** pino's `timestamp`: the line's `"time"` member, as pino.stdTimeFunctions.isoTime writes it. */
function isoTimestamp(): string {
  return `,"time":"${isoNow()}"`;
}

/** Writes the lines still waiting, waiting at most `timeoutMs` for a slow reader; never throws. */
export async function flushLogs(logger: Logger, timeoutMs = 1000): Promise<void> {
  try {
    await destinations.get(logger)?.drain?.(timeoutMs);
  } catch {
    // Exiting matters more than the last lines.
  }
}

let exiting = false;

/**
 * Flushes the log, then exits with `code`; exits after `timeoutMs` whatever
 * the flush does.
 */
export function exitAfterFlush(logger: Logger, code: number, timeoutMs = 1000): void {
  // The first exit decided wins (a stop that ends just as the grace period runs out).
  if (exiting) return;
  exiting = true;
  process.exitCode = code;
  setTimeout(() => process.exit(code), timeoutMs);
  void flushLogs(logger, timeoutMs).then(() => process.exit(code));
}
