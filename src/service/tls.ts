/**
 * The service's own HTTPS (--tls-cert, --tls-key): the certificate chain and
 * its key, read from PEM files and checked before they are served, at
 * start-up and again on SIGHUP, so that a wrong pair is refused with one line
 * naming the file rather than failing every handshake.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { ConfigError } from './config';

/** A certificate chain and its key, as read and checked. */
export interface TlsIdentity {
  /** The PEM text of the chain (the service's certificate first) and of the key. */
  cert: string;
  key: string;
  /** The service's certificate (the chain's first). */
  serialNumber: string;
  notAfter: Date;
}

/** TLS 1.2 is the oldest version served (1.0 and 1.1 are refused at the handshake); ciphers are Node's defaults. */
export const MIN_TLS_VERSION = 'TLSv1.2';

function readPem(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * Reads and checks a certificate chain and its key: the first certificate
 * must be valid now and match the key. Throws ConfigError with one line.
 */
export function loadTlsIdentity(certFile: string, keyFile: string, now: Date = new Date()): TlsIdentity {
  const cert = readPem(certFile);
  const key = readPem(keyFile);
  let certificate: X509Certificate;
  try {
    // The constructor reads the first certificate of the PEM text: the service's own, before its chain.
    certificate = new X509Certificate(cert);
  } catch {
    throw new ConfigError(`${certFile} holds no PEM certificate`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new ConfigError(`${keyFile} holds no unencrypted PEM private key`);
  }
  if (!certificate.checkPrivateKey(privateKey)) throw new ConfigError(`${keyFile} is not the key of the certificate in ${certFile}`);
  const notAfter = new Date(certificate.validTo);
  if (notAfter.getTime() < now.getTime()) throw new ConfigError(`the certificate in ${certFile} expired on ${notAfter.toISOString()}`);
  const notBefore = new Date(certificate.validFrom);
  if (notBefore.getTime() > now.getTime())
    throw new ConfigError(`the certificate in ${certFile} is not valid before ${notBefore.toISOString()}`);
  const identity = { cert, key, serialNumber: certificate.serialNumber, notAfter };
  try {
    // What the server will build from it: anything OpenSSL refuses (a chain it cannot read, say) is found now.
    createSecureContext(secureContextOptions(identity));
  } catch (error) {
    throw new ConfigError(`${certFile} and ${keyFile} cannot be served: ${(error as Error).message.split('\n')[0]}`);
  }
  return identity;
}

/** The secure context's options: the same at start-up and on every reload (setSecureContext replaces them all). */
export function secureContextOptions(identity: TlsIdentity): SecureContextOptions {
  return { cert: identity.cert, key: identity.key, minVersion: MIN_TLS_VERSION };
}
