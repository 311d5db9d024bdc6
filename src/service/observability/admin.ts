/**
 * The management port's /admin/ endpoints: a secret's status, and its
 * unlock, by fingerprint (an audit line's):
 *
 *   GET  /admin/secrets/{fingerprint}          failures counted, locked until when, the last accepted step
 *   POST /admin/secrets/{fingerprint}/unlock   clears the count (the lock with it); answers the status after
 *
 * Every request carries `Authorization: Bearer <token>` (--admin-token-file),
 * compared in constant time. Requests are counted per caller's address
 * before the token is checked, as ValidatePin counts calls per secret, and
 * a right token clears the count: past --throttle-attempts in
 * --throttle-window the caller is refused (429) until the window ends. Every
 * request is audited (`inspected`, `unlocked`, `admin-not-found`,
 * `admin-refused`, `admin-throttled`); no line holds the token. The answers are JSON.
 *
 * They act on the running service's own store: with the embedded store,
 * that is the only way to change it (its table lives in the process, its
 * file is held by it); with Redis, every instance sees the change.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import type { CallContext, RouteTable } from '../../runtime/host';
import { FINGERPRINT, keyPrefixOf } from '../state/keyed-hash';
import { type RecordView, type StateStore, StoreUnavailableError } from '../state/store';
import type { AuditFields, AuditTrail } from './audit';

export type AdminSettings = Pick<Config, 'throttleAttempts' | 'throttleWindowSeconds' | 'period'>;

export interface AdminDependencies {
  store: StateStore;
  trail: AuditTrail;
  /** The bearer token every request must carry. */
  token: string;
  /** The store key of a caller's count of admin requests (a keyed hash of another domain than secrets'). */
  callerKeyOf(address: string): string;
  now(): number;
}

/** A secret's status as the endpoints answer it (and `pin-service secret-status` prints it). */
export interface SecretStatus {
  fingerprint: string;
  /** Failed validations counted in the current window. */
  failures: number;
  /** --throttle-attempts: the failures at which the secret is locked (0: never). */
  limit: number;
  locked: boolean;
  /** When the count starts again (and a lock ends), ISO 8601; null when nothing is counted. */
  countEndsAt: string | null;
  /** The last time step a PIN was accepted for, while its replay record lasts; null when none. */
  lastAcceptedStep: number | null;
  /** When that step began, ISO 8601. */
  lastAcceptedAt: string | null;
}

/** What unlock answers: the status after, and what it cleared. */
export interface UnlockAnswer extends SecretStatus {
  /** The failures the unlock cleared. */
  cleared: number;
  /** Whether the secret was locked before. */
  wasLocked: boolean;
}

export const ADMIN_SECRET_PATH = '/admin/secrets/:fingerprint';
export const ADMIN_UNLOCK_PATH = '/admin/secrets/:fingerprint/unlock';

/** Adds the admin endpoints to the management port's routes. */
export function addAdminRoutes(routes: RouteTable, settings: AdminSettings, deps: AdminDependencies): RouteTable {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(deps.token);
  const windowMs = settings.throttleWindowSeconds * 1000;
  const limit = settings.throttleAttempts;

  const answer = (ctx: CallContext, status: number, body: object) => {
    ctx.status = status;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  };
  const audit = (ctx: CallContext, { outcome, fingerprint, ...rest }: AuditFields) =>
    deps.trail.record({ outcome, fingerprint, address: ctx.ip, id: ctx.state.requestId, ...rest });

  /** Counts the request for its caller, then checks the token (as ValidatePin counts, then checks the PIN); false: answered. */
  const authorised = async (ctx: CallContext): Promise<boolean> => {
    const key = deps.callerKeyOf(ctx.ip);
    if (limit > 0) {
      const count = await deps.store.countAttempt(key, windowMs, limit);
      if (count.attempts > limit) {
        const retryAfter = Math.max(1, Math.ceil(count.resetInMs / 1000));
        audit(ctx, { outcome: 'admin-throttled', attempts: count.attempts });
        ctx.set('Retry-After', String(retryAfter));
        answer(ctx, 429, { error: `Too many refused admin requests from this address; try again in ${retryAfter} seconds.` });
        return false;
      }
    }
    const given = /^Bearer +(\S+) *$/i.exec(ctx.get('Authorization'))?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      audit(ctx, { outcome: 'admin-refused', reason: given === undefined ? 'no token' : 'wrong token' });
      ctx.set('WWW-Authenticate', 'Bearer realm="pin-service admin"');
      answer(ctx, 401, { error: 'A valid admin token is required (Authorization: Bearer …, the token of --admin-token-file).' });
      return false;
    }
    if (limit > 0) await deps.store.clearAttempts(key);
    return true;
  };

  /** The one store key a well-formed fingerprint names, or an answer (400, 404, 409) and undefined. */
  const keyOf = async (ctx: CallContext, fingerprint: string): Promise<{ key: string; view: RecordView } | undefined> => {
    if (!FINGERPRINT.test(fingerprint)) {
      answer(ctx, 400, { error: 'A fingerprint is 18 hexadecimal digits (lower case), as an audit line gives it.' });
      return undefined;
    }
    const keys = await deps.store.keysStartingWith(keyPrefixOf(fingerprint));
    const view = keys.length === 1 ? await deps.store.inspect(keys[0]) : undefined;
    if (keys.length > 1) {
      answer(ctx, 409, {
        error: `The fingerprint matches ${keys.length} records: give the secret itself (pin-service reads it from standard input).`,
      });
      return undefined;
    }
    if (view === undefined) {
      answer(ctx, 404, {
        error: 'No record for this fingerprint: no failure counted and no PIN accepted within their windows (or it is mistyped).',
      });
      return undefined;
    }
    return { key: keys[0], view };
  };

  const statusOf = (fingerprint: string, view: RecordView): SecretStatus => {
    const now = deps.now();
    const counting = view.attempts > 0;
    return {
      fingerprint,
      failures: view.attempts,
      limit,
      locked: limit > 0 && view.attempts >= limit,
      countEndsAt: counting ? new Date(now + view.attemptsResetInMs).toISOString() : null,
      lastAcceptedStep: view.lastStep ?? null,
      lastAcceptedAt: view.lastStep === undefined ? null : new Date(view.lastStep * settings.period * 1000).toISOString(),
    };
  };

  /** Runs an endpoint; a store that cannot be reached is a 503 in JSON. */
  const endpoint =
    (run: (ctx: CallContext, fingerprint: string) => Promise<void>) =>
    async (ctx: CallContext, params: Readonly<Record<string, string>>): Promise<void> => {
      try {
        if (await authorised(ctx)) await run(ctx, params.fingerprint ?? '');
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        answer(ctx, 503, { error: 'The state store cannot be reached; try again later.' });
      }
    };

  /** A request whose fingerprint named no one record (malformed, unknown, ambiguous) is audited too. */
  const notFound = (ctx: CallContext, fingerprint: string) =>
    audit(ctx, { outcome: 'admin-not-found', fingerprint: FINGERPRINT.test(fingerprint) ? fingerprint : undefined });

  routes.get(
    ADMIN_SECRET_PATH,
    endpoint(async (ctx, fingerprint) => {
      const found = await keyOf(ctx, fingerprint);
      if (!found) return notFound(ctx, fingerprint);
      const status = statusOf(fingerprint, found.view);
      audit(ctx, { outcome: 'inspected', fingerprint, attempts: status.failures });
      answer(ctx, 200, status);
    }),
  );
  routes.post(
    ADMIN_UNLOCK_PATH,
    endpoint(async (ctx, fingerprint) => {
      const found = await keyOf(ctx, fingerprint);
      if (!found) return notFound(ctx, fingerprint);
      const before = statusOf(fingerprint, found.view);
      await deps.store.clearAttempts(found.key);
      const after = await deps.store.inspect(found.key);
      audit(ctx, { outcome: 'unlocked', fingerprint, attempts: before.failures });
      const status = after ? statusOf(fingerprint, after) : { ...before, failures: 0, locked: false, countEndsAt: null };
      answer(ctx, 200, { ...status, cleared: before.failures, wasLocked: before.locked } satisfies UnlockAnswer);
    }),
  );
  return routes;
}
