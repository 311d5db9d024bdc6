/**
 * @koa/router, with the answer for the paths called most worked out once.
 *
 * The router's middleware tests every route's pattern against each request
 * and composes the matching routes' middleware anew each time. For a path
 * known at start-up (every route without parameters, and the operations'
 * paths under /api.asmx), that outcome is the same for every request with
 * that exact path and method, so it is taken from the router itself
 * (`router.match`, the layers' `captures` and `params`, as its own
 * middleware uses them) when the app is made, composed once, and looked up
 * by exact path: the route table stays the router's. Any other path, and any
 * other spelling of these (another letter case, a trailing slash), goes
 * through the router's middleware as before. test/route-lookup.test.ts holds
 * the lookup to what the router sets on the context, path by path.
 */
import compose from 'koa-compose';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type Router from '@koa/router';

/** What @koa/router's middleware leaves on the context of a request it routed. */
interface RoutedFields {
  router: unknown;
  matched: unknown[];
  routeMatched: boolean;
  captures: string[];
  params: Record<string, string>;
  routerPath: string | RegExp;
  routerName: string | undefined;
  _matchedRoute: string | RegExp;
  _matchedRouteName?: string;
}

/** One matching route of a known path: what the router sets for it, then its middleware. */
interface Step {
  captures: string[];
  params: Record<string, string>;
  path: string | RegExp;
  name: string | undefined;
}

export function routesWithLookup<S, C>(router: Router<S, C>, knownPaths: readonly string[]): Middleware<S, C> {
  const routes = router.routes() as unknown as Middleware<S, C>;
  // Routed by host too, or one layer chosen per request: the router decides each time.
  if ((router.host !== undefined && router.host !== '') || router.exclusive) return routes;
  const paths = new Set(knownPaths);
  for (const layer of router.stack) if (typeof layer.path === 'string' && layer.paramNames.length === 0) paths.add(layer.path);
  const methods = new Set(router.stack.flatMap((layer) => layer.methods));
  const byMethod = new Map<string, Map<string, Middleware<S, C>>>();
  for (const method of methods) {
    const byPath = new Map<string, Middleware<S, C>>();
    for (const path of paths) {
      const chain = chainOf(router, path, method);
      if (chain) byPath.set(path, chain);
    }
    byMethod.set(method, byPath);
  }
  return function route(ctx: ParameterizedContext<S, C>, next: Next) {
    const known = byMethod.get(ctx.method)?.get(ctx.path);
    return known ? known(ctx, next) : routes(ctx, next);
  } as Middleware<S, C>;
}

/** The router's answer for `path` and `method`, as its middleware would work it out for each request; undefined for none. */
function chainOf<S, C>(router: Router<S, C>, path: string, method: string): Middleware<S, C> | undefined {
  const match = router.match(path, method);
  if (!match.route) return undefined;
  const layers = match.pathAndMethod;
  const matched = match.path;
  const routeLayer = [...layers].reverse().find((layer) => layer.methods.length > 0)!;
  const middleware: Middleware<S, C>[] = [];
  let params: Record<string, string> = {};
  for (const layer of layers) {
    const captures = layer.captures(path);
    params = layer.params(path, captures, params);
    const step: Step = { captures, params, path: layer.path, name: layer.name || undefined };
    middleware.push(stepInto(step), ...(layer.stack as unknown as Middleware<S, C>[]));
  }
  const composed = compose(middleware);
  return function known(ctx: ParameterizedContext<S, C>, next: Next) {
    const routed = ctx as unknown as RoutedFields;
    routed.matched = matched.slice();
    routed.router = router;
    routed.routeMatched = true;
    routed._matchedRoute = routeLayer.path;
    if (routeLayer.name) routed._matchedRouteName = routeLayer.name;
    return composed(ctx, next);
  } as Middleware<S, C>;
}

/** What the router's middleware sets as it enters one matching route. */
function stepInto<S, C>(step: Step): Middleware<S, C> {
  return (ctx, next) => {
    const routed = ctx as unknown as RoutedFields;
    routed.captures = step.captures.slice();
    const params = { ...step.params };
    (ctx.request as unknown as { params: Record<string, string> }).params = params;
    routed.params = params;
    routed.routerPath = step.path;
    routed.routerName = step.name;
    routed._matchedRoute = step.path;
    if (step.name) routed._matchedRouteName = step.name;
    return next();
  };
}
