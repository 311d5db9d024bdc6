/**
 * The HTTP GET and HTTP POST (form) bindings: {endpoint}/{operation}, fields
 * as query parameters or form fields, the answer a bare XML element. An
 * operation whose WSDL binds an XML body (Axis2's HTTP binding) is POSTed its
 * SOAP request element, validated as a SOAP body's is, and answered with the
 * SOAP answer's element.
 */
import { type CallContext, callOf, noHeaders } from '../call-state';
import type { Contract } from '../contract';
import type { Call, Handlers, HeadersOf, OperationName, OperationsOf, Route } from '../definition';
import { ServiceError, clientError } from '../errors';
import { requestBody, requestBytes } from './body';
import { decodeValidated } from './soap';
import { withUntrustedXml } from './untrusted-xml';
import { parseUrlEncoded, requestOfFields } from './form';
import { HTTP_CONTENT_TYPE } from '../wire/content-types';

export function httpBinding<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>, handlers: Handlers<Ops>, verb: 'GET' | 'POST') {
  // Each operation's field names by their lower-case spelling.
  const fieldNames = new Map(
    contract.definition.operationNames.map((operation) => [
      operation,
      new Map(contract.definition.routes[operation].httpFields.map((f) => [f.toLowerCase(), f])),
    ]),
  );
  const variant = verb === 'GET' ? 'httpGet' : 'httpPost';
  return async function http(ctx: CallContext, segment: string): Promise<void> {
    ctx.state.variant = variant;
    contract.refuseUndeclared(variant);
    const route = routeOfPath(contract, ctx, segment);
    if (route.httpXml) {
      if (verb === 'GET') throw new ServiceError('method-not-allowed', 'POST the request element as XML.');
      const call = callOf(ctx, route.operation, variant, noHeaders(route));
      ctx.body = await xmlBodyCall(call, route, ctx, contract, handlers);
      ctx.set('Content-Type', `${route.httpXml}; charset=utf-8`);
      return;
    }
    let fields: Map<string, string[]>;
    if (verb === 'GET') {
      fields = parseUrlEncoded(ctx.querystring);
    } else {
      if (ctx.request.type !== 'application/x-www-form-urlencoded') {
        throw new ServiceError(
          'unsupported-media-type',
          'POST the fields as application/x-www-form-urlencoded, or a JSON object as application/json.',
        );
      }
      fields = parseUrlEncoded(requestBody(ctx));
    }
    const call = callOf(ctx, route.operation, variant, noHeaders(route));
    const body = await httpCall(call, route, fieldReader(fields, fieldNames.get(route.operation)!), handlers, contract.namespaceAttribute);
    ctx.set('Content-Type', HTTP_CONTENT_TYPE);
    ctx.body = body;
  };
}

/** The hop into the handler, typed by the operation K: fields decoded, the handler run, its result encoded. */
async function httpCall<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: Call<HeadersOf<Ops[K]>>,
  route: Route<Ops, K>,
  field: (name: string) => string | undefined,
  handlers: Handlers<Ops>,
  namespaceAttribute: string,
): Promise<string> {
  return route.encodeHttp(await handlers[route.operation](requestOfFields(route, field), call), namespaceAttribute);
}

/** The hop into the handler of an XML body: the request element read and validated, the handler run, its answer encoded. */
async function xmlBodyCall<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: Call<HeadersOf<Ops[K]>>,
  route: Route<Ops, K>,
  ctx: CallContext,
  contract: Contract<Ops>,
  handlers: Handlers<Ops>,
): Promise<string> {
  if (route.requestElement === '') {
    // A request of no part: an empty body, as its SOAP body is.
    if (!isEmptyBody(ctx)) throw clientError('The operation takes an empty body.');
    return route.encodeHttp(await handlers[route.operation](requestOfFields(route, noField), call), contract.namespaceAttribute);
  }
  if (!XML_TYPES.has(ctx.request.type) && ctx.request.type !== route.httpXml) {
    throw new ServiceError('unsupported-media-type', `POST the ${route.requestElement} element as ${route.httpXml}.`);
  }
  const request = withUntrustedXml(requestBytes(ctx), (doc) => {
    const element = doc.root;
    const namespace = route.requestNamespace ?? contract.namespace;
    if (element.name !== route.requestElement || element.namespaceUri !== namespace) {
      throw clientError(`The body must be the ${route.requestElement} element of ${namespace}.`);
    }
    return decodeValidated(element, contract.requestSchema(route.operation), route).request;
  });
  return route.encodeHttp(await handlers[route.operation](request, call), contract.namespaceAttribute);
}

const XML_TYPES = new Set(['text/xml', 'application/xml']);
const noField = () => undefined;

/** No body, or one of white space only (a body of a type not read is not empty). */
function isEmptyBody(ctx: CallContext): boolean {
  const body: unknown = ctx.request.body;
  if (Buffer.isBuffer(body)) return body.toString('latin1').trim() === '';
  const { 'content-length': length, 'transfer-encoding': chunked } = ctx.req.headers;
  return chunked === undefined && (length === undefined || Number(length) === 0);
}

/** The operation named by the path's segment (any case, as ASMX matches it), recorded on the call; 404 when none. */
export function routeOfPath<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  ctx: CallContext,
  segment: string,
): Route<Ops, OperationName<Ops>> {
  const route = contract.routeByHttpOperation(segment);
  if (!route) throw new ServiceError('not-found', 'There is no such operation.');
  ctx.state.operation = route.operation;
  return route;
}

/** Field names match case-insensitively, as ASP.NET's do; a field given twice is refused. */
function fieldReader(fields: Map<string, string[]>, wanted: ReadonlyMap<string, string>): (name: string) => string | undefined {
  const values = new Map<string, string>();
  for (const [key, given] of fields) {
    const name = wanted.get(key.toLowerCase());
    if (!name) continue;
    if (values.has(name) || given.length > 1) throw clientError(`The field ${name} is given more than once.`);
    values.set(name, given[0]);
  }
  return (name) => values.get(name);
}
