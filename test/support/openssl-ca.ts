/**
 * A private CA made with openssl, as an operator would make one (system
 * suites: nginx with TLS, the real clients over HTTPS), and server
 * certificates it signs, each with a serial number of its own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';

export interface OpensslCa {
  dir: string;
  /** The CA certificate: its file, and its PEM text. */
  caFile: string;
  caPem: string;
  /** A certificate (for 127.0.0.1, localhost and `names`) signed by the CA: the chain file (certificate, then the CA) and its key. */
  issue(name: string, names?: string[]): { certFile: string; keyFile: string; serialNumber: string };
  remove(): void;
}

/** Fails loudly when openssl is missing: `make test-all` needs it (installed by .ci/run). */
export function requireOpenssl(): void {
  const found = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) throw new Error('openssl is not installed: run `apt-get install -y openssl` (see .ci/run)');
}

export function createOpensslCa(): OpensslCa {
  requireOpenssl();
  const dir = mkdtempSync(join(tmpdir(), 'pin-ca-'));
  chmodSync(dir, 0o755); // nginx's workers run as another user when the test runs as root
  const openssl = (...args: string[]) => {
    const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
    return run.stdout;
  };
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=pin-service test CA',
  );
  const caFile = join(dir, 'ca.pem');
  const caPem = readFileSync(caFile, 'utf8');
  let serial = 0x2000;
  return {
    dir,
    caFile,
    caPem,
    issue(name, names = []) {
      const serialNumber = (serial++).toString(16).toUpperCase();
      const san = ['IP:127.0.0.1', 'DNS:localhost', ...names.map((n) => `DNS:${n}`)].join(',');
      writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
      openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', '/CN=localhost');
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-set_serial',
        `0x${serialNumber}`,
        '-out',
        `${name}.crt`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      );
      const certFile = join(dir, `${name}.pem`);
      writeFileSync(certFile, readFileSync(join(dir, `${name}.crt`), 'utf8') + caPem);
      chmodSync(join(dir, `${name}.key`), 0o644); // read by nginx's master (root) and the service; a test key
      return { certFile, keyFile: join(dir, `${name}.key`), serialNumber };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** This test process trusts `caPem` besides the usual CAs: fetch() and node:https then accept its certificates. */
export function trustInThisProcess(caPem: string): void {
  setDefaultCACertificates([...getCACertificates('default'), caPem]);
}
