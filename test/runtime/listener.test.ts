/**
 * The listener's drain (src/runtime/listener.ts): closing refuses new
 * connections at once, yet a kept-alive connection that was idle may still
 * bring one request within the grace, answered with `Connection: close`;
 * the close resolves once every connection is gone. It stops accepting with
 * net.Server's close called on the HTTP server, because http.Server's own
 * close() destroys idle kept-alive connections at once — the last test
 * holds Node to that, so that the day it no longer does, the listener can
 * use http.Server's close() (docs/performance.md, *Reaching into a library*).
 */
import test from 'ava';
import { Agent, createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { listen } from '../../src/runtime/listener';

const TIMEOUTS = { headersTimeoutMs: 5000, requestTimeoutMs: 5000, keepAliveTimeoutMs: 5000, inactivityTimeoutMs: 5000 };

/** One GET on `agent`: its status, its Connection header, and whether it went on a connection opened before. */
function get(port: number, agent: Agent): Promise<{ status: number; connection: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A new connection: `refused`, or `accepted`. */
function probe(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : (error.code ?? 'error')));
  });
}

test('closing refuses new connections at once; an idle kept-alive connection still brings a request within the grace, answered with Connection: close', async (t) => {
  const listener = await listen(
    (_req, res) => {
      res.end('ok');
    },
    { ...TIMEOUTS, port: 0, host: '127.0.0.1', maxBodyBytes: 1024 },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  t.like(await get(listener.port, agent), { status: 200, reused: false });

  let closed = false;
  const closing = listener.close({ idleGraceMs: 500 }).then(() => {
    closed = true;
  });
  t.is(await probe(listener.port), 'refused', 'a new connection is refused at once');
  const late = await get(listener.port, agent);
  t.like(late, { status: 200, connection: 'close', reused: true }, 'the idle connection was kept for the grace, and its request answered');
  await closing;
  t.true(closed);
});

test('a connection busy when closing starts has its answer, with Connection: close, and the close waits for it', async (t) => {
  let release: () => void = () => {};
  const listener = await listen(
    (_req, res) => {
      release = () => res.end('late');
    },
    { ...TIMEOUTS, port: 0, host: '127.0.0.1', maxBodyBytes: 1024 },
  );
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const answer = get(listener.port, agent);
  await new Promise((resolve) => setTimeout(resolve, 100));
  let closed = false;
  const closing = listener.close({ idleGraceMs: 0 }).then(() => {
    closed = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.false(closed, 'not closed while a call is in flight');
  release();
  t.like(await answer, { status: 200, connection: 'close' });
  await closing;
  t.true(closed);
});

test('Node’s http.Server close() destroys an idle kept-alive connection at once (why the listener stops accepting with net.Server’s close)', async (t) => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  await get(port, agent);
  const [socket] = Object.values(agent.freeSockets).flat();
  t.truthy(socket, 'the connection is kept alive, idle');
  const socketClosed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
  const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
  const first = await Promise.race([
    socketClosed.then(() => 'the idle connection'),
    new Promise((r) => setTimeout(() => r('the grace'), 1000)),
  ]);
  t.is(first, 'the idle connection', 'http.Server’s close() ended it without a grace');
  await serverClosed;
});
