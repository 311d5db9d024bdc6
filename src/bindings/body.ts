import { isUtf8 } from 'node:buffer';
import type { CallContext } from '../call-state';
import { ServiceError, clientError } from '../errors';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The request body as text. The body parser hands over bytes (already held
 * to the size limit); they must be UTF-8, the only charset accepted, and
 * invalid UTF-8 is refused rather than silently replaced.
 */
export function requestBody(ctx: CallContext): string {
  return strictUtf8.decode(requestBytes(ctx));
}

/** The request body as bytes, checked to be valid UTF-8 (for the XML parser, which reads bytes). */
export function requestBytes(ctx: CallContext): Buffer {
  const charset = ctx.request.charset;
  if (charset && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw new ServiceError('unsupported-media-type', 'The request body must be UTF-8.');
  }
  const body = ctx.request.body;
  if (!Buffer.isBuffer(body)) throw clientError('The request has no body.');
  if (!isUtf8(body)) throw clientError('The request body is not valid UTF-8.');
  return body;
}
