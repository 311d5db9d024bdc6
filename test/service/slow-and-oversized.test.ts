/**
 * docs/security.md, *Slow and oversized requests*: a body over the limit is answered
 * 413 even while the client is still sending it, on every path and framing
 * (a client that writes its whole body before it reads, as Python urllib
 * does, reads the whole 413 rather than a broken pipe), within the drain's
 * bounds; clients that trickle headers or a body are cut off by the headers
 * and request timeouts; 1 000 idle connections do not keep others from being
 * answered, and are closed by their timeouts. Raw sockets on loopback, the
 * service in-process.
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ConfigError, parseConfig } from '../../src/service/config';
import { UNREAD_BODY_DRAIN_BYTES, UNREAD_BODY_DRAIN_IDLE_MS } from '../../src/runtime/bindings/body';
import { connectionLimits, inactivityTimeout } from '../../src/service/server';
import { loadReaders } from '../support/readers';
import { validatePinResult, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const TOO_LARGE = 'The request body is larger than this service accepts.';
/** Past the service's own bound, what a loaded machine may add to a cut-off before the test calls it late. */
const MARGIN_MS = 10_000;

const services: TestService[] = [];
async function service(overrides: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const started = await startTestService(overrides);
  services.push(started);
  return started;
}

test.before(() => loadReaders());
test.after.always(() => Promise.all(services.map((s) => s.close({ idleGraceMs: 0 }))));

const portOf = (s: TestService) => Number(new URL(s.url).port);

function opened(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The body is as long as its Content-Length says. */
  whole: boolean;
  /** The error the socket saw while the request was being written, if any (EPIPE, ECONNRESET). */
  writeError?: string;
  readError?: string;
}

function parseAnswer(bytes: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body' | 'whole'> {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: bytes.toString('latin1'), whole: false };
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const body = bytes.subarray(end + 4);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
    headers,
    body: body.toString('utf8'),
    whole: Number(headers['content-length']) === body.length,
  };
}

/** Writes `pieces` in order, each once the socket has taken the one before (as a blocking sendall does); resolves with the first error, if any. */
async function writeAll(socket: Socket, pieces: Iterable<Buffer>): Promise<string | undefined> {
  let failed: string | undefined;
  const onError = (error: NodeJS.ErrnoException) => (failed ??= error.code ?? error.message);
  socket.on('error', onError);
  for (const piece of pieces) {
    // A turn of the event loop between pieces, as a client producing its body as it goes: the service answers meanwhile.
    await new Promise(setImmediate);
    if (failed || socket.destroyed) break;
    if (!socket.write(piece)) {
      await new Promise<void>((resolve) => {
        const giveUp = setTimeout(() => {
          failed ??= 'never read by the service';
          socket.destroy();
        }, GIVE_UP_MS);
        const done = () => {
          clearTimeout(giveUp);
          socket.off('drain', done).off('close', done);
          resolve();
        };
        socket.on('drain', done).on('close', done);
      });
    }
  }
  socket.off('error', onError);
  return failed ?? (socket.destroyed ? 'closed while writing' : undefined);
}

/** How long a test waits for the service to close a connection before it closes it itself (and the test then fails). */
const GIVE_UP_MS = 30_000;

/** Reads what comes until the service closes the connection (at most GIVE_UP_MS, then `error` says so). */
function readToClose(socket: Socket): Promise<{ bytes: Buffer; error?: string }> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve({ bytes: Buffer.alloc(0), error: 'closed before the answer was read' });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const giveUp = setTimeout(() => {
      error ??= 'never closed by the service';
      socket.destroy();
    }, GIVE_UP_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ bytes: Buffer.concat(chunks), error });
    });
    socket.resume();
  });
}

function* pieces(body: Buffer, size: number, chunked: boolean): Generator<Buffer> {
  for (let at = 0; at < body.length; at += size) {
    const piece = body.subarray(at, at + size);
    yield chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
  }
  if (chunked) yield Buffer.from('0\r\n\r\n');
}

interface Upload {
  path: string;
  contentType: string;
  encoding?: 'gzip' | 'deflate' | 'br';
  chunked: boolean;
  body: Buffer;
  extraHeaders?: string[];
}

/**
 * As Python urllib (http.client) calls: the head, then the whole body in
 * 64 KiB pieces, before a byte of the answer is read; then the answer, read
 * until the service closes the connection.
 */
async function uploadThenRead(port: number, upload: Upload): Promise<RawAnswer> {
  const socket = await opened(port);
  socket.pause();
  const head = [
    `POST ${upload.path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Type: ${upload.contentType}`,
    upload.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${upload.body.length}`,
    ...(upload.encoding ? [`Content-Encoding: ${upload.encoding}`] : []),
    ...(upload.extraHeaders ?? []),
    'Connection: close',
  ];
  const writeError = await writeAll(socket, [
    Buffer.from(`${head.join('\r\n')}\r\n\r\n`),
    ...pieces(upload.body, 64 * 1024, upload.chunked),
  ]);
  const { bytes, error } = await readToClose(socket);
  return { ...parseAnswer(bytes), writeError, readError: error };
}

/** 2 MiB that compress to about 1.5 MiB: once decoded past the limit, most of the body is still to be sent. */
const barelyCompressible = () => Buffer.from(randomBytes(1536 * 1024).toString('base64'));
const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

function assertWholeAnswer(t: ExecutionContext, answer: RawAnswer, status: number, message: string | undefined, label: string): void {
  t.is(answer.writeError, undefined, `${label}: the body was written whole, without a broken pipe or reset`);
  t.is(answer.readError, undefined, `${label}: the answer was read without a reset`);
  t.is(answer.status, status, `${label}: ${JSON.stringify(answer).slice(0, 300)}`);
  t.true(
    answer.whole,
    `${label}: the whole answer (Content-Length ${answer.headers['content-length']}, ${Buffer.byteLength(answer.body)} bytes read)`,
  );
  t.is(answer.headers.connection, 'close', `${label}: Connection: close`);
  if (message !== undefined) t.true(answer.body.includes(message), `${label}: ${answer.body.slice(0, 200)}`);
}

test('a body over the limit written whole before the answer is read gets the whole 413: every variant, framing and encoding, any path', async (t) => {
  const s = await service();
  const big = Buffer.alloc(2 * 1024 * 1024, 'a');
  const xml = Buffer.concat([Buffer.from('<a>'), big, Buffer.from('</a>')]);
  const compressible = barelyCompressible();
  const uploads: Array<[string, Upload]> = [
    [
      'SOAP 1.1, Content-Length',
      {
        path: '/api.asmx',
        contentType: 'text/xml; charset=utf-8',
        chunked: false,
        body: xml,
        extraHeaders: ['SOAPAction: "http://authenticatorapi.com/ValidatePin"'],
      },
    ],
    ['SOAP 1.1, chunked', { path: '/api.asmx', contentType: 'text/xml; charset=utf-8', chunked: true, body: xml }],
    ['SOAP 1.2, Content-Length', { path: '/api.asmx', contentType: 'application/soap+xml; charset=utf-8', chunked: false, body: xml }],
    [
      'HTTP POST, Content-Length',
      {
        path: '/api.asmx/ValidatePin',
        contentType: 'application/x-www-form-urlencoded',
        chunked: false,
        body: Buffer.concat([Buffer.from('pin=1&secretCode='), big]),
      },
    ],
    ['HTTP POST, chunked', { path: '/api.asmx/Pair', contentType: 'application/x-www-form-urlencoded', chunked: true, body: big }],
    [
      'JSON, chunked',
      {
        path: '/api.asmx/ValidatePin',
        contentType: 'application/json; charset=utf-8',
        chunked: true,
        body: Buffer.concat([Buffer.from('{"pin":"'), big, Buffer.from('"}')]),
      },
    ],
    [
      'another spelling the router reads (/API.ASMX/ValidatePin/), Content-Length',
      { path: '/API.ASMX/ValidatePin/', contentType: 'application/x-www-form-urlencoded', chunked: false, body: big },
    ],
    ['another path (/healthz), Content-Length', { path: '/healthz', contentType: 'text/xml', chunked: false, body: big }],
  ];
  for (const [encoding, encode] of Object.entries(ENCODERS) as Array<[keyof typeof ENCODERS, (b: Buffer) => Buffer]>) {
    const encoded = encode(compressible);
    t.true(encoded.length > 1024 * 1024, `${encoding}: ${encoded.length} bytes still to send after the limit`);
    uploads.push([
      `SOAP 1.1, ${encoding}, Content-Length`,
      { path: '/api.asmx', contentType: 'text/xml; charset=utf-8', encoding, chunked: false, body: encoded },
    ]);
    uploads.push([
      `JSON, ${encoding}, chunked`,
      { path: '/api.asmx/ValidatePin', contentType: 'application/json', encoding, chunked: true, body: encoded },
    ]);
  }
  const answers = await Promise.all(uploads.map(([, upload]) => uploadThenRead(portOf(s), upload)));
  const failed = answers.flatMap((a, i) =>
    a.status === 413 && a.whole && !a.writeError && !a.readError
      ? []
      : [`${uploads[i][0]}: ${a.status} ${a.writeError ?? ''} ${a.readError ?? ''}`],
  );
  if (failed.length > 0) t.log(`not a whole 413:\n${failed.join('\n')}`);
  uploads.forEach(([label], i) => {
    assertWholeAnswer(t, answers[i], 413, label.startsWith('JSON') ? JSON.stringify(TOO_LARGE) : TOO_LARGE, label);
    if (label.startsWith('JSON')) t.is(answers[i].headers.jsonerror, 'true', `${label}: a JSON error`);
  });
  // A body refused before it is read (no binding reads the type) is read and thrown away as well.
  const refused = await uploadThenRead(portOf(s), {
    path: '/api.asmx',
    contentType: 'application/octet-stream',
    chunked: false,
    body: big,
  });
  assertWholeAnswer(t, refused, 415, undefined, 'an unread media type');
  t.false(await validatePinResult(s, 'soap11', wrongPinFor(s, 'oversized-after'), 'oversized-after'), 'the service answers on');
});

test('a body within the limit is still read and answered over a kept-alive connection', async (t) => {
  const s = await service();
  const socket = await opened(portOf(s));
  const secret = 'kept-alive-secret';
  const form = `pin=${wrongPinFor(s, secret)}&secretCode=${secret}`;
  const request = `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`;
  socket.write(request + request.replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n'));
  const { bytes } = await readToClose(socket);
  const text = bytes.toString('utf8');
  t.is(text.match(/HTTP\/1\.1 200 OK\r\n/g)?.length, 2, text);
  t.is(text.match(/>false<\/boolean>/g)?.length, 2);
});

test('Expect: 100-continue: a Content-Length over the limit is answered 413 without 100 Continue; within it, 100 Continue', async (t) => {
  const s = await service();
  const over = await opened(portOf(s));
  over.write(
    `POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: ${2 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
  );
  const first = await new Promise<string>((resolve) => over.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
  t.regex(first, /^HTTP\/1\.1 413 /, 'the final answer comes first');
  t.notRegex(first, /100 Continue/);
  over.destroy();

  const within = await opened(portOf(s));
  const secret = 'expect-continue-secret';
  const form = `pin=${wrongPinFor(s, secret)}&secretCode=${secret}`;
  within.write(
    `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  const interim = await new Promise<string>((resolve) => within.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
  t.regex(interim, /^HTTP\/1\.1 100 Continue\r\n/);
  const rest = readToClose(within);
  within.write(form);
  t.regex((await rest).bytes.toString('utf8'), /^HTTP\/1\.1 200 OK[\s\S]*>false<\/boolean>/);
});

test(`the drain is bounded: a body that never ends is cut off after about ${UNREAD_BODY_DRAIN_BYTES / 1024 / 1024} MiB more`, async (t) => {
  const s = await service();
  const socket = await opened(portOf(s));
  socket.resume(); // the 413 is read as it comes; the body goes on regardless
  const piece = Buffer.alloc(64 * 1024, 'x');
  const cap = 64 * 1024 * 1024;
  let written = 0;
  function* endless(): Generator<Buffer> {
    yield Buffer.from('POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n');
    while (written < cap) {
      written += piece.length;
      yield Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    }
  }
  const cutOff = await writeAll(socket, endless());
  t.true(
    cutOff === 'EPIPE' || cutOff === 'ECONNRESET' || cutOff === 'closed while writing',
    `the service cut the connection off (${cutOff}, after ${written} bytes written)`,
  );
  // What loopback's socket buffers hold on both sides comes on top of the bound.
  t.true(written < cap, `${written} bytes written before the cut-off`);
  t.false(await validatePinResult(s, 'soap12', wrongPinFor(s, 'drain-bytes'), 'drain-bytes'), 'the service answers on');
});

test.serial(
  `the drain is bounded: a client that stops sending is closed ${UNREAD_BODY_DRAIN_IDLE_MS / 1000} s after its last byte, having read the 413`,
  async (t) => {
    const s = await service();
    const socket = await opened(portOf(s));
    const closed = readToClose(socket);
    await writeAll(socket, [
      Buffer.from(`POST /api.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`),
      Buffer.alloc(200 * 1024, 'x'),
    ]);
    await sleep(200);
    // The service cannot have read the last byte before it was written: its idle time runs from after this.
    const lastByte = Date.now();
    await writeAll(socket, [Buffer.from('x')]);
    const { bytes } = await closed;
    const after = Date.now() - lastByte;
    const answer = parseAnswer(bytes);
    t.is(answer.status, 413);
    t.true(answer.whole);
    t.true(after >= UNREAD_BODY_DRAIN_IDLE_MS, `closed ${after} ms after the last byte`);
    t.true(after <= UNREAD_BODY_DRAIN_IDLE_MS + MARGIN_MS, `closed ${after} ms after the last byte`);
  },
);

/** Sends `head`, then `trickle` a byte every 50 ms until the service closes; resolves with the answer and when it closed. */
async function trickle(
  port: number,
  head: string,
  trickled: string,
): Promise<{ answer: ReturnType<typeof parseAnswer>; ms: number; sent: number }> {
  const started = Date.now();
  const socket = await opened(port);
  const closed = readToClose(socket);
  socket.write(head);
  let sent = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write(trickled[sent++ % trickled.length]);
  }, 50);
  const { bytes } = await closed;
  clearInterval(timer);
  return { answer: parseAnswer(bytes), ms: Date.now() - started, sent };
}

test.serial(
  'trickled headers and a trickled body are cut off by the headers and request timeouts (408); the service answers others meanwhile',
  async (t) => {
    const s = await service({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
    const late = connectionLimits(s.config).connectionsCheckingInterval!;
    t.true(late <= 1000);
    const headers = trickle(portOf(s), 'GET /healthz HTTP/1.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n');
    const form = 'pin=123456&secretCode=trickled-body-secret';
    const body = trickle(
      portOf(s),
      `POST /api.asmx/ValidatePin HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length * 100}\r\n\r\n`,
      form,
    );
    for (let i = 0; i < 5; i++) {
      const secret = `meanwhile-${i}`;
      t.false(await validatePinResult(s, i % 2 ? 'httpPost' : 'soap11', wrongPinFor(s, secret), secret), 'a normal call is answered');
    }
    for (const [label, run, timeout] of [
      ['headers', await headers, 1000],
      ['body', await body, 2000],
    ] as const) {
      t.is(run.answer.status, 408, `${label}: ${JSON.stringify(run.answer)}`);
      t.true(run.sent > 5, `${label}: ${run.sent} bytes trickled`);
      t.true(run.ms >= timeout, `${label}: cut off after ${run.ms} ms`);
      t.true(
        run.ms <= timeout + late + MARGIN_MS,
        `${label}: cut off after ${run.ms} ms (timeout ${timeout} ms, checked every ${late} ms)`,
      );
    }
  },
);

test.serial('a client that stops reading its answers is closed once nothing has moved for the inactivity timeout', async (t) => {
  const s = await service({ headersTimeoutMs: 1000, requestTimeoutMs: 1000 });
  const inactivity = inactivityTimeout(s.config);
  t.true(inactivity > s.config.requestTimeoutMs, 'longer than the store timeout, here');
  const closedAt = new Promise<number>((resolve) =>
    s.server.once('connection', (connection: Socket) => connection.once('close', () => resolve(Date.now()))),
  );
  const socket = await opened(portOf(s));
  socket.pause();
  const started = Date.now();
  // 1 000 answers of 9 KiB, more than loopback's socket buffers hold while nobody reads.
  socket.write('GET /api.asmx?WSDL HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(1000));
  const giveUp = sleep(GIVE_UP_MS).then(() => Number.NaN);
  const ms = (await Promise.race([closedAt, giveUp])) - started;
  socket.destroy();
  t.true(ms >= inactivity, `closed by the service ${ms} ms after the requests`);
  // Node's timer lets one period pass while the write queue still moved, so up to twice the timeout.
  t.true(ms <= 2 * inactivity + MARGIN_MS, `closed by the service ${ms} ms after the requests (inactivity timeout ${inactivity} ms)`);
});

interface Idle {
  /** Before the service can have started the connection's timeout (before connecting, or before the call). */
  before: number;
  /** After the service has started it (connected, or the answer read). */
  after: number;
  closed: Promise<{ at: number; answer: ReturnType<typeof parseAnswer> }>;
}

/**
 * 500 connections that send nothing and 500 kept alive after one call
 * (GET /healthz, answered), opened 50 at a time; each watched until the
 * service closes it.
 */
async function idleConnections(t: ExecutionContext, port: number): Promise<{ silent: Idle[]; keptAlive: Idle[]; sockets: Socket[] }> {
  const watch = (socket: Socket) => readToClose(socket).then(({ bytes }) => ({ at: Date.now(), answer: parseAnswer(bytes) }));
  const silent: Idle[] = [];
  const keptAlive: Idle[] = [];
  const sockets: Socket[] = [];
  for (let batch = 0; batch < 10; batch++) {
    const before = Date.now();
    const opening = await Promise.all(Array.from({ length: 50 }, () => opened(port)));
    const after = Date.now();
    for (const socket of opening) silent.push({ before, after, closed: watch(socket) });
    sockets.push(...opening);
  }
  for (let batch = 0; batch < 10; batch++) {
    const opening = await Promise.all(Array.from({ length: 50 }, () => opened(port)));
    sockets.push(...opening);
    await Promise.all(
      opening.map(async (socket) => {
        const first = new Promise<Buffer>((resolve) => socket.once('data', resolve));
        const before = Date.now();
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
        const answer = await first;
        const after = Date.now();
        socket.pause();
        t.regex(answer.toString('latin1'), /^HTTP\/1\.1 200 OK[\s\S]*\r\n\r\nok\n$/);
        keptAlive.push({ before, after, closed: watch(socket) });
      }),
    );
  }
  return { silent, keptAlive, sockets };
}

const normalCalls = async (t: ExecutionContext, s: TestService, label: string) => {
  for (let i = 0; i < 20; i++) {
    const secret = `${label}-${i}`;
    t.false(
      await validatePinResult(s, (['soap11', 'soap12', 'httpGet', 'httpPost'] as const)[i % 4], wrongPinFor(s, secret), secret),
      'a normal call is answered',
    );
  }
};

test.serial('1 000 idle connections (500 silent, 500 kept alive after a call) do not keep the service from answering others', async (t) => {
  // Timeouts far longer than the test, so that all 1 000 are open however slow the machine.
  const s = await service({ headersTimeoutMs: 300_000, requestTimeoutMs: 300_000, keepAliveTimeoutMs: 300_000 });
  const { silent, keptAlive, sockets } = await idleConnections(t, portOf(s));
  let closed = 0;
  for (const idle of [...silent, ...keptAlive]) void idle.closed.then(() => closed++);
  await normalCalls(t, s, 'beside-idle');
  t.is(closed, 0, 'the 1 000 connections were open while the calls were answered');
  for (const socket of sockets) socket.destroy();
});

test.serial(
  'idle connections are closed by their timeouts: silent ones by the headers timeout (408), kept-alive ones by the keep-alive timeout',
  async (t) => {
    const headersTimeoutMs = 3000;
    const keepAliveTimeoutMs = 2000;
    const s = await service({ headersTimeoutMs, requestTimeoutMs: 6000, keepAliveTimeoutMs });
    const late = connectionLimits(s.config).connectionsCheckingInterval!;
    const { silent, keptAlive } = await idleConnections(t, portOf(s));
    await normalCalls(t, s, 'while-closing');
    const times = (idle: Idle[]) =>
      Promise.all(
        idle.map(async ({ before, after, closed }) => ({
          ...(await closed),
          least: (await closed).at - after,
          most: (await closed).at - before,
        })),
      );
    const range = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)} ms`;
    const silentClosed = await times(silent);
    t.true(
      silentClosed.every((c) => c.answer.status === 408),
      'a silent connection gets 408 when its headers timeout passes',
    );
    t.true(
      Math.min(...silentClosed.map((c) => c.most)) >= headersTimeoutMs,
      `silent: closed ${range(silentClosed.map((c) => c.most))} after connecting`,
    );
    t.true(
      Math.max(...silentClosed.map((c) => c.least)) <= headersTimeoutMs + late + MARGIN_MS,
      `silent: closed ${range(silentClosed.map((c) => c.least))} after connecting`,
    );
    const keptClosed = await times(keptAlive);
    // Node closes an idle kept-alive connection 1 s after the keep-alive timeout it announces.
    t.true(
      Math.min(...keptClosed.map((c) => c.most)) >= keepAliveTimeoutMs,
      `kept alive: closed ${range(keptClosed.map((c) => c.most))} after the call`,
    );
    t.true(
      Math.max(...keptClosed.map((c) => c.least)) <= keepAliveTimeoutMs + 1000 + MARGIN_MS,
      `kept alive: closed ${range(keptClosed.map((c) => c.least))} after the answer`,
    );
    t.log(
      `silent: closed ${range(silentClosed.map((c) => c.least))} after connecting; kept alive: ${range(keptClosed.map((c) => c.least))} after the answer`,
    );
  },
);

test('the timeouts are settings; the headers timeout may not be longer than the request timeout', (t) => {
  const config = parseConfig(['--headers-timeout', '2000', '--request-timeout=4000'], { PIN_KEEP_ALIVE_TIMEOUT: '700' });
  t.deepEqual([config.headersTimeoutMs, config.requestTimeoutMs, config.keepAliveTimeoutMs], [2000, 4000, 700]);
  t.deepEqual(connectionLimits(config), {
    headersTimeout: 2000,
    requestTimeout: 4000,
    keepAliveTimeout: 700,
    connectionsCheckingInterval: 200,
  });
  t.is(connectionLimits(parseConfig([], {})).connectionsCheckingInterval, 1000, 'by default, checked every second');
  for (const args of [
    ['--headers-timeout', '50'],
    ['--request-timeout', '0'],
    ['--keep-alive-timeout', '0'],
    ['--headers-timeout', '20000', '--request-timeout', '10000'],
  ]) {
    const error = t.throws(() => parseConfig(args, {}), { instanceOf: ConfigError }, args.join(' '));
    t.true(error?.message.includes(args[0]), `${args.join(' ')}: ${error?.message}`);
  }
});
