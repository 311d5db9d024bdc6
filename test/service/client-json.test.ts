/**
 * The typed client's JSON variant beyond what test/service/client.test.ts runs for
 * every variant: what goes over the wire (and that the service logs it as
 * the json variant), how `d` is decoded, and answers that do not fit.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { AuthenticatorApiClient, AuthenticatorApiError } from '../../src/service/index';
import { startTestService } from '../support/service';

interface Seen {
  method?: string;
  url?: string;
  contentType?: string;
  body: string;
}

/** A stand-in service answering every request with one canned answer, recording the request. */
async function withCanned<T>(
  status: number,
  body: string,
  run: (url: string, seen: Seen) => Promise<T>,
  headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' },
): Promise<T> {
  const seen: Seen = { body: '' };
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      Object.assign(seen, {
        method: request.method,
        url: request.url,
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function failure(call: Promise<unknown>): Promise<AuthenticatorApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AuthenticatorApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

const client = (baseUrl: string) => new AuthenticatorApiClient({ baseUrl, variant: 'json' });

test('json: a call is a POST of the fields as one JSON object, absent ones left out, to /api.asmx/{operation}', async (t) => {
  await withCanned(200, '{"d":true}', async (url, seen) => {
    t.true(await client(url).validatePin({ pin: '123456', secretCode: 's&c<r>"\'' }));
    t.is(seen.method, 'POST');
    t.is(seen.url, '/api.asmx/ValidatePin');
    t.is(seen.contentType, 'application/json; charset=utf-8');
    t.deepEqual(JSON.parse(seen.body), { pin: '123456', secretCode: 's&c<r>"\'' });
    await client(url)
      .pair({ appInfo: 'alice' })
      .catch(() => undefined);
    t.is(seen.url, '/api.asmx/Pair');
    t.deepEqual(JSON.parse(seen.body), { appInfo: 'alice' });
  });
});

test("json: the service logs the client's calls as the json variant", async (t) => {
  const service = await startTestService();
  try {
    t.false(await client(service.url).validatePin({ pin: '000000', secretCode: 'client-json-log-secret' }));
    t.regex(
      service.logs(),
      /"event":"request"[^\n]*"path":"\/api.asmx\/:operation","variant":"json","operation":"ValidatePin","status":200/,
    );
  } finally {
    await service.close();
  }
});

test('json: d null is an absent PairingInfo; null members are absent fields; __type may be left out (Mono)', async (t) => {
  t.is(await withCanned(200, '{"d":null}', (url) => client(url).pair({ appInfo: 'x', secretCode: 'y' })), undefined);
  const info = await withCanned(200, '{"d":{"ManualSetupCode":"ABC","Html":null}}', (url) =>
    client(url).pair({ appInfo: 'x', secretCode: 'y' }),
  );
  t.is(info?.ManualSetupCode, 'ABC');
  t.is(info?.Html, undefined);
});

test('json: answers that do not fit the contract are protocol errors', async (t) => {
  const cases: Array<['pair' | 'validatePin', string, RegExp]> = [
    ['validatePin', 'not json', /not a JSON object with a "d" member/],
    ['validatePin', '{"result":true}', /not a JSON object with a "d" member/],
    ['validatePin', '{"d":"true"}', /"d" is not a boolean/],
    ['validatePin', '{"d":null}', /"d" is not a boolean/],
    ['pair', '{"d":"GEZDGNBVGY3TQQSYLFKA"}', /not a AuthenticatorAPI.PairingInfo object/],
    ['pair', '{"d":{"__type":"Other.Type","ManualSetupCode":"A"}}', /Other.Type where AuthenticatorAPI.PairingInfo was expected/],
    ['pair', '{"d":{"ManualSetupCode":42}}', /ManualSetupCode is not a string/],
  ];
  for (const [method, body, message] of cases) {
    const error = await withCanned(200, body, (url) =>
      failure(
        method === 'pair' ? client(url).pair({ appInfo: 'x', secretCode: 'y' }) : client(url).validatePin({ pin: '1', secretCode: 'x' }),
      ),
    );
    t.is(error.code, 'protocol', body);
    t.is(error.status, 200, body);
    t.is(error.variant, 'json', body);
    t.regex(error.faultString, message, body);
  }
});

test("json: an error answer is http:{status} with the JSON error's Message, or the first line of any other text", async (t) => {
  const json = await withCanned(
    429,
    '{"Message":"Too many failed validations for this secret; try again in 9 seconds.","StackTrace":"","ExceptionType":"System.Web.HttpException"}',
    (url) => failure(client(url).validatePin({ pin: '1', secretCode: 'x' })),
    { 'Content-Type': 'application/json; charset=utf-8', jsonerror: 'true', 'Retry-After': '9' },
  );
  t.deepEqual(
    [json.code, json.faultString, json.status, json.retryAfter],
    ['http:429', 'Too many failed validations for this secret; try again in 9 seconds.', 429, 9],
  );
  const text = await withCanned(502, 'Bad Gateway\nnginx', (url) => failure(client(url).validatePin({ pin: '1', secretCode: 'x' })), {
    'Content-Type': 'text/plain',
  });
  t.deepEqual([text.code, text.faultString, text.status], ['http:502', 'Bad Gateway', 502]);
});

test('json: nothing listening is a transport error', async (t) => {
  const closed = await startTestService();
  const url = closed.url;
  await closed.close();
  const error = await failure(client(url).validatePin({ pin: '1', secretCode: 'x' }));
  t.is(error.code, 'transport');
  t.regex(error.faultString, /ECONNREFUSED/);
});
