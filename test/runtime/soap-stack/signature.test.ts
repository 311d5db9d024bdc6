/**
 * WS-Security's X.509 signatures (src/runtime/soap-stack/signature.ts) on the calculator fixture contract, its Add
 * route given a signature policy by hand: requests signed with xml-crypto by a certificate a test CA issued are
 * taken and their principal handed to the handler; a changed body, a certificate nobody trusts, a missing
 * signature, a body left unsigned, a wrapped body and another digest are refused with WSS 1.1's faults, in both
 * SOAP versions. Certificates are RSA keys from WebCrypto, made in the test.
 */
// @peculiar/x509 needs the Reflect metadata API (through tsyringe), which Node does not have.
import 'reflect-metadata';
import { BasicConstraintsExtension, X509CertificateGenerator } from '@peculiar/x509';
import test, { type ExecutionContext } from 'ava';
import { webcrypto } from 'node:crypto';
import pino from 'pino';
import { SignedXml } from 'xml-crypto';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import type { Authenticate, Call, ContractDefinition, SoapPolicy } from '../../../src/runtime/definition';
import { createContractApp } from '../../../src/runtime/host';
import { HOST_SETTINGS } from '../../../src/runtime/listener-settings';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../../support/fixture-contract';
import { loadReaders } from '../../support/readers';
import { type Answer, readFault, send } from '../../support/requests';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';

const NS = 'http://calculator.example.org/';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
const BASE64 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
const VERSIONS: readonly SoapVersionName[] = ['1.1', '1.2'];
const DAY_MS = 86_400_000;
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

interface Signer {
  /** The certificate, PEM, and DER in Base64 (a BinarySecurityToken's content). */
  pem: string;
  base64: string;
  /** The private key, PKCS#8 PEM. */
  key: string;
}

async function keyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
}

async function pemKey(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`;
}

let fixture: FixtureContract;
let ca: Signer;
let caller: Signer;
let stranger: Signer;
const served: ServedFixture[] = [];

test.before(async () => {
  await loadReaders();
  fixture = await generateFixture('calculator');
  const now = Date.now();
  const caKeys = await keyPair();
  const caCert = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=signature test CA',
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 30 * DAY_MS),
    signingAlgorithm: RSA,
    keys: caKeys,
    extensions: [new BasicConstraintsExtension(true, 0, true)],
  });
  ca = { pem: caCert.toString('pem'), base64: caCert.toString('base64'), key: await pemKey(caKeys.privateKey) };
  const callerKeys = await keyPair();
  const callerCert = await X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=calling system',
    issuer: caCert.subject,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 30 * DAY_MS),
    signingAlgorithm: RSA,
    publicKey: callerKeys.publicKey,
    signingKey: caKeys.privateKey,
  });
  caller = { pem: callerCert.toString('pem'), base64: callerCert.toString('base64'), key: await pemKey(callerKeys.privateKey) };
  const strangerKeys = await keyPair();
  const strangerCert = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '03',
    name: 'CN=calling system',
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 30 * DAY_MS),
    signingAlgorithm: RSA,
    keys: strangerKeys,
  });
  stranger = { pem: strangerCert.toString('pem'), base64: strangerCert.toString('base64'), key: await pemKey(strangerKeys.privateKey) };
});

test.after.always(async () => {
  for (const server of served) await server.close();
  fixture?.remove();
});

const SIGNED_BODY: SoapPolicy = { signature: { body: true, headers: [], digest: 'sha256', signAnswer: false } };

function withPolicy(policy: SoapPolicy): ContractDefinition<AnyOperations> {
  const route = fixture.definition.routes.Add;
  return {
    ...fixture.definition,
    routes: { ...fixture.definition.routes, Add: { ...route, policies: { soap11: policy, soap12: policy } } },
  };
}

/** The hook: the certificate's subject as the principal. */
const authenticate: Authenticate = (credential) => (credential.kind === 'x509' ? { subject: credential.certificate.subject } : undefined);

const handed = new Map<string, Call>();
const handlers = {
  Add: async (request: { intA: number; intB: number }, call: Call) => {
    handed.set(call.requestId ?? '', call);
    return request.intA + request.intB;
  },
};

async function serve(policy: SoapPolicy = SIGNED_BODY): Promise<ServedFixture> {
  const server = await serveFixture(
    withPolicy(policy),
    handlers as never,
    {},
    { authenticate, soapSecurity: { trustedCertificates: [ca.pem] } },
  );
  served.push(server);
  return server;
}

/** An Add envelope whose Body carries a wsu:Id, with a Security header holding `signer`'s certificate (and `extra`). */
function unsigned(version: SoapVersionName, signer: Signer, extra = ''): string {
  const env = SOAP_ENVELOPE_NAMESPACES[version];
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${env}"><soap:Header>` +
    `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1">` +
    `<wsse:BinarySecurityToken wsu:Id="X509-1" ValueType="${X509V3}" EncodingType="${BASE64}">${signer.base64}</wsse:BinarySecurityToken>` +
    `</wsse:Security>${extra}</soap:Header><soap:Body xmlns:wsu="${WSU}" wsu:Id="Body-1"><Add xmlns="${NS}"><intA>2</intA><intB>3</intB></Add></soap:Body></soap:Envelope>`
  );
}

/** `xml` signed by `signer` with xml-crypto over the element `target` selects, the Signature appended to wsse:Security. */
function signed(xml: string, signer: Signer, target = "//*[local-name(.)='Body']", digest = SHA256): string {
  const signature = new SignedXml({
    privateKey: signer.key,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: EXC_C14N,
    idMode: 'wssecurity',
    getKeyInfoContent: () =>
      `<wsse:SecurityTokenReference><wsse:Reference URI="#X509-1" ValueType="${X509V3}"/></wsse:SecurityTokenReference>`,
  });
  signature.addReference({ xpath: target, transforms: [EXC_C14N], digestAlgorithm: digest });
  signature.computeSignature(xml, { location: { reference: "//*[local-name(.)='Security']", action: 'append' } });
  return signature.getSignedXml();
}

async function post(server: ServedFixture, version: SoapVersionName, envelope: string): Promise<Answer> {
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'Content-Type': SOAP_CONTENT_TYPES['1.1'], SOAPAction: `"${NS}Add"` }
      : { 'Content-Type': `${SOAP_CONTENT_TYPES['1.2']}; action="${NS}Add"` };
  return send(server.endpoint, { method: 'POST', headers, body: envelope });
}

const callOf = (answer: Answer) => handed.get(answer.headers.get('x-request-id') ?? '');

/** The answer is the wsse:`local` fault of `version`, checked against the envelope rules. */
function assertFault(t: ExecutionContext, answer: Answer, version: SoapVersionName, local: string): void {
  t.is(answer.status, 500, answer.body);
  assertSoapEnvelope(t, answer.body, version, () => undefined);
  const fault = readFault(answer.body, version);
  if (version === '1.1') t.is(`{${fault.codeNamespace}}${fault.codeLocalName}`, `{${WSSE}}${local}`);
  else {
    t.is(fault.codeLocalName, 'Sender');
    t.true(answer.body.includes(`>wsse:${local}</soap:Value>`), `the subcode wsse:${local}`);
  }
}

for (const version of VERSIONS) {
  test(`SOAP ${version}: a body signed by a certificate the host's CA issued is taken; the handler sees the hook's principal`, async (t) => {
    const server = await serve();
    const answer = await post(server, version, signed(unsigned(version, caller), caller));
    t.is(answer.status, 200, answer.body);
    t.is(
      assertSoapEnvelope(t, answer.body, version, (content) => content.content),
      '5',
    );
    t.deepEqual(callOf(answer)?.principal, { subject: 'CN=calling system' });
  });

  test(`SOAP ${version}: a body changed after signing is wsse:FailedCheck`, async (t) => {
    const server = await serve();
    const changed = signed(unsigned(version, caller), caller).replace('<intA>2</intA>', '<intA>7</intA>');
    assertFault(t, await post(server, version, changed), version, 'FailedCheck');
  });

  test(`SOAP ${version}: a certificate no trusted one issued (the same name, self-signed) is wsse:FailedAuthentication`, async (t) => {
    const server = await serve();
    assertFault(t, await post(server, version, signed(unsigned(version, stranger), stranger)), version, 'FailedAuthentication');
  });

  test(`SOAP ${version}: no signature, or no Security header at all, is wsse:InvalidSecurity`, async (t) => {
    const server = await serve();
    assertFault(t, await post(server, version, unsigned(version, caller)), version, 'InvalidSecurity');
    const bare = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NAMESPACES[version]}"><soap:Body><Add xmlns="${NS}"><intA>2</intA><intB>3</intB></Add></soap:Body></soap:Envelope>`;
    assertFault(t, await post(server, version, bare), version, 'InvalidSecurity');
  });

  test(`SOAP ${version}: a signature that leaves the body out, or uses another digest than the policy's, is wsse:FailedCheck`, async (t) => {
    const server = await serve();
    const extra = `<x:Note xmlns:x="urn:note" xmlns:wsu="${WSU}" wsu:Id="Note-1">signed instead</x:Note>`;
    assertFault(
      t,
      await post(server, version, signed(unsigned(version, caller, extra), caller, "//*[local-name(.)='Note']")),
      version,
      'FailedCheck',
    );
    assertFault(t, await post(server, version, signed(unsigned(version, caller), caller, undefined, SHA1)), version, 'FailedCheck');
  });

  test(`SOAP ${version}: a signed body moved into a header and a new body with its Id (signature wrapping) is refused`, async (t) => {
    const server = await serve();
    const original = signed(unsigned(version, caller), caller);
    const body = original.slice(original.indexOf('<soap:Body'), original.indexOf('</soap:Body>') + '</soap:Body>'.length);
    const moved = body.replace('<soap:Body', '<x:Wrapper xmlns:x="urn:wrap"').replace('</soap:Body>', '</x:Wrapper>');
    const wrapped = original
      .replace(body, body.replace('<intA>2</intA>', '<intA>1000</intA>'))
      .replace('</soap:Header>', `${moved}</soap:Header>`);
    const answer = await post(server, version, wrapped);
    t.not(answer.status, 200);
    assertFault(t, answer, version, 'FailedCheck');
  });
}

test('a policy that asks for signed answers, or for signatures without a trust store, stops the start', (t) => {
  const logger = pino({ level: 'silent' });
  const settings = HOST_SETTINGS.defaults();
  const signAnswer: SoapPolicy = { signature: { body: true, headers: [], digest: 'sha256', signAnswer: true } };
  t.throws(
    () =>
      createContractApp(withPolicy(signAnswer), handlers as never, settings, logger, {
        authenticate,
        soapSecurity: { trustedCertificates: [ca.pem] },
      }),
    { message: /signed answers/ },
  );
  t.throws(() => createContractApp(withPolicy(SIGNED_BODY), handlers as never, settings, logger, { authenticate }), {
    message: /trustedCertificates/,
  });
});
