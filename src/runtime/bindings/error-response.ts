/**
 * Turns any error into the answer the *Errors* table of docs/clients.md prescribes for
 * the variant the call was using: a SOAP fault (HTTP 500) for the SOAP
 * variants, a JSON error (`jsonerror: true`) for the JSON variant, a one-line
 * text/plain answer with a status code otherwise. Logs each error once, by
 * kind and message only: the messages are written to be safe, and an
 * unexpected error's message is never sent or logged (it could hold input).
 */
import type { Next } from 'koa';
import type { CallContext } from '../call-state';
import type { Logger } from 'pino';
import { DeclaredFault, type ErrorKind, HeaderFault, ServiceError } from '../errors';
import { BodyError, answerThenDrain } from './body';
import { isJsonRequest, jsonErrorBody } from './json';
import { JSON_CONTENT_TYPE } from '../wire/content-types';
import { type FaultKind, soapFault, soapVersionOfVariant } from '../wire/soap-envelope';

const STATUS: Record<ErrorKind, number> = {
  client: 400,
  'version-mismatch': 400,
  'must-understand': 400,
  'too-large': 413,
  'unsupported-media-type': 415,
  'not-found': 404,
  'method-not-allowed': 405,
  throttled: 429,
  unavailable: 503,
  server: 500,
};

export function errorResponse(logger: Logger) {
  return async function errors(ctx: CallContext, next: Next): Promise<void> {
    try {
      await next();
    } catch (caught) {
      const error = caught instanceof ServiceError ? caught : new ServiceError('server', 'The service failed to process the request.');
      // The body reader fails before any binding ran (too large, bad encoding): a JSON caller still reads JSON.
      if (ctx.state.variant === undefined && caught instanceof BodyError && isJsonRequest(ctx)) ctx.state.variant = 'json';
      ctx.state.outcome = error.kind;
      if (error.kind === 'server' || error.kind === 'unavailable') {
        const unexpected = caught instanceof ServiceError ? undefined : (caught as Error);
        logger.error(
          {
            event: 'error',
            id: ctx.state.requestId,
            kind: error.kind,
            cause: error.logCause,
            type: unexpected?.name,
            stack: unexpected && stackFrames(unexpected),
          },
          error.message,
        );
      } else {
        // A header step's refusal tells the log why (never a value from the request): `cause` is left out for the others.
        logger.info(
          { event: 'refused', id: ctx.state.requestId, kind: error.kind, variant: ctx.state.variant, cause: error.logCause },
          error.message,
        );
      }
      render(ctx, error);
      // A body not received to its end (too large, wrong media type) is read and thrown away after the answer, up to a bound.
      if (!ctx.req.complete) answerThenDrain(ctx, ctx.body as string);
    }
  };
}

/** The SOAP fault code each error kind is answered with; the others are plain HTTP statuses. */
const FAULT: Partial<Record<ErrorKind, FaultKind>> = {
  client: 'client',
  throttled: 'client',
  'version-mismatch': 'version-mismatch',
  'must-understand': 'must-understand',
  server: 'server',
  unavailable: 'server',
};

function render(ctx: CallContext, error: ServiceError): void {
  const variant = ctx.state.variant;
  const soap = soapVersionOfVariant(variant);
  if (error.retryAfter !== undefined) ctx.set('Retry-After', String(error.retryAfter));
  if (variant === 'json') {
    ctx.status = STATUS[error.kind];
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.set('jsonerror', 'true');
    ctx.body = jsonErrorBody(error);
    return;
  }
  const fault = FAULT[error.kind];
  if (soap && fault) {
    // ASMX answers every fault with 500, SOAP 1.2 included; existing proxies expect it.
    ctx.status = 500;
    ctx.set('Content-Type', soap.contentType);
    const literal = error instanceof DeclaredFault ? error.detailXml(error.namespaceAttribute) : '';
    const detail = error instanceof DeclaredFault && error.encodeDetail && literal !== '' ? error.encodeDetail(literal) : literal;
    // A call the SOAP header stack read: the fault carries its header blocks (wsa:Action, wsa:RelatesTo).
    const header = ctx.state.faultHeaders?.(error);
    let envelope: string;
    if (!(error instanceof HeaderFault)) {
      envelope =
        header === undefined ? soapFault(soap, fault, error.message, detail) : soapFault(soap, fault, error.message, detail, { header });
    } else {
      const blocks = (header ?? '') + (soap.variant === 'soap11' ? error.detailHeader11 : '');
      envelope = soapFault(soap, 'client', error.message, soap.variant === 'soap11' ? '' : error.detail, {
        header: blocks === '' ? undefined : blocks,
        subcodes: error.subcodes,
      });
    }
    // A stack that signs answers signs its faults too (zeep and WSS4J verify them).
    ctx.body = ctx.state.signAnswer === undefined ? envelope : signedOrAsIs(ctx.state.signAnswer, envelope);
    return;
  }
  ctx.status = STATUS[error.kind];
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.body = `${error.message}\n`;
}

/** A fault envelope signed; as it is if signing fails (the fault is answered all the same, and the client's check tells). */
function signedOrAsIs(sign: (envelope: string) => string, envelope: string): string {
  try {
    return sign(envelope);
  } catch {
    return envelope;
  }
}

/** The stack without its first line (the message, which may hold input). */
function stackFrames(error: Error): string | undefined {
  return error.stack?.split('\n').slice(1).join('\n');
}
