/**
 * A real nginx in front of two instances, with the shipped deploy/nginx.conf
 * rendered as docs/operations.md says (its nine placeholders filled in with this
 * test's ports, a temporary directory and a certificate of a private CA made
 * with openssl), on loopback; stop() in test.after.always. The test process
 * trusts that CA, so fetch() calls the HTTPS address as any client would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO } from './child-service';
import { createOpensslCa, trustInThisProcess } from './openssl-ca';
import { freePort } from './ports';

export const NGINX_CONF = join(REPO, 'deploy', 'nginx.conf');
const PLACEHOLDERS = [
  'PIN_NGINX_LISTEN',
  'PIN_NGINX_TLS_LISTEN',
  'PIN_NGINX_HTTPS_PORT',
  'PIN_NGINX_TLS_CERT',
  'PIN_NGINX_TLS_KEY',
  'PIN_BACKEND_1',
  'PIN_BACKEND_2',
  'PIN_NGINX_LOG_DIR',
  'PIN_NGINX_STATE_DIR',
] as const;
/** A host name the test's certificate also holds (a Host header that is not the address connected to). */
export const NGINX_TEST_HOST = 'pins.example.test';

/** Fails loudly when nginx is missing: `make test-all` needs it (installed by .ci/run). */
export function requireNginx(): void {
  const found = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) throw new Error('nginx is not installed: run `apt-get install -y nginx` (see .ci/run)');
}

/** deploy/nginx.conf with its placeholders filled in (as envsubst with the list of names would). */
export function renderNginxConf(values: Record<(typeof PLACEHOLDERS)[number], string>): string {
  let text = readFileSync(NGINX_CONF, 'utf8');
  for (const name of PLACEHOLDERS) text = text.split(`\${${name}}`).join(values[name]);
  const left = /\$\{PIN_[A-Z0-9_]+\}/.exec(text);
  if (left) throw new Error(`deploy/nginx.conf has a placeholder docs/operations.md does not list: ${left[0]}`);
  return text;
}

/** One line of deploy/nginx.conf's JSON access log. */
export interface AccessLine {
  request_id: string;
  method: string;
  path: string;
  status: number;
  upstream: string;
  upstream_status: string;
}

export interface TestNginx {
  /** https://127.0.0.1:port: the address callers use. */
  base: string;
  /** http://127.0.0.1:port: plain HTTP, which only redirects to `base`. */
  httpBase: string;
  /** The private CA nginx's certificate chains to (PEM). */
  caPem: string;
  /** Where its logs (access.log, error.log) are. */
  dir: string;
  accessLog(): AccessLine[];
  /** What nginx wrote to stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** nginx with deploy/nginx.conf in front of two instances (`host:port` each). */
export async function startNginx(backends: [string, string]): Promise<TestNginx> {
  requireNginx();
  const dir = mkdtempSync(join(tmpdir(), 'pin-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers run as another user when the test runs as root
  const ca = createOpensslCa();
  const certificate = ca.issue('nginx', [NGINX_TEST_HOST]);
  trustInThisProcess(ca.caPem);
  const [port, tlsPort] = [await freePort(), await freePort()];
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    renderNginxConf({
      PIN_NGINX_LISTEN: `127.0.0.1:${port}`,
      PIN_NGINX_TLS_LISTEN: `127.0.0.1:${tlsPort}`,
      PIN_NGINX_HTTPS_PORT: String(tlsPort),
      PIN_NGINX_TLS_CERT: certificate.certFile,
      PIN_NGINX_TLS_KEY: certificate.keyFile,
      PIN_BACKEND_1: backends[0],
      PIN_BACKEND_2: backends[1],
      PIN_NGINX_LOG_DIR: dir,
      PIN_NGINX_STATE_DIR: dir,
    }),
  );
  const check = spawnSync('nginx', ['-t', '-q', '-c', conf, '-p', dir], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    ca.remove();
    throw new Error(`nginx -t refused the rendered deploy/nginx.conf:\n${check.stderr}`);
  }
  const nginx = spawn('nginx', ['-c', conf, '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  nginx.stdout!.on('data', (d) => (output += d));
  nginx.stderr!.on('data', (d) => (output += d));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await Promise.race([exited, sleep(5000, undefined, { ref: false })]);
      if (nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
    ca.remove();
  };
  const base = `https://127.0.0.1:${tlsPort}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return {
        base,
        httpBase: `http://127.0.0.1:${port}`,
        caPem: ca.caPem,
        dir,
        accessLog: () =>
          existsSync(join(dir, 'access.log'))
            ? readFileSync(join(dir, 'access.log'), 'utf8')
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l) as AccessLine)
            : [],
        output: () => output,
        stop,
      };
    }
    if (nginx.exitCode !== null) break;
    await sleep(100);
  }
  await stop();
  throw new Error(`nginx did not start: ${output}`);
}
