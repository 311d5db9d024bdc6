import type { Logger } from 'pino';

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

/**
 * The request log line, through pino like every other line: `event` first,
 * then the fields in this order. A line built from a fixed template saved
 * about a microsecond a line, too little to decide any speed goal, so the
 * line is pino's (figures: README, Performance).
 */
export function requestLogger(logger: Logger): (fields: RequestLogFields) => void {
  return (fields) => logger.info({ event: 'request', ...fields });
}
