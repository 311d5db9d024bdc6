/**
 * What the WS-Security signature tests share: RSA certificates made in the test (WebCrypto keys, @peculiar/x509),
 * Add requests of the calculator fixture with a Security header, signed by xml-crypto as a caller signs them.
 */
// @peculiar/x509 needs the Reflect metadata API (through tsyringe), which Node does not have.
import 'reflect-metadata';
import { BasicConstraintsExtension, X509CertificateGenerator } from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { SOAP_ENVELOPE_NAMESPACES, type SoapVersionName } from './xml-assertions';

export const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
export const X509V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
export const BASE64 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
/** The calculator fixture's namespace. */
export const CALCULATOR_NS = 'http://calculator.example.org/';
const DAY_MS = 86_400_000;
const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

export interface Signer {
  /** The certificate, PEM, and DER in Base64 (a BinarySecurityToken's content). */
  pem: string;
  base64: string;
  /** The private key, PKCS#8 PEM. */
  key: string;
}

/** The signer's certificate and keys, for a CA to issue others with. */
export interface Issuer extends Signer {
  subject: string;
  keys: webcrypto.CryptoKeyPair;
}

async function pemKey(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`;
}

/** An RSA-2048 certificate valid from yesterday for 30 days: self-signed (a CA with `ca`), or issued by `issuer`. */
export async function rsaCertificate(options: { serialNumber: string; name: string; issuer?: Issuer; ca?: boolean }): Promise<Issuer> {
  const now = Date.now();
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const validity = { notBefore: new Date(now - DAY_MS), notAfter: new Date(now + 30 * DAY_MS), signingAlgorithm: RSA };
  const certificate = options.issuer
    ? await X509CertificateGenerator.create({
        serialNumber: options.serialNumber,
        subject: options.name,
        issuer: options.issuer.subject,
        ...validity,
        publicKey: keys.publicKey,
        signingKey: options.issuer.keys.privateKey,
      })
    : await X509CertificateGenerator.createSelfSigned({
        serialNumber: options.serialNumber,
        name: options.name,
        ...validity,
        keys,
        extensions: options.ca ? [new BasicConstraintsExtension(true, 0, true)] : [],
      });
  return {
    pem: certificate.toString('pem'),
    base64: certificate.toString('base64'),
    key: await pemKey(keys.privateKey),
    subject: certificate.subject,
    keys,
  };
}

/**
 * An Add envelope whose Body carries a wsu:Id, with a Security header holding `signer`'s certificate (after
 * `inSecurity`), and `extra` header blocks.
 */
export function unsignedAdd(version: SoapVersionName, signer: Signer, extra = '', inSecurity = '', intA = 2): string {
  const env = SOAP_ENVELOPE_NAMESPACES[version];
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${env}"><soap:Header>` +
    `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1">${inSecurity}` +
    `<wsse:BinarySecurityToken wsu:Id="X509-1" ValueType="${X509V3}" EncodingType="${BASE64}">${signer.base64}</wsse:BinarySecurityToken>` +
    `</wsse:Security>${extra}</soap:Header><soap:Body xmlns:wsu="${WSU}" wsu:Id="Body-1"><Add xmlns="${CALCULATOR_NS}"><intA>${intA}</intA><intB>3</intB></Add></soap:Body></soap:Envelope>`
  );
}

/** A wsu:Timestamp, created now, valid for 5 minutes. */
export function timestampNow(): string {
  const created = Date.now();
  return `<wsu:Timestamp><wsu:Created>${new Date(created).toISOString()}</wsu:Created><wsu:Expires>${new Date(created + 300_000).toISOString()}</wsu:Expires></wsu:Timestamp>`;
}

/** `xml` signed by `signer` with xml-crypto over the elements `target` selects, the Signature appended to wsse:Security. */
export function signedRequest(xml: string, signer: Signer, target = "//*[local-name(.)='Body']", digest = SHA256): string {
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
