/**
 * The service endpoint, /api.asmx: SOAP calls are POSTed to it; the other
 * variants call /api.asmx/{operation}, as JSON when the Content-Type says so
 * and as HTTP GET or POST (form) otherwise.
 */
import type { Next } from 'koa';
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import { OPERATION_NAMES, ROUTES, type Handlers } from '../../generated/routes';
import { httpBinding } from './http';
import { isJsonRequest, jsonBinding, refuseJsonGet } from './json';
import { soapBinding } from './soap';

export const ENDPOINT_PATH = '/api.asmx';

/** The paths under the endpoint that are not operations (the script proxy's). */
export const SCRIPT_PROXY_PATHS = [`${ENDPOINT_PATH}/js`, `${ENDPOINT_PATH}/jsdebug`];

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

/**
 * The paths nearly every call takes — POST /api.asmx and GET or POST
 * /api.asmx/{operation}, in any letter case — found with one lookup before
 * the router, which holds the same calls for every other spelling (a
 * trailing slash, percent-encoded letters, HEAD) and for every other path.
 * Such a call's body is read here (`readBody`, the body reader's own step)
 * and its binding called at once; any other request goes on to the body
 * reader and the router.
 */
export function operationPaths(calls: EndpointCalls, readBody: (ctx: CallContext) => Promise<void>) {
  const endpoint = ENDPOINT_PATH.toLowerCase();
  const segments = new Map(
    OPERATION_NAMES.map((name) => [`${endpoint}/${ROUTES[name].httpOperation.toLowerCase()}`, ROUTES[name].httpOperation]),
  );
  for (const path of SCRIPT_PROXY_PATHS) {
    if (segments.has(path.toLowerCase())) throw new Error(`An operation's path ${path} is the script proxy's.`);
  }
  /** The binding of a usual call, or undefined for anything else. */
  const callOf = (ctx: CallContext): Call | undefined => {
    const path = ctx.path.toLowerCase();
    const method = ctx.method;
    if (path === endpoint) return method === 'POST' ? calls.soap : undefined;
    if (!segments.has(path) || (method !== 'GET' && method !== 'POST')) return undefined;
    (ctx as OperationContext).params = { operation: ctx.path.slice(endpoint.length + 1) };
    return method === 'GET' ? calls.get : calls.post;
  };
  return async function operationPath(ctx: CallContext, next: Next): Promise<void> {
    const call = callOf(ctx);
    if (call === undefined) return next();
    await readBody(ctx);
    return call(ctx as OperationContext);
  };
}
