/** `pin-service serve`: the service, or with `--workers N` the primary of N workers, until SIGTERM or SIGINT. */
import cluster from 'node:cluster';
import { parseConfig } from '../config';
import { createLogger, exitAfterFlush } from '../observability/logger';
import { startService } from '../server';
import { addressToOpen } from './commands';
import { runPrimary } from './cluster';
import { isEmbedded } from '../state';

export async function serve(args: string[]): Promise<void> {
  const config = parseConfig(args, process.env);
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, args, logger);
  const service = await startService(config, logger);
  const url = `${addressToOpen(service.url)}/api.asmx`;
  logger.info(
    { event: 'listening', url, namespace: config.namespace, store: isEmbedded(config.store) ? config.store : 'redis' },
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
  // A worker's SIGINT comes with the primary's (same terminal): the primary decides.
  if (cluster.isPrimary) process.on('SIGINT', () => stop('SIGINT'));
  else process.on('SIGINT', () => {});
}
