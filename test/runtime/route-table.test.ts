/**
 * The route table (src/runtime/route-table.ts) answers a request from its
 * exact index just as @koa/router answers it, for every path it indexes and
 * for the spellings it leaves to the router; and it indexes the paths spelt
 * as the routes spell them, and those only.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { CallContext, CallState } from '../../src/runtime/call-state';
import { RouteTable } from '../../src/runtime/route-table';

/** A table shaped like a contract's (the temperature fixture's paths): literal paths, one parameter, two routes matching one path, HEAD from GET. */
function tableOf(): RouteTable {
  const answer = (name: string) => async (ctx: CallContext, params: Readonly<Record<string, string>>) => {
    ctx.set('X-Seen', JSON.stringify({ name, params, route: ctx.state.route }));
    ctx.body = name;
  };
  const known = [
    ['/TempConvert.asmx/CelsiusToFahrenheit', { operation: 'CelsiusToFahrenheit' }] as const,
    ['/TempConvert.asmx/FahrenheitToCelsius', { operation: 'FahrenheitToCelsius' }] as const,
  ];
  return (
    new RouteTable()
      .get('/healthz', answer('health'))
      .get('/TempConvert.asmx', answer('description'))
      .post('/TempConvert.asmx', answer('soap'))
      .get('/TempConvert.asmx/js', answer('proxy'))
      .get('/TempConvert.asmx/jsdebug', answer('proxy'))
      .get('/TempConvert.asmx/:operation', answer('get'), known)
      .post('/TempConvert.asmx/:operation', answer('post'), known)
      // After the route with a parameter that matches it: the router runs that one, and so must the index.
      .get('/TempConvert.asmx/late', answer('late'))
  );
}

async function serve(index: boolean): Promise<{ url: string; server: Server; table: RouteTable }> {
  const app = new Koa<CallState>();
  const table = tableOf();
  app.use(table.middleware({ index }));
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, table };
}

const CALLS: [string, string][] = [
  ['GET', '/healthz'],
  ['HEAD', '/healthz'],
  ['GET', '/TempConvert.asmx'],
  ['POST', '/TempConvert.asmx'],
  ['GET', '/TempConvert.asmx/js'],
  ['GET', '/TempConvert.asmx/jsdebug'],
  ['GET', '/TempConvert.asmx/CelsiusToFahrenheit'],
  ['POST', '/TempConvert.asmx/CelsiusToFahrenheit'],
  ['HEAD', '/TempConvert.asmx/FahrenheitToCelsius'],
  ['GET', '/TempConvert.asmx/FahrenheitToCelsius'],
  ['GET', '/TempConvert.asmx/late'],
  // Left to the router: another letter case, a trailing slash, an operation it was not told of, escapes.
  ['GET', '/TEMPCONVERT.ASMX/celsiustofahrenheit'],
  ['GET', '/TempConvert.asmx/CelsiusToFahrenheit/'],
  ['GET', '/TempConvert.asmx/Other'],
  ['GET', '/TempConvert.asmx/Celsius%54oFahrenheit'],
  // Not routed: 404, and 405 from allowedMethods.
  ['GET', '/nowhere'],
  ['DELETE', '/TempConvert.asmx'],
  ['PUT', '/TempConvert.asmx/CelsiusToFahrenheit'],
];

test('the index answers as the router does, for the paths it knows and the rest', async (t) => {
  const [routed, indexed] = await Promise.all([serve(false), serve(true)]);
  try {
    for (const [method, path] of CALLS) {
      const [a, b] = await Promise.all([fetch(routed.url + path, { method }), fetch(indexed.url + path, { method })]);
      t.is(b.status, a.status, `${method} ${path}: status`);
      t.is(b.headers.get('allow'), a.headers.get('allow'), `${method} ${path}: Allow`);
      t.deepEqual(JSON.parse(b.headers.get('x-seen') ?? 'null'), JSON.parse(a.headers.get('x-seen') ?? 'null'), `${method} ${path}`);
      t.is(await b.text(), await a.text(), `${method} ${path}: body`);
    }
    t.is(JSON.parse((await fetch(`${indexed.url}/TempConvert.asmx/late`)).headers.get('x-seen')!).name, 'get', 'the earlier route');
  } finally {
    routed.server.close();
    indexed.server.close();
  }
  t.deepEqual(routed.table.indexed(), [], 'index: false indexes nothing');
  t.deepEqual(
    [...indexed.table.indexed()].sort(),
    [
      'GET /healthz',
      'HEAD /healthz',
      'GET /TempConvert.asmx',
      'HEAD /TempConvert.asmx',
      'POST /TempConvert.asmx',
      'GET /TempConvert.asmx/js',
      'HEAD /TempConvert.asmx/js',
      'GET /TempConvert.asmx/jsdebug',
      'HEAD /TempConvert.asmx/jsdebug',
      'GET /TempConvert.asmx/CelsiusToFahrenheit',
      'HEAD /TempConvert.asmx/CelsiusToFahrenheit',
      'GET /TempConvert.asmx/FahrenheitToCelsius',
      'HEAD /TempConvert.asmx/FahrenheitToCelsius',
      'POST /TempConvert.asmx/CelsiusToFahrenheit',
      'POST /TempConvert.asmx/FahrenheitToCelsius',
    ].sort(),
  );
});
