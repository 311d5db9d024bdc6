/**
 * `--workers N`: N worker threads of this one process serve requests, each
 * listening on the service's port with SO_REUSEPORT (the kernel spreads
 * connections over them). The main thread serves no requests: it holds the
 * embedded store in shared memory (every thread reads and changes the one
 * table directly, under its lock: no hop per call) and writes it behind to
 * the state file, restarts a worker thread that dies, answers /metrics
 * scrapes with the sum over all threads, and on SIGTERM/SIGINT asks every
 * worker thread to finish its in-flight calls and stop, then writes what is
 * left and closes the file; SIGHUP is passed on (each thread reloads its
 * TLS certificate and opens its audit file again).
 */
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Config } from '../config';
import { createStore, storeBackend, type SharedStore } from '../state/index';
import { lockHolderOf } from '../state/memory-store';
import type { StateStore } from '../state/store';
import { answerScrapeRequests } from '../observability/metrics';
import { logStoreWarnings, storePressure } from '../observability/store-pressure';
import { exitAfterFlush } from '../observability/logger';

/** What a worker thread is started with (workerData). */
export interface WorkerThreadData {
  kind: 'pin-worker';
  /** The embedded store, shared; none with Redis. */
  shared?: SharedStore;
  /** The ports the first thread listened on (--port 0, --http-port 0, --management-port 0 pick them once, for all). */
  port?: number;
  httpPort?: number;
  managementPort?: number;
}

/** What the main thread tells a worker thread. */
export type ToWorkerThread = { kind: 'pin-stop' } | { kind: 'pin-reload' };
/** What a worker thread tells the main thread. */
export type FromWorkerThread =
  | { kind: 'pin-listening'; port: number; httpPort?: number; managementPort?: number }
  | { kind: 'pin-start-failed'; text: string; code: number };

export const isToWorkerThread = (m: unknown): m is ToWorkerThread =>
  (m as ToWorkerThread)?.kind === 'pin-stop' || (m as ToWorkerThread)?.kind === 'pin-reload';
const isFromWorkerThread = (m: unknown): m is FromWorkerThread =>
  (m as FromWorkerThread)?.kind === 'pin-listening' || (m as FromWorkerThread)?.kind === 'pin-start-failed';

/** A worker thread that dies is started again after this long. */
const RESTART_DELAY_MS = 500;
/** How long the worker threads have to finish their calls after SIGTERM (each has 10 s of its own). */
const STOP_TIMEOUT_MS = 15_000;

export function runWorkerThreads(config: Config, argv: string[], entry: string, logger: Logger): void {
  // The process's own metrics (CPU, memory, the runtime), once; and those of the embedded store held here.
  const own = new Registry();
  collectDefaultMetrics({ register: own, prefix: 'pin_' });
  const shared = new Registry();
  let store: StateStore | undefined;
  let shares: SharedStore | undefined;
  let stateKey = config.stateKey;
  if (storeBackend(config.store).embedded)
    ({ store, stateKey, shares } = createStore(config, { share: true, observe: () => storePressure(shared, logger, config) }));
  // What the store found at start (a state file its last run did not close), said once, by the thread that holds it.
  if (store) void logStoreWarnings(store, logger);
  // Every worker thread must name state alike: one state key for all (the state directory's, configured, or random).
  const env = { ...process.env, PIN_STATE_KEY: stateKey ?? randomBytes(32).toString('base64url') };
  const workers = new Set<Worker>();
  let ports: { port: number; httpPort?: number; managementPort?: number } | undefined;
  let stopping = false;
  /** A start failed: every thread is being ended at once (stopAll), and the process exits with the thread's code. */
  let aborting = false;
  let failedStops = 0;
  /** Writes what the embedded store has left and closes its file (nothing to do with Redis). */
  const closeStore = () => store?.close() ?? Promise.resolve();

  const start = (): Worker => {
    const workerData: WorkerThreadData = { kind: 'pin-worker', shared: shares, ...ports };
    const worker = new Worker(entry, { argv, env, workerData, stdout: false, stderr: false });
    workers.add(worker);
    let listening = false;
    worker.on('message', (message: unknown) => {
      answerScrapeRequests(worker, message, () => [...workers], shared, own);
      if (!isFromWorkerThread(message)) return;
      if (message.kind === 'pin-listening') {
        listening = true;
        if (!ports) {
          const { port, httpPort, managementPort } = message;
          ports = { port, ...(httpPort !== undefined && { httpPort }), ...(managementPort !== undefined && { managementPort }) };
          // The others listen beside the first, on the ports it was given (unless the service is stopping already).
          if (!stopping) for (let i = 1; i < config.workers; i++) start();
        }
      } else {
        // A thread that cannot start (a port in use, say): the service cannot either.
        process.stderr.write(`${message.text}\n`);
        stopAll(message.code);
      }
    });
    // An uncaught error ends the thread ('exit' follows): said without its stack, which may hold request data.
    worker.on('error', (error: Error) =>
      logger.error({ event: 'worker-error', threadId: worker.threadId, type: error?.name }, 'a worker thread failed'),
    );
    const threadId = worker.threadId;
    worker.on('exit', (code) => {
      workers.delete(worker);
      if (aborting) return;
      if (shares && lockHolderOf(shares.table, config.storeMaxEntries) === threadId) {
        // Ended mid-operation (out of memory, say): the table is half-changed and its lock held for good. Stop as a
        // crash does, without writing that table: the state file holds what was written up to the last batch.
        logger.fatal({ event: 'store-lock-lost', threadId, code }, 'a worker thread ended inside a store operation: stopping');
        exitAfterFlush(logger, 1);
        return;
      }
      if (stopping) {
        // A worker thread that could not finish its calls in time exits 1; the process then does too.
        if (code !== 0) failedStops++;
        if (workers.size === 0) finish();
        return;
      }
      if (!listening && !ports) return stopAll(1);
      logger.error({ event: 'worker-exit', threadId, code }, 'a worker thread died; starting another');
      setTimeout(start, RESTART_DELAY_MS).unref();
    });
    return worker;
  };

  const finish = () => {
    // The embedded store writes what is left before the process exits.
    void closeStore().then(
      () => {
        logger.info({ event: 'stopped', failedStops }, 'all worker threads stopped');
        exitAfterFlush(logger, failedStops === 0 ? 0 : 1);
      },
      () => {
        logger.error({ event: 'stop-failed' }, 'the state store did not close cleanly');
        exitAfterFlush(logger, 1);
      },
    );
  };

  /** Ends every thread at once, then the process (a start that failed). */
  const stopAll = (code: number) => {
    if (aborting) return;
    aborting = stopping = true;
    void Promise.all([...workers].map((worker) => worker.terminate())).finally(() =>
      closeStore().finally(() => exitAfterFlush(logger, code)),
    );
  };

  // The first thread picks the ports; the others start once it listens.
  start();
  logger.info(
    { event: 'primary', workers: config.workers, store: store ? `${config.store} (shared by the worker threads)` : 'redis' },
    'worker threads started',
  );

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'stopping', signal }, 'asking worker threads to finish in-flight calls');
    for (const worker of workers) worker.postMessage({ kind: 'pin-stop' } satisfies ToWorkerThread);
    setTimeout(() => {
      logger.error({ event: 'stop-timeout' }, 'worker threads did not stop in time');
      // What the store holds is still written: the calls answered so far stay answered after a restart.
      void closeStore().finally(() => exitAfterFlush(logger, 1));
    }, STOP_TIMEOUT_MS).unref();
    if (workers.size === 0) finish();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Each worker thread serves its own copy of the certificate, and appends to the audit file with its own descriptor.
  process.on('SIGHUP', () => {
    for (const worker of workers) worker.postMessage({ kind: 'pin-reload' } satisfies ToWorkerThread);
  });
}
