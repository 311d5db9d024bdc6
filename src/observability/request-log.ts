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

/** The request log line, at level info, through the logger's own settings (level, redaction, destination). */
export function requestLogger(logger: Logger): (fields: RequestLogFields) => void {
  return (fields) => logger.info({ event: 'request', ...fields });
}
