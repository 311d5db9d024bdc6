/**
 * Hostile input (docs/clients.md, *Errors*; docs/security.md): entity tricks, DOCTYPEs, oversized and
 * compressed bodies, deep nesting, invalid UTF-8, repeated or over-long
 * fields. Each gets its clear client error, and the service stays up and
 * answers the next valid call.
 */
import test, { type ExecutionContext } from 'ava';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startTestService, type TestService } from '../support/service';
import {
  CLIENT_CODE,
  VARIANTS,
  getQuery,
  isSoap,
  operationElement,
  pinFor,
  postForm,
  postSoap,
  readBoolean,
  readFault,
  soapEnvelope,
  validatePin,
  validatePinResult,
  type Answer,
  type Variant,
} from '../support/requests';

let service: TestService; // the defaults: 64 KiB bodies
let roomy: TestService; // the largest body limit, so deep nesting reaches the parser

test.before(async () => {
  [service, roomy] = await Promise.all([startTestService(), startTestService({ maxBodyBytes: 1_048_576 })]);
});

test.after.always(async () => {
  await Promise.all([service, roomy].filter(Boolean).map((s) => s.close()));
});

let fresh = 0;

/** The service is still up: a valid call with a fresh secret is answered true, over `variant`. */
async function stillUp(t: ExecutionContext, s: TestService = service, variant: Variant = 'soap11'): Promise<void> {
  const secret = `hardening-still-up-${++fresh}-secret`;
  t.true(await validatePinResult(s.url, variant, pinFor(s, secret), secret), `the next valid ${variant} call is answered`);
}

function assertClientFault(t: ExecutionContext, version: '1.1' | '1.2', answer: Answer, reason?: RegExp): string {
  t.is(answer.status, 500, 'a SOAP fault is sent with HTTP 500');
  const fault = readFault(answer.body, version);
  t.is(fault.codeLocalName, CLIENT_CODE[version], `soap:${CLIENT_CODE[version]}`);
  if (reason) t.regex(fault.reason, reason);
  return fault.reason;
}

function assertBadRequest(t: ExecutionContext, answer: Answer, reason?: RegExp): void {
  t.is(answer.status, 400);
  t.is(answer.contentType.split(';')[0], 'text/plain');
  t.is(answer.body.split('\n').filter((l) => l !== '').length, 1, 'one line of text');
  if (reason) t.regex(answer.body, reason);
}

const VERSIONS = ['1.1', '1.2'] as const;

const validBody = (version: '1.1' | '1.2', secretCode: string, pin = '123456') =>
  soapEnvelope(version, operationElement('ValidatePin', { pin, secretCode }));

/** A document with a DTD, the envelope after it; `secretCode` is inserted unescaped (it may be an entity reference). */
function withDoctype(version: '1.1' | '1.2', internalSubset: string | undefined, secretCode: string): string {
  const envelope = validBody(version, 'PLACEHOLDER').replace(/^<\?xml[^>]*\?>/, '');
  const doctype = internalSubset === undefined ? '<!DOCTYPE Envelope>' : `<!DOCTYPE Envelope [${internalSubset}]>`;
  return `<?xml version="1.0" encoding="utf-8"?>${doctype}${envelope.replace('PLACEHOLDER', secretCode)}`;
}

// Entity expansion and DTDs.

const BILLION_LAUGHS = `<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}`;

for (const version of VERSIONS) {
  test(`SOAP ${version}: a billion-laughs document → client fault, and the service stays up`, async (t) => {
    const body = withDoctype(version, BILLION_LAUGHS, '&lol9;');
    t.true(body.length < 2_000, 'a small document that would expand to a billion lols');
    const answer = await postSoap(service.url, version, body);
    // Refused for its DOCTYPE, or by libxml2 as not well-formed (it detects the amplification): a client fault either way.
    const reason = assertClientFault(t, version, answer, /DOCTYPE|well-formed/);
    t.false(reason.includes('lollol'), 'nothing was expanded');
    t.true(answer.body.length < 2_000, 'the answer is small');
    await stillUp(t, service, version === '1.1' ? 'soap11' : 'soap12');
  });

  test(`SOAP ${version}: an external entity (file:///etc/passwd) in secretCode → client fault without the file`, async (t) => {
    const body = withDoctype(version, '<!ENTITY xxe SYSTEM "file:///etc/passwd">', '&xxe;');
    const answer = await postSoap(service.url, version, body);
    assertClientFault(t, version, answer, /DOCTYPE/);
    t.false(answer.body.includes('root:'), 'the answer holds nothing of /etc/passwd');
    await stillUp(t);
  });

  test(`SOAP ${version}: an external parameter entity (network) → client fault`, async (t) => {
    const body = withDoctype(version, '<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;', 'hardening-param-entity');
    assertClientFault(t, version, await postSoap(service.url, version, body));
    await stillUp(t);
  });

  test(`SOAP ${version}: a DOCTYPE alone (no entities) → client fault`, async (t) => {
    const body = withDoctype(version, undefined, 'hardening-doctype-alone-secret');
    assertClientFault(t, version, await postSoap(service.url, version, body), /DOCTYPE/);
    await stillUp(t);
  });
}

// Size.

const ONE_MIB = 1024 * 1024;

for (const version of VERSIONS) {
  test(`SOAP ${version}: a 1 MiB body → 413`, async (t) => {
    const body = validBody(version, `hardening-big-${'x'.repeat(ONE_MIB)}`);
    t.true(Buffer.byteLength(body) > ONE_MIB);
    const answer = await postSoap(service.url, version, body);
    t.is(answer.status, 413);
    t.false(answer.body.includes('xxxxxxxx'), 'the body is not echoed');
    await stillUp(t);
  });

  test(`SOAP ${version}: a gzip body that inflates past 64 KiB (2 MiB of spaces) → 413, not a crash`, async (t) => {
    const body = validBody(version, 'hardening-gzip-secret').replace('</secretCode>', `${' '.repeat(2 * ONE_MIB)}</secretCode>`);
    const compressed = gzipSync(Buffer.from(body, 'utf8'));
    t.true(compressed.length < 65_536, 'the compressed body itself is under the limit');
    const answer = await postSoap(service.url, version, compressed, 'ValidatePin', { 'Content-Encoding': 'gzip' });
    t.is(answer.status, 413);
    await stillUp(t);
  });
}

test('HTTP POST: a 1 MiB form body → 413', async (t) => {
  const body = new URLSearchParams({ pin: '123456', secretCode: `hardening-big-form-${'y'.repeat(ONE_MIB)}` }).toString();
  const answer = await postForm(service.url, 'ValidatePin', body);
  t.is(answer.status, 413);
  t.false(answer.body.includes('yyyyyyyy'));
  await stillUp(t, service, 'httpPost');
});

test('HTTP POST: a gzip form body that inflates past 64 KiB → 413', async (t) => {
  const body = `pin=123456&secretCode=hardening-gzip-form${'+'.repeat(2 * ONE_MIB)}`;
  const answer = await postForm(service.url, 'ValidatePin', gzipSync(Buffer.from(body, 'utf8')), { 'Content-Encoding': 'gzip' });
  t.is(answer.status, 413);
  await stillUp(t, service, 'httpPost');
});

test('SOAP 1.1: a 1 MiB body sent chunked, without Content-Length → 413', async (t) => {
  const own = await startTestService();
  t.teardown(async () => {
    // The refused request was never read to its end, so its connection lingers until the keep-alive
    // timeout, with nothing keeping this process's event loop alive meanwhile: end it here.
    own.server.closeAllConnections();
    await own.close();
  });
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${own.url}/api.asmx`, { method: 'POST', headers: { 'Content-Type': 'text/xml; charset=utf-8' } }, (res) => {
      resolve(res.statusCode ?? 0);
      // The service answers without reading the rest; stop sending.
      req.destroy();
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    const chunk = Buffer.from(`<!-- ${'z'.repeat(16 * 1024)} -->`);
    const write = (i: number): void => {
      if (i === 64) return void req.end();
      if (req.destroyed) return;
      req.write(chunk, () => write(i + 1));
    };
    write(0);
  });
  t.is(status, 413);
  await stillUp(t, own);
});

// Depth.

for (const version of VERSIONS) {
  test(`SOAP ${version}: 10 000 nested elements inside the Body → client fault, the service stays up`, async (t) => {
    const nested = `${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`;
    const body = soapEnvelope(version, `<ValidatePin xmlns="http://authenticatorapi.com/">${nested}</ValidatePin>`);
    t.true(Buffer.byteLength(body) < roomy.config.maxBodyBytes, 'under the body limit, so the parser itself must cope');
    assertClientFault(t, version, await postSoap(roomy.url, version, body));
    await stillUp(t, roomy, version === '1.1' ? 'soap11' : 'soap12');
  });

  test(`SOAP ${version}: 10 000 nested elements at the default body limit → refused (413), the service stays up`, async (t) => {
    const nested = `${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`;
    const answer = await postSoap(service.url, version, soapEnvelope(version, nested));
    t.is(answer.status, 413);
    await stillUp(t);
  });
}

// UTF-8.

for (const version of VERSIONS) {
  test(`SOAP ${version}: invalid UTF-8 bytes in the body → client fault mentioning UTF-8`, async (t) => {
    const [before, after] = validBody(version, 'hardening-utf8-SPLIT-secret').split('SPLIT');
    const body = Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(after, 'utf8')]);
    assertClientFault(t, version, await postSoap(service.url, version, body), /UTF-8/);
    await stillUp(t);
  });

  test(`SOAP ${version}: an overlong UTF-8 encoding (0xC0 0xAF) → client fault mentioning UTF-8`, async (t) => {
    const [before, after] = validBody(version, 'hardening-overlong-SPLIT-secret').split('SPLIT');
    const body = Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from([0xc0, 0xaf]), Buffer.from(after, 'utf8')]);
    assertClientFault(t, version, await postSoap(service.url, version, body), /UTF-8/);
    await stillUp(t);
  });
}

test('HTTP GET: invalid UTF-8 in a percent-encoded query (%FF) → 400', async (t) => {
  assertBadRequest(t, await getQuery(service.url, 'ValidatePin', 'pin=123456&secretCode=hardening%FFsecret'));
  assertBadRequest(t, await getQuery(service.url, 'ValidatePin', 'pin=%C3%28&secretCode=hardening-secret'));
  await stillUp(t, service, 'httpGet');
});

test('HTTP POST: invalid UTF-8 in a form body → 400 (percent-encoded and raw)', async (t) => {
  assertBadRequest(t, await postForm(service.url, 'ValidatePin', 'pin=123456&secretCode=hardening%FFsecret'));
  const raw = Buffer.concat([Buffer.from('pin=123456&secretCode=hardening'), Buffer.from([0xff, 0xfe]), Buffer.from('secret')]);
  assertBadRequest(t, await postForm(service.url, 'ValidatePin', raw), /UTF-8/);
  await stillUp(t, service, 'httpPost');
});

test('HTTP GET and POST: a malformed percent-escape (%G1, a lone %) → 400', async (t) => {
  assertBadRequest(t, await getQuery(service.url, 'ValidatePin', 'pin=%G1&secretCode=hardening-secret'));
  assertBadRequest(t, await postForm(service.url, 'ValidatePin', 'pin=123456&secretCode=hardening%'));
  await stillUp(t, service, 'httpGet');
});

// Repeated and over-long fields.

test('HTTP GET: a repeated query parameter → 400', async (t) => {
  const secret = 'hardening-repeated-query-secret';
  const pin = pinFor(service, secret);
  assertBadRequest(t, await getQuery(service.url, 'ValidatePin', `pin=${pin}&pin=${pin}&secretCode=${secret}`), /more than once/);
  assertBadRequest(t, await getQuery(service.url, 'ValidatePin', `pin=${pin}&secretCode=${secret}&secretCode=${secret}`));
  assertBadRequest(t, await getQuery(service.url, 'ValidatePin', `pin=${pin}&PIN=${pin}&secretCode=${secret}`), /more than once/);
  t.true(await validatePinResult(service.url, 'httpGet', pin, secret), 'the refused calls did not use up the PIN');
});

test('HTTP POST: a repeated form field → 400', async (t) => {
  const secret = 'hardening-repeated-form-secret';
  const pin = pinFor(service, secret);
  assertBadRequest(t, await postForm(service.url, 'ValidatePin', `pin=${pin}&secretCode=${secret}&secretCode=other`), /more than once/);
  assertBadRequest(t, await postForm(service.url, 'ValidatePin', `pin=${pin}&pin=000000&secretCode=${secret}`));
  assertBadRequest(t, await postForm(service.url, 'ValidatePin', `pin=${pin}&secretcode=${secret}&SecretCode=${secret}`));
  t.true(await validatePinResult(service.url, 'httpPost', pin, secret));
});

for (const variant of VARIANTS) {
  test(`${variant}: a 10 000-character pin → false, not an error`, async (t) => {
    const secret = `hardening-long-pin-${variant}-secret`;
    const answer = await validatePin(service.url, variant, '1'.repeat(10_000), secret);
    t.false(readBoolean(variant, answer));
    t.false(
      await validatePinResult(service.url, variant, `${pinFor(service, secret)}${'0'.repeat(9_994)}`, secret),
      'the right PIN with 9 994 digits after it',
    );
    await stillUp(t, service, variant);
  });

  test(`${variant}: an over-long secretCode (300 bytes) → client error`, async (t) => {
    const secret = `hardening-long-secret-${'s'.repeat(300)}`;
    const answer = await validatePin(service.url, variant, '123456', secret);
    if (isSoap(variant)) assertClientFault(t, variant === 'soap11' ? '1.1' : '1.2', answer, /secretCode/);
    else assertBadRequest(t, answer, /secretCode/);
    t.false(answer.body.includes('ssssssss'), 'the secret is not echoed');
    await stillUp(t, service, variant);
  });
}
