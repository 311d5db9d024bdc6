/**
 * Certificates made in the test (no openssl in `make test`): a private CA and
 * server certificates it signs, ECDSA P-256 keys from WebCrypto, written as
 * PEM files into a temporary folder.
 */
// @peculiar/x509 needs the Reflect metadata API (through tsyringe), which Node does not have.
import 'reflect-metadata';
import {
  X509CertificateGenerator,
  BasicConstraintsExtension,
  KeyUsagesExtension,
  KeyUsageFlags,
  SubjectAlternativeNameExtension,
  ExtendedKeyUsageExtension,
  ExtendedKeyUsage,
} from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 86_400_000;

export interface TestCa {
  /** The CA certificate, PEM: what a client trusts. */
  cert: string;
  /** A server certificate for 127.0.0.1 and localhost signed by this CA, with its chain (server first) and key, PEM. */
  issue(options?: {
    serialNumber?: string;
    notBefore?: Date;
    notAfter?: Date;
  }): Promise<{ cert: string; key: string; serialNumber: string }>;
}

async function keyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`;
}

export async function createTestCa(name = 'pin-service test CA'): Promise<TestCa> {
  const caKeys = await keyPair();
  const now = Date.now();
  const ca = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name}`,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 3650 * DAY_MS),
    signingAlgorithm: ALGORITHM,
    keys: caKeys,
    extensions: [
      new BasicConstraintsExtension(true, 0, true),
      new KeyUsagesExtension(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign, true),
    ],
  });
  const caPem = ca.toString('pem');
  let serial = 0x1000;
  return {
    cert: caPem,
    async issue(options = {}) {
      const keys = await keyPair();
      const serialNumber = options.serialNumber ?? (serial++).toString(16).toUpperCase();
      const leaf = await X509CertificateGenerator.create({
        serialNumber,
        subject: 'CN=localhost',
        issuer: ca.subject,
        notBefore: options.notBefore ?? new Date(now - DAY_MS),
        notAfter: options.notAfter ?? new Date(now + 365 * DAY_MS),
        signingAlgorithm: ALGORITHM,
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        extensions: [
          new BasicConstraintsExtension(false, undefined, true),
          new KeyUsagesExtension(KeyUsageFlags.digitalSignature, true),
          new ExtendedKeyUsageExtension([ExtendedKeyUsage.serverAuth]),
          new SubjectAlternativeNameExtension([
            { type: 'dns', value: 'localhost' },
            { type: 'ip', value: '127.0.0.1' },
          ]),
        ],
      });
      return { cert: `${leaf.toString('pem')}\n${caPem}\n`, key: await privateKeyPem(keys.privateKey), serialNumber };
    },
  };
}

/** A new temporary folder for PEM files; `write` puts one in it and returns its path. */
export function pemFolder(): { dir: string; write(name: string, pem: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'pin-tls-'));
  return {
    dir,
    write(name, pem) {
      const file = join(dir, name);
      writeFileSync(file, pem);
      return file;
    },
  };
}
