/**
 * The HTTP GET and HTTP POST (form) bindings: {endpoint}/{operation}, fields
 * as query parameters or form fields, the answer a bare XML element.
 */
import { type CallContext, callOf } from '../call-state';
import type { Contract } from '../contract';
import type { Call, Handlers, OperationName, OperationsOf, Route } from '../definition';
import { ServiceError, clientError } from '../errors';
import { requestBody } from './body';
import { noHeaders } from './soap';
import { parseUrlEncoded } from './form';
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
    const call = callOf(ctx, route.operation, variant);
    const body = await httpCall(call, route, fieldReader(fields, fieldNames.get(route.operation)!), handlers, contract.namespaceAttribute);
    ctx.set('Content-Type', HTTP_CONTENT_TYPE);
    ctx.body = body;
  };
}

/** The hop into the handler, typed by the operation K: fields decoded, the handler run, its result encoded. */
async function httpCall<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: Call,
  route: Route<Ops, K>,
  field: (name: string) => string | undefined,
  handlers: Handlers<Ops>,
  namespaceAttribute: string,
): Promise<string> {
  return route.encodeHttp(await handlers[route.operation](route.decodeFields(field), noHeaders(route), call), namespaceAttribute);
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
