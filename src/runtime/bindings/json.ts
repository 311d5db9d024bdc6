/**
 * The JSON variant for browser scripts, as an ASP.NET AJAX script service
 * answers it: POST {endpoint}/{operation} with a JSON object of the
 * parameters, the answer `{"d": result}`, errors `{"Message", "StackTrace",
 * "ExceptionType"}` with the header `jsonerror: true`. The same handlers,
 * body limit and strict UTF-8 as the other variants; no XML.
 */
import { parse as parseContentType } from 'content-type';
import { type CallContext, callOf, noHeaders } from '../call-state';
import type { Contract } from '../contract';
import type { Call, Handlers, HeadersOf, OperationName, OperationsOf } from '../definition';
import { ServiceError, clientError, type ErrorKind } from '../errors';
import { requestBody } from './body';
import { byContentType } from './content-type';
import { requestOfFields } from './form';
import { routeOfPath } from './http';
import { JSON_CONTENT_TYPE } from '../wire/content-types';
import { jsonString } from '../wire/json-text';

/** A call is the JSON variant when its Content-Type's media type says so (any case, any parameters), whatever the method. */
export const isJsonRequest = byContentType(
  (ctx) => parseContentType(ctx.get('Content-Type'), { parameters: false }).type === 'application/json',
);

/** POST with application/json (isJsonRequest). */
export function jsonBinding<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>, handlers: Handlers<Ops>) {
  return async function json(ctx: CallContext, segment: string): Promise<void> {
    ctx.state.variant = 'json';
    const { operation } = routeOfPath(contract, ctx, segment);
    const parameters = parseParameters(requestBody(ctx));
    const call = callOf(ctx, operation, 'json', noHeaders(contract.definition.routes[operation]));
    const body = await jsonCall(call, contract, operation, (name) => parameterText(parameters, name), handlers);
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = body;
  };
}

/** The hop into the handler, typed by the operation K: parameters decoded, the handler run, `{"d": …}` encoded. */
async function jsonCall<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  call: Call<HeadersOf<Ops[K]>>,
  contract: Contract<Ops>,
  operation: K,
  field: (name: string) => string | undefined,
  handlers: Handlers<Ops>,
): Promise<string> {
  const { json, routes } = contract.definition;
  return json[operation].encodeAnswer(await handlers[operation](requestOfFields(routes[operation], field), call));
}

/** GET with application/json (isJsonRequest) is refused as .NET refuses it: these methods do not allow GET. */
export function refuseJsonGet<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>) {
  return async function jsonGet(ctx: CallContext, segment: string): Promise<void> {
    ctx.state.variant = 'json';
    const { operation } = routeOfPath(contract, ctx, segment);
    ctx.set('Allow', 'POST');
    throw new ServiceError('method-not-allowed', `${operation} does not allow GET: POST its parameters as a JSON object.`);
  };
}

function parseParameters(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the input: never sent.
    throw clientError('The request body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw clientError("The request body must be one JSON object of the operation's parameters.");
  }
  return parsed as Record<string, unknown>;
}

/**
 * A parameter as .NET binds it to a string: left out or null is absent, a
 * number or boolean becomes its text (`True`/`False`, as .NET writes
 * booleans), an array or object is refused. Names are case-sensitive.
 */
function parameterText(parameters: Record<string, unknown>, name: string): string | undefined {
  if (!Object.hasOwn(parameters, name)) return undefined;
  const value = parameters[name];
  if (value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  throw clientError(`The parameter ${name} must be a string, not an ${Array.isArray(value) ? 'array' : 'object'}.`);
}

/** The .NET exception type each kind of error is reported as; browser code may branch on it. */
export const EXCEPTION_TYPES: Record<ErrorKind, string> = {
  client: 'System.ArgumentException',
  'version-mismatch': 'System.ArgumentException',
  'must-understand': 'System.ArgumentException',
  'not-found': 'System.ArgumentException',
  'method-not-allowed': 'System.InvalidOperationException',
  'unsupported-media-type': 'System.InvalidOperationException',
  'too-large': 'System.Web.HttpException',
  throttled: 'System.Web.HttpException',
  unavailable: 'System.Exception',
  server: 'System.Exception',
};

/** The error body ASP.NET AJAX's proxy and jQuery error handlers read; never a stack trace. */
export function jsonErrorBody(error: ServiceError): string {
  return `{"Message":${jsonString(error.message)},"StackTrace":"","ExceptionType":${jsonString(EXCEPTION_TYPES[error.kind])}}`;
}
