import type { CallContext } from '../call-state';

/** Distinct Content-Type values remembered per reading: callers choose them, so there is a bound. */
const MAX_REMEMBERED = 64;

/**
 * A reading of the request's Content-Type header, worked out once per
 * distinct header value: Koa parses the header again for each request.type,
 * request.charset or request.is(...), and nearly every call of a client
 * sends the same value. `read` must depend on that header alone.
 */
export function byContentType<T>(
  read: (ctx: CallContext) => T,
  /** Whether a reading is kept (all are by default); one not kept is worked out again, and flushes nothing out. */
  remember?: (value: T, header: string) => boolean,
): (ctx: CallContext) => T {
  const known = new Map<string, T>();
  return (ctx) => {
    const header = ctx.get('Content-Type');
    const value = known.get(header);
    if (value !== undefined || known.has(header)) return value as T;
    const fresh = read(ctx);
    if (remember !== undefined && !remember(fresh, header)) return fresh;
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(header, fresh);
    return fresh;
  };
}
