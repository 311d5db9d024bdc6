/**
 * The service endpoint, the path of the WSDL's address (/Service.asmx, say):
 * SOAP calls are POSTed to it; the other variants call
 * {endpoint}/{operation}, as JSON when the Content-Type says so and as HTTP
 * GET or POST (form) otherwise.
 */
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import type { ContractDefinition, Handlers, OperationsOf } from '../definition';
import { httpBinding } from './http';
import { isJsonRequest, jsonBinding, refuseJsonGet } from './json';
import { type SoapBindingOptions, soapBinding } from './soap';

/** The paths under the endpoint that are not operations (the script proxy's). */
export function scriptProxyPaths(endpointPath: string): string[] {
  return [`${endpointPath}/js`, `${endpointPath}/jsdebug`];
}

/** The paths of the operations' HTTP GET, HTTP POST and JSON calls, as the contract spells them. */
export function operationPaths<Ops extends OperationsOf<Ops>>(definition: ContractDefinition<Ops>): string[] {
  return definition.operationNames.map((name) => `${definition.endpointPath}/${definition.routes[name].httpOperation}`);
}

/** A call of the endpoint: `segment` is the operation's path segment ({endpoint}/{segment}), as the caller spelt it. */
type OperationCall = (ctx: CallContext, segment: string) => Promise<void>;

export interface EndpointCalls {
  /** POST {endpoint} */
  soap: (ctx: CallContext) => Promise<void>;
  /** GET {endpoint}/{operation} */
  get: OperationCall;
  /** POST {endpoint}/{operation} */
  post: OperationCall;
}

export function endpointCalls<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  handlers: Handlers<Ops>,
  soap: SoapBindingOptions = {},
): EndpointCalls {
  const proxies = scriptProxyPaths(contract.definition.endpointPath).map((p) => p.toLowerCase());
  for (const path of operationPaths(contract.definition).map((p) => p.toLowerCase())) {
    if (proxies.includes(path)) throw new Error(`An operation's path ${path} is the script proxy's.`);
  }
  const jsonGet = refuseJsonGet(contract);
  const json = jsonBinding(contract, handlers);
  const httpGet = httpBinding(contract, handlers, 'GET');
  const httpPost = httpBinding(contract, handlers, 'POST');
  return {
    soap: soapBinding(contract, handlers, soap),
    get: (ctx, segment) => (isJsonRequest(ctx) ? jsonGet(ctx, segment) : httpGet(ctx, segment)),
    post: (ctx, segment) => (isJsonRequest(ctx) ? json(ctx, segment) : httpPost(ctx, segment)),
  };
}
