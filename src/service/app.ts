/**
 * The service, in order: request log and metrics → error answers → body reader →
 * routes (health, the
 * contract's endpoint and documents, the plain pages; /metrics only with
 * --metrics-on-public-port, else on the management port: management.ts).
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import { CONTRACT } from '../../generated/contract';
import { type Config, contractNamespace } from './config';
import { createHandlers, type Clock } from './handlers/index';
import { type AuditTrail, createAuditTrail } from './observability/audit';
import { liveness, readiness } from './observability/health';
import { metricsEndpoint } from './observability/metrics-endpoint';
import type { Metrics } from './observability/metrics';
import { observeRequests } from './observability/observe-requests';
import { auditedOutcomes } from './observability/outcomes';
import { PAIRING_HELP, SERVICE_LEAD } from './pages/pairing-help';
import { plainPages } from './pages/plain-pages';
import { bodyReader } from '../runtime/bindings/body';
import { errorResponse } from '../runtime/bindings/error-response';
import type { CallState } from '../runtime/call-state';
import { loadContract } from '../runtime/contract';
import { addContractRoutes } from '../runtime/contract-routes';
import { RouteTable } from '../runtime/route-table';
import { createStateKeyHasher } from './state/keyed-hash';
import type { StateStore } from './state/store';

export interface AppDependencies {
  logger: Logger;
  clock: Clock;
  store: StateStore;
  metrics: Metrics;
  /** Where audit lines go; default: the log only. */
  trail?: AuditTrail;
}

/** Needs the XML engine loaded first (await loadXmlEngine()). */
export function createApp(config: Config, deps: AppDependencies): Koa<CallState> {
  const contract = loadContract(CONTRACT, contractNamespace(config));
  const { metrics } = deps;
  const trail = deps.trail ?? createAuditTrail({ auditFile: undefined, auditRequired: false }, deps.logger, metrics);
  const handlers = createHandlers(config, deps.clock, {
    store: deps.store,
    stateKeyOf: createStateKeyHasher(config.stateKey),
    outcomes: auditedOutcomes(trail, metrics),
    unavailable: () => metrics.storeErrors.inc(),
  });
  // With --trust-proxy, the caller's address is the last one in X-Forwarded-For: the one the nearest proxy (ours) added.
  // Those before it were sent by the caller, who can write anything there.
  const app = new Koa<CallState>({ proxy: config.trustProxy, maxIpsCount: 1 });
  app.silent = true; // errors are answered and logged by errorResponse

  const routes = new RouteTable().get('/healthz', liveness).get('/readyz', readiness(deps.store, trail));
  if (config.metricsOnPublicPort) routes.get('/metrics', metricsEndpoint(metrics));
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
