/**
 * Settings: one table, read from command-line flags and PIN_* environment
 * variables (a flag wins). Unknown or invalid settings stop start-up with a
 * one-line message; `--help` prints the table.
 */
import { readFileSync } from 'node:fs';
import { TARGET_NAMESPACE } from '../../generated/routes';
import {
  ConfigError,
  digits,
  integer,
  listenerSettings,
  listenHost,
  oneOf,
  optional,
  setting,
  settingsTable,
  type SettingValues,
  type ValueType,
  yesNo,
} from '../runtime/host';
import type { HashAlgorithm } from './otp/hmac';
import { STORE_CHOICES, STORE_VALUES, storeBackend } from './state/index';
import type { WhenFull } from './state/store';

export type SecretEncoding = 'utf8' | 'base32';
export type QrMode = 'inline' | 'link';

export { ConfigError } from '../runtime/host';

/** A `--store` value: one a backend of the registry takes (state/index.ts), well formed. */
const storeUrl: ValueType<string> = {
  values: STORE_VALUES,
  parse(text) {
    try {
      storeBackend(text);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    return text;
  },
};

const directoryPath: ValueType<string> = {
  values: 'directory',
  parse(text) {
    if (text.trim() === '' || text.includes('\0')) throw new ConfigError('must be a directory path');
    return text;
  },
};

/** A PEM file's text; a path that cannot be read is a one-line ConfigError naming it. */
function readPem(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** A file of PEM certificates, read now so that a wrong path stops start-up rather than the first TLS connection. */
const pemFile: ValueType<string> = {
  values: 'PEM file',
  parse(text) {
    const pem = readPem(text);
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`${text} holds no PEM certificate`);
    return text;
  },
};

/** A file holding a PEM private key, read now so that a wrong path stops start-up. */
const pemKeyFile: ValueType<string> = {
  values: 'PEM file',
  parse(text) {
    const pem = readPem(text);
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) throw new ConfigError(`${text} holds no PEM private key`);
    return text;
  },
};

/** A file holding a bearer token of 32 characters or more, read now so that a wrong path or a short token stops start-up. */
const tokenFile: ValueType<string> = {
  values: 'file',
  parse(text) {
    readToken(text);
    return text;
  },
};

/** The token in a token file (--admin-token-file): its text, surrounding white space removed. */
export function readToken(path: string): string {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (error) {
    throw new ConfigError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (token.length < 32) throw new ConfigError(`${path} must hold a token of at least 32 characters (openssl rand -hex 32)`);
  return token;
}

const filePath: ValueType<string> = {
  values: 'file',
  parse(text) {
    if (text.trim() === '' || text.includes('\0')) throw new ConfigError('must be a file path');
    return text;
  },
};

const longText = (minLength: number): ValueType<string> => ({
  values: `at least ${minLength} characters`,
  parse(text) {
    if (text.length < minLength) throw new ConfigError(`must be at least ${minLength} characters long`);
    return text;
  },
});

/** The listener's rows, the runtime's (runtime/listener-settings.ts), with the service's variables and defaults. */
const LISTENER = listenerSettings({
  envPrefix: 'PIN_',
  host: '0.0.0.0',
  maxBodyBytes: { default: 65536, max: 1048576 },
  targetNamespace: TARGET_NAMESPACE,
});

/** The one settings table: flags, environment variables, defaults, kinds of value, help. Config is derived from it. */
const TABLE = {
  port: LISTENER.port,
  host: LISTENER.host,
  tlsCert: setting({
    flag: '--tls-cert',
    env: 'PIN_TLS_CERT',
    default: undefined,
    type: optional(pemFile),
    help: "serve HTTPS only: the service's certificate, then its chain (PEM); read again on SIGHUP",
  }),
  tlsKey: setting({
    flag: '--tls-key',
    env: 'PIN_TLS_KEY',
    default: undefined,
    type: optional(pemKeyFile),
    help: "the certificate's private key (PEM, unencrypted); read again on SIGHUP",
  }),
  httpPort: setting({
    flag: '--http-port',
    env: 'PIN_HTTP_PORT',
    default: undefined,
    type: optional(integer(0, 65535)),
    help: 'with --tls-cert: a plain HTTP port that only redirects to HTTPS (default: none)',
  }),
  hstsMaxAge: setting({
    flag: '--hsts-max-age',
    env: 'PIN_HSTS_MAX_AGE',
    default: 31536000,
    type: integer(0, 63072000),
    help: 'seconds of Strict-Transport-Security sent on HTTPS answers (0 = none)',
  }),
  namespace: LISTENER.namespace,
  publicUrl: LISTENER.publicUrl,
  trustProxy: LISTENER.trustProxy,
  secretEncoding: setting({
    flag: '--secret-encoding',
    env: 'PIN_SECRET_ENCODING',
    default: 'utf8',
    type: oneOf<SecretEncoding>('utf8', 'base32'),
    help: 'utf8: key = UTF-8 bytes of secretCode (reference); base32: secretCode is Base32',
  }),
  algorithm: setting({
    flag: '--algorithm',
    env: 'PIN_ALGORITHM',
    default: 'SHA1',
    type: oneOf<HashAlgorithm>('SHA1', 'SHA256', 'SHA512'),
    help: 'TOTP HMAC algorithm',
  }),
  digits: setting({
    flag: '--digits',
    env: 'PIN_DIGITS',
    default: 6,
    type: digits(6, 8),
    help: 'digits in a PIN',
  }),
  period: setting({
    flag: '--period',
    env: 'PIN_PERIOD',
    default: 30,
    type: integer(1, 3600),
    help: 'seconds per TOTP step',
  }),
  driftWindow: setting({
    flag: '--drift-window',
    env: 'PIN_DRIFT_WINDOW',
    default: 1,
    type: integer(0, 10),
    help: "steps accepted each way around now (10 = the reference's 5 minutes)",
  }),
  minSecretBytes: setting({
    flag: '--min-secret-bytes',
    env: 'PIN_MIN_SECRET_BYTES',
    default: 10,
    type: integer(1, 256),
    help: 'shortest key Pair accepts, in bytes (10 = 80 bits)',
  }),
  maxBodyBytes: LISTENER.maxBodyBytes,
  headersTimeoutMs: LISTENER.headersTimeoutMs,
  requestTimeoutMs: LISTENER.requestTimeoutMs,
  keepAliveTimeoutMs: LISTENER.keepAliveTimeoutMs,
  replayProtection: setting({
    flag: '--replay-protection',
    env: 'PIN_REPLAY_PROTECTION',
    default: true,
    type: yesNo,
    help: 'refuse a PIN already accepted for the same secret (RFC 6238 §5.2)',
  }),
  throttleAttempts: setting({
    flag: '--throttle-attempts',
    env: 'PIN_THROTTLE_ATTEMPTS',
    default: 5,
    type: integer(0, 1000),
    help: 'failed validations per secret before further calls are refused (0 = off)',
  }),
  throttleWindowSeconds: setting({
    flag: '--throttle-window',
    env: 'PIN_THROTTLE_WINDOW',
    default: 300,
    type: integer(1, 86400),
    help: 'seconds the failure count lasts, from the first failure',
  }),
  store: setting({
    flag: '--store',
    env: 'PIN_STORE',
    default: 'embedded',
    type: storeUrl,
    help: `where replay and throttle state lives: ${STORE_CHOICES}`,
  }),
  storeMaxEntries: setting({
    flag: '--store-max-entries',
    env: 'PIN_STORE_MAX_ENTRIES',
    default: 100000,
    type: integer(100, 10000000),
    help: 'bound of the embedded store (entries that protect nobody go first, least recently written first)',
  }),
  storeWhenFull: setting({
    flag: '--store-when-full',
    env: 'PIN_STORE_WHEN_FULL',
    default: 'evict',
    type: oneOf<WhenFull>('evict', 'refuse'),
    help: 'when the embedded store holds only replay records and locked counts: evict the one that ends first, or refuse new secrets (fail closed)',
  }),
  storeTimeoutMs: setting({
    flag: '--store-timeout',
    env: 'PIN_STORE_TIMEOUT',
    default: 1000,
    type: integer(50, 60000),
    help: 'milliseconds ValidatePin waits for a Redis state store before failing closed',
  }),
  storeReplicas: setting({
    flag: '--store-replicas',
    env: 'PIN_STORE_REPLICAS',
    default: 0,
    type: integer(0, 16),
    help: 'Redis replicas that must hold an accepted PIN (WAIT) before ValidatePin answers true; fewer within --store-timeout: it fails closed',
  }),
  storeTlsCa: setting({
    flag: '--store-tls-ca',
    env: 'PIN_STORE_TLS_CA',
    default: undefined,
    type: optional(pemFile),
    help: "CA certificates a rediss:// server's certificate must chain to (default: Node's list)",
  }),
  stateKey: setting({
    flag: '--state-key',
    env: 'PIN_STATE_KEY',
    default: undefined,
    type: optional(longText(32)),
    help: 'key of the keyed hash that names state entries (default: with --store embedded, one made once in --state-dir; else random per process; instances sharing a store need the same)',
  }),
  stateDir: setting({
    flag: '--state-dir',
    env: 'PIN_STATE_DIR',
    default: undefined,
    type: optional(directoryPath),
    help: "the embedded store's directory (its records and state key; made mode 0700 if missing). Default: systemd's $STATE_DIRECTORY, else ./state",
  }),
  qr: setting({
    flag: '--qr',
    env: 'PIN_QR',
    default: 'inline',
    type: oneOf<QrMode>('inline', 'link'),
    help: "inline: Html holds the QR code as an SVG data URI; link: it points at this service's /qr.aspx (needs --public-url)",
  }),
  workers: setting({
    flag: '--workers',
    env: 'PIN_WORKERS',
    default: 1,
    type: integer(1, 64),
    help: 'threads serving requests, on one port (SO_REUSEPORT); the embedded store is shared between them in memory, so state stays exact',
  }),
  managementPort: setting({
    flag: '--management-port',
    env: 'PIN_MANAGEMENT_PORT',
    default: undefined,
    type: optional(integer(0, 65535)),
    help: 'a second port, for operators: /metrics, /healthz, /readyz and, with --admin-token-file, /admin/secrets/… (default: none)',
  }),
  managementHost: setting({
    flag: '--management-host',
    env: 'PIN_MANAGEMENT_HOST',
    default: '127.0.0.1',
    type: listenHost,
    help: 'address the management port listens on',
  }),
  adminTokenFile: setting({
    flag: '--admin-token-file',
    env: 'PIN_ADMIN_TOKEN_FILE',
    default: undefined,
    type: optional(tokenFile),
    help: "a file holding the bearer token of the management port's /admin/ endpoints (32 characters or more); none: no admin endpoints",
  }),
  metricsOnPublicPort: setting({
    flag: '--metrics-on-public-port',
    env: 'PIN_METRICS_ON_PUBLIC_PORT',
    default: false,
    type: yesNo,
    help: 'serve /metrics on --port too (else only on the management port)',
  }),
  auditFile: setting({
    flag: '--audit-file',
    env: 'PIN_AUDIT_FILE',
    default: undefined,
    type: optional(filePath),
    help: 'a file the audit lines are appended to, besides the log (reopened on SIGHUP, for rotation)',
  }),
  auditRequired: setting({
    flag: '--audit-required',
    env: 'PIN_AUDIT_REQUIRED',
    default: false,
    type: yesNo,
    help: 'write each audit line to --audit-file before answering, and fail ValidatePin closed (503) while the file cannot be written',
  }),
  logLevel: LISTENER.logLevel,
};

/** The settings' values, one per row of the table. */
export type Config = SettingValues<typeof TABLE>;

export type LogLevel = Config['logLevel'];

const PARSER = settingsTable(TABLE);

/** The table's rows in order, each with its key (for parsing, --help and the docs' table). */
export const SETTINGS = PARSER.rows;

export function defaultConfig(): Config {
  return PARSER.defaults();
}

/**
 * Reads flags (`--name value` or `--name=value`) and PIN_* variables over the
 * defaults. Throws ConfigError with one line naming the setting.
 */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const config = PARSER.parse(argv, env, 'PIN_');
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError('--headers-timeout must not be longer than --request-timeout: the headers are part of the request');
  }
  if (config.qr === 'link' && config.publicUrl === undefined) {
    throw new ConfigError('--qr link needs --public-url: the QR link must be absolute for pages that embed the Html');
  }
  if (config.storeReplicas !== 0 && storeBackend(config.store).embedded) {
    throw new ConfigError('--store-replicas needs a Redis store (--store redis://…, redis+sentinel://… or redis+cluster://…)');
  }
  if ((config.tlsCert === undefined) !== (config.tlsKey === undefined)) {
    throw new ConfigError('--tls-cert and --tls-key go together: HTTPS needs the certificate and its key');
  }
  if (config.httpPort !== undefined && config.tlsCert === undefined) {
    throw new ConfigError('--http-port needs --tls-cert: without TLS, --port is the plain HTTP port');
  }
  if (config.httpPort !== undefined && config.httpPort !== 0 && config.httpPort === config.port) {
    throw new ConfigError('--http-port must differ from --port (the HTTPS port)');
  }
  if (config.storeTlsCa !== undefined && !/^rediss:/i.test(config.store)) {
    throw new ConfigError('--store-tls-ca needs a rediss:// store');
  }
  if (config.adminTokenFile !== undefined && config.managementPort === undefined) {
    throw new ConfigError('--admin-token-file needs --management-port: the admin endpoints are served there only');
  }
  if (
    config.managementPort !== undefined &&
    config.managementPort !== 0 &&
    [config.port, config.httpPort].includes(config.managementPort)
  ) {
    throw new ConfigError('--management-port must differ from --port and --http-port');
  }
  if (config.auditRequired && config.auditFile === undefined) {
    throw new ConfigError('--audit-required needs --audit-file: it is that file the service will not answer without');
  }
  return config;
}

/** The settings, and what the environment held that looked like settings and was left out. */
export interface ConfigReading {
  config: Config;
  /** PIN_* variables that are Kubernetes service links, not settings (PIN_SERVICE_SERVICE_HOST, PIN_PORT=tcp://…): for the start-up line. */
  serviceLinks: string[];
}

/** parseConfig, with the variables it left out as Kubernetes service links (parseConfig logs nothing: the caller does). */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ConfigReading {
  return { config: parseConfig(argv, env), serviceLinks: PARSER.serviceLinks(env, 'PIN_') };
}

/** The namespace the service speaks: `--namespace`, else the WSDL's own. */
export function contractNamespace(config: Pick<Config, 'namespace'>): string {
  return config.namespace ?? TARGET_NAMESPACE;
}
