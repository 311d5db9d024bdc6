/**
 * Real clients over HTTPS: the service serves TLS itself (--tls-cert) with a
 * certificate of a private CA made here with openssl, and each client trusts
 * that CA the way its users trust one: PHP SoapClient (a stream context's
 * cafile), zeep (requests' verify), curl (--cacert), the typed TypeScript
 * client on Node.js (NODE_EXTRA_CA_CERTS). Every variant each client speaks;
 * without the CA, each refuses the service.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../support/child-service';
import { createOpensslCa, type OpensslCa } from '../support/openssl-ca';
import { attributeOf, elementsAt, loadReaders, readXml } from '../support/readers';
import { buildRequest, pinFor, readBoolean, VARIANTS, wrongPinFor } from '../support/requests';
import { startTestService } from '../support/service';
import { CLIENTS_DIR, PYTHON, requireTool, runJsonClient, runScenario, type CallResult } from './clients/harness';

let ca: OpensslCa;
let tls: { tlsCert: string; tlsKey: string };

test.before(async () => {
  await loadReaders();
  ca = createOpensslCa();
  const { certFile, keyFile } = ca.issue('service');
  tls = { tlsCert: certFile, tlsKey: keyFile };
});

test.after.always(() => ca?.remove());

// --- PHP SoapClient -------------------------------------------------------------------------------

const PHP_VERSIONS = [
  { soapVersion: '1.1', variant: 'soap11', faultCode: 'soap:Client' },
  { soapVersion: '1.2', variant: 'soap12', faultCode: 'soap:Sender' },
] as const;

for (const { soapVersion, variant, faultCode } of PHP_VERSIONS) {
  test.serial(`PHP SoapClient over HTTPS, SOAP ${soapVersion}, the CA given as the stream context's cafile`, (t) => {
    requireTool('php', ['-r', 'exit(extension_loaded("soap") && extension_loaded("openssl") ? 0 : 1);'], 'php-cli php-soap');
    return runScenario(
      t,
      `php-https-${variant}`,
      variant,
      async (service, calls) => {
        t.true(service.url.startsWith('https://'));
        return (
          await runJsonClient<{ results: CallResult[] }>('php', [join(CLIENTS_DIR, 'soapclient.php')], {
            wsdl: `${service.url}/api.asmx?WSDL`,
            soapVersion,
            calls,
            cafile: ca.caFile,
          })
        ).results;
      },
      (result, what) => {
        t.is(result.fault?.type, 'SoapFault', `${what}: ${JSON.stringify(result)}`);
        t.is(result.fault?.code, faultCode, what);
        return result.fault?.message;
      },
      tls,
    );
  });
}

// --- zeep -----------------------------------------------------------------------------------------

const ZEEP_PORTS = [
  { port: 'AuthenticatorAPISoap', variant: 'soap11', faultCode: 'soap:Client' },
  { port: 'AuthenticatorAPISoap12', variant: 'soap12', faultCode: 'soap:Sender' },
  { port: 'AuthenticatorAPIHttpGet', variant: 'httpGet', faultCode: null },
  { port: 'AuthenticatorAPIHttpPost', variant: 'httpPost', faultCode: null },
] as const;

for (const { port, variant, faultCode } of ZEEP_PORTS) {
  test.serial(`zeep over HTTPS, ${port}, the CA given as requests' verify`, (t) => {
    requireTool(PYTHON, ['-c', 'import zeep'], 'python3-zeep');
    return runScenario(
      t,
      `zeep-https-${variant}`,
      variant,
      async (service, calls) =>
        (
          await runJsonClient<{ results: CallResult[] }>(PYTHON, [join(CLIENTS_DIR, 'zeep_client.py')], {
            wsdl: `${service.url}/api.asmx?WSDL`,
            port,
            calls,
            verify: ca.caFile,
          })
        ).results,
      (result, what) => {
        t.is(result.fault?.type, 'zeep.exceptions.Fault', `${what}: ${JSON.stringify(result)}`);
        t.is(result.fault?.code, faultCode, what);
        return result.fault?.message;
      },
      tls,
    );
  });
}

test.serial('without the CA, PHP SoapClient and zeep refuse the service’s certificate', async (t) => {
  requireTool('php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'], 'php-cli php-soap');
  requireTool(PYTHON, ['-c', 'import zeep'], 'python3-zeep');
  const service = await startTestService(tls);
  try {
    const call = { op: 'ValidatePin', args: { pin: '123456', secretCode: 'untrusted-secret' } };
    // The same call as above but for the cafile: SoapClient cannot even load the WSDL (it does not say why).
    const php = runJsonClient('php', [join(CLIENTS_DIR, 'soapclient.php')], {
      wsdl: `${service.url}/api.asmx?WSDL`,
      soapVersion: '1.1',
      calls: [call],
    });
    await t.throwsAsync(php, { message: /SoapClient could not load the WSDL: .*Couldn't load from 'https:/ });
    const zeep = runJsonClient(PYTHON, [join(CLIENTS_DIR, 'zeep_client.py')], {
      wsdl: `${service.url}/api.asmx?WSDL`,
      port: 'AuthenticatorAPISoap',
      calls: [call],
    });
    await t.throwsAsync(zeep, { message: /CERTIFICATE_VERIFY_FAILED|certificate verify failed/ });
  } finally {
    await service.close();
  }
});

// --- curl -----------------------------------------------------------------------------------------

/** curl with the CA given as --cacert (run without blocking: the service answers from this process). */
function curl(url: string, request: { method: string; headers: Record<string, string>; body?: string | Buffer }, cacert?: string) {
  const args = ['--silent', '--show-error', '--max-time', '30', '--write-out', '\n%{http_code}', '-X', request.method];
  if (cacert) args.push('--cacert', cacert);
  for (const [name, value] of Object.entries(request.headers)) args.push('-H', `${name}: ${value}`);
  if (request.body !== undefined) args.push('--data-binary', '@-');
  args.push(url);
  return new Promise<{ exit: number | null; stderr: string; body: string; status: number }>((resolve, reject) => {
    const child = spawn('curl', args, { timeout: 40_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (exit) => {
      const cut = stdout.lastIndexOf('\n');
      resolve({ exit, stderr, body: stdout.slice(0, cut), status: Number(stdout.slice(cut + 1)) });
    });
    child.stdin.end(request.body);
  });
}

test.serial('curl --cacert: every variant over HTTPS, and the WSDL’s addresses are https', async (t) => {
  requireTool('curl', ['--version'], 'curl');
  const service = await startTestService(tls);
  try {
    for (const variant of VARIANTS) {
      const secret = `curl-https-${variant}-secret`;
      for (const [pin, expected] of [
        [wrongPinFor(service, secret), false],
        [pinFor(service, secret), true],
      ] as const) {
        const request = buildRequest(variant, 'ValidatePin', { pin, secretCode: secret });
        const answer = await curl(`${service.url}${request.path}`, request, ca.caFile);
        t.is(answer.exit, 0, `${variant}: ${answer.stderr}`);
        const headers = new Headers();
        t.is(
          readBoolean(variant, {
            status: answer.status,
            statusText: '',
            headers,
            contentType: '',
            body: answer.body,
            bytes: Buffer.from(answer.body),
          }),
          expected,
          variant,
        );
      }
    }
    const json = await curl(
      `${service.url}/api.asmx/ValidatePin`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ pin: '123456', secretCode: 'curl-https-json-secret' }),
      },
      ca.caFile,
    );
    t.is(json.status, 200, json.stderr);
    t.deepEqual(JSON.parse(json.body), { d: false }, 'JSON');
    const wsdl = await curl(`${service.url}/api.asmx?WSDL`, { method: 'GET', headers: {} }, ca.caFile);
    const addresses = readXml(wsdl.body, (doc) => elementsAt(doc, "//*[local-name()='address']").map((e) => attributeOf(e, 'location')));
    t.deepEqual(addresses, Array(4).fill(`${service.url}/api.asmx`));
    const untrusted = await curl(`${service.url}/healthz`, { method: 'GET', headers: {} });
    t.is(untrusted.exit, 60, `without --cacert curl refuses the certificate: ${untrusted.stderr}`);
  } finally {
    await service.close();
  }
});

// --- The typed TypeScript client ------------------------------------------------------------------

/** Runs `script` (TypeScript) under Node.js with `env`; resolves with what it printed as JSON. */
function runNode(script: string, input: unknown, env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const file = join(ca.dir, `client-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', file], { cwd: REPO, env: { ...process.env, ...env }, timeout: 60_000 });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(JSON.stringify(input));
  });
}

// The package's entry as built (make test-all builds dist/), as an application's ES module imports it: its
// re-exports of the generated client (`export *`) are found by Node's reading of tsc's output, not of tsx's.
const TYPED_CLIENT_SCRIPT = `
import { text } from 'node:stream/consumers';
import { AuthenticatorApiClient } from ${JSON.stringify(join(REPO, 'dist', 'src', 'service', 'index.js'))};
const input = JSON.parse(await text(process.stdin));
const client = new AuthenticatorApiClient({ baseUrl: input.baseUrl });
const results = [];
for (const call of input.calls) {
  try {
    const value = call.op === 'Pair'
      ? (await client.pair(call.args, { variant: call.variant }))?.ManualSetupCode
      : await client.validatePin(call.args, { variant: call.variant });
    results.push({ ok: value });
  } catch (error) {
    results.push({ error: { type: error.name, code: error.code, message: error.message, cause: String(error.cause?.cause ?? error.cause ?? '') } });
  }
}
console.log(JSON.stringify(results));
`;

test.serial('the typed TypeScript client on Node.js, the CA in NODE_EXTRA_CA_CERTS: every variant over HTTPS', async (t) => {
  const service = await startTestService(tls);
  try {
    const variants = [...VARIANTS, 'json'] as const;
    const calls = variants.flatMap((variant) => {
      const secret = `typed-https-${variant}-secret`;
      return [
        { op: 'Pair', variant, args: { appName: 'Example', appInfo: 'alice@example.com', secretCode: '12345678BXYT' } },
        { op: 'ValidatePin', variant, args: { pin: wrongPinFor(service, secret), secretCode: secret } },
        { op: 'ValidatePin', variant, args: { pin: pinFor(service, secret), secretCode: secret } },
      ];
    });
    const trusted = await runNode(TYPED_CLIENT_SCRIPT, { baseUrl: service.url, calls }, { NODE_EXTRA_CA_CERTS: ca.caFile });
    t.is(trusted.code, 0, trusted.err);
    const results = JSON.parse(trusted.out) as CallResult[];
    t.deepEqual(
      results,
      variants.flatMap(() => [{ ok: 'GEZDGNBVGY3TQQSYLFKA' }, { ok: false }, { ok: true }]),
      'Pair’s setup code, a wrong PIN false, the right one true, over each variant',
    );
    const seen = service
      .logs()
      .split('\n')
      .filter((l) => l.includes('"event":"request"'))
      .map((l) => (JSON.parse(l) as { variant: string }).variant);
    t.deepEqual(
      seen,
      variants.flatMap((v) => [v, v, v]),
      'each call went over its variant',
    );

    const untrusted = await runNode(TYPED_CLIENT_SCRIPT, { baseUrl: service.url, calls: calls.slice(0, 1) }, {});
    const [refused] = JSON.parse(untrusted.out) as { error?: { code: string; cause: string } }[];
    t.is(refused.error?.code, 'transport', 'without the CA the call fails at the transport');
    t.regex(refused.error?.cause ?? '', /certificate/i);
  } finally {
    await service.close();
  }
});
