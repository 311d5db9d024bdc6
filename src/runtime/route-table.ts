/**
 * The one table of a service's routes: each is a method, a path (literal, or
 * with `:name` parameters) and what answers it. @koa/router matches them,
 * through its public API; the table also answers a request whose path is
 * spelt exactly as a route's (or as one of the paths a route says it is
 * called at most: the operations' `{endpoint}/{operation}`) from an index
 * built once, without testing every pattern and composing the matching
 * routes anew on each request, as the router's middleware does. Every other
 * spelling (another letter case, a trailing slash), and every path no route
 * matches, goes through the router, with its 404, 405 and 501 answers.
 *
 * Each answer records the pattern of its route in `ctx.state.route` (for the
 * request log and metrics): never the path asked for, which can hold anything.
 */
import Router from '@koa/router';
import type { Middleware, Next } from 'koa';
import type { CallContext, CallState } from './call-state';

type Method = 'GET' | 'POST';

/** What answers a route: the call's context and its path parameters. */
export type RouteHandler = (ctx: CallContext, params: Readonly<Record<string, string>>) => Promise<void>;

interface Entry {
  method: Method;
  pattern: string;
  handle: RouteHandler;
  /** Exact paths this route answers besides its pattern (when it has parameters), with their parameters. */
  known: readonly (readonly [path: string, params: Readonly<Record<string, string>>])[];
}

export class RouteTable {
  readonly #entries: Entry[] = [];
  #indexed: string[] = [];

  get(pattern: string, handle: RouteHandler, known: Entry['known'] = []): this {
    return this.#add('GET', pattern, handle, known);
  }

  post(pattern: string, handle: RouteHandler, known: Entry['known'] = []): this {
    return this.#add('POST', pattern, handle, known);
  }

  #add(method: Method, pattern: string, handle: RouteHandler, known: Entry['known']): this {
    this.#entries.push({ method, pattern, handle, known });
    return this;
  }

  /** `METHOD path` of each request the last middleware() answers from its index, without the router. */
  indexed(): readonly string[] {
    return this.#indexed;
  }

  /** The patterns of the table, in order, by method (for tests and docs). */
  patterns(): { method: Method; pattern: string }[] {
    return this.#entries.map(({ method, pattern }) => ({ method, pattern }));
  }

  /**
   * The table as Koa middleware: the exact index first, then the router
   * (paths match case-insensitively, as on IIS: the router's default), then
   * its answers for a method a path does not allow. `index: false` leaves
   * every request to the router (the tests hold the two to the same answers).
   */
  middleware({ index: indexed = true }: { index?: boolean } = {}): Middleware<CallState> {
    const router = new Router<CallState>();
    const exact = new Map<string, (ctx: CallContext) => Promise<void>>();
    // The literal part before the first parameter of each route with parameters seen so far, by method.
    const parameterised: { method: string; prefix: string }[] = [];
    const index = (method: string, path: string, answer: (ctx: CallContext) => Promise<void>) => {
      // The first route that answers a path keeps it, as the router runs the first match; a path an earlier route with
      // parameters may match is left to the router.
      const earlier = parameterised.some((p) => p.method === method && path.toLowerCase().startsWith(p.prefix));
      if (indexed && !earlier && !exact.has(`${method} ${path}`)) exact.set(`${method} ${path}`, answer);
    };
    for (const { method, pattern, handle, known } of this.#entries) {
      const answer = (params: Readonly<Record<string, string>>) => (ctx: CallContext) => {
        ctx.state.route = pattern;
        return handle(ctx, params);
      };
      const routed = (ctx: CallContext & { params: Record<string, string> }) => answer(ctx.params)(ctx);
      if (method === 'GET') router.get(pattern, routed);
      else router.post(pattern, routed);
      const literal = !pattern.includes(':');
      for (const [path, params] of literal ? [[pattern, {}] as const, ...known] : known) {
        index(method, path, answer(params));
        // The router answers HEAD with a GET route; Koa leaves the body out.
        if (method === 'GET') index('HEAD', path, answer(params));
      }
      if (!literal) {
        const prefix = pattern.slice(0, pattern.indexOf(':')).toLowerCase();
        parameterised.push({ method, prefix }, ...(method === 'GET' ? [{ method: 'HEAD', prefix }] : []));
      }
    }
    // The router's middleware types its context with its own fields; the table's handlers read the params it is given.
    const routes = router.routes() as Middleware<CallState>;
    const allowed = router.allowedMethods() as Middleware<CallState>;
    this.#indexed = [...exact.keys()];
    return async function route(ctx: CallContext, next: Next): Promise<void> {
      const answer = exact.get(`${ctx.method} ${ctx.path}`);
      if (answer) return answer(ctx);
      try {
        await routes(ctx, () => allowed(ctx, next));
      } finally {
        // No route answered, but some matched the path (by another method: 405): the last of them names it.
        ctx.state.route ??= matchedPattern(ctx);
      }
    } as Middleware<CallState>;
  }
}

/** The pattern of the last route whose path matched (the router's documented `ctx.matched`), if a literal one. */
function matchedPattern(ctx: CallContext): string | undefined {
  const path = (ctx as CallContext & { matched?: { path: unknown }[] }).matched?.at(-1)?.path;
  return typeof path === 'string' ? path : undefined;
}
