/**
 * `pin-service serve`: the service, or with `--workers N` the main thread of
 * N worker threads (workers.ts), until SIGTERM or SIGINT; SIGHUP reads the
 * TLS certificate and key again (with --tls-cert) and opens the audit file
 * again (with --audit-file). A worker thread is told the same by its main
 * thread, in messages.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Logger } from 'pino';
import { ConfigError, contractNamespace, readConfig } from '../config';
import { createLogger, exitAfterFlush } from '../observability/logger';
import { type RunningService, startService } from '../server';
import { loadTlsIdentity, type TlsIdentity } from '../tls';
import { addressToOpen } from './commands';
import { isToWorkerThread, runWorkerThreads, type FromWorkerThread, type ToWorkerThread, type WorkerThreadData } from './workers';
import { storeBackend } from '../state/index';
import { ENDPOINT_PATH } from '../../../generated/routes';

/** How long a stop may take, the log's last flush included: deploy/kubernetes/ gives the pod this and its preStop pause. */
export const STOP_GRACE_MS = 10_000;

/** This thread is a worker thread of `--workers`: what its main thread gave it. */
export const workerThread: WorkerThreadData | undefined =
  !isMainThread && (workerData as WorkerThreadData | undefined)?.kind === 'pin-worker' ? (workerData as WorkerThreadData) : undefined;

export async function serve(args: string[], entry: string): Promise<void> {
  const thread = workerThread;
  const reading = readConfig(args, process.env);
  let config = reading.config;
  const logger = createLogger(config.logLevel);
  // Once a process: a worker thread reads the same environment.
  if (!thread && reading.serviceLinks.length > 0) logServiceLinks(logger, reading.serviceLinks);
  if (config.workers > 1 && !thread) {
    // Checked here too: worker threads refused their certificate would be restarted without end.
    if (config.tlsCert && config.tlsKey) loadTlsIdentity(config.tlsCert, config.tlsKey);
    return runWorkerThreads(config, args, entry, logger);
  }
  // A worker thread hears its main thread from the start: a stop sent while it is still starting is kept, not lost.
  const early: ToWorkerThread[] = [];
  let heard: (message: ToWorkerThread) => void = (message) => {
    early.push(message);
  };
  if (thread) parentPort?.on('message', (message: ToWorkerThread) => (isToWorkerThread(message) ? heard(message) : undefined));
  // The ports the first worker thread was given, for the others.
  if (thread?.port !== undefined)
    config = {
      ...config,
      port: thread.port,
      ...(thread.httpPort !== undefined && { httpPort: thread.httpPort }),
      ...(thread.managementPort !== undefined && { managementPort: thread.managementPort }),
    };
  const service = await startService(config, logger, undefined, thread && { shared: thread.shared });
  if (thread) {
    const port = Number(new URL(service.url).port);
    const httpPort = service.redirectUrl ? Number(new URL(service.redirectUrl).port) : undefined;
    const managementPort = service.managementUrl ? Number(new URL(service.managementUrl).port) : undefined;
    parentPort?.postMessage({
      kind: 'pin-listening',
      port,
      ...(httpPort !== undefined && { httpPort }),
      ...(managementPort !== undefined && { managementPort }),
    } satisfies FromWorkerThread);
  }
  const url = `${addressToOpen(service.url)}${ENDPOINT_PATH}`;
  logger.info(
    {
      event: 'listening',
      url,
      namespace: contractNamespace(config),
      store: storeBackend(config.store).kind,
      ...(service.redirectUrl && { redirectingToHttps: addressToOpen(service.redirectUrl) }),
      ...(service.managementUrl && { management: service.managementUrl }),
    },
    `service started: ${url}`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'stopping', signal }, 'finishing in-flight calls');
    // The grace period: 10 s in all, the log's last flush included (an unread stdout never delays the exit).
    const deadline = Date.now() + STOP_GRACE_MS;
    const flushTime = () => Math.max(100, Math.min(1000, deadline - Date.now()));
    let closed = false;
    setTimeout(() => {
      if (closed) return;
      logger.error({ event: 'stop-timeout' }, 'in-flight calls did not finish in time');
      exitAfterFlush(logger, 1, 500);
    }, STOP_GRACE_MS - 500).unref();
    service.close().then(
      () => {
        closed = true;
        logger.info({ event: 'stopped' }, 'service stopped');
        exitAfterFlush(logger, 0, flushTime());
      },
      (error: unknown) => {
        closed = true;
        logger.error({ event: 'stop-failed', type: (error as Error)?.name }, 'the service did not stop cleanly');
        exitAfterFlush(logger, 1, flushTime());
      },
    );
  };
  if (thread) {
    // Signals reach the main thread only: it passes them on.
    heard = (message) => (message.kind === 'pin-stop' ? stop('SIGTERM') : reload(service, logger));
    for (const message of early.splice(0)) heard(message);
    return;
  }
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Handled even without TLS: SIGHUP (`systemctl reload`) must never stop the service.
  process.on('SIGHUP', () => reload(service, logger));
}

/** SIGHUP: the audit file opened again (logrotate has moved it), and the TLS certificate read again. */
function reload(service: RunningService, logger: Logger): void {
  service.reopenAudit();
  reloadCertificate(service.reloadTls, logger);
}

/** Kubernetes' service links look like settings (PIN_SERVICE_…, PIN_PORT=tcp://…): said once, by name (never a value). */
function logServiceLinks(logger: Logger, variables: string[]): void {
  logger.warn(
    { event: 'service-links-ignored', variables },
    `ignored ${variables.join(', ')}: Kubernetes service links, not settings (set enableServiceLinks: false in the pod spec to leave them out)`,
  );
}

/** SIGHUP (what a certificate renewal hook sends): the new pair for new connections, or the old one kept and why. */
function reloadCertificate(reloadTls: (() => TlsIdentity) | undefined, logger: Logger): void {
  if (!reloadTls) {
    logger.info({ event: 'reload' }, 'SIGHUP: nothing to read again (no --tls-cert)');
    return;
  }
  try {
    const { serialNumber, notAfter } = reloadTls();
    logger.info({ event: 'tls-reloaded', serialNumber, notAfter: notAfter.toISOString() }, 'certificate and key read again');
  } catch (error) {
    const reason = error instanceof ConfigError ? error.message : 'the certificate could not be loaded';
    logger.error({ event: 'tls-reload-failed', reason }, `kept the previous certificate: ${reason}`);
  }
}
