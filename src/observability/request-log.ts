import pino, { type Logger } from 'pino';

/** The fields of the one line logged per request (undefined fields are left out, as pino does). */
export interface RequestLogFields {
  id: string;
  method: string;
  path: string;
  variant?: string;
  operation?: string;
  status: number;
  outcome: string;
  ms: number;
}

/** pino's number for level info, which the request line is logged at. */
const INFO = 30;

/**
 * The request log line: the line pino writes for `logger.info({ event:
 * 'request', ...fields })`, with the same keys in the same order, into the
 * logger's own destination and under its level. It is written here from a
 * template because it is the one line of every request: pino's generic
 * serialiser (a loop over the keys, a new ISO time per line) cost more than
 * the rest of the observation together.
 */
export function requestLogger(logger: Logger): (fields: RequestLogFields) => void {
  const destination = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  return (fields) => {
    if (logger.levelVal > INFO) return;
    let line = `{"level":${INFO},"time":"${isoTimeNow()}","event":"request","id":${text(fields.id)},"method":${text(fields.method)},"path":${text(fields.path)}`;
    if (fields.variant !== undefined) line += `,"variant":${text(fields.variant)}`;
    if (fields.operation !== undefined) line += `,"operation":${text(fields.operation)}`;
    line += `,"status":${fields.status},"outcome":${text(fields.outcome)},"ms":${number(fields.ms)}}\n`;
    destination.write(line);
  };
}

/** A number as JSON.stringify writes it (the same digits as String), without a call into JSON.stringify. */
function number(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** Almost every value is a plain token: one scan, and JSON.stringify only for the rest. */
function text(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}
const PLAIN = /^[\w .:/()-]*$/;

let lastMs = Number.NaN;
let lastIso = '';

/** The time as pino.stdTimeFunctions.isoTime writes it, formatted once per millisecond. */
function isoTimeNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}
