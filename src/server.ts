import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app';
import type { Config } from './config';
import { systemClock, type Clock } from './handlers';
import { createMetrics } from './observability/metrics';
import { createStore } from './state';
import type { StateStore } from './state/store';

export interface RunningService {
  server: Server;
  store: StateStore;
  url: string;
  close(): Promise<void>;
}

/** Starts the service; `close` stops accepting and resolves once in-flight calls have finished. */
export async function startService(config: Config, logger: Logger, clock: Clock = systemClock): Promise<RunningService> {
  const store = createStore(config, () => clock.now());
  if (!(await store.waitUntilReady(3000))) {
    // Start anyway: /readyz says not ready and ValidatePin fails closed until the store is reached.
    logger.warn({ event: 'store-unreachable' }, 'the state store cannot be reached yet');
  }
  const metrics = createMetrics({ processMetrics: true });
  const app = createApp(config, { logger, clock, store, metrics });
  const server = createServer(app.callback());
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    server,
    store,
    url: `http://${host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await store.close();
    },
  };
}
