import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Logger } from 'pino';
import { createApp } from './app';
import { type Config, readToken } from './config';
import { systemClock, type Clock } from './handlers/index';
import { createManagementApp } from './management';
import { createAuditTrail } from './observability/audit';
import { createMetrics } from './observability/metrics';
import { logStoreWarnings, storePressure } from './observability/store-pressure';
import { tlsCertificateExpiry } from './observability/tls-certificate';
import { listenForHttpsRedirects } from './https-redirect';
import { loadTlsIdentity, secureContextOptions, type TlsIdentity } from './tls';
import { type CloseOptions, connectionLimits, listen, loadXmlEngine } from '../runtime/host';
import { createStore, type SharedStore } from './state/index';
import { createStateKeyHasher } from './state/keyed-hash';
import type { StateStore } from './state/store';

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

export type { CloseOptions } from '../runtime/host';

export interface RunningService {
  server: Server;
  store: StateStore;
  url: string;
  /** With --http-port: the plain HTTP listener that redirects to `url`. */
  redirectUrl?: string;
  /** With --management-port: its address (/metrics, /healthz, /readyz, /admin/…). */
  managementUrl?: string;
  /** SIGHUP: the audit file (--audit-file) opened again, after a rotation. */
  reopenAudit(): void;
  close(options?: CloseOptions): Promise<void>;
  /**
   * With --tls-cert: reads the certificate and key again and serves them to
   * new connections (open ones keep theirs). A pair that fails the checks
   * throws ConfigError and the previous one stays.
   */
  reloadTls?(): TlsIdentity;
}

/** How long a client may take (docs/security.md, *Slow and oversized requests*): the runtime's listener applies it. */
export { connectionLimits };

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
  // Opened (or found failing, and said so) before the first call; each worker thread appends to the file with its own descriptor.
  const trail = createAuditTrail(config, logger, metrics);
  const app = createApp({ ...config, stateKey }, { logger, clock, store, metrics, trail });
  const handle = app.callback();
  const listener = await listen((req, res) => void handle(req, res), {
    ...config,
    inactivityTimeoutMs: inactivityTimeout(config),
    reusePort: thread !== undefined,
    tls: tls && secureContextOptions(tls),
    headers: tls && config.hstsMaxAge > 0 ? { 'Strict-Transport-Security': `max-age=${config.hstsMaxAge}` } : undefined,
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const { server } = listener;
  const host = new URL(listener.url).hostname;
  const management =
    config.managementPort === undefined
      ? undefined
      : await listenForOperators(config, { logger, clock, store, metrics, trail, stateKey }, thread !== undefined).catch(
          async (error: unknown) => {
            await listener.close({ idleGraceMs: 0 });
            await store.close();
            throw error;
          },
        );
  const redirector =
    tls && config.httpPort !== undefined
      ? await listenForHttpsRedirects(connectionLimits(config), config.host, config.httpPort, listener.port, thread !== undefined).catch(
          async (error: unknown) => {
            server.close();
            await management?.close({ idleGraceMs: 0 });
            await store.close();
            throw error;
          },
        )
      : undefined;
  let closing: Promise<void> | undefined;
  const close = async (options: CloseOptions = {}): Promise<void> => {
    // Each redirect is the last answer on its connection: none to drain.
    const redirectsClosed = new Promise<void>((resolve) => (redirector ? redirector.server.close(() => resolve()) : resolve()));
    await Promise.all([listener.close(options), redirectsClosed, management?.close(options)]);
    await store.close();
    trail.close();
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
    url: listener.url,
    redirectUrl: redirector && `http://${host}:${redirector.port}`,
    managementUrl: management?.url,
    reopenAudit: () => trail.reopen(),
    close: (options) => (closing ??= close(options)),
    reloadTls,
  };
}

/**
 * The management port's listener (management.ts). Its admin callers are
 * counted under a keyed hash of another key than secrets' (derived from the
 * state key), so that no secret's count is ever an admin caller's.
 */
async function listenForOperators(
  config: Config,
  deps: Omit<Parameters<typeof createManagementApp>[1], 'adminToken' | 'adminCallerKeyOf'> & { stateKey: string | undefined },
  reusePort: boolean,
) {
  const callerHash = createStateKeyHasher(deps.stateKey === undefined ? undefined : `${deps.stateKey}\nadmin callers`);
  const app = createManagementApp(config, {
    ...deps,
    adminToken: config.adminTokenFile === undefined ? undefined : readToken(config.adminTokenFile),
    adminCallerKeyOf: (address) => callerHash(Buffer.from(address, 'utf8')),
  });
  const handle = app.callback();
  return listen((req, res) => void handle(req, res), {
    ...config,
    host: config.managementHost,
    port: config.managementPort ?? 0,
    inactivityTimeoutMs: inactivityTimeout(config),
    reusePort,
  });
}
