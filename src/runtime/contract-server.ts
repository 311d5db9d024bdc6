/**
 * A contract served on its own: its routes (runtime/contract-routes.ts),
 * /healthz, one log line per request, the error answers and the body reader,
 * on the runtime's listener, until SIGTERM or SIGINT drain it. What a team
 * that brings a WSDL and writes its handlers runs, and what the mock serves;
 * a service with more to do (state, metrics, TLS) composes the same parts
 * itself.
 */
import type Koa from 'koa';
import pino, { type Logger } from 'pino';
import { buildApp } from './app-builder';
import type { CallState } from './call-state';
import { loadContract } from './contract';
import { addContractRoutes, type ContractRouteOptions } from './contract-routes';
import type { ContractDefinition, Handlers, OperationsOf } from './definition';
import { listen, type CloseOptions } from './listener';
import { liveness, requestLog } from './request-log';
import { RouteTable } from './route-table';
import { HOST_SETTINGS, type HostSettings } from './listener-settings';
import { ConfigError } from './settings';
import { loadXmlEngine } from './xml/xml-engine';

/** What a contract served on its own takes beyond its settings: the help pages' texts, the authenticate hook (ContractRouteOptions). */
export type ContractAppOptions<Ops extends OperationsOf<Ops>> = Omit<ContractRouteOptions<Ops>, 'publicUrl'>;

/** The Koa app of a contract served on its own. Needs the XML engine loaded (loadXmlEngine). */
export function createContractApp<Ops extends OperationsOf<Ops>>(
  definition: ContractDefinition<Ops>,
  handlers: Handlers<Ops>,
  settings: Pick<HostSettings, 'namespace' | 'publicUrl' | 'trustProxy' | 'maxBodyBytes'>,
  logger: Logger,
  options: ContractAppOptions<Ops> = {},
): Koa<CallState> {
  const contract = loadContract(definition, settings.namespace ?? definition.targetNamespace);
  const routes = new RouteTable().get('/healthz', liveness);
  addContractRoutes(routes, contract, handlers, { ...options, publicUrl: settings.publicUrl });
  return buildApp({
    requestLog: requestLog(logger),
    logger,
    maxBodyBytes: settings.maxBodyBytes,
    routes,
    trustProxy: settings.trustProxy,
  });
}

export interface ServedContract {
  url: string;
  /** The endpoint's address, e.g. `http://127.0.0.1:8080/Service.asmx`. */
  endpoint: string;
  close(options?: CloseOptions): Promise<void>;
}

/** Serves a contract with its handlers until closed. */
export async function serveContract<Ops extends OperationsOf<Ops>>(
  definition: ContractDefinition<Ops>,
  handlers: Handlers<Ops>,
  settings: HostSettings,
  logger: Logger = pino({ level: settings.logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }),
  options: ContractAppOptions<Ops> = {},
): Promise<ServedContract> {
  await loadXmlEngine();
  const app = createContractApp(definition, handlers, settings, logger, options);
  const handle = app.callback();
  const listener = await listen((req, res) => void handle(req, res), {
    ...settings,
    inactivityTimeoutMs: settings.requestTimeoutMs,
  });
  return { url: listener.url, endpoint: `${listener.url}${definition.endpointPath}`, close: listener.close };
}

/**
 * The command line of a contract served on its own: `--help`, the settings,
 * one `listening` line, and a drained stop on SIGTERM or SIGINT. A mistake
 * in the settings is one line on stderr and exit status 2.
 */
export async function runContractServer<Ops extends OperationsOf<Ops>>(
  definition: ContractDefinition<Ops>,
  handlers: Handlers<Ops>,
  argv: readonly string[] = process.argv.slice(2),
  options: ContractAppOptions<Ops> = {},
): Promise<ServedContract | undefined> {
  if (argv.includes('--help')) {
    const rows = HOST_SETTINGS.rows.map(
      (row) => `  ${`${row.flag} <${row.values}>`.padEnd(36)}${row.help} (default: ${row.default ?? 'none'})`,
    );
    process.stdout.write(`Serves ${definition.serviceName} at ${definition.endpointPath}.\n\n${rows.join('\n')}\n`);
    return undefined;
  }
  let settings: HostSettings;
  try {
    settings = HOST_SETTINGS.parse(argv, {});
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${definition.serviceName}: ${error.message}\n`);
    process.exitCode = 2;
    return undefined;
  }
  const logger = pino({ level: settings.logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
  const served = await serveContract(definition, handlers, settings, logger, options);
  logger.info({ event: 'listening', url: served.endpoint }, `${definition.serviceName} at ${served.endpoint}`);
  const stop = (signal: string) => {
    logger.info({ event: 'stopping', signal }, 'finishing in-flight calls');
    // The grace period: 10 s in all.
    setTimeout(() => process.exit(1), 10_000).unref();
    void served.close().then(() => {
      logger.info({ event: 'stopped' }, 'stopped');
      logger.flush();
      process.exitCode = 0;
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return served;
}
