import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type { Next } from 'koa';
import type { CallContext } from '../call-state';
import { ServiceError, clientError } from '../errors';
import { byContentType } from './content-type';

/** The media types whose bodies are read (the bindings refuse the others by type, before any body). */
const BODY_TYPES = ['text/plain', 'text/xml', 'application/soap+xml', 'application/x-www-form-urlencoded', 'application/json'];

/**
 * Reads the body of a request of one of the bindings' media types, as bytes,
 * into ctx.request.body, before routing: the size limit (413) holds for
 * every path. Content-Encoding gzip, deflate and br are decoded, and the
 * limit counts decoded bytes; another encoding is 415, a body that does not
 * decode or ends early is a client error. No charset is applied here:
 * requestBytes and requestBody check the bytes are UTF-8.
 */
export function bodyReader(limit: number) {
  const read = bodyReading(limit);
  return async function readBody(ctx: CallContext, next: Next): Promise<void> {
    await read(ctx);
    return next();
  };
}

/** The body reader as a step of its own, for a path that reads the body before it calls its binding (endpoint.ts). */
export function bodyReading(limit: number): (ctx: CallContext) => Promise<void> {
  return async function readBodyOf(ctx: CallContext): Promise<void> {
    if (ctx.request.body === undefined && hasBody(ctx.req) && isBodyType(ctx)) ctx.request.body = await readBytes(ctx.req, limit);
  };
}

/** As Koa's request.is does before it looks at the type (type-is's hasBody): a body is announced by either header. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length'] ?? Number.NaN));
}

/** Given a body, request.is depends on the Content-Type alone. */
const isBodyType = byContentType((ctx) => Boolean(ctx.request.is(BODY_TYPES)));
const charsetOf = byContentType((ctx) => ctx.request.charset.toLowerCase());

/** Thrown by the body reader: the answer is the error's, and a JSON caller still reads it as JSON. */
export class BodyError extends ServiceError {}

function tooLarge(): BodyError {
  return new BodyError('too-large', 'The request body is larger than this service accepts.');
}

function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = req.headers['content-encoding'] ?? 'identity';
  let stream: Readable = req;
  let decoder: Transform | undefined;
  let expected: number | undefined;
  if (encoding === 'identity') {
    const length = req.headers['content-length'];
    if (length !== undefined) expected = Number(length);
    if (expected !== undefined && expected > limit) return Promise.reject(tooLarge());
  } else if (encoding === 'gzip' || encoding === 'deflate' || encoding === 'br') {
    decoder = encoding === 'br' ? createBrotliDecompress() : createUnzip();
    // Kept for the decoder's whole life: a corrupt tail arriving after the reader gave up must not go unheard.
    decoder.on('error', ignore);
    stream = req.pipe(decoder);
  } else {
    return Promise.reject(new BodyError('unsupported-media-type', 'The request body has an unsupported media type or charset.'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: BodyError) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      req.off('aborted', onAborted);
      if (decoder) req.unpipe(decoder);
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) stop(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => {
      if (expected !== undefined && received !== expected) stop(new BodyError('client', 'The request body could not be read.'));
      else resolve(Buffer.concat(chunks, received));
    };
    const onError = () => stop(new BodyError('client', encoding === 'identity' ? 'The request body could not be read.' : 'The request body could not be decompressed as its Content-Encoding says.'));
    const onAborted = () => stop(new BodyError('client', 'The request body could not be read.'));
    stream.on('data', onData).on('end', onEnd).on('error', onError);
    req.on('aborted', onAborted);
  });
}

const ignore = () => {};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The request body as text. The body reader hands over bytes (already held
 * to the size limit); they must be UTF-8, the only charset accepted, and
 * invalid UTF-8 is refused rather than silently replaced.
 */
export function requestBody(ctx: CallContext): string {
  return strictUtf8.decode(requestBytes(ctx));
}

/** The request body as bytes, checked to be valid UTF-8 (for the XML parser, which reads bytes). */
export function requestBytes(ctx: CallContext): Buffer {
  const charset = charsetOf(ctx);
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ServiceError('unsupported-media-type', 'The request body must be UTF-8.');
  }
  const body = ctx.request.body;
  if (!Buffer.isBuffer(body)) throw clientError('The request has no body.');
  if (!isUtf8(body)) throw clientError('The request body is not valid UTF-8.');
  return body;
}
