import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type { Next } from 'koa';
import bodyParser from 'koa-bodyparser';
import getRawBody from 'raw-body';
import type { CallContext } from '../call-state';
import { ServiceError, clientError } from '../errors';
import { byContentType } from './content-type';

/** The media types whose bodies are read (the bindings refuse the others by type, before any body). */
const BODY_TYPES = [
  'text/plain',
  'text/xml',
  'application/xml',
  'application/soap+xml',
  'application/x-www-form-urlencoded',
  'application/json',
  // SOAP calls as MTOM (wire/mtom.ts); last, so that no other type is looked up later than before.
  'multipart/related',
];

const charsetOf = byContentType((ctx) => ctx.request.charset.toLowerCase());

/**
 * Reads the body of a request of one of the bindings' media types, as bytes,
 * into ctx.request.body, before routing: the size limit (413) holds for
 * every path. koa-bodyparser reads it (co-body, raw-body), every type as its
 * "text" with no charset, so the body stays bytes: libxml2 reads the XML
 * declaration's encoding itself, and requestBytes and requestBody check the
 * bytes are UTF-8. (@koa/bodyparser, its successor, always decodes to a
 * string.) A body with Content-Encoding gzip, deflate or br is decoded here
 * (node:zlib) and read by raw-body, with the limit on decoded bytes (see
 * readDecoded); another encoding is 415 (koa-bodyparser's inflation), a body
 * that does not decode or ends early a client error.
 */
export function bodyReader(limit: number) {
  const parse = bodyParser({
    enableTypes: ['text'],
    extendTypes: { text: BODY_TYPES },
    // co-body and raw-body hand over a Buffer when the encoding is empty.
    encoding: '',
    textLimit: `${limit}b`,
    onerror: (error) => {
      throw bodyErrorOf(error as LibraryError);
    },
  });
  return function readBody(ctx: CallContext, next: Next): Promise<void> {
    const headers = ctx.req.headers;
    // A request without a body (no Content-Length, no Transfer-Encoding, as type-is's hasBody has it: most GET
    // calls) has nothing to read; koa-bodyparser would find no type to read it as after two awaits.
    if (headers['transfer-encoding'] === undefined && Number.isNaN(Number(headers['content-length']))) return next();
    const encoding = headers['content-encoding'];
    // The encodings inflation (koa-bodyparser's) decodes, in this letter case, one at a time; it refuses the others.
    if (encoding !== 'gzip' && encoding !== 'deflate' && encoding !== 'br') return parse(ctx, next);
    if (!ctx.request.is(BODY_TYPES)) return parse(ctx, next);
    return readDecoded(ctx.req, encoding, limit).then((body) => {
      ctx.request.body = body;
      return next();
    });
  };
}

/**
 * The decoded body, read by raw-body up to `limit` decoded bytes. A request
 * that ends before its body does says nothing to the decoder it is piped
 * into, so the decoder is destroyed then, and raw-body gives up; the
 * decoder keeps an error listener for its whole life, since raw-body drops
 * its own when it gives up (over the limit) and an error no one hears would
 * end the process. The request itself is left open: its answer (413, 400)
 * is still to be sent on its connection.
 */
async function readDecoded(req: IncomingMessage, encoding: 'gzip' | 'deflate' | 'br', limit: number): Promise<Buffer> {
  // Gone already, before its body's end (its close heard by no one).
  if (req.destroyed && !req.complete) throw new BodyError('client', UNREADABLE);
  const decoder = encoding === 'br' ? createBrotliDecompress() : createUnzip();
  decoder.on('error', ignore);
  const endedEarly = () => {
    if (!req.complete) decoder.destroy(new Error(ABORTED));
  };
  req.once('close', endedEarly);
  req.pipe(decoder);
  try {
    return await getRawBody(decoder, { limit });
  } catch (error) {
    req.unpipe(decoder);
    decoder.destroy();
    throw bodyErrorOf(error as LibraryError);
  } finally {
    req.off('close', endedEarly);
  }
}

/** What raw-body, inflation and zlib put on the errors they throw. */
interface LibraryError extends Error {
  type?: string;
  status?: number;
}

/** Thrown by the body reader: the answer is the error's, and a JSON caller still reads it as JSON. */
export class BodyError extends ServiceError {}

function tooLarge(): BodyError {
  return new BodyError('too-large', 'The request body is larger than this service accepts.');
}

const UNREADABLE = 'The request body could not be read.';

/** Marks the decoder's error when the request ended before its body did. */
const ABORTED = 'request aborted before its body was decoded';

function bodyErrorOf(error: LibraryError): BodyError {
  if (error.type === 'entity.too.large') return tooLarge();
  // inflation's answer to a Content-Encoding it does not decode (any but gzip, deflate, br, identity, in that letter case).
  if (error.status === 415) return new BodyError('unsupported-media-type', 'The request body has an unsupported media type or charset.');
  if (error.type === 'request.aborted' || error.type === 'request.size.invalid' || error.message === ABORTED) {
    return new BodyError('client', UNREADABLE);
  }
  return new BodyError('client', 'The request body could not be decompressed as its Content-Encoding says.');
}

/** A body without Content-Encoding whose Content-Length is over the limit: refused (413) before any byte is read. */
export function announcedTooLarge(req: IncomingMessage, limit: number): boolean {
  return (req.headers['content-encoding'] ?? 'identity') === 'identity' && Number(req.headers['content-length']) > limit;
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
  // Nobody reads the request any more (raw-body paused it, or readDecoded unpiped it from its decoder).
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
