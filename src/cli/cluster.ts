/**
 * `--workers N`: N worker processes share the listening port (node:cluster).
 * The primary serves no requests: it holds the embedded store for all
 * workers (or nothing, with Redis), restarts a worker that dies, and on
 * SIGTERM/SIGINT asks every worker to finish its in-flight calls and stop;
 * SIGHUP is passed on to every worker (each reloads its TLS certificate).
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createStore, isEmbedded } from '../state';
import type { StateStore } from '../state/store';
import { serveStoreTo } from '../state/ipc-store';
import { AggregatorRegistry, Registry } from 'prom-client';
import { answerMetricsRequests } from '../observability/metrics';
import { logStoreWarnings, storePressure } from '../observability/store-pressure';
import { exitAfterFlush } from '../observability/logger';

export function runPrimary(config: Config, argv: string[], logger: Logger): void {
  // The primary's own metrics: those of the embedded store it holds, added to every worker's scrape.
  const registry = new Registry();
  let store: StateStore | undefined;
  let stateKey = config.stateKey;
  if (isEmbedded(config.store)) ({ store, stateKey } = createStore(config, { observe: () => storePressure(registry, logger, config) }));
  // What the store found at start (a state file its last run did not close), said once, by the process that holds it.
  if (store) void logStoreWarnings(store, logger);
  // Every worker must name state alike: one state key for all (the state directory's, configured, or random).
  const env = { PIN_STATE_KEY: stateKey ?? randomBytes(32).toString('base64url') };
  cluster.setupPrimary({ args: argv });
  let stopping = false;
  // /metrics of a worker is the sum over all workers, collected here (observability/metrics.ts).
  const aggregator = new AggregatorRegistry();
  const fork = (): Worker => {
    const worker = cluster.fork(env);
    if (store) serveStoreTo(worker, store);
    worker.on('message', (message: unknown) => answerMetricsRequests(aggregator, registry, worker, message));
    return worker;
  };
  let failedStops = 0;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      // A worker that could not finish its calls in time exits 1; the primary then does too.
      if (code !== 0) failedStops++;
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        // The embedded store writes what is left before the primary exits.
        void (store?.close() ?? Promise.resolve()).then(
          () => {
            logger.info({ event: 'stopped', failedStops }, 'all workers stopped');
            exitAfterFlush(logger, failedStops === 0 ? 0 : 1);
          },
          () => {
            logger.error({ event: 'stop-failed' }, 'the state store did not close cleanly');
            exitAfterFlush(logger, 1);
          },
        );
      }
      return;
    }
    logger.error({ event: 'worker-exit', pid: worker.process.pid, code, signal }, 'a worker died; starting another');
    setTimeout(fork, 500).unref();
  });
  for (let i = 0; i < config.workers; i++) fork();
  logger.info(
    { event: 'primary', workers: config.workers, store: store ? `${config.store} (held by the primary)` : 'redis' },
    'cluster started',
  );

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'stopping', signal }, 'asking workers to finish in-flight calls');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => {
      logger.error({ event: 'stop-timeout' }, 'workers did not stop in time');
      exitAfterFlush(logger, 1);
    }, 15_000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) void (store?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Each worker serves its own copy of the certificate: each reads it again.
  process.on('SIGHUP', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  });
}
