/**
 * The service, in order: request log and metrics → error answers → body reader →
 * routes (health, metrics, the contract's endpoint and documents, the plain
 * pages).
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import { CONTRACT } from '../generated/contract';
import { type Config, contractNamespace } from './config';
import { createHandlers, type Clock } from './handlers';
import { liveness, readiness } from './observability/health';
import { metricsEndpoint } from './observability/metrics-endpoint';
import type { Metrics } from './observability/metrics';
import { observeRequests } from './observability/observe-requests';
import { PAIRING_HELP, SERVICE_LEAD } from './pages/pairing-help';
import { plainPages } from './pages/plain-pages';
import { bodyReader } from './runtime/bindings/body';
import { errorResponse } from './runtime/bindings/error-response';
import type { CallState } from './runtime/call-state';
import { loadContract } from './runtime/contract';
import { addContractRoutes } from './runtime/contract-routes';
import { RouteTable } from './runtime/route-table';
import { createStateKeyHasher } from './state/keyed-hash';
import type { StateStore } from './state/store';

export interface AppDependencies {
  logger: Logger;
  clock: Clock;
  store: StateStore;
  metrics: Metrics;
}

/** Needs the XML engine loaded first (await loadXmlEngine()). */
export function createApp(config: Config, deps: AppDependencies): Koa<CallState> {
  const contract = loadContract(CONTRACT, contractNamespace(config));
  const { metrics } = deps;
  const handlers = createHandlers(config, deps.clock, {
    store: deps.store,
    stateKeyOf: createStateKeyHasher(config.stateKey),
    events: { replayRejected: () => metrics.replayRejections.inc(), throttled: () => metrics.throttled.inc() },
    unavailable: () => metrics.storeErrors.inc(),
  });
  const app = new Koa<CallState>({ proxy: config.trustProxy });
  app.silent = true; // errors are answered and logged by errorResponse

  const routes = new RouteTable().get('/healthz', liveness).get('/readyz', readiness(deps.store)).get('/metrics', metricsEndpoint(metrics));
  addContractRoutes(routes, contract, handlers, {
    publicUrl: config.publicUrl,
    throttled: ['ValidatePin'],
    lead: SERVICE_LEAD,
    extensions: { Pair: PAIRING_HELP },
  });
  for (const [path, page] of Object.entries(plainPages(handlers))) routes.get(path, page);

  app.use(observeRequests(deps.logger, metrics));
  // Inside the observation, which logs and counts the answer to an error too.
  app.use(errorResponse(deps.logger));
  // Bodies are read as bytes and parsed by the binding: XML by libxml2 (libxml2-wasm), forms by form.ts, JSON by JSON.parse.
  app.use(bodyReader(config.maxBodyBytes));
  app.use(routes.middleware());
  return app;
}
