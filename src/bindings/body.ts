import type { Context } from 'koa';
import { clientError } from '../errors';

/** The raw request text read by the body parser (SOAP XML and forms are both read as text). */
export function requestBody(ctx: Context): string {
  const body = (ctx.request as { body?: unknown }).body;
  if (typeof body !== 'string') throw clientError('The request has no body.');
  return body;
}
