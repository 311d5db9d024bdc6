/**
 * The one app builder of the runtime (src/runtime/app-builder.ts), as every
 * port uses it: the request log runs first and logs the answer to an error
 * (the error answers run inside it), the body reader runs before the routes
 * when the port reads bodies and not at all when it does not, Koa's own error
 * printing is off, and behind a trusted proxy only the last X-Forwarded-For
 * entry is the caller's address.
 */
import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { type AppParts, buildApp } from '../../src/runtime/app-builder';
import type { CallContext } from '../../src/runtime/call-state';
import { clientError } from '../../src/runtime/errors';
import { requestLog } from '../../src/runtime/request-log';
import { RouteTable } from '../../src/runtime/route-table';

interface Served {
  url: string;
  lines: Record<string, unknown>[];
  server: Server;
}

/** An app of the builder with routes that answer what they saw, refuse, and fail. */
async function serve(parts: Pick<AppParts, 'maxBodyBytes' | 'trustProxy'>, t: { teardown(f: () => void): void }): Promise<Served> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const routes = new RouteTable()
    .get('/address', async (ctx: CallContext) => {
      ctx.body = ctx.ip;
    })
    .post('/body', async (ctx: CallContext) => {
      const body = ctx.request.body;
      ctx.body = Buffer.isBuffer(body) ? `read ${body.length} bytes` : 'not read';
    })
    .get('/refused', async () => {
      throw clientError('The field x is given more than once.');
    })
    .get('/failing', async () => {
      throw new Error('an unexpected failure, holding input');
    });
  const app = buildApp({ ...parts, requestLog: requestLog(logger), logger, routes });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines, server };
}

const requestLine = (served: Served, path: string) => served.lines.find((l) => l.event === 'request' && l.path === path);

test('errors are answered inside the request log: its line has the error answer’s status and outcome', async (t) => {
  const served = await serve({ trustProxy: false }, t);
  const refused = await fetch(`${served.url}/refused`);
  t.is(refused.status, 400);
  t.is(await refused.text(), 'The field x is given more than once.\n');
  t.like(requestLine(served, '/refused'), { status: 400, outcome: 'client' });
  const failing = await fetch(`${served.url}/failing`);
  t.is(failing.status, 500);
  t.false((await failing.text()).includes('holding input'), 'an unexpected error’s message is never sent');
  t.like(requestLine(served, '/failing'), { status: 500, outcome: 'server' });
  t.like(
    served.lines.find((l) => l.event === 'error'),
    { kind: 'server', type: 'Error' },
  );
});

test('with maxBodyBytes the body is read before the routes, up to the limit; without it no body is read', async (t) => {
  const reading = await serve({ trustProxy: false, maxBodyBytes: 1024 }, t);
  t.is(await (await fetch(`${reading.url}/body`, { method: 'POST', body: 'x'.repeat(100) })).text(), 'read 100 bytes');
  const tooLarge = await fetch(`${reading.url}/body`, { method: 'POST', body: 'x'.repeat(2000) });
  t.is(tooLarge.status, 413);
  // Refused before any route took it: the line names no route.
  t.like(
    reading.lines.find((l) => l.event === 'request' && l.status === 413),
    { path: '(other)', outcome: 'too-large' },
  );
  const notReading = await serve({ trustProxy: false }, t);
  t.is(await (await fetch(`${notReading.url}/body`, { method: 'POST', body: 'x'.repeat(2000) })).text(), 'not read');
});

test('Koa’s own error printing is off: the error answers say all there is', (t) => {
  const app = buildApp({
    trustProxy: false,
    requestLog: requestLog(pino({ level: 'silent' })),
    logger: pino({ level: 'silent' }),
    routes: new RouteTable(),
  });
  t.true(app.silent);
});

test('behind a trusted proxy the caller’s address is the last X-Forwarded-For entry; otherwise the header is ignored', async (t) => {
  const headers = { 'X-Forwarded-For': '198.51.100.66, 192.0.2.1, 203.0.113.7' };
  const trusting = await serve({ trustProxy: true }, t);
  t.is(await (await fetch(`${trusting.url}/address`, { headers })).text(), '203.0.113.7');
  t.is(await (await fetch(`${trusting.url}/address`)).text(), '127.0.0.1', 'no header: the connection’s');
  const direct = await serve({ trustProxy: false }, t);
  t.is(await (await fetch(`${direct.url}/address`, { headers })).text(), '127.0.0.1');
});
