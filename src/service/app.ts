/**
 * The service's public port, in the runtime's order (runtime/app-builder.ts):
 * request log and metrics → error answers → body reader → routes (health,
 * the contract's endpoint and documents, the plain pages; /metrics only with
 * --metrics-on-public-port, else on the management port: management.ts).
 */
import type Koa from 'koa';
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
import { addContractRoutes, buildApp, type CallState, loadContract, RouteTable } from '../runtime/host';
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
  const routes = new RouteTable().get('/healthz', liveness).get('/readyz', readiness(deps.store, trail));
  if (config.metricsOnPublicPort) routes.get('/metrics', metricsEndpoint(metrics));
  addContractRoutes(routes, contract, handlers, {
    publicUrl: config.publicUrl,
    throttled: ['ValidatePin'],
    lead: SERVICE_LEAD,
    extensions: { Pair: PAIRING_HELP },
  });
  for (const [path, page] of Object.entries(plainPages(handlers))) routes.get(path, page);

  return buildApp({
    requestLog: observeRequests(deps.logger, metrics),
    logger: deps.logger,
    maxBodyBytes: config.maxBodyBytes,
    routes,
    // With --trust-proxy, the caller's address is the last X-Forwarded-For entry: the one the nearest proxy (ours) added.
    trustProxy: config.trustProxy,
  });
}
