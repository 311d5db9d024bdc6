/**
 * The HTTP GET and HTTP POST (form) bindings: /api.asmx/{operation}, fields
 * as query parameters or form fields, the answer a bare XML element.
 */
import type { CallContext } from '../call-state';
import { OPERATION_NAMES, ROUTES, type Handlers, type OperationName, type Route } from '../../../generated/routes';
import { refuseUndeclared, type Contract } from '../contract';
import { ServiceError, clientError } from '../errors';
import { requestBody } from './body';
import { parseUrlEncoded } from './form';
import { HTTP_CONTENT_TYPE } from '../wire/content-types';

export function httpBinding(contract: Contract, handlers: Handlers, verb: 'GET' | 'POST') {
  return async function http(ctx: CallContext & { params: Record<string, string> }): Promise<void> {
    ctx.state.variant = verb === 'GET' ? 'httpGet' : 'httpPost';
    refuseUndeclared(ctx.state.variant);
    const route = routeOfPath(contract, ctx);
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
    const body = await httpCall(ROUTES[route.operation], fieldReader(fields, route), handlers, contract.namespaceAttribute);
    ctx.set('Content-Type', HTTP_CONTENT_TYPE);
    ctx.body = body;
  };
}

/** The hop into the handler, typed by the operation K: fields decoded, the handler run, its result encoded. */
async function httpCall<K extends OperationName>(
  route: Route<K>,
  field: (name: string) => string | undefined,
  handlers: Handlers,
  namespaceAttribute: string,
): Promise<string> {
  return route.encodeHttp(await handlers[route.operation](route.decodeFields(field)), namespaceAttribute);
}

/** The operation named by the path's segment (any case, as ASMX matches it), recorded on the call; 404 when none. */
export function routeOfPath(contract: Contract, ctx: CallContext & { params: Record<string, string> }): Route<OperationName> {
  const route = contract.routeByHttpOperation(ctx.params.operation ?? '');
  if (!route) throw new ServiceError('not-found', 'There is no such operation.');
  ctx.state.operation = route.operation;
  return route;
}

/** Field names match case-insensitively, as ASP.NET's do; a field given twice is refused. */
function fieldReader(fields: Map<string, string[]>, route: Route<OperationName>): (name: string) => string | undefined {
  const values = new Map<string, string>();
  const wanted = FIELD_NAMES.get(route.operation)!;
  for (const [key, given] of fields) {
    const name = wanted.get(key.toLowerCase());
    if (!name) continue;
    if (values.has(name) || given.length > 1) throw clientError(`The field ${name} is given more than once.`);
    values.set(name, given[0]);
  }
  return (name) => values.get(name);
}

/** Each operation's field names by their lower-case spelling. */
const FIELD_NAMES: ReadonlyMap<OperationName, ReadonlyMap<string, string>> = new Map(
  OPERATION_NAMES.map((operation) => [operation, new Map(ROUTES[operation].httpFields.map((f) => [f.toLowerCase(), f]))]),
);
