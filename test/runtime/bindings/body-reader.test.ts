/**
 * The body reader (src/runtime/bindings/body.ts, koa-bodyparser) in a bare Koa app with the
 * service's error answers: the bytes it hands over, the limit counted in
 * decoded bytes, the encodings it decodes and refuses, and bodies that end
 * early. Each case is one raw HTTP exchange on loopback.
 */
import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import pino from 'pino';
import type { CallState } from '../../../src/runtime/call-state';
import { bodyReader } from '../../../src/runtime/bindings/body';
import { errorResponse } from '../../../src/runtime/bindings/error-response';

const LIMIT = 1000;
let server: Server;
let port: number;
/** Requests answered 400 by the app, counted once its middleware has returned. */
let readsFailed = 0;

/** Whether the app answers one more request with 400 than `before`, waiting up to 2 s. */
async function oneMoreFailedRead(before: number): Promise<boolean> {
  for (let i = 0; i < 100 && readsFailed === before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return readsFailed === before + 1;
}

test.before(async () => {
  const app = new Koa<CallState>();
  app.silent = true;
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 400) readsFailed++;
  });
  app.use(errorResponse(pino({ level: 'silent' })));
  app.use(bodyReader(LIMIT));
  app.use((ctx) => {
    const body = ctx.request.body;
    ctx.body = !Buffer.isBuffer(body) ? 'no body' : `${body.length} ${createHash('sha256').update(body).digest('hex')}`;
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

test.after.always(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Raw {
  status: number;
  headers: string;
  body: string;
}

/**
 * Sends `head` and `body` as they are (no framing added) and reads the answer until the server closes; `halfClose`
 * ends the request's side of the connection after the body, as a client that stops sending early does.
 */
function exchange(head: string, body: Buffer = Buffer.alloc(0), halfClose = false): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(`${head.replace(/\n/g, '\r\n')}\r\n`);
    if (halfClose) socket.end(body);
    else socket.write(body);
  });
}

function post(body: Buffer, headers: Record<string, string | number> = {}): Promise<Raw> {
  const lines = Object.entries({
    'Content-Type': 'text/xml; charset=utf-8',
    'Content-Length': body.length,
    Connection: 'close',
    ...headers,
  })
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`);
  return exchange(`POST /echo HTTP/1.1\nHost: x\n${lines.join('\n')}\n`, body);
}

const digest = (bytes: Buffer) => `${bytes.length} ${createHash('sha256').update(bytes).digest('hex')}`;
const payload = Buffer.from('<a>é€ 𝄞</a>'.repeat(20), 'utf8');

test('the bytes as sent, with a Content-Length or chunked', async (t) => {
  t.is((await post(payload)).body, digest(payload));
  const chunked = `${payload.length.toString(16)}\r\n${payload.toString('latin1')}\r\n0\r\n\r\n`;
  const answer = await exchange(
    'POST /echo HTTP/1.1\nHost: x\nContent-Type: text/xml\nTransfer-Encoding: chunked\nConnection: close\n',
    Buffer.from(chunked, 'latin1'),
  );
  t.is(answer.body, digest(payload));
});

test('gzip, deflate and br are decoded', async (t) => {
  for (const [encoding, encoded] of [
    ['gzip', gzipSync(payload)],
    ['deflate', deflateSync(payload)],
    ['br', brotliCompressSync(payload)],
  ] as const) {
    t.is((await post(encoded, { 'Content-Encoding': encoding })).body, digest(payload), encoding);
  }
});

test('exactly the limit is read; one byte more is 413, and so is a Content-Length over it before any byte', async (t) => {
  const atLimit = Buffer.alloc(LIMIT, 0x61);
  t.is((await post(atLimit)).body, digest(atLimit));
  const over = await post(Buffer.alloc(LIMIT + 1, 0x61));
  t.is(over.status, 413);
  t.is(over.body, 'The request body is larger than this service accepts.\n');
  const announced = await exchange(`POST /echo HTTP/1.1\nHost: x\nContent-Type: text/xml\nContent-Length: ${10 * LIMIT}\n`);
  t.is(announced.status, 413);
  t.regex(announced.headers, /^connection: close$/im, 'the unread body ends the connection');
});

test('the limit counts decoded bytes: a small gzip body that inflates past it is 413', async (t) => {
  const bomb = gzipSync(Buffer.alloc(100 * LIMIT, 0x20));
  t.true(bomb.length < LIMIT);
  const answer = await post(bomb, { 'Content-Encoding': 'gzip' });
  t.is(answer.status, 413);
});

test('a compressed body over the limit whose client goes away before its end: 413, and the service reads on', async (t) => {
  const bomb = gzipSync(Buffer.alloc(100 * LIMIT, 0x20));
  const status = await new Promise<number>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', (chunk) => {
      resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString('latin1'))?.[1]));
      socket.destroy();
    });
    socket.on('error', reject);
    socket.write(
      `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length + 1000}\r\n\r\n`,
    );
    socket.write(bomb);
  });
  t.is(status, 413);
  t.is((await post(payload)).body, digest(payload));
});

test.serial('a compressed body cut off before its end: the read ends, and the next request is read', async (t) => {
  const before = readsFailed;
  const encoded = gzipSync(Buffer.from(randomBytes(4 * LIMIT).toString('base64')));
  const answer = await exchange(
    `POST /echo HTTP/1.1\nHost: x\nContent-Type: text/xml\nContent-Encoding: gzip\nContent-Length: ${encoded.length}\n`,
    encoded.subarray(0, 100),
    true,
  );
  t.is(answer.status, 400, 'Node answers the request that ended early');
  t.true(await oneMoreFailedRead(before), 'the reader gave up rather than waiting for the rest');
  t.is((await post(payload)).body, digest(payload));
});

test('another Content-Encoding, or one in another letter case, is 415', async (t) => {
  for (const encoding of ['x-nosuch', 'compress', 'GZIP', 'gzip, gzip']) {
    const answer = await post(payload, { 'Content-Encoding': encoding });
    t.is(answer.status, 415, encoding);
    t.is(answer.body, 'The request body has an unsupported media type or charset.\n', encoding);
  }
});

test('a body that does not decode as its Content-Encoding says is a client error', async (t) => {
  for (const [encoding, bytes] of [
    ['gzip', Buffer.from('not gzip at all')],
    ['br', Buffer.from('not brotli at all either')],
    ['gzip', gzipSync(payload).subarray(0, 20)],
  ] as const) {
    const answer = await post(bytes, { 'Content-Encoding': encoding });
    t.is(answer.status, 400, encoding);
    t.is(answer.body, 'The request body could not be decompressed as its Content-Encoding says.\n', encoding);
  }
});

test('a body that ends before its Content-Length: Node answers 400 itself, and the next request is read', async (t) => {
  // The client stops sending: Node aborts the request and answers 400 itself, with no body; the reader's error finds no one to answer.
  const answer = await exchange(
    'POST /echo HTTP/1.1\nHost: x\nContent-Type: text/xml\nContent-Length: 500\n',
    payload.subarray(0, 100),
    true,
  );
  t.is(answer.status, 400);
  t.is(answer.body, '', 'no partial answer');
  t.is((await post(payload)).body, digest(payload), 'and the next request is read');
});

test('a media type no binding reads is left unread, and so is a request without a body', async (t) => {
  t.is((await post(payload, { 'Content-Type': 'application/octet-stream' })).body, 'no body');
  t.is((await exchange('GET /echo HTTP/1.1\nHost: x\nConnection: close\n')).body, 'no body');
  for (const type of [
    'text/plain',
    'application/soap+xml; charset=utf-8',
    'application/x-www-form-urlencoded',
    'application/json',
    'TEXT/XML',
  ]) {
    t.is((await post(payload, { 'Content-Type': type })).body, digest(payload), type);
  }
});

test('a compressed body of a media type no binding reads is left unread: not decoded, not refused', async (t) => {
  for (const [encoding, bytes] of [
    ['gzip', gzipSync(payload)],
    ['br', Buffer.from('not brotli at all')],
    ['x-nosuch', payload],
  ] as const) {
    const answer = await post(bytes, { 'Content-Type': 'application/octet-stream', 'Content-Encoding': encoding });
    t.is(answer.status, 200, encoding);
    t.is(answer.body, 'no body', encoding);
  }
});

test('a compressed body whose request has already ended early when the reader comes to it: the read ends at once', async (t) => {
  const app = new Koa<CallState>();
  app.silent = true;
  let failed = 0;
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 400) failed++;
  });
  app.use(errorResponse(pino({ level: 'silent' })));
  // The reader meets the request only once the request is gone (its close heard by no one before).
  app.use(async (ctx, next) => {
    await new Promise((resolve) => ctx.req.once('close', resolve));
    await next();
  });
  app.use(bodyReader(LIMIT));
  app.use((ctx) => {
    ctx.body = 'read';
  });
  const late = createServer(app.callback());
  await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
  t.teardown(() => late.close());
  const encoded = gzipSync(Buffer.from(randomBytes(4 * LIMIT).toString('base64')));
  const socket = connect((late.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Encoding: gzip\r\nContent-Length: ${encoded.length}\r\n\r\n`,
  );
  socket.end(encoded.subarray(0, 100));
  for (let i = 0; i < 100 && failed === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(failed, 1, 'the reader gave up rather than waiting for a request that had gone');
});
