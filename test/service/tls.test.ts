/**
 * HTTPS served by the service itself (--tls-cert, --tls-key): every variant
 * over TLS with a test CA's certificate, the addresses it writes (also
 * behind a proxy's X-Forwarded-Proto), HSTS, the certificate read again
 * without dropping open connections, its expiry as a metric, and the bad
 * inputs: wrong files, plain HTTP or an old TLS version on the TLS port, a
 * client stalling in its handshake.
 */
import test from 'ava';
import { Agent } from 'node:https';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { once } from 'node:events';
import { ConfigError, parseConfig } from '../../src/service/config';
import { httpsLocation } from '../../src/service/https-redirect';
import { loadTlsIdentity } from '../../src/service/tls';
import { createTestCa, pemFolder, type TestCa } from '../support/certificates';
import { getHttps, sendHttps } from '../support/https';
import { attributeOf, elementsAt, loadReaders, readXml } from '../support/readers';
import { buildRequest, readBoolean, VARIANTS } from '../support/requests';
import { startTestService, type TestService } from '../support/service';

const DAY_MS = 86_400_000;
let ca: TestCa;
let files: ReturnType<typeof pemFolder>;
let certFile: string;
let keyFile: string;
let serialNumber: string;
let service: TestService;

test.before(async () => {
  await loadReaders();
  ca = await createTestCa();
  files = pemFolder();
  const issued = await ca.issue();
  serialNumber = issued.serialNumber;
  certFile = files.write('cert.pem', issued.cert);
  keyFile = files.write('key.pem', issued.key);
  service = await startTestService({ tlsCert: certFile, tlsKey: keyFile });
});

test.after.always(async () => {
  await service?.close();
});

/** Waits (bounded) for `socket` to be closed by the server: whether it was, and what it received before. */
async function closedByServer(socket: Socket, boundMs = 10_000): Promise<{ closed: boolean; received: Buffer }> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  let gaveUp = false;
  const bound = setTimeout(() => {
    gaveUp = true;
    socket.destroy();
  }, boundMs);
  await once(socket, 'close');
  clearTimeout(bound);
  return { closed: !gaveUp, received: Buffer.concat(chunks) };
}

test('the service says https:// in its address when it serves TLS', (t) => {
  t.regex(service.url, /^https:\/\/127\.0\.0\.1:\d+$/);
});

for (const variant of VARIANTS) {
  test(`ValidatePin over HTTPS, ${variant}: answered, with Strict-Transport-Security`, async (t) => {
    const answer = await sendHttps(
      service.url,
      buildRequest(variant, 'ValidatePin', { pin: '123456', secretCode: `tls-${variant}-secret` }),
      {
        ca: ca.cert,
      },
    );
    t.false(readBoolean(variant, answer));
    t.is(answer.serialNumber, serialNumber, "the test CA's certificate was served");
    t.is(answer.headers.get('strict-transport-security'), 'max-age=31536000');
  });
}

test('JSON over HTTPS: answered', async (t) => {
  const answer = await sendHttps(
    service.url,
    {
      method: 'POST',
      path: '/api.asmx/ValidatePin',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ pin: '123456', secretCode: 'tls-json-secret' }),
    },
    { ca: ca.cert },
  );
  t.is(answer.status, 200, answer.body);
  t.deepEqual(JSON.parse(answer.body), { d: false });
});

/** The addresses of the WSDL's four ports and of the disco document, and the help page's shown address. */
async function publishedAddresses(base: string, options: { ca?: string; headers?: Record<string, string> }) {
  const get = async (path: string) =>
    base.startsWith('https:')
      ? (await getHttps(base, path, { ca: options.ca ?? '', headers: options.headers })).body
      : await (await fetch(`${base}${path}`, { headers: options.headers })).text();
  const wsdl = readXml(await get('/api.asmx?WSDL'), (doc) =>
    elementsAt(doc, "//*[local-name()='address']").map((e) => attributeOf(e, 'location')),
  );
  const disco = readXml(await get('/api.asmx?disco'), (doc) =>
    elementsAt(doc, '//*[@address or @ref]').map((e) => attributeOf(e, 'address') ?? attributeOf(e, 'ref')),
  );
  const helpPage = await get('/api.asmx');
  const script = await get('/api.asmx/js');
  return { wsdl, disco, helpPage, script };
}

test('over HTTPS the WSDL, the disco document and the help page give https:// addresses', async (t) => {
  const { wsdl, disco, helpPage } = await publishedAddresses(service.url, { ca: ca.cert });
  const address = `${service.url}/api.asmx`;
  t.deepEqual(wsdl, [address, address, address, address]);
  t.true(disco.length >= 3);
  t.true(
    disco.every((a) => a?.startsWith(address)),
    disco.join(' '),
  );
  t.true(helpPage.includes(address), 'the help page shows the https address');
  t.false(helpPage.includes('http://127.0.0.1'), 'and no http one');
});

test('behind a proxy sending X-Forwarded-Proto: https, with --trust-proxy, the addresses are https://; without it they are not', async (t) => {
  const [trusting, plain] = await Promise.all([startTestService({ trustProxy: true }), startTestService()]);
  t.teardown(() => Promise.all([trusting.close(), plain.close()]));
  const headers = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'pins.example.com' };
  const behind = await publishedAddresses(trusting.url, { headers });
  t.deepEqual(behind.wsdl, Array(4).fill('https://pins.example.com/api.asmx'));
  t.true(behind.disco.every((a) => a?.startsWith('https://pins.example.com/api.asmx')));
  t.true(behind.helpPage.includes('https://pins.example.com/api.asmx'));
  t.true(behind.script.includes('/api.asmx'), 'the script proxy calls the endpoint on the page origin (a path)');
  const notTrusted = await publishedAddresses(plain.url, { headers });
  t.deepEqual(notTrusted.wsdl, Array(4).fill(`${plain.url}/api.asmx`));
  t.true(notTrusted.disco.every((a) => a?.startsWith('http://')));
});

test('plain HTTP answers carry no Strict-Transport-Security, and --hsts-max-age 0 leaves it out over HTTPS too', async (t) => {
  const [plain, noHsts] = await Promise.all([startTestService(), startTestService({ tlsCert: certFile, tlsKey: keyFile, hstsMaxAge: 0 })]);
  t.teardown(() => Promise.all([plain.close(), noHsts.close()]));
  t.is((await fetch(`${plain.url}/healthz`)).headers.get('strict-transport-security'), null);
  const answer = await getHttps(noHsts.url, '/healthz', { ca: ca.cert });
  t.is(answer.status, 200);
  t.is(answer.headers.get('strict-transport-security'), null);
});

test('the certificate read again: new connections get the new one, an open connection keeps answering, a bad pair keeps the old one', async (t) => {
  const folder = pemFolder();
  const first = await ca.issue();
  const cert = folder.write('cert.pem', first.cert);
  const key = folder.write('key.pem', first.key);
  const reloading = await startTestService({ tlsCert: cert, tlsKey: key, metricsOnPublicPort: true });
  t.teardown(() => reloading.close());
  const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => keptAlive.destroy());
  const before = await getHttps(reloading.url, '/healthz', { ca: ca.cert, agent: keptAlive });
  t.is(before.serialNumber, first.serialNumber);

  const second = await ca.issue({ notAfter: new Date(Date.now() + 30 * DAY_MS) });
  folder.write('cert.pem', second.cert);
  folder.write('key.pem', second.key);
  const loaded = reloading.reloadTls!();
  t.is(loaded.serialNumber, second.serialNumber);

  const fresh = await getHttps(reloading.url, '/healthz', { ca: ca.cert });
  t.is(fresh.serialNumber, second.serialNumber, 'a new connection sees the new certificate');
  const again = await getHttps(reloading.url, '/healthz', { ca: ca.cert, agent: keptAlive });
  t.is(again.status, 200, 'the connection opened before still answers');
  t.is(again.socket, before.socket, 'on the same connection');
  t.is(again.serialNumber, first.serialNumber);

  const metrics = await (await getHttps(reloading.url, '/metrics', { ca: ca.cert })).body;
  const notAfter = Math.floor(new Date(new (await import('node:crypto')).X509Certificate(second.cert).validTo).getTime() / 1000);
  t.true(metrics.includes(`pin_tls_certificate_not_after_seconds ${notAfter}\n`), 'the metric gives the new certificate’s expiry');

  // A key that is not the certificate's: refused, the second pair still served.
  const third = await ca.issue();
  folder.write('cert.pem', third.cert);
  const error = t.throws(() => reloading.reloadTls!(), { instanceOf: ConfigError });
  t.regex(error?.message ?? '', /key\.pem is not the key of the certificate in .*cert\.pem$/);
  t.is((await getHttps(reloading.url, '/healthz', { ca: ca.cert })).serialNumber, second.serialNumber);
  // TLS 1.2 is still the minimum after a reload.
  t.is(await handshakeWith('TLSv1.1', reloading.url), 'refused');
});

/** Tries a handshake limited to `maxVersion`: 'accepted', or 'refused' when the server ended it. */
async function handshakeWith(maxVersion: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3', url: string): Promise<'accepted' | 'refused'> {
  const { hostname, port } = new URL(url);
  // SECLEVEL=0: so that this client offers TLS 1.0/1.1 at all (OpenSSL 3 no longer does by default).
  const socket = connectTls({
    host: hostname,
    port: Number(port),
    ca: ca.cert,
    minVersion: 'TLSv1',
    maxVersion,
    ciphers: 'DEFAULT@SECLEVEL=0',
  });
  // (events.once would reject on the 'error' event itself.)
  const outcome = await new Promise<'accepted' | 'refused'>((resolve, reject) => {
    socket.once('secureConnect', () => resolve('accepted'));
    socket.once('error', (error) => {
      // The server's alert: it does not speak that version.
      if (/alert protocol version/i.test(error.message)) resolve('refused');
      else reject(error);
    });
  });
  socket.destroy();
  return outcome;
}

test('a TLS 1.0 or 1.1 handshake is refused; TLS 1.2 and 1.3 are accepted', async (t) => {
  t.is(await handshakeWith('TLSv1', service.url), 'refused');
  t.is(await handshakeWith('TLSv1.1', service.url), 'refused');
  t.is(await handshakeWith('TLSv1.2', service.url), 'accepted');
  t.is(await handshakeWith('TLSv1.3', service.url), 'accepted');
});

test('a plain HTTP request to the TLS port gets no HTTP answer: the connection is closed', async (t) => {
  const socket = connectTcp(Number(new URL(service.url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const { closed, received } = await closedByServer(socket);
  t.true(closed, 'closed by the server');
  t.false(received.toString('latin1').startsWith('HTTP/'), 'never an answer in clear');
});

test('a client that stalls in its handshake is disconnected after the headers timeout', async (t) => {
  const stalling = await startTestService({ tlsCert: certFile, tlsKey: keyFile, headersTimeoutMs: 300, requestTimeoutMs: 300 });
  t.teardown(() => stalling.close());
  const socket = connectTcp(Number(new URL(stalling.url).port), '127.0.0.1');
  await once(socket, 'connect');
  // The first bytes of a ClientHello record, and then nothing.
  socket.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xc8, 0x01]));
  const { closed } = await closedByServer(socket, 10_000);
  t.true(closed, 'the server closed it (the bound of this wait is far longer than the timeout)');
});

// --- Start-up errors ------------------------------------------------------------------------------

test('--tls-cert and --tls-key go together, and each must be a readable PEM file of its kind', (t) => {
  t.throws(() => parseConfig(['--tls-cert', certFile], {}), {
    message: '--tls-cert and --tls-key go together: HTTPS needs the certificate and its key',
  });
  t.throws(() => parseConfig([], { PIN_TLS_KEY: keyFile }), {
    message: '--tls-cert and --tls-key go together: HTTPS needs the certificate and its key',
  });
  const missing = `${files.dir}/missing.pem`;
  t.throws(() => parseConfig(['--tls-cert', missing, '--tls-key', keyFile], {}), {
    message: `invalid --tls-cert: cannot read ${missing} (ENOENT)`,
  });
  t.throws(() => parseConfig(['--tls-cert', certFile, '--tls-key', certFile], {}), {
    message: `invalid --tls-key: ${certFile} holds no PEM private key`,
  });
  t.throws(() => parseConfig(['--tls-cert', keyFile, '--tls-key', keyFile], {}), {
    message: `invalid --tls-cert: ${keyFile} holds no PEM certificate`,
  });
  const config = parseConfig([], { PIN_TLS_CERT: certFile, PIN_TLS_KEY: keyFile, PIN_HSTS_MAX_AGE: '0' });
  t.like(config, { tlsCert: certFile, tlsKey: keyFile, hstsMaxAge: 0 });
});

test('a key that is not the certificate’s, an expired certificate or one not yet valid stops start-up with one line', async (t) => {
  const other = await ca.issue();
  const otherKey = files.write('other-key.pem', other.key);
  await t.throwsAsync(startTestService({ tlsCert: certFile, tlsKey: otherKey }), {
    instanceOf: ConfigError,
    message: `${otherKey} is not the key of the certificate in ${certFile}`,
  });
  const expired = await ca.issue({ notBefore: new Date(Date.now() - 20 * DAY_MS), notAfter: new Date(Date.now() - 10 * DAY_MS) });
  const expiredCert = files.write('expired.pem', expired.cert);
  const expiredKey = files.write('expired-key.pem', expired.key);
  const error = t.throws(() => loadTlsIdentity(expiredCert, expiredKey), { instanceOf: ConfigError });
  t.regex(error?.message ?? '', /^the certificate in .*expired\.pem expired on \d{4}-\d\d-\d\dT/);
  const future = await ca.issue({ notBefore: new Date(Date.now() + 10 * DAY_MS) });
  t.throws(() => loadTlsIdentity(files.write('future.pem', future.cert), files.write('future-key.pem', future.key)), {
    message: /is not valid before/,
  });
  const encrypted = files.write('garbled-key.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
  t.throws(() => loadTlsIdentity(certFile, encrypted), { message: `${encrypted} holds no unencrypted PEM private key` });
});

// --- --http-port: redirects only -----------------------------------------------------------------

test('--http-port answers every request with a redirect to the same path on HTTPS, and never a call', async (t) => {
  const redirecting = await startTestService({ tlsCert: certFile, tlsKey: keyFile, httpPort: 0 });
  t.teardown(() => redirecting.close());
  t.regex(redirecting.redirectUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  const wsdl = await fetch(`${redirecting.redirectUrl}/api.asmx?WSDL`, { redirect: 'manual' });
  t.is(wsdl.status, 301);
  t.is(wsdl.headers.get('location'), `${redirecting.url}/api.asmx?WSDL`);
  const location = new URL(wsdl.headers.get('location')!);
  const followed = await getHttps(location.origin, `${location.pathname}${location.search}`, { ca: ca.cert });
  t.true(followed.body.includes(`location="${redirecting.url}/api.asmx"`), 'the WSDL it leads to gives the https address');
  const call = buildRequest('soap11', 'ValidatePin', { pin: '123456', secretCode: 'redirected-secret' });
  const soap = await fetch(`${redirecting.redirectUrl}${call.path}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    redirect: 'manual',
  });
  t.is(soap.status, 301, 'a call is not answered in clear');
  t.false((await soap.text()).includes('ValidatePinResponse'));
  t.is(soap.headers.get('strict-transport-security'), null, 'HSTS is for HTTPS answers only (RFC 6797)');
});

test('the redirect keeps the host the caller used and leaves out port 443; a Host that makes no URL is refused', (t) => {
  t.is(httpsLocation('pins.example.com', '/api.asmx?op=Pair', 443), 'https://pins.example.com/api.asmx?op=Pair');
  t.is(httpsLocation('pins.example.com:80', '/', 8443), 'https://pins.example.com:8443/');
  t.is(httpsLocation('[::1]:8080', '/api.asmx', 8443), 'https://[::1]:8443/api.asmx');
  t.is(httpsLocation('evil.example/x', '/', 443), undefined);
  t.is(httpsLocation(undefined, '/', 443), undefined);
  t.is(httpsLocation('pins.example.com', 'http://other.example/', 443), undefined, 'an absolute-form target');
});

test('--http-port needs --tls-cert and another port than --port; a port in use names --http-port', async (t) => {
  t.throws(() => parseConfig(['--http-port', '8081'], {}), {
    message: '--http-port needs --tls-cert: without TLS, --port is the plain HTTP port',
  });
  t.throws(() => parseConfig(['--tls-cert', certFile, '--tls-key', keyFile, '--port', '8443', '--http-port', '8443'], {}), {
    message: '--http-port must differ from --port (the HTTPS port)',
  });
  const taken = Number(new URL(service.url).port);
  await t.throwsAsync(startTestService({ tlsCert: certFile, tlsKey: keyFile, httpPort: taken }), {
    instanceOf: ConfigError,
    message: `--http-port ${taken}: already in use on 127.0.0.1`,
  });
});
