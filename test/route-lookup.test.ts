/**
 * The lookup of src/runtime/route-lookup.ts leaves on the context what @koa/router's
 * own middleware leaves, and runs the same route, for every path it knows
 * and for the spellings it leaves to the router.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import { routesWithLookup } from '../src/runtime/route-lookup';

interface Seen {
  route: string;
  params: unknown;
  captures: unknown;
  routerPath: unknown;
  matchedRoute: unknown;
  matched: unknown;
  routeMatched: unknown;
}

/** A router shaped like the service's: static paths, one parameter, two routes matching one path, HEAD from GET. */
function routerOf(): Router {
  const router = new Router();
  const answer =
    (route: string): Middleware =>
    (ctx) => {
      const c = ctx as unknown as Record<string, unknown>;
      const seen: Seen = {
        route,
        params: c.params,
        captures: c.captures,
        routerPath: c.routerPath,
        matchedRoute: c._matchedRoute,
        matched: (c.matched as { path: string }[]).map((layer) => layer.path),
        routeMatched: c.routeMatched,
      };
      ctx.set('X-Seen', JSON.stringify(seen));
      ctx.body = route;
    };
  router.get('/healthz', answer('health'));
  router.get('/api.asmx', answer('description'));
  router.post('/api.asmx', answer('soap'));
  router.get(['/api.asmx/js', '/api.asmx/jsdebug'], answer('proxy'));
  router.get('/api.asmx/:operation', answer('get'));
  router.post('/api.asmx/:operation', answer('post'));
  return router;
}

async function serve(use: (app: Koa, router: Router) => void): Promise<{ url: string; server: Server }> {
  const app = new Koa();
  const router = routerOf();
  use(app, router);
  app.use(router.allowedMethods());
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const CALLS: [string, string][] = [
  ['GET', '/healthz'],
  ['HEAD', '/healthz'],
  ['GET', '/api.asmx'],
  ['POST', '/api.asmx'],
  ['GET', '/api.asmx/js'],
  ['GET', '/api.asmx/jsdebug'],
  ['GET', '/api.asmx/ValidatePin'],
  ['POST', '/api.asmx/ValidatePin'],
  ['GET', '/api.asmx/Pair'],
  // Left to the router: another letter case, a trailing slash, an operation it was not told of, escapes.
  ['GET', '/API.ASMX/validatepin'],
  ['GET', '/api.asmx/ValidatePin/'],
  ['GET', '/api.asmx/Other'],
  ['GET', '/api.asmx/Valid%61tePin'],
  // Not routed: 404, and 405 from allowedMethods.
  ['GET', '/nowhere'],
  ['DELETE', '/api.asmx'],
  ['PUT', '/api.asmx/ValidatePin'],
];

test('the lookup sets what the router sets and answers as it does, for known paths and the rest', async (t) => {
  const plain = await serve((app, router) => app.use(router.routes()));
  // The calls that reach the router's own per-request match (a spy put on after the lookup was worked out).
  const routed: string[] = [];
  const withLookup = await serve((app, router) => {
    app.use(routesWithLookup(router, ['/api.asmx/ValidatePin', '/api.asmx/Pair']));
    const match = router.match.bind(router);
    router.match = (path, method) => {
      routed.push(`${method} ${path}`);
      return match(path, method);
    };
  });
  try {
    for (const [method, path] of CALLS) {
      const [a, b] = await Promise.all([fetch(plain.url + path, { method }), fetch(withLookup.url + path, { method })]);
      t.is(b.status, a.status, `${method} ${path}: status`);
      t.is(b.headers.get('allow'), a.headers.get('allow'), `${method} ${path}: Allow`);
      t.deepEqual(JSON.parse(b.headers.get('x-seen') ?? 'null'), JSON.parse(a.headers.get('x-seen') ?? 'null'), `${method} ${path}`);
      t.is(await b.text(), await a.text(), `${method} ${path}: body`);
    }
  } finally {
    plain.server.close();
    withLookup.server.close();
  }
  // The known paths never reach the router's per-request match; the others do.
  t.deepEqual(
    routed.sort(),
    CALLS.slice(9)
      .map(([method, path]) => `${method} ${path}`)
      .sort(),
  );
});
