/**
 * `pin-service serve`: the service, or with `--workers N` the primary of N
 * workers, until SIGTERM or SIGINT; SIGHUP reads the TLS certificate and
 * key again (with --tls-cert).
 */
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { ConfigError, parseConfig } from '../config';
import { createLogger, exitAfterFlush } from '../observability/logger';
import { startService } from '../server';
import { loadTlsIdentity, type TlsIdentity } from '../tls';
import { addressToOpen } from './commands';
import { runPrimary } from './cluster';
import { isEmbedded } from '../state';

export async function serve(args: string[]): Promise<void> {
  const config = parseConfig(args, process.env);
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) {
    // Checked here too: workers refused their certificate would be restarted without end.
    if (config.tlsCert && config.tlsKey) loadTlsIdentity(config.tlsCert, config.tlsKey);
    return runPrimary(config, args, logger);
  }
  const service = await startService(config, logger);
  const url = `${addressToOpen(service.url)}/api.asmx`;
  logger.info(
    {
      event: 'listening',
      url,
      namespace: config.namespace,
      store: isEmbedded(config.store) ? config.store : 'redis',
      ...(service.redirectUrl && { redirectingToHttps: addressToOpen(service.redirectUrl) }),
    },
    `service started: ${url}`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'stopping', signal }, 'finishing in-flight calls');
    // The grace period: 10 s in all, the log's last flush included (an unread stdout never delays the exit).
    const deadline = Date.now() + 10_000;
    const flushTime = () => Math.max(100, Math.min(1000, deadline - Date.now()));
    let closed = false;
    setTimeout(() => {
      if (closed) return;
      logger.error({ event: 'stop-timeout' }, 'in-flight calls did not finish in time');
      exitAfterFlush(logger, 1, 500);
    }, 9_500).unref();
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
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Handled even without TLS: SIGHUP (`systemctl reload`) must never stop the service.
  process.on('SIGHUP', () => reloadCertificate(service.reloadTls, logger));
  // A worker's SIGINT comes with the primary's (same terminal): the primary decides.
  if (cluster.isPrimary) process.on('SIGINT', () => stop('SIGINT'));
  else process.on('SIGINT', () => {});
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
