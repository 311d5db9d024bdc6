/**
 * The management port (--management-port, on --management-host: loopback
 * by default), for operators and their tools, apart from the callers' port:
 * /healthz, /readyz and /metrics, and with --admin-token-file the /admin/
 * endpoints (observability/admin.ts). In the runtime's order
 * (runtime/app-builder.ts): request log → error answers → routes; no body is
 * read.
 */
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Clock } from './handlers/index';
import { addAdminRoutes } from './observability/admin';
import type { AuditTrail } from './observability/audit';
import { liveness, readiness } from './observability/health';
import { metricsEndpoint } from './observability/metrics-endpoint';
import type { Metrics } from './observability/metrics';
import { buildApp, type CallState, requestLog, RouteTable } from '../runtime/host';
import type { StateStore } from './state/store';

export interface ManagementDependencies {
  logger: Logger;
  clock: Clock;
  store: StateStore;
  metrics: Metrics;
  trail: AuditTrail;
  /** The admin endpoints' token (--admin-token-file); none: no admin endpoints. */
  adminToken?: string;
  /** The store key of an admin caller's count of requests. */
  adminCallerKeyOf(address: string): string;
}

export function createManagementApp(config: Config, deps: ManagementDependencies): Koa<CallState> {
  const routes = new RouteTable()
    .get('/healthz', liveness)
    .get('/readyz', readiness(deps.store, deps.trail))
    .get('/metrics', metricsEndpoint(deps.metrics));
  if (deps.adminToken !== undefined) {
    addAdminRoutes(routes, config, {
      store: deps.store,
      trail: deps.trail,
      token: deps.adminToken,
      callerKeyOf: deps.adminCallerKeyOf,
      now: () => deps.clock.now(),
    });
  }
  return buildApp({
    requestLog: requestLog(deps.logger),
    logger: deps.logger,
    routes,
    // Its callers connect directly: the address is the connection's, whatever --trust-proxy says of the public port.
    trustProxy: false,
  });
}
