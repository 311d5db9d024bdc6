import pino, { type Logger } from 'pino';
import type { Config } from '../config';

/** Structured JSON logs on stdout. Callers log paths, never query strings, secrets or PINs. */
export function createLogger(level: Config['logLevel'], destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination ?? pino.destination(1));
}
