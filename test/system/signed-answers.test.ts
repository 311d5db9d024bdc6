/**
 * Signed answers (src/runtime/soap-stack/signature.ts) checked by independent verifiers, each given the service's
 * certificate: the XML Security Library (Debian python3-xmlsec over libxmlsec1 and OpenSSL, what Python zeep
 * verifies signed answers with), and Apache WSS4J 1.6 (Debian libwss4j-java over Apache Santuario, what JAX-WS
 * stacks such as CXF verify them with), by a program of this test's own (clients/Wss4jVerifyAnswers.java). The calculator fixture's Add route, under a policy that signs requests and answers (with a
 * Timestamp; SHA-256, and SHA-1), answers signed requests in both SOAP versions: the answers, and the faults, verify
 * in both and cover the Body and the Timestamp; the same answers changed after signing, or checked with another
 * certificate, do not.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyOperations } from '../../codegen/harness/load-generated';
import type { ContractDefinition, SoapPolicy } from '../../src/runtime/definition';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../support/fixture-contract';
import { loadReaders } from '../support/readers';
import { send } from '../support/requests';
import { CALCULATOR_NS, SHA1, type Signer, WSU, rsaCertificate, signedRequest, timestampNow, unsignedAdd } from '../support/wss-signing';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName } from '../support/xml-assertions';
import { CLIENTS_DIR, PYTHON, requireTool, runJsonClient } from './clients/harness';

interface Checked {
  name: string;
  valid: boolean;
  signed?: string[];
  method?: string;
  error?: string;
}

let fixture: FixtureContract;
let caller: Signer;
let service: Signer;
const served: ServedFixture[] = [];
/** The answers the service gave, what each must be signed over and with, and the same changed after signing. */
const answers: { name: string; xml: string; signed: string[]; method: string }[] = [];
let tampered: { name: string; xml: string }[] = [];

test.before(async (t) => {
  await loadReaders();
  fixture = await generateFixture('calculator');
  const ca = await rsaCertificate({ serialNumber: '01', name: 'CN=system test CA', ca: true });
  caller = await rsaCertificate({ serialNumber: '02', name: 'CN=calling system', issuer: ca });
  service = await rsaCertificate({ serialNumber: '03', name: 'CN=calculator service' });
  served.push(
    await serveWith(ca, { timestamp: true, signature: { body: true, headers: [], digest: 'sha256', signAnswer: true } }),
    await serveWith(ca, { signature: { body: true, headers: [], digest: 'sha1', signAnswer: true } }),
  );
  const [timestamped, sha1] = served;
  for (const version of ['1.1', '1.2'] as const) {
    const body = `{${SOAP_ENVELOPE_NAMESPACES[version]}}Body`;
    const rsaSha256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
    const ok = await post(timestamped, version, signedRequest(unsignedAdd(version, caller, '', timestampNow()), caller));
    t.is(ok.status, 200, ok.body);
    answers.push({ name: `${version} answer`, xml: ok.body, signed: [`{${WSU}}Timestamp`, body], method: rsaSha256 });
    const changed = signedRequest(unsignedAdd(version, caller, '', timestampNow()), caller).replace('<intA>2</intA>', '<intA>7</intA>');
    const fault = await post(timestamped, version, changed);
    t.is(fault.status, 500, fault.body);
    t.true(fault.body.includes('wsse:FailedCheck'), fault.body);
    answers.push({ name: `${version} fault`, xml: fault.body, signed: [`{${WSU}}Timestamp`, body], method: rsaSha256 });
    const old = await post(sha1, version, signedRequest(unsignedAdd(version, caller), caller, undefined, SHA1));
    t.is(old.status, 200, old.body);
    answers.push({ name: `${version} SHA-1 answer`, xml: old.body, signed: [body], method: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' });
  }
  tampered = answers.map(({ name, xml }) => {
    // The sum, or the fault's reason, changed after signing.
    const changed = xml.replace('>5</', '>6</').replace('The signature or decryption was invalid', 'All is well');
    if (changed === xml) throw new Error(`${name}: nothing to change`);
    return { name: `${name}, changed`, xml: changed };
  });
});

test.after.always(async () => {
  for (const server of served) await server.close();
  fixture?.remove();
});

async function serveWith(ca: Signer, policy: SoapPolicy): Promise<ServedFixture> {
  const route = fixture.definition.routes.Add;
  const definition: ContractDefinition<AnyOperations> = {
    ...fixture.definition,
    routes: { ...fixture.definition.routes, Add: { ...route, policies: { soap11: policy, soap12: policy } } },
  };
  const handlers = { Add: async (request: { intA: number; intB: number }) => request.intA + request.intB };
  return serveFixture(
    definition,
    handlers as never,
    {},
    {
      authenticate: (credential) => (credential.kind === 'x509' ? credential.certificate.subject : undefined),
      soapSecurity: { trustedCertificates: [ca.pem], signingKey: service.key, signingCertificate: service.pem },
    },
  );
}

async function post(server: ServedFixture, version: SoapVersionName, envelope: string): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'Content-Type': SOAP_CONTENT_TYPES['1.1'], SOAPAction: `"${CALCULATOR_NS}Add"` }
      : { 'Content-Type': `${SOAP_CONTENT_TYPES['1.2']}; action="${CALCULATOR_NS}Add"` };
  return send(server.endpoint, { method: 'POST', headers, body: envelope });
}

async function verified(certificate: string, answers: { name: string; xml: string }[]): Promise<Map<string, Checked>> {
  const { results } = await runJsonClient<{ results: Checked[] }>(PYTHON, [join(CLIENTS_DIR, 'xmlsec_verify.py')], {
    certificate,
    answers,
  });
  return new Map(results.map((result) => [result.name, result]));
}

test('xmlsec verifies signed answers and faults with the service certificate, and refuses them changed or with another', async (t) => {
  requireTool(PYTHON, ['-c', 'import xmlsec, lxml'], 'python3-xmlsec python3-lxml');
  const checked = await verified(service.pem, [...answers.map(({ name, xml }) => ({ name, xml })), ...tampered]);
  for (const answer of answers) {
    const result = checked.get(answer.name);
    t.true(result?.valid, `${answer.name}: ${JSON.stringify(result)}`);
    t.deepEqual(result?.signed, answer.signed, answer.name);
    t.is(result?.method, answer.method, answer.name);
    const refused = checked.get(`${answer.name}, changed`);
    t.false(refused?.valid, `${answer.name}, changed`);
    t.regex(refused?.error ?? '', /^VerificationError/, `${answer.name}, changed: refused by the check, not before it`);
  }
  const other = await verified(caller.pem, [answers[0]]);
  t.regex(other.get(answers[0].name)?.error ?? '', /^VerificationError/, "checked with a certificate that is not the service's");
});

const WSS4J_JARS = ['wss4j', 'xmlsec', 'commons-logging', 'slf4j-api', 'slf4j-nop'].map((jar) => `/usr/share/java/${jar}.jar`);
const WSS4J_CLASSPATH = WSS4J_JARS.join(':');

test('WSS4J verifies signed answers and faults with the service certificate as its only trust, and refuses them changed or with another', (t) => {
  requireTool('javac', ['-version'], 'openjdk-17-jdk-headless');
  requireTool('ls', WSS4J_JARS, 'libwss4j-java libxml-security-java libcommons-logging-java libslf4j-java');
  const dir = mkdtempSync(join(tmpdir(), 'wss4j-answers-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('javac', ['-nowarn', '-d', dir, '-cp', WSS4J_CLASSPATH, join(CLIENTS_DIR, 'Wss4jVerifyAnswers.java')], { timeout: 120_000 });
  const file = (name: string) => `${name.replace(/[^A-Za-z0-9.-]+/g, '_')}.xml`;
  const files = [...answers, ...tampered].map(({ name, xml }) => {
    writeFileSync(join(dir, file(name)), xml);
    return join(dir, file(name));
  });
  const run = (certificate: Signer, paths: string[]) => {
    writeFileSync(join(dir, 'certificate.pem'), certificate.pem);
    const output = execFileSync(
      'java',
      ['-cp', `${dir}:${WSS4J_CLASSPATH}`, 'Wss4jVerifyAnswers', join(dir, 'certificate.pem'), ...paths],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    return new Map(
      output
        .trim()
        .split('\n')
        .map((line) => {
          const [name, outcome, ...rest] = line.split(' ');
          return [name, { outcome, rest }] as const;
        }),
    );
  };
  const checked = run(service, files);
  for (const answer of answers) {
    const result = checked.get(file(answer.name));
    t.is(result?.outcome, 'valid', `${answer.name}: ${JSON.stringify(result)}`);
    t.deepEqual(result?.rest.sort(), [...answer.signed].sort(), answer.name);
    const refused = checked.get(file(`${answer.name}, changed`));
    t.is(refused?.outcome, 'refused', `${answer.name}, changed: ${JSON.stringify(refused)}`);
    t.regex(refused?.rest.join(' ') ?? '', /^WSSecurityException: The signature or decryption was invalid/, `${answer.name}, changed`);
  }
  // The caller's certificate is not the signer's, and is not what the answer's token holds.
  const other = run(caller, [files[0]]).get(file(answers[0].name));
  t.is(other?.outcome, 'refused', "checked with a certificate that is not the service's");
  // The signature verifies with the token's key; the token is not one WSS4J trusts.
  t.regex(other?.rest.join(' ') ?? '', /could not be authenticated or authorized/);
});
