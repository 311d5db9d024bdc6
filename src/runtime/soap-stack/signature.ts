/**
 * WS-Security's XML Signature with an X.509 token (X.509 Token Profile 1.0/1.1): the request's wsse:Security holds
 * the caller's certificate (a wsse:BinarySecurityToken, X509v3) and a ds:Signature over the parts the policy names
 * (the Body, header blocks), each by its wsu:Id. The signature is checked by xml-crypto (its own canonicalization,
 * digests and RSA), which also refuses a document where two elements share an Id (signature wrapping); this step
 * checks that the parts the policy names are among those signed, with the policy's digest, and that the
 * certificate is one the host trusts (itself, or issued by one), in its validity period; the host's authenticate
 * hook then judges it.
 *
 * Where the policy asks for signed answers, the answer (a fault's too) carries a wsse:Security header of its own:
 * a wsu:Timestamp (where the policy has one), the service's certificate as a BinarySecurityToken, and a ds:Signature
 * by the service's key over the Body, the Timestamp and the answer's header blocks the policy's signed parts name,
 * each by its wsu:Id, the KeyInfo a SecurityTokenReference to the token. The envelope is written as text; xml-crypto
 * parses it, signs it (exclusive C14N, RSA-SHA256, or RSA-SHA1 with a SHA-1 policy) and writes it out again.
 */
import { type KeyObject, X509Certificate, randomUUID } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { requestBytes } from '../bindings/body';
import type { Authenticate, SoapPolicy } from '../definition';
import { childElements } from '../xml/xml-codec';
import type { XmlElement } from '../xml/xml-engine';
import { WSSE, WSU, failed, fault, invalid, judged, only } from './security';
import type { Exchange, HeaderStep } from './step';
import { escapeXmlAttribute } from '../xml/xml-escape';

// @xmldom/xmldom's declarations bring the DOM library into the whole program (`reference lib="dom"`), which is not
// this program's: its parser is required with the one signature xml-crypto's verification needs.
const { DOMParser } = require('@xmldom/xmldom') as { DOMParser: new () => { parseFromString(text: string, type: string): object } };

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
const DIGESTS = { sha1: 'http://www.w3.org/2000/09/xmldsig#sha1', sha256: 'http://www.w3.org/2001/04/xmlenc#sha256' } as const;
const SIGNATURE_METHODS = {
  sha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  sha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
} as const;
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

/** WSS 1.1 §12: a signature that does not verify. */
const failedCheck = (cause: string) => fault('FailedCheck', 'The signature or decryption was invalid', `WS-Security: ${cause}`);

export interface SignatureSettings {
  now: () => number;
  /** The certificates the host trusts: a caller's own, or a CA that issued it. */
  trusted: readonly X509Certificate[];
  authenticate: Authenticate;
}

/** What signs the answers: the service's key and certificate, and whether (and for how long) they carry a Timestamp. */
export interface AnswerSigning {
  key: KeyObject;
  certificate: X509Certificate;
  timestamp: boolean;
  answerTimestampMs: number;
}

/** The step of an operation whose policy asks for the request to be signed. */
export function signatureStep(
  policy: NonNullable<SoapPolicy['signature']>,
  settings: SignatureSettings,
  signing?: AnswerSigning,
): HeaderStep {
  const digest = DIGESTS[policy.digest];
  return {
    ...(signing && answerSigner(policy, signing, settings.now)),
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
      const principal = await judged(settings.authenticate, { kind: 'x509', certificate }, exchange);
      if (principal === undefined) throw failed('the authenticate hook refused the certificate');
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

/**
 * The answer half: a Security header for the answer (answer()), and the envelope written with it signed (sign()).
 * The token's and the Timestamp's Ids are made once (an answer holds one of each); xml-crypto gives the Body and
 * the signed header blocks theirs (`wsu:Id="_0"`, …).
 */
function answerSigner(
  policy: NonNullable<SoapPolicy['signature']>,
  signing: AnswerSigning,
  now: () => number,
): Pick<HeaderStep, 'answer' | 'sign'> {
  // The names go into XPath string literals: one with a quote is refused at start rather than failing every answer.
  for (const part of policy.headers) {
    if (/['"]/.test(part.namespace + (part.name ?? '')))
      throw new Error(`A signed part's namespace or name has a quote: ${part.namespace}`);
  }
  const suffix = randomUUID();
  const tokenId = `X509-${suffix}`;
  const timestampId = `TS-${suffix}`;
  const token =
    `<wsse:BinarySecurityToken wsu:Id="${tokenId}" ValueType="${X509V3}" EncodingType="${BASE64_BINARY}">` +
    `${signing.certificate.raw.toString('base64')}</wsse:BinarySecurityToken>`;
  const keyInfo = `<wsse:SecurityTokenReference><wsse:Reference URI="#${tokenId}" ValueType="${X509V3}"/></wsse:SecurityTokenReference>`;
  const opening = (mustUnderstand: string) =>
    `<wsse:Security xmlns:wsse="${escapeXmlAttribute(WSSE)}" xmlns:wsu="${escapeXmlAttribute(WSU)}" soap:mustUnderstand="${mustUnderstand}">`;
  const openings = { soap11: opening('1'), soap12: opening('true') };
  // What is signed, by SOAP version: the Body, the Timestamp, and the header blocks the policy's signed parts name.
  const parts = (envelopeNamespace: string) => {
    const inEnvelope = (name: string) => `local-name(.)='${name}' and namespace-uri(.)='${envelopeNamespace}'`;
    const header = `/*/*[${inEnvelope('Header')}]`;
    const selected: string[] = [];
    if (signing.timestamp)
      selected.push(
        `${header}/*[local-name(.)='Security' and namespace-uri(.)='${WSSE}']/*[local-name(.)='Timestamp' and namespace-uri(.)='${WSU}']`,
      );
    for (const part of policy.headers) {
      const named = part.name === undefined ? '' : ` and local-name(.)='${part.name}'`;
      selected.push(`${header}/*[namespace-uri(.)='${part.namespace}'${named}]`);
    }
    // The Body always where the policy names it, or where nothing else is sure to be signed.
    if (policy.body || !signing.timestamp) selected.push(`/*/*[${inEnvelope('Body')}]`);
    return {
      parts: selected.join(' | '),
      security: `${header}/*[local-name(.)='Security' and namespace-uri(.)='${WSSE}']`,
    };
  };
  const xpaths = {
    soap11: parts('http://schemas.xmlsoap.org/soap/envelope/'),
    soap12: parts('http://www.w3.org/2003/05/soap-envelope'),
  };
  const digest = DIGESTS[policy.digest];
  const signatureAlgorithm = SIGNATURE_METHODS[policy.digest];
  return {
    answer(exchange: Exchange) {
      let timestamp = '';
      if (signing.timestamp) {
        const created = now();
        timestamp =
          `<wsu:Timestamp wsu:Id="${timestampId}"><wsu:Created>${new Date(created).toISOString()}</wsu:Created>` +
          `<wsu:Expires>${new Date(created + signing.answerTimestampMs).toISOString()}</wsu:Expires></wsu:Timestamp>`;
      }
      return `${openings[exchange.version.variant]}${timestamp}${token}</wsse:Security>`;
    },
    sign(exchange: Exchange, envelope: string) {
      const { parts, security } = xpaths[exchange.version.variant];
      const signer = new SignedXml({
        privateKey: signing.key,
        signatureAlgorithm,
        canonicalizationAlgorithm: EXC_C14N,
        idMode: 'wssecurity',
        getKeyInfoContent: () => keyInfo,
      });
      signer.addReference({ xpath: parts, transforms: [EXC_C14N], digestAlgorithm: digest });
      signer.computeSignature(envelope, {
        prefix: 'ds',
        location: { reference: security, action: 'append' },
        existingPrefixes: { wsse: WSSE },
      });
      return signer.getSignedXml();
    },
  };
}
