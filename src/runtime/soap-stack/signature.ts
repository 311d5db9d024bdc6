/**
 * WS-Security's XML Signature with an X.509 token (X.509 Token Profile 1.0/1.1): the request's wsse:Security holds
 * the caller's certificate (a wsse:BinarySecurityToken, X509v3) and a ds:Signature over the parts the policy names
 * (the Body, header blocks), each by its wsu:Id. The signature is checked by xml-crypto (its own canonicalization,
 * digests and RSA), which also refuses a document where two elements share an Id (signature wrapping); this step
 * checks that the parts the policy names are among those signed, with the policy's digest, and that the
 * certificate is one the host trusts (itself, or issued by one), in its validity period; the host's authenticate
 * hook then judges it. Answers are not signed (a policy that asks for it stops the start).
 */
import { X509Certificate } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { requestBytes } from '../bindings/body';
import type { Authenticate, SoapPolicy } from '../definition';
import { childElements } from '../xml/xml-codec';
import type { XmlElement } from '../xml/xml-engine';
import { WSSE, WSU, failed, fault, invalid, only } from './security';
import type { HeaderStep } from './step';

// @xmldom/xmldom's declarations bring the DOM library into the whole program (`reference lib="dom"`), which is not
// this program's: its parser is required with the one signature xml-crypto's verification needs.
const { DOMParser } = require('@xmldom/xmldom') as { DOMParser: new () => { parseFromString(text: string, type: string): object } };

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
const DIGESTS = { sha1: 'http://www.w3.org/2000/09/xmldsig#sha1', sha256: 'http://www.w3.org/2001/04/xmlenc#sha256' } as const;

/** WSS 1.1 §12: a signature that does not verify. */
const failedCheck = (cause: string) => fault('FailedCheck', 'The signature or decryption was invalid', `WS-Security: ${cause}`);

export interface SignatureSettings {
  now: () => number;
  /** The certificates the host trusts: a caller's own, or a CA that issued it. */
  trusted: readonly X509Certificate[];
  authenticate: Authenticate;
}

/** The step of an operation whose policy asks for the request to be signed. */
export function signatureStep(policy: NonNullable<SoapPolicy['signature']>, settings: SignatureSettings): HeaderStep {
  const digest = DIGESTS[policy.digest];
  return {
    understands: [`{${WSSE}}Security`],
    read(blocks, exchange, body) {
      const headers = blocks.filter((block) => block.namespaceUri === WSSE && block.name === 'Security');
      if (headers.length > 1) throw invalid('more than one Security header');
      const security = headers[0];
      if (!security || !body) throw invalid('no Security header where a signature is asked for');
      const children = childElements(security);
      const token = only(children, WSSE, 'BinarySecurityToken');
      if (!only(children, DS, 'Signature')) throw invalid('no Signature');
      if (!token || attribute(token, 'ValueType') !== X509V3) throw invalid('no X.509 BinarySecurityToken');
      if ((attribute(token, 'EncodingType') ?? BASE64_BINARY) !== BASE64_BINARY) throw invalid('a token not in Base64');
      let certificate: X509Certificate;
      try {
        certificate = new X509Certificate(Buffer.from(token.content.replace(/\s+/g, ''), 'base64'));
      } catch {
        throw invalid('a BinarySecurityToken that is not an X.509 certificate');
      }
      // The parts the policy asks to be signed, by the wsu:Id each must carry.
      const parts: XmlElement[] = policy.body ? [body] : [];
      for (const wanted of policy.headers) {
        parts.push(...blocks.filter((b) => b.namespaceUri === wanted.namespace && (wanted.name === undefined || b.name === wanted.name)));
      }
      // wsu:Id, or an unqualified Id as node-soap writes by default (WSS4J takes both); xml-crypto refuses a document in
      // which two elements share the id, so the reference names this part and no other.
      const ids = parts.map((part) => {
        const id = (
          part.attrs.find((a) => a.name === 'Id' && a.namespaceUri === WSU) ?? part.attrs.find((a) => a.name === 'Id' && !a.namespaceUri)
        )?.value;
        if (!id) throw failedCheck(`a part to be signed (${part.name}) without its wsu:Id`);
        return id;
      });
      const text = Buffer.from(requestBytes(exchange.ctx)).toString('utf8');
      // The key is the token's certificate's, never one a KeyInfo carries (xml-crypto's default too), and never HMAC.
      const verifier = new SignedXml({ publicCert: certificate.toString(), getCertFromKeyInfo: () => null });
      let signed: { uri: string; digestAlgorithm: string }[];
      try {
        const doc = new DOMParser().parseFromString(text, 'text/xml');
        const signatures = verifier.findSignatures(doc as Parameters<SignedXml['findSignatures']>[0]);
        if (signatures.length !== 1) throw new Error('one signature');
        verifier.loadSignature(signatures[0]);
        if (!verifier.checkSignature(text)) throw new Error('invalid');
        signed = verifier.getReferences();
      } catch {
        throw failedCheck('the signature does not verify');
      }
      for (const id of ids) {
        const reference = signed.find((r) => r.uri === `#${id}`);
        if (!reference) throw failedCheck('a part the policy names is not signed');
        if (reference.digestAlgorithm !== digest) throw failedCheck('a digest the policy does not name');
      }
      if (!isTrusted(certificate, settings.trusted, settings.now())) throw failed('an untrusted or expired certificate');
      exchange.certificate = certificate;
    },
    async admit(exchange) {
      const certificate = exchange.certificate;
      if (!certificate) return;
      exchange.certificate = undefined;
      let principal: unknown;
      try {
        principal = await settings.authenticate({ kind: 'x509', certificate }, { operation: exchange.operation, address: exchange.ctx.ip });
      } catch {
        principal = undefined;
      }
      if (principal === undefined || principal === null || principal === false)
        throw failed('the authenticate hook refused the certificate');
      // A UsernameToken beside the signature names the user: its principal stands.
      exchange.principal ??= principal;
    },
  };
}

/** The unqualified attribute `name` of an element. */
const attribute = (element: XmlElement, name: string) => element.attrs.find((a) => a.name === name && !a.namespaceUri)?.value.trim();

/** A certificate in its validity period that the host trusts, or that one it trusts issued (and signed). */
function isTrusted(certificate: X509Certificate, trusted: readonly X509Certificate[], now: number): boolean {
  if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) return false;
  return trusted.some(
    (anchor) =>
      anchor.fingerprint256 === certificate.fingerprint256 || (certificate.checkIssued(anchor) && certificate.verify(anchor.publicKey)),
  );
}
