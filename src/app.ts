/**
 * The service, in order: request log and metrics → error answers → body reader →
 * routes (health, metrics, service description and help pages, SOAP, HTTP GET,
 * HTTP POST, JSON for browser scripts and its proxy, the plain pages of the
 * operations' modules).
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from 'pino';
import type { CallState } from './runtime/call-state';
import type { Config } from './config';
import { contractNamespace, loadContract } from './runtime/contract';
import { createHandlers, type Clock } from './handlers';
import { bodyReader } from './runtime/bindings/body';
import { errorResponse } from './runtime/bindings/error-response';
import { ENDPOINT_PATH, SCRIPT_PROXY_PATHS, endpointCalls, operationPaths } from './runtime/bindings/endpoint';
import { scriptProxy } from './runtime/pages/script-proxy';
import { operationExtras, type BoundHandler, type OperationExtras } from './handlers/by-convention';
import { openApiDescription } from './runtime/pages/openapi';
import { serviceDescription, toServicePage } from './runtime/pages/service-description';
import { liveness, readiness } from './observability/health';
import { metricsEndpoint } from './observability/metrics-endpoint';
import type { Metrics } from './observability/metrics';
import { observeRequests } from './observability/observe-requests';
import { routesWithLookup } from './runtime/route-lookup';
import { createStateKeyHasher } from './state/keyed-hash';
import type { StateStore } from './state/store';

export interface AppDependencies {
  logger: Logger;
  clock: Clock;
  store: StateStore;
  metrics: Metrics;
}

/** Needs the XML engine loaded first (await loadXmlEngine()). */
export function createApp(config: Config, deps: AppDependencies): Koa {
  const contract = loadContract(contractNamespace(config));
  const { metrics } = deps;
  const handlers = createHandlers(config, deps.clock, {
    store: deps.store,
    stateKeyOf: createStateKeyHasher(config.stateKey),
    events: { replayRejected: () => metrics.replayRejections.inc(), throttled: () => metrics.throttled.inc() },
    unavailable: () => metrics.storeErrors.inc(),
  });
  const app = new Koa<CallState>({ proxy: config.trustProxy });
  app.silent = true; // errors are answered and logged by errorResponse

  // Paths match case-insensitively (the router's default), as on IIS.
  const router = new Router<CallState>();
  router.get('/healthz', liveness);
  router.get('/readyz', readiness(deps.store));
  router.get('/metrics', metricsEndpoint(metrics));
  router.get('/', toServicePage(config));
  const calls = endpointCalls(contract, handlers);
  const extras = operationExtras();
  const having = (what: keyof OperationExtras) => [...extras].filter(([, e]) => e[what]).map(([operation]) => operation);
  router.get(ENDPOINT_PATH, serviceDescription(contract, config, new Set(having('showsPairing'))));
  router.get('/openapi.json', openApiDescription(config, having('throttles')));
  router.post(ENDPOINT_PATH, calls.soap);
  router.get(SCRIPT_PROXY_PATHS, scriptProxy(config));
  router.get(`${ENDPOINT_PATH}/:operation`, calls.get);
  router.post(`${ENDPOINT_PATH}/:operation`, calls.post);
  // The plain pages the operations' modules add (/pair.aspx, /qr.aspx, /validate.aspx for schema/).
  for (const [operation, { pages }] of extras) {
    const call = handlers[operation] as BoundHandler<typeof operation>;
    for (const [path, page] of Object.entries(pages ?? {})) router.get(path, page(call));
  }

  app.use(observeRequests(deps.logger, metrics));
  // Inside the observation, which logs and counts the answer to an error too.
  app.use(errorResponse(deps.logger));
  // Bodies are read as bytes and parsed by the binding: XML by libxml2 (libxml2-wasm), forms by form.ts, JSON by JSON.parse.
  app.use(bodyReader(config.maxBodyBytes));
  // The router, with its answer for the usual paths (its routes without parameters, the operations') worked out at start.
  app.use(routesWithLookup(router, operationPaths()));
  app.use(router.allowedMethods());
  return app;
}
