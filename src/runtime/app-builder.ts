/**
 * The one way a Koa app of the runtime is put together, for a contract served
 * on its own (contract-server.ts) and for each port of a service: in order, the request
 * log (which gives the call its id and logs its answer, so it runs first and
 * sees the answer to an error too), the error answers, the body reader (on a
 * port that takes bodies), then the route table. Errors are answered and
 * logged by errorResponse, so Koa's own error printing is off (`silent`).
 *
 * Behind a trusted proxy (`trustProxy`), the caller's address is the last
 * entry of X-Forwarded-For, the one the nearest proxy added (Koa's
 * `maxIpsCount: 1`): the entries before it are the caller's to write.
 */
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import { bodyReader } from './bindings/body';
import { errorResponse } from './bindings/error-response';
import type { CallState } from './call-state';
import type { RouteTable } from './route-table';

export interface AppParts {
  /** The request log: the runtime's requestLog (request-log.ts), or one that also observes each record. */
  requestLog: Middleware<CallState>;
  /** Where the error answers log what went wrong. */
  logger: Logger;
  /** The largest request body read (413 beyond); absent: bodies are not read (a port that takes none). */
  maxBodyBytes?: number;
  routes: RouteTable;
  /** Take the caller's address, host and scheme from the nearest proxy's X-Forwarded-* headers. */
  trustProxy: boolean;
}

export function buildApp(parts: AppParts): Koa<CallState> {
  const app = new Koa<CallState>({ proxy: parts.trustProxy, maxIpsCount: 1 });
  app.silent = true; // errors are answered and logged by errorResponse
  app.use(parts.requestLog);
  // Inside the request log, which logs (and observes) the answer to an error too.
  app.use(errorResponse(parts.logger));
  // Bodies are read as bytes and parsed by the binding: XML by libxml2, forms by form.ts, JSON by JSON.parse.
  if (parts.maxBodyBytes !== undefined) app.use(bodyReader(parts.maxBodyBytes));
  app.use(parts.routes.middleware());
  return app;
}
