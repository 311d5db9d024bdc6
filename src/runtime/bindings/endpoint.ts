/**
 * The service endpoint, the path of the WSDL's address (/api.asmx for
 * schema/): SOAP calls are POSTed to it; the other variants call
 * /api.asmx/{operation}, as JSON when the Content-Type says so and as HTTP
 * GET or POST (form) otherwise.
 */
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import { ENDPOINT_PATH, OPERATION_NAMES, ROUTES, type Handlers } from '../../../generated/routes';
import { httpBinding } from './http';
import { isJsonRequest, jsonBinding, refuseJsonGet } from './json';
import { soapBinding } from './soap';

export { ENDPOINT_PATH };

/** The paths under the endpoint that are not operations (the script proxy's). */
export const SCRIPT_PROXY_PATHS = [`${ENDPOINT_PATH}/js`, `${ENDPOINT_PATH}/jsdebug`];

/** The paths of the operations' HTTP GET, HTTP POST and JSON calls, as the contract spells them. */
export function operationPaths(): string[] {
  return OPERATION_NAMES.map((name) => `${ENDPOINT_PATH}/${ROUTES[name].httpOperation}`);
}

type OperationContext = CallContext & { params: Record<string, string> };
type Call = (ctx: OperationContext) => Promise<void>;

export interface EndpointCalls {
  /** POST /api.asmx */
  soap: Call;
  /** GET /api.asmx/{operation} */
  get: Call;
  /** POST /api.asmx/{operation} */
  post: Call;
}

export function endpointCalls(contract: Contract, handlers: Handlers): EndpointCalls {
  for (const path of operationPaths().map((p) => p.toLowerCase())) {
    if (SCRIPT_PROXY_PATHS.some((proxy) => proxy.toLowerCase() === path))
      throw new Error(`An operation's path ${path} is the script proxy's.`);
  }
  const jsonGet = refuseJsonGet(contract);
  const json = jsonBinding(contract, handlers);
  const httpGet = httpBinding(contract, handlers, 'GET');
  const httpPost = httpBinding(contract, handlers, 'POST');
  return {
    soap: soapBinding(contract, handlers),
    get: (ctx) => (isJsonRequest(ctx) ? jsonGet(ctx) : httpGet(ctx)),
    post: (ctx) => (isJsonRequest(ctx) ? json(ctx) : httpPost(ctx)),
  };
}
