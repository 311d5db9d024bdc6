import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app';
import { announcedTooLarge } from './runtime/bindings/body';
import type { Config } from './config';
import { systemClock, type Clock } from './handlers';
import { createMetrics } from './observability/metrics';
import { logStoreWarnings, storePressure } from './observability/store-pressure';
import { tlsCertificateExpiry } from './observability/tls-certificate';
import { listenForHttpsRedirects } from './https-redirect';
import { loadTlsIdentity, secureContextOptions, type TlsIdentity } from './tls';
import { loadXmlEngine } from './runtime/xml/xml-engine';
import { createStore, type SharedStore } from './state';
import type { StateStore } from './state/store';

export interface CloseOptions {
  /**
   * How long a keep-alive connection that is idle when closing starts may
   * still bring one more request (answered, with `Connection: close`) before
   * it is closed. Default 1000 ms.
   */
  idleGraceMs?: number;
}

/**
 * A worker thread of `--workers N` (cli/workers.ts): it uses the embedded
 * store its main thread holds, in shared memory, and listens with
 * SO_REUSEPORT on the port its siblings listen on (the kernel spreads
 * connections over them).
 */
export interface WorkerThreadContext {
  /** The main thread's embedded store; none with Redis. */
  shared?: SharedStore;
}

export interface RunningService {
  server: Server;
  store: StateStore;
  url: string;
  /** With --http-port: the plain HTTP listener that redirects to `url`. */
  redirectUrl?: string;
  close(options?: CloseOptions): Promise<void>;
  /**
   * With --tls-cert: reads the certificate and key again and serves them to
   * new connections (open ones keep theirs). A pair that fails the checks
   * throws ConfigError and the previous one stays.
   */
  reloadTls?(): TlsIdentity;
}

/**
 * How long a client may take (docs/security.md, *Slow and oversized requests*). Node
 * checks the headers and request timeouts of every connection only every
 * `connectionsCheckingInterval` (30 s by default, which made a 10 s headers
 * timeout cut a trickling client off after up to 40 s): it is a tenth of the
 * shorter timeout here, at most 1 s, so a cut-off comes at most that late.
 * An idle kept-alive connection is closed 1 s after the keep-alive timeout
 * (Node's margin for a request crossing the close; clients are told the
 * timeout in `Keep-Alive: timeout=…`).
 */
export function connectionLimits(config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>): ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.floor(Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 10)),
  };
}

/**
 * A connection on which nothing is received or sent for this long is closed
 * (Node's server.timeout): one whose client stopped reading its answer. It is
 * the request timeout, or the store timeout and a second if that is longer,
 * so that a call waiting for its store is never cut off.
 */
export function inactivityTimeout(config: Pick<Config, 'requestTimeoutMs' | 'storeTimeoutMs'>): number {
  return Math.max(config.requestTimeoutMs, config.storeTimeoutMs + 1000);
}

/**
 * Starts the service. `close` drains it: it stops accepting connections at
 * once, answers every request already sent (in flight, or arriving within
 * the grace on a connection that was open) with `Connection: close`, closes
 * each connection after its answer, then the idle ones, then the store; it
 * resolves once every connection is gone.
 */
export async function startService(
  config: Config,
  logger: Logger,
  clock: Clock = systemClock,
  thread?: WorkerThreadContext,
): Promise<RunningService> {
  // First: a wrong certificate or key stops start-up before anything else is opened.
  const readTls = () => (config.tlsCert && config.tlsKey ? loadTlsIdentity(config.tlsCert, config.tlsKey) : undefined);
  const tls = readTls();
  // A worker thread's process metrics are the main thread's, given once for the whole process.
  const metrics = createMetrics({ processMetrics: !thread, workerThread: thread !== undefined });
  const { store, stateKey } = createStore(config, {
    shared: thread?.shared,
    observe: () => storePressure(metrics.registry, logger, config),
    now: () => clock.now(),
  });
  if (!(await store.waitUntilReady(3000))) {
    // Start anyway: /readyz says not ready and ValidatePin fails closed until the store is reached.
    logger.warn({ event: 'store-unreachable' }, 'the state store cannot be reached yet');
  } else {
    await logStoreWarnings(store, logger);
  }
  await loadXmlEngine(); // before createApp, which compiles the schemas
  const app = createApp({ ...config, stateKey }, { logger, clock, store, metrics });
  const handle = app.callback();
  let draining = false;
  const answering = new Set<ServerResponse>();
  const hsts = tls && config.hstsMaxAge > 0 ? `max-age=${config.hstsMaxAge}` : undefined;
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (hsts) res.setHeader('Strict-Transport-Security', hsts);
    // While draining, every answer ends its connection, so no client sends another request on it.
    if (draining) res.setHeader('Connection', 'close');
    answering.add(res);
    res.once('close', () => answering.delete(res));
    void handle(req, res);
  };
  const server: Server = tls
    ? // A client has the headers timeout to complete its handshake too; one that stalls in it is then disconnected.
      createHttpsServer({ ...connectionLimits(config), ...secureContextOptions(tls), handshakeTimeout: config.headersTimeoutMs }, serve)
    : createServer(connectionLimits(config), serve);
  server.timeout = inactivityTimeout(config);
  // A client that waits for 100 Continue before sending a body over the limit is answered 413 without it, and sends nothing.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!announcedTooLarge(req, config.maxBodyBytes)) res.writeContinue();
    serve(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, reusePort: thread !== undefined }, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const redirector =
    tls && config.httpPort !== undefined
      ? await listenForHttpsRedirects(connectionLimits(config), config.host, config.httpPort, port, thread !== undefined).catch(
          async (error: unknown) => {
            server.close();
            await store.close();
            throw error;
          },
        )
      : undefined;
  let closing: Promise<void> | undefined;
  const close = async ({ idleGraceMs = 1000 }: CloseOptions = {}): Promise<void> => {
    draining = true;
    // net.Server's close stops accepting and resolves once every connection has ended. (http.Server's
    // own close would also destroy the idle keep-alive connections at once, and a request a client is
    // sending on one of them at that moment would be lost.)
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
    // Each redirect is the last answer on its connection: none to drain.
    const redirectsClosed = new Promise<void>((resolve) => (redirector ? redirector.server.close(() => resolve()) : resolve()));
    await Promise.all([allClosed, redirectsClosed]);
    clearTimeout(grace);
    clearInterval(sweep);
    await store.close();
  };
  let reloadTls: (() => TlsIdentity) | undefined;
  if (tls) {
    const expiry = tlsCertificateExpiry(metrics.registry);
    expiry.set(tls.notAfter);
    reloadTls = () => {
      const next = readTls() as TlsIdentity;
      (server as HttpsServer).setSecureContext(secureContextOptions(next));
      expiry.set(next.notAfter);
      return next;
    };
  }
  return {
    server,
    store,
    url: `${tls ? 'https' : 'http'}://${host}:${port}`,
    redirectUrl: redirector && `http://${host}:${redirector.port}`,
    close: (options) => (closing ??= close(options)),
    reloadTls,
  };
}
