/**
 * WS-Security's X.509 signatures (src/runtime/soap-stack/signature.ts) on the calculator fixture contract, its Add
 * route given a signature policy by hand: requests signed with xml-crypto by a certificate a test CA issued are
 * taken and their principal handed to the handler; a changed body, a certificate nobody trusts, a missing
 * signature, a body left unsigned, a wrapped body and another digest are refused with WSS 1.1's faults, in both
 * SOAP versions. Where the policy asks for signed answers, the answers and the faults are signed with the service's
 * key, checked here by xml-crypto's verification with the service's certificate (test/system/signed-answers.test.ts
 * checks them with xmlsec). Certificates are RSA keys from WebCrypto, made in the test (test/support/wss-signing.ts).
 */
import test, { type ExecutionContext } from 'ava';
import pino from 'pino';
import { SignedXml } from 'xml-crypto';
import { WSA10 } from '../../../src/runtime/soap-stack/addressing';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import type { Authenticate, Call, ContractDefinition, SoapPolicy } from '../../../src/runtime/definition';
import { clientError } from '../../../src/runtime/errors';
import { createContractApp } from '../../../src/runtime/host';
import { HOST_SETTINGS } from '../../../src/runtime/listener-settings';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../../support/fixture-contract';
import { loadReaders } from '../../support/readers';
import { type Answer, readFault, send } from '../../support/requests';
import {
  BASE64,
  CALCULATOR_NS as NS,
  SHA1,
  SHA256,
  type Signer,
  WSSE,
  WSU,
  X509V3,
  rsaCertificate,
  signedRequest as signed,
  timestampNow,
  unsignedAdd as unsigned,
} from '../../support/wss-signing';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';

const VERSIONS: readonly SoapVersionName[] = ['1.1', '1.2'];

let fixture: FixtureContract;
let ca: Signer;
let caller: Signer;
let stranger: Signer;
/** The service's own: it signs the answers. */
let service: Signer;
const served: ServedFixture[] = [];

test.before(async () => {
  await loadReaders();
  fixture = await generateFixture('calculator');
  const authority = await rsaCertificate({ serialNumber: '01', name: 'CN=signature test CA', ca: true });
  ca = authority;
  caller = await rsaCertificate({ serialNumber: '02', name: 'CN=calling system', issuer: authority });
  stranger = await rsaCertificate({ serialNumber: '03', name: 'CN=calling system' });
  service = await rsaCertificate({ serialNumber: '04', name: 'CN=payments service' });
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
    if (request.intA < 0) throw clientError('Add takes no negative numbers.');
    return request.intA + request.intB;
  },
};

async function serve(policy: SoapPolicy = SIGNED_BODY): Promise<ServedFixture> {
  const server = await serveFixture(
    withPolicy(policy),
    handlers as never,
    {},
    { authenticate, soapSecurity: { trustedCertificates: [ca.pem], signingKey: service.key, signingCertificate: service.pem } },
  );
  served.push(server);
  return server;
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

test("a policy that asks for signed answers without the service key and certificate (or with a key not the certificate's), or for signatures without a trust store, stops the start", (t) => {
  const logger = pino({ level: 'silent' });
  const settings = HOST_SETTINGS.defaults();
  const signAnswer: SoapPolicy = { signature: { body: true, headers: [], digest: 'sha256', signAnswer: true } };
  t.throws(
    () =>
      createContractApp(withPolicy(signAnswer), handlers as never, settings, logger, {
        authenticate,
        soapSecurity: { trustedCertificates: [ca.pem] },
      }),
    { message: /asks for signed answers: the host needs soapSecurity.signingKey and signingCertificate/ },
  );
  // A key that is not the certificate's.
  t.throws(
    () =>
      createContractApp(withPolicy(signAnswer), handlers as never, settings, logger, {
        authenticate,
        soapSecurity: { trustedCertificates: [ca.pem], signingKey: caller.key, signingCertificate: service.pem },
      }),
    { message: /not the certificate of signingKey/ },
  );
  t.throws(() => createContractApp(withPolicy(SIGNED_BODY), handlers as never, settings, logger, { authenticate }), {
    message: /trustedCertificates/,
  });
});

// The answer half: answers, and fault answers, signed with the service's key.

// @xmldom/xmldom's declarations bring in the DOM library; the parser is required with the one signature used here.
const { DOMParser } = require('@xmldom/xmldom') as { DOMParser: new () => { parseFromString(text: string, type: string): DomNode } };
interface DomNode {
  documentElement?: DomNode;
  getElementsByTagNameNS(ns: string, local: string): ArrayLike<DomNode>;
  getAttributeNS(ns: string | null, local: string): string | null;
  getAttribute(name: string): string | null;
  textContent: string | null;
  localName: string;
  namespaceURI: string | null;
}
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';

/** What an independent check of a signed answer found: the signed elements ({ns}local), their digests, the method. */
interface Verified {
  signed: string[];
  digests: string[];
  method: string;
}

/** The answer's signature checked by xml-crypto with the service's certificate (never a key the answer names). */
function verifyAnswer(xml: string, certificate: string): Verified {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const verifier = new SignedXml({ publicCert: certificate, getCertFromKeyInfo: () => null });
  const signatures = verifier.findSignatures(doc as never);
  if (signatures.length !== 1) throw new Error(`${signatures.length} signatures`);
  verifier.loadSignature(signatures[0]);
  let valid: boolean;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  if (!valid) throw new Error('the signature does not verify');
  const byId = new Map<string, DomNode>();
  for (const element of Array.from(doc.getElementsByTagNameNS('*', '*'))) {
    const id = element.getAttributeNS(WSU, 'Id');
    if (id) byId.set(id, element);
  }
  const references = verifier.getReferences();
  const method = doc.getElementsByTagNameNS(DS, 'SignatureMethod')[0].getAttribute('Algorithm') ?? '';
  return {
    signed: references.map((r) => {
      const element = byId.get(r.uri.replace(/^#/, ''));
      return element ? `{${element.namespaceURI}}${element.localName}` : `missing ${r.uri}`;
    }),
    digests: [...new Set(references.map((r) => r.digestAlgorithm))],
    method,
  };
}

const SIGNED_ANSWERS: SoapPolicy = { timestamp: true, signature: { body: true, headers: [], digest: 'sha256', signAnswer: true } };

/** A signed request with a Timestamp in its Security header (the policy asks for one). */
function signedWithTimestamp(version: SoapVersionName, extra = '', target?: string, intA = 2): string {
  return signed(unsigned(version, caller, extra, timestampNow(), intA), caller, target);
}

/** The answer's Security header: its mustUnderstand, the token's Id and content, and the KeyInfo's reference. */
function securityOf(xml: string, version: SoapVersionName) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const security = doc.getElementsByTagNameNS(WSSE, 'Security');
  const token = doc.getElementsByTagNameNS(WSSE, 'BinarySecurityToken')[0];
  const reference = doc.getElementsByTagNameNS(WSSE, 'Reference')[0];
  return {
    headers: security.length,
    mustUnderstand: security[0]?.getAttributeNS(SOAP_ENVELOPE_NAMESPACES[version], 'mustUnderstand'),
    tokenId: token?.getAttributeNS(WSU, 'Id'),
    token: token?.textContent,
    tokenType: [token?.getAttribute('ValueType'), token?.getAttribute('EncodingType')],
    reference: [reference?.getAttribute('URI'), reference?.getAttribute('ValueType')],
    timestamps: doc.getElementsByTagNameNS(WSU, 'Timestamp').length,
  };
}

for (const version of VERSIONS) {
  const envelope = SOAP_ENVELOPE_NAMESPACES[version];

  test(`SOAP ${version}: where the policy asks, the answer is signed by the service's key over its Body and Timestamp, verified by xml-crypto`, async (t) => {
    const server = await serve(SIGNED_ANSWERS);
    const answer = await post(server, version, signedWithTimestamp(version));
    t.is(answer.status, 200, answer.body);
    t.is(
      assertSoapEnvelope(t, answer.body, version, (content) => content.content),
      '5',
    );
    const verified = verifyAnswer(answer.body, service.pem);
    t.deepEqual(verified.signed.sort(), [`{${envelope}}Body`, `{${WSU}}Timestamp`].sort());
    t.deepEqual(verified.digests, [SHA256]);
    t.is(verified.method, RSA_SHA256);
    const security = securityOf(answer.body, version);
    t.is(security.headers, 1, 'one Security header: the Timestamp is in the signed one');
    t.is(security.timestamps, 1);
    t.is(security.mustUnderstand, version === '1.1' ? '1' : 'true');
    t.is(security.token, service.base64);
    t.deepEqual(security.tokenType, [X509V3, BASE64]);
    t.deepEqual(security.reference, [`#${security.tokenId}`, X509V3]);
    // Not by another certificate; and a changed result no longer verifies.
    t.throws(() => verifyAnswer(answer.body, caller.pem), { message: /does not verify/ });
    t.true(answer.body.includes('>5</'));
    t.throws(() => verifyAnswer(answer.body.replace('>5</', '>6</'), service.pem), { message: /does not verify/ });
  });

  test(`SOAP ${version}: a fault answer is signed too, a refused signature's and a handler's`, async (t) => {
    const server = await serve(SIGNED_ANSWERS);
    const changed = signedWithTimestamp(version).replace('<intA>2</intA>', '<intA>7</intA>');
    const refused = await post(server, version, changed);
    assertFault(t, refused, version, 'FailedCheck');
    t.deepEqual(verifyAnswer(refused.body, service.pem).signed.sort(), [`{${envelope}}Body`, `{${WSU}}Timestamp`].sort());
    // The handler's fault: Add of a negative number is refused by the handler below.
    const failing = await post(server, version, signedWithTimestamp(version, '', undefined, -1));
    t.is(failing.status, 500, failing.body);
    t.true(failing.body.includes('negative'), failing.body);
    t.is(verifyAnswer(failing.body, service.pem).method, RSA_SHA256);
    t.throws(() => verifyAnswer(failing.body.replace('negative', 'positive'), service.pem), { message: /does not verify/ });
  });

  test(`SOAP ${version}: a SHA-1 policy signs with RSA-SHA1 and SHA-1 digests; without a timestamp, no Timestamp and the Body signed`, async (t) => {
    const server = await serve({ signature: { body: true, headers: [], digest: 'sha1', signAnswer: true } });
    const answer = await post(server, version, signed(unsigned(version, caller), caller, undefined, SHA1));
    t.is(answer.status, 200, answer.body);
    const verified = verifyAnswer(answer.body, service.pem);
    t.deepEqual(verified.signed, [`{${envelope}}Body`]);
    t.deepEqual(verified.digests, [SHA1]);
    t.is(verified.method, RSA_SHA1);
    t.is(securityOf(answer.body, version).timestamps, 0);
  });

  test(`SOAP ${version}: the WS-Addressing headers the signed parts name are signed in the answer`, async (t) => {
    const parts = ['Action', 'MessageID', 'RelatesTo', 'To'].map((name) => ({ namespace: WSA10.namespace, name }));
    const server = await serve({
      addressing: 'required',
      timestamp: true,
      signature: { body: true, headers: parts, digest: 'sha256', signAnswer: true },
    });
    const wsa = (name: string, value: string) =>
      `<wsa:${name} xmlns:wsa="${WSA10.namespace}" xmlns:wsu="${WSU}" wsu:Id="${name}-1">${value}</wsa:${name}>`;
    const headers =
      wsa('Action', `${NS}Add`) + wsa('MessageID', 'urn:uuid:5e0c1b5e-0000-4000-8000-000000000001') + wsa('To', 'http://localhost/');
    const targets =
      "//*[local-name(.)='Body' or local-name(.)='Action' or local-name(.)='MessageID' or local-name(.)='To' or local-name(.)='Timestamp']";
    const answer = await post(server, version, signedWithTimestamp(version, headers, targets));
    t.is(answer.status, 200, answer.body);
    // The answer's Action, MessageID and RelatesTo (it has no To: WS-Addressing 1.0 leaves an anonymous one out).
    t.deepEqual(
      verifyAnswer(answer.body, service.pem).signed.sort(),
      [`{${envelope}}Body`, `{${WSU}}Timestamp`, ...['Action', 'MessageID', 'RelatesTo'].map((n) => `{${WSA10.namespace}}${n}`)].sort(),
    );
  });
}
