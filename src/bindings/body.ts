import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { Readable, type Transform } from 'node:stream';
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

/** A body without Content-Encoding whose Content-Length is over the limit: refused (413) before any byte is read. */
export function announcedTooLarge(req: IncomingMessage, limit: number): boolean {
  return (req.headers['content-encoding'] ?? 'identity') === 'identity' && Number(req.headers['content-length']) > limit;
}

function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = req.headers['content-encoding'] ?? 'identity';
  let stream: Readable = req;
  let decoder: Transform | undefined;
  let expected: number | undefined;
  if (encoding === 'identity') {
    if (announcedTooLarge(req, limit)) return Promise.reject(tooLarge());
    const length = req.headers['content-length'];
    if (length !== undefined) expected = Number(length);
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
    const onError = () =>
      stop(
        new BodyError(
          'client',
          encoding === 'identity'
            ? 'The request body could not be read.'
            : 'The request body could not be decompressed as its Content-Encoding says.',
        ),
      );
    const onAborted = () => stop(new BodyError('client', 'The request body could not be read.'));
    stream.on('data', onData).on('end', onEnd).on('error', onError);
    req.on('aborted', onAborted);
  });
}

const ignore = () => {};

/**
 * How much of a request body left unread by its answer (over the limit, or
 * refused before it was read) is still read and thrown away, so that a client
 * which writes its whole body before it reads (Python urllib, .NET
 * HttpWebRequest, PHP SoapClient) reads that answer rather than a connection
 * reset: at most this many bytes, and until the client has sent nothing for
 * UNREAD_BODY_DRAIN_IDLE_MS (nginx's lingering_timeout); then the connection
 * is closed. The request timeout (--request-timeout, from the request's first
 * byte) bounds it too. docs/security.md, *Slow and oversized requests*.
 */
export const UNREAD_BODY_DRAIN_BYTES = 4 * 1024 * 1024;
export const UNREAD_BODY_DRAIN_IDLE_MS = 5000;

/**
 * Sends `answer` (the response's whole body) with `Connection: close` at
 * once, but ends the response only once the rest of the request body has
 * been read and thrown away, the client has gone, or a bound has passed
 * (UNREAD_BODY_DRAIN_BYTES, UNREAD_BODY_DRAIN_IDLE_MS). Node closes a connection
 * whose last response has ended (socket.destroySoon: FIN, then close) without
 * reading what the client still sends; a close with unread bytes sends a
 * reset, which a client still writing its body sees as a broken pipe before
 * it reads the answer. Holding the end keeps the connection open and read
 * meanwhile; the client has the whole answer already (Content-Length).
 */
export function answerThenDrain(ctx: CallContext, answer: string | Buffer): void {
  const req = ctx.req;
  const bytes = Buffer.from(answer);
  const body = new Readable({ read: ignore });
  body.push(bytes);
  let discarded = 0;
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    clearTimeout(idle);
    req.off('data', onData).off('end', end).off('close', end);
    ctx.res.off('close', end);
    // The response's end closes the connection (Node: FIN, then close); past a bound, with a reset if the client still sends.
    body.push(null);
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > UNREAD_BODY_DRAIN_BYTES) end();
    else idle.refresh();
  };
  const idle = setTimeout(end, UNREAD_BODY_DRAIN_IDLE_MS);
  req.on('data', onData).once('end', end).once('close', end);
  ctx.res.once('close', end);
  req.resume();
  ctx.set('Connection', 'close');
  ctx.body = body;
  ctx.length = bytes.length;
}

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
