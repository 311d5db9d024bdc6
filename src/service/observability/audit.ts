/**
 * The audit trail: one JSON line per outcome an operator may have to
 * account for — each ValidatePin outcome (accepted, wrong, replay,
 * throttled, and the lock it caused), each Pair, each action on the
 * management port's /admin/ endpoints — naming the secret by its fingerprint
 * (keyed-hash.ts), never the secret, a PIN or a token. Each line goes to
 * the log (`"event":"audit"`, level info) and, with --audit-file, to that
 * file too (audit-file.ts).
 *
 * The call a line belongs to (its address, variant, request id) is the
 * Call the bindings handed the handler (runtime/definition.ts), which tells
 * its outcome with it (outcomes.ts).
 */
import type { Logger } from 'pino';
import { ServiceError } from '../../runtime/handler';
import { AuditFile, AuditFileError } from './audit-file';
import { isoNow } from './logger';
import type { Metrics } from './metrics';

/** What an audit line says happened. */
export type AuditOutcome =
  // ValidatePin
  | 'accepted'
  | 'wrong'
  | 'replay'
  | 'throttled'
  | 'locked'
  // Pair
  | 'paired'
  // the management port's /admin/ endpoints
  | 'inspected'
  | 'unlocked'
  | 'admin-not-found'
  | 'admin-refused'
  | 'admin-throttled';

/**
 * An audit line's fields besides `event`, `time` and `level`. Two can hold
 * what the caller wrote: the request id (its X-Request-Id) and, with
 * --trust-proxy, the address (the last X-Forwarded-For entry, the caller's own
 * when no proxy stands in front); the others are the service's.
 */
export interface AuditFields {
  outcome: AuditOutcome;
  /** The secret's fingerprint: the first 72 bits of its keyed hash, in hex. */
  fingerprint?: string;
  /** The caller's address: the connection's, or with --trust-proxy the one the nearest proxy put last in X-Forwarded-For. */
  address?: string;
  variant?: string;
  operation?: string;
  /** The request id (X-Request-Id), as on the request's log line. */
  id?: string;
  /** Failed attempts counted in the window, this call's included. */
  attempts?: number;
  /** When a lock ends (locked, throttled). */
  until?: string;
  /** admin-refused: why (`no token`, `wrong token`). */
  reason?: string;
}

export interface AuditTrail {
  /** Writes one line. With --audit-required, throws ServiceError('unavailable') when the file cannot take it. */
  record(fields: AuditFields): void;
  /** Throws ServiceError('unavailable') when --audit-required and the audit file cannot be written now: before an outcome is decided. */
  ready(): void;
  /** Why the audit file cannot be written, while it cannot (readiness). */
  failure(): string | undefined;
  /** Whether a failing audit file stops calls (--audit-required). */
  readonly required: boolean;
  /** SIGHUP: the audit file opened again (after a rotation). */
  reopen(): void;
  close(): void;
}

/** What a call is answered while its audit line cannot be written (--audit-required). */
const UNAVAILABLE = 'The service cannot answer right now; try again later.';

export interface AuditSettings {
  auditFile: string | undefined;
  auditRequired: boolean;
}

export function createAuditTrail(settings: AuditSettings, logger: Logger, metrics: Metrics): AuditTrail {
  const file =
    settings.auditFile === undefined
      ? undefined
      : new AuditFile(settings.auditFile, {
          sync: settings.auditRequired,
          events: {
            failed: (reason) => {
              metrics.auditFileFailures.inc();
              logger.error({ event: 'audit-file-failed', reason }, reason);
            },
            recovered: () => logger.info({ event: 'audit-file-recovered' }, 'the audit file can be written again'),
            dropped: (lines) => metrics.auditLinesDropped.inc(lines),
          },
        });
  const refuse = (cause: string) => new ServiceError('unavailable', UNAVAILABLE, undefined, cause);
  // `event` written once, in the child's bindings, rather than with each line's fields.
  const lines = logger.child({ event: 'audit' });
  return {
    required: settings.auditRequired,
    record(fields) {
      metrics.auditEvents.inc({ outcome: fields.outcome });
      lines.info(fields);
      if (!file) return;
      try {
        file.write(`{"time":"${isoNow()}",${fieldsJson(fields)}}\n`);
      } catch (error) {
        if (error instanceof AuditFileError) throw refuse(error.message);
        throw error;
      }
    },
    ready() {
      if (file && settings.auditRequired && !file.writable()) throw refuse(file.failure ?? 'the audit file cannot be written');
    },
    failure: () => file?.failure,
    reopen() {
      if (!file) return;
      file.reopen();
      if (file.failure === undefined) logger.info({ event: 'audit-file-reopened', path: file.path }, 'audit file opened again');
    },
    close: () => file?.close(),
  };
}

/**
 * The line's fields as JSON, `event` first, in a fixed order; a field
 * undefined is left out (as pino leaves it out). Strings go through
 * JSON.stringify: the address and the request id can be the caller's (AuditFields).
 */
function fieldsJson(fields: AuditFields): string {
  let json = `"event":"audit","outcome":"${fields.outcome}"`;
  if (fields.fingerprint !== undefined) json += `,"fingerprint":"${fields.fingerprint}"`;
  if (fields.address !== undefined) json += `,"address":${JSON.stringify(fields.address)}`;
  if (fields.variant !== undefined) json += `,"variant":"${fields.variant}"`;
  if (fields.operation !== undefined) json += `,"operation":${JSON.stringify(fields.operation)}`;
  if (fields.id !== undefined) json += `,"id":${JSON.stringify(fields.id)}`;
  if (fields.attempts !== undefined) json += `,"attempts":${fields.attempts}`;
  if (fields.until !== undefined) json += `,"until":"${fields.until}"`;
  if (fields.reason !== undefined) json += `,"reason":${JSON.stringify(fields.reason)}`;
  return json;
}
