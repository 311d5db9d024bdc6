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

/** Characters that never need escaping in a JSON string (the service's own vocabulary, ids, paths). */
const PLAIN = /^[\w.:/()-]*$/;
const jsonString = (value: string) => (PLAIN.test(value) ? `"${value}"` : JSON.stringify(value));

/**
 * The request log line, written straight to the logger's destination.
 *
 * It is the line pino writes for `logger.info({ event: 'request', ...fields })`
 * with the logger of createLogger — the same keys in the same order, the same
 * level and ISO time (test/request-log.test.ts compares the
 * two) — built from a fixed template instead of pino's generic serialiser,
 * which is a measurable share of a short call (figures: README, Performance).
 * Other lines go through pino as usual and share the destination, so lines
 * stay whole and in order.
 */
export function requestLogger(logger: Logger): (fields: RequestLogFields) => void {
  const stream = (logger as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym];
  const level = logger.levels.values.info;
  return (fields) => {
    if (!logger.isLevelEnabled('info')) return;
    let line = `{"level":${level},"time":"${new Date().toISOString()}","event":"request","id":${jsonString(fields.id)},"method":${jsonString(fields.method)},"path":${jsonString(fields.path)}`;
    if (fields.variant !== undefined) line += `,"variant":${jsonString(fields.variant)}`;
    if (fields.operation !== undefined) line += `,"operation":${jsonString(fields.operation)}`;
    line += `,"status":${fields.status},"outcome":${jsonString(fields.outcome)},"ms":${Number.isFinite(fields.ms) ? fields.ms : null}}\n`;
    stream.write(line);
  };
}
