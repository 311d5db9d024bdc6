/**
 * The routes that serve a contract, added to a service's route table: the
 * endpoint (SOAP 1.1 and 1.2 POSTed to it; HTTP GET, HTTP POST and JSON at
 * {endpoint}/{operation}), its description (?WSDL, ?disco, the help pages),
 * /openapi.json, the ASP.NET AJAX script proxy, /favicon.ico, and / leading to
 * the service page.
 */
import type { Contract } from './contract';
import type { Authenticate, Handlers, OperationName, OperationsOf } from './definition';
import type { SoapSecuritySettings } from './soap-stack/stack';
import type { MtomSettings } from './wire/mtom';
import { endpointCalls, scriptProxyPaths } from './bindings/endpoint';
import type { HelpOptions } from './help/pages';
import { favicon } from './pages/favicon';
import { openApiDescription } from './pages/openapi';
import { scriptProxy } from './pages/script-proxy';
import { serviceDescription, toServicePage, type EndpointSite } from './pages/service-description';
import type { RouteTable } from './route-table';

export interface ContractRouteOptions<Ops extends OperationsOf<Ops>> extends HelpOptions<OperationName<Ops>> {
  /** The base URL written into the documents (`https://example.com/prefix`); default: the request's own. */
  publicUrl?: string;
  /** The operations whose handlers refuse a caller for a while (429 and Retry-After): /openapi.json says so. */
  throttled?: readonly OperationName<Ops>[];
  /**
   * Judges the WS-Security UsernameToken of a SOAP call whose operation's policy asks for one (docs/soap-security.md):
   * a principal the handler sees on call.principal, or undefined (or a throw) to refuse the call.
   */
  authenticate?: Authenticate;
  /** The clock skew, nonce cache size and answer timestamp of the WS-Security checks (docs/soap-security.md). */
  soapSecurity?: SoapSecuritySettings;
  /** The part size and count limits of MTOM calls, and the size from which an MTOM answer's binary travels as an attachment (docs/soap-security.md, *MTOM*). */
  mtom?: MtomSettings;
}

export function addContractRoutes<Ops extends OperationsOf<Ops>>(
  table: RouteTable,
  contract: Contract<Ops>,
  handlers: Handlers<Ops>,
  { publicUrl, throttled, authenticate, soapSecurity, mtom, ...help }: ContractRouteOptions<Ops> = {},
): RouteTable {
  const { endpointPath, operationNames, routes } = contract.definition;
  const site: EndpointSite = { endpointPath, publicUrl };
  const calls = endpointCalls(contract, handlers, { authenticate, soapSecurity, mtom });
  table.get('/', toServicePage(site));
  table.get(endpointPath, serviceDescription(contract, site, help));
  table.get('/openapi.json', openApiDescription(contract, site, throttled));
  table.get('/favicon.ico', favicon);
  table.post(endpointPath, calls.soap);
  // Ports at other paths (a WCF service's Basic and WS endpoints) take the same calls; their documents are the endpoint's.
  for (const path of contract.definition.endpointPaths ?? []) {
    if (path === endpointPath) continue;
    table.post(path, calls.soap);
    table.get(path, serviceDescription(contract, site, help));
  }
  const proxy = scriptProxy(contract, site);
  for (const path of scriptProxyPaths(endpointPath)) table.get(path, proxy);
  // The operations under each port's path (an Axis2 service's HTTP port has its own), as the contract spells them,
  // answered without matching the pattern.
  for (const path of new Set([endpointPath, ...(contract.definition.endpointPaths ?? [])])) {
    const known = operationNames.map((name) => {
      const segment = routes[name].httpOperation;
      return [`${path}/${segment}`, { operation: segment }] as const;
    });
    table.get(`${path}/:operation`, (ctx, params) => calls.get(ctx, params.operation ?? ''), known);
    table.post(`${path}/:operation`, (ctx, params) => calls.post(ctx, params.operation ?? ''), known);
  }
  return table;
}
