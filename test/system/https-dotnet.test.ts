/**
 * .NET (Mono) over HTTPS, every WSDL variant, with a private CA made here
 * with openssl, trusted as .NET users trust one (a
 * ServerCertificateValidationCallback that checks the chain ends at that CA:
 * test/system/clients/TestCaTrust.cs): HttpWebRequest by hand
 * (HttpsClient.cs), and a proxy class `wsdl` generated from the WSDL the
 * service serves, for each of its protocols (WsdlProxyClient.cs), calling
 * the https address the WSDL gives. Without the CA the service is refused.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHttps } from '../support/https';
import { createOpensslCa, type OpensslCa } from '../support/openssl-ca';
import { pinFor, VARIANTS, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { CLIENTS_DIR, requireTool } from './clients/harness';

let ca: OpensslCa;
let service: TestService;
let program: string;

/** Runs a command without blocking this process (the service answers from it); resolves with its exit code and output. */
function run(command: string, args: string[], input = ''): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { timeout: 120_000 });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

test.before(async () => {
  requireTool('mcs', ['--version'], 'mono-mcs mono-devel');
  requireTool('mono', ['--version'], 'mono-mcs mono-devel');
  ca = createOpensslCa();
  const { certFile, keyFile } = ca.issue('service');
  service = await startTestService({ tlsCert: certFile, tlsKey: keyFile });
  program = join(ca.dir, 'HttpsClient.exe');
  const built = await run('mcs', [`-out:${program}`, '-r:System.dll', '-r:System.Xml.dll', ...sources('HttpsClient.cs')]);
  if (built.code !== 0) throw new Error(`mcs failed:\n${built.out}${built.err}`);
});

test.after.always(async () => {
  await service?.close();
  ca?.remove();
});

const sources = (...files: string[]) => [...files, 'TestCaTrust.cs'].map((f) => join(CLIENTS_DIR, f));

/** One ValidatePin per line: a wrong PIN, then the right one, per variant. */
function calls() {
  return VARIANTS.flatMap((variant) => {
    const secret = `mono-https-${variant}-${Math.random().toString(36).slice(2)}`;
    return [`${variant} ${secret} ${wrongPinFor(service, secret)}`, `${variant} ${secret} ${pinFor(service, secret)}`];
  });
}

test.serial('Mono HttpWebRequest, the CA trusted by a validation callback: every variant over HTTPS', async (t) => {
  const answered = await run('mono', [program, service.url, ca.caFile], `${calls().join('\n')}\n`);
  t.is(answered.code, 0, answered.err);
  t.deepEqual(
    answered.out.trim().split('\n'),
    VARIANTS.flatMap((variant) => [`${variant} 200 false`, `${variant} 200 true`]),
  );
});

test.serial('Mono HttpWebRequest, trusting another CA: the service’s certificate is refused', async (t) => {
  const other = createOpensslCa();
  t.teardown(() => other.remove());
  const refused = await run('mono', [program, service.url, other.caFile], `${calls()[0]}\n`);
  t.is(refused.code, 0, refused.err);
  t.regex(refused.out, /^soap11 0 WebException: .*(trust|certificate|SSL|TLS|authentication)/i);
});

const WSDL_PROTOCOLS = [
  { protocol: 'SOAP', variant: 'soap11' },
  { protocol: 'SOAP12', variant: 'soap12' },
  { protocol: 'HttpGet', variant: 'httpGet' },
  { protocol: 'HttpPost', variant: 'httpPost' },
] as const;

test.serial(
  'Mono, a proxy class `wsdl` generated from the served WSDL, each protocol: Pair and ValidatePin at the WSDL’s https address',
  async (t) => {
    requireTool('wsdl', ['-?'], 'mono-devel');
    const wsdlFile = join(ca.dir, 'api.wsdl');
    writeFileSync(wsdlFile, (await getHttps(service.url, '/api.asmx?WSDL', { ca: ca.caPem })).body);
    for (const { protocol, variant } of WSDL_PROTOCOLS) {
      const proxy = join(ca.dir, `Proxy${protocol}.cs`);
      const generated = await run('wsdl', [`-protocol:${protocol}`, `-out:${proxy}`, wsdlFile]);
      t.is(generated.code, 0, `wsdl -protocol:${protocol}: ${generated.out}${generated.err}`);
      const exe = join(ca.dir, `WsdlProxy${protocol}.exe`);
      const built = await run('mcs', [
        `-out:${exe}`,
        '-r:System.dll',
        '-r:System.Xml.dll',
        '-r:System.Web.Services.dll',
        // The HttpGet and HttpPost proxies name it in a `using`.
        '-r:System.EnterpriseServices.dll',
        proxy,
        ...sources('WsdlProxyClient.cs'),
      ]);
      t.is(built.code, 0, `mcs: ${built.out}${built.err}`);
      const secret = `mono-wsdl-${variant}-${Math.random().toString(36).slice(2)}`;
      const before = requestVariants().length;
      const answered = await run(
        'mono',
        [exe, ca.caFile],
        [`pair 12345678BXYT`, `validate ${secret} ${wrongPinFor(service, secret)}`, `validate ${secret} ${pinFor(service, secret)}`].join(
          '\n',
        ),
      );
      t.is(answered.code, 0, answered.err);
      t.deepEqual(answered.out.trim().split('\n'), ['ok GEZDGNBVGY3TQQSYLFKA', 'ok false', 'ok true'], protocol);
      t.deepEqual(requestVariants().slice(before), [variant, variant, variant], `${protocol}: the service saw each call over ${variant}`);
    }
  },
);

/** The variant of every request the service logged so far. */
function requestVariants(): string[] {
  return service
    .logs()
    .split('\n')
    .filter((l) => l.includes('"event":"request"'))
    .map((l) => (JSON.parse(l) as { variant: string }).variant);
}
