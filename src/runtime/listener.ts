/**
 * The HTTP(S) listener of a service: Node's server with the connection
 * limits of docs/security.md, *Slow and oversized requests*, and a close that
 * drains it: it stops accepting connections at once, answers every request
 * already sent (in flight, or arriving within the grace on a connection that
 * was open) with `Connection: close`, closes each connection after its
 * answer, then the idle ones; it resolves once every connection is gone.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { announcedTooLarge } from './bindings/body';

/** How long a client may take, in milliseconds. */
export interface ConnectionTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * Node checks the headers and request timeouts of every connection only every
 * `connectionsCheckingInterval` (30 s by default, which made a 10 s headers
 * timeout cut a trickling client off after up to 40 s): it is a tenth of the
 * shorter timeout here, at most 1 s, so a cut-off comes at most that late.
 * An idle kept-alive connection is closed 1 s after the keep-alive timeout
 * (Node's margin for a request crossing the close; clients are told the
 * timeout in `Keep-Alive: timeout=…`).
 */
export function connectionLimits(timeouts: ConnectionTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.floor(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs) / 10)),
  };
}

export interface ListenOptions extends ConnectionTimeouts {
  port: number;
  host: string;
  /** Listen beside other threads on the same port (SO_REUSEPORT). */
  reusePort?: boolean;
  /** A connection on which nothing is received or sent for this long is closed (Node's server.timeout). */
  inactivityTimeoutMs: number;
  /** A body announced larger than this is refused (413) without `100 Continue`. */
  maxBodyBytes: number;
  /** HTTPS: the certificate and key (and what else node:https takes); the headers timeout bounds the handshake too. */
  tls?: HttpsServerOptions;
  /** Headers set on every answer (HSTS, say). */
  headers?: Readonly<Record<string, string>>;
}

export interface CloseOptions {
  /**
   * How long a keep-alive connection that is idle when closing starts may
   * still bring one more request (answered, with `Connection: close`) before
   * it is closed. Default 1000 ms.
   */
  idleGraceMs?: number;
}

export interface Listener {
  server: Server;
  /** `http://127.0.0.1:8080`, as listened on (an IPv6 address in brackets). */
  url: string;
  port: number;
  /** Drains and closes (see above); the same promise however often it is called. */
  close(options?: CloseOptions): Promise<void>;
}

/** Listens with `handle` (a Koa app's callback, say) answering every request. */
export async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void, options: ListenOptions): Promise<Listener> {
  let draining = false;
  const answering = new Set<ServerResponse>();
  const headers = Object.entries(options.headers ?? {});
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    // While draining, every answer ends its connection, so no client sends another request on it.
    if (draining) res.setHeader('Connection', 'close');
    answering.add(res);
    res.once('close', () => answering.delete(res));
    handle(req, res);
  };
  const limits = connectionLimits(options);
  const server: Server = options.tls
    ? // A client has the headers timeout to complete its handshake too; one that stalls in it is then disconnected.
      createHttpsServer({ ...limits, ...options.tls, handshakeTimeout: options.headersTimeoutMs }, serve)
    : createServer(limits, serve);
  server.timeout = options.inactivityTimeoutMs;
  // A client that waits for 100 Continue before sending a body over the limit is answered 413 without it, and sends nothing.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!announcedTooLarge(req, options.maxBodyBytes)) res.writeContinue();
    serve(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, host: options.host, reusePort: options.reusePort ?? false }, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  const close = async ({ idleGraceMs = 1000 }: CloseOptions = {}): Promise<void> => {
    draining = true;
    // net.Server's close, called on the HTTP server, stops accepting and resolves once every connection
    // has ended. http.Server's own close() would also destroy the idle keep-alive connections at once, and
    // a request a client is sending on one of them at that moment would be reset: test/service/shutdown.test.ts
    // fails with it. test/runtime/listener.test.ts holds Node to that (docs/performance.md, *Reaching into a library*).
    const allClosed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    // Calls in flight are answered with Connection: close too.
    for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
    // A connection idle now may still bring a request within the grace (answered, then closed); after
    // it, idle connections are closed, and each busy one closes after its answer.
    // Each sweep runs in the check phase (setImmediate), after this loop turn has read every socket:
    // after an event-loop stall, a timer fires before the poll phase, and a request waiting unread
    // on an "idle" connection would otherwise be reset.
    const closeIdle = () => setImmediate(() => server.closeIdleConnections());
    let sweep: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      closeIdle();
      sweep = setInterval(closeIdle, 100);
    }, idleGraceMs);
    await allClosed;
    clearTimeout(grace);
    clearInterval(sweep);
  };
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    close: (closeOptions) => (closing ??= close(closeOptions)),
  };
}
