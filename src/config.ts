/**
 * Settings: one table, read from command-line flags and PIN_* environment
 * variables (a flag wins). Unknown or invalid settings stop start-up with a
 * one-line message; `--help` prints the table.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { HashAlgorithm } from './otp/hmac';
import { parseStoreUrl, STORE_URL_FORMS } from './state/redis-url';
import type { WhenFull } from './state/store';

export type SecretEncoding = 'utf8' | 'base32';

export interface Config {
  host: string;
  port: number;
  namespace: string;
  publicUrl: string | undefined;
  trustProxy: boolean;
  secretEncoding: SecretEncoding;
  algorithm: HashAlgorithm;
  digits: number;
  period: number;
  driftWindow: number;
  minSecretBytes: number;
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  replayProtection: boolean;
  throttleAttempts: number;
  throttleWindowSeconds: number;
  store: string;
  storeMaxEntries: number;
  storeWhenFull: WhenFull;
  storeTimeoutMs: number;
  storeReplicas: number;
  storeTlsCa: string | undefined;
  stateKey: string | undefined;
  qr: 'inline' | 'link';
  workers: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

interface Setting<K extends keyof Config> {
  key: K;
  flag: string;
  env: string;
  default: Config[K];
  values: string;
  help: string;
  parse(text: string): Config[K];
}

const oneOf =
  <T extends string>(...allowed: T[]) =>
  (text: string): T => {
    const found = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
    if (!found) throw new ConfigError(`must be one of ${allowed.join(', ')}`);
    return found;
  };

const integer = (min: number, max: number) => (text: string) => {
  if (!/^\d+$/.test(text)) throw new ConfigError(`must be a whole number from ${min} to ${max}`);
  const value = Number(text);
  if (value < min || value > max) throw new ConfigError(`must be a whole number from ${min} to ${max}`);
  return value;
};

const boolean = (text: string) => {
  if (/^(1|true|yes|on)$/i.test(text)) return true;
  if (/^(0|false|no|off)$/i.test(text)) return false;
  throw new ConfigError('must be true or false');
};

function absoluteUrl(text: string, mustEndWithSlash: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('must be an absolute URI');
  }
  if (!url.protocol || text !== text.trim()) throw new ConfigError('must be an absolute URI');
  if (mustEndWithSlash && !text.endsWith('/')) throw new ConfigError('must end with /');
  return text;
}

function publicUrl(text: string): string {
  absoluteUrl(text, false);
  if (!/^https?:\/\//i.test(text)) throw new ConfigError('must be an http:// or https:// URL');
  return text.replace(/\/+$/, '');
}

/** An IPv4 or IPv6 address, or a host name (RFC 1123); dotted numbers must be a real IPv4 address. */
function listenHost(text: string): string {
  if (isIP(text)) return text;
  const hostName = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (/^[\d.]+$/.test(text) || !hostName.test(text)) throw new ConfigError('must be an IP address or a host name');
  return text;
}

function storeUrl(text: string): string {
  if (text === 'memory') return text;
  if (!text.includes('://')) throw new ConfigError(`must be ${STORE_URL_FORMS}`);
  try {
    parseStoreUrl(text);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return text;
}

/** A file of PEM certificates, read now so that a wrong path stops start-up rather than the first TLS connection. */
function pemFile(text: string): string {
  let pem: string;
  try {
    pem = readFileSync(text, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${text} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`${text} holds no PEM certificate`);
  return text;
}

function stateKey(text: string): string {
  if (text.length < 32) throw new ConfigError('must be at least 32 characters long');
  return text;
}

function setting<K extends keyof Config>(s: Setting<K>): Setting<K> {
  return s;
}

/** The one settings table: flags, environment variables, defaults, help. */
export const SETTINGS = [
  setting({
    key: 'port',
    flag: '--port',
    env: 'PIN_PORT',
    default: 8080,
    values: '0-65535',
    help: 'TCP port to listen on',
    parse: integer(0, 65535),
  }),
  setting({
    key: 'host',
    flag: '--host',
    env: 'PIN_HOST',
    default: '0.0.0.0',
    values: 'address',
    help: 'address to listen on',
    parse: listenHost,
  }),
  setting({
    key: 'namespace',
    flag: '--namespace',
    env: 'PIN_NAMESPACE',
    default: 'http://authenticatorapi.com/',
    values: 'absolute URI ending in /',
    help: 'XML namespace of the contract (WSDL, validation, SOAPAction)',
    parse: (t) => absoluteUrl(t, true),
  }),
  setting({
    key: 'publicUrl',
    flag: '--public-url',
    env: 'PIN_PUBLIC_URL',
    default: undefined,
    values: 'http(s) URL',
    help: 'base URL written into the WSDL addresses (default: from the request)',
    parse: publicUrl,
  }),
  setting({
    key: 'trustProxy',
    flag: '--trust-proxy',
    env: 'PIN_TRUST_PROXY',
    default: false,
    values: 'true|false',
    help: 'take the public host and scheme from X-Forwarded-Host/-Proto',
    parse: boolean,
  }),
  setting({
    key: 'secretEncoding',
    flag: '--secret-encoding',
    env: 'PIN_SECRET_ENCODING',
    default: 'utf8' as SecretEncoding,
    values: 'utf8|base32',
    help: 'utf8: key = UTF-8 bytes of secretCode (reference); base32: secretCode is Base32',
    parse: oneOf<SecretEncoding>('utf8', 'base32'),
  }),
  setting({
    key: 'algorithm',
    flag: '--algorithm',
    env: 'PIN_ALGORITHM',
    default: 'SHA1' as HashAlgorithm,
    values: 'SHA1|SHA256|SHA512',
    help: 'TOTP HMAC algorithm',
    parse: oneOf<HashAlgorithm>('SHA1', 'SHA256', 'SHA512'),
  }),
  setting({
    key: 'digits',
    flag: '--digits',
    env: 'PIN_DIGITS',
    default: 6,
    values: '6|8',
    help: 'digits in a PIN',
    parse: (t) => Number(oneOf('6', '8')(t)),
  }),
  setting({
    key: 'period',
    flag: '--period',
    env: 'PIN_PERIOD',
    default: 30,
    values: '1-3600',
    help: 'seconds per TOTP step',
    parse: integer(1, 3600),
  }),
  setting({
    key: 'driftWindow',
    flag: '--drift-window',
    env: 'PIN_DRIFT_WINDOW',
    default: 1,
    values: '0-10',
    help: "steps accepted each way around now (10 = the reference's 5 minutes)",
    parse: integer(0, 10),
  }),
  setting({
    key: 'minSecretBytes',
    flag: '--min-secret-bytes',
    env: 'PIN_MIN_SECRET_BYTES',
    default: 10,
    values: '1-256',
    help: 'shortest key Pair accepts, in bytes (10 = 80 bits)',
    parse: integer(1, 256),
  }),
  setting({
    key: 'maxBodyBytes',
    flag: '--max-body-bytes',
    env: 'PIN_MAX_BODY_BYTES',
    default: 65536,
    values: '1024-1048576',
    help: 'largest request body accepted (larger: 413)',
    parse: integer(1024, 1048576),
  }),
  setting({
    key: 'headersTimeoutMs',
    flag: '--headers-timeout',
    env: 'PIN_HEADERS_TIMEOUT',
    default: 10000,
    values: '100-300000',
    help: "milliseconds a client has to send a request's headers, from its connection or the request's first byte (then 408, closed)",
    parse: integer(100, 300_000),
  }),
  setting({
    key: 'requestTimeoutMs',
    flag: '--request-timeout',
    env: 'PIN_REQUEST_TIMEOUT',
    default: 30000,
    values: '100-3600000',
    help: 'milliseconds a client has to send a whole request, headers and body (then 408, closed)',
    parse: integer(100, 3_600_000),
  }),
  setting({
    key: 'keepAliveTimeoutMs',
    flag: '--keep-alive-timeout',
    env: 'PIN_KEEP_ALIVE_TIMEOUT',
    default: 5000,
    values: '100-600000',
    help: 'milliseconds an idle kept-alive connection waits for its next request before it is closed',
    parse: integer(100, 600_000),
  }),
  setting({
    key: 'replayProtection',
    flag: '--replay-protection',
    env: 'PIN_REPLAY_PROTECTION',
    default: true,
    values: 'true|false',
    help: 'refuse a PIN already accepted for the same secret (RFC 6238 §5.2)',
    parse: boolean,
  }),
  setting({
    key: 'throttleAttempts',
    flag: '--throttle-attempts',
    env: 'PIN_THROTTLE_ATTEMPTS',
    default: 5,
    values: '0-1000',
    help: 'failed validations per secret before further calls are refused (0 = off)',
    parse: integer(0, 1000),
  }),
  setting({
    key: 'throttleWindowSeconds',
    flag: '--throttle-window',
    env: 'PIN_THROTTLE_WINDOW',
    default: 300,
    values: '1-86400',
    help: 'seconds the failure count lasts, from the first failure',
    parse: integer(1, 86400),
  }),
  setting({
    key: 'store',
    flag: '--store',
    env: 'PIN_STORE',
    default: 'memory',
    values: 'memory|redis://…',
    help: 'where replay and throttle state lives: embedded memory, or a shared Redis: redis://host:port/db, rediss://… (TLS), redis+sentinel://host:port[,host:port…]/mastername or redis+cluster://host:port[,host:port…]',
    parse: storeUrl,
  }),
  setting({
    key: 'storeMaxEntries',
    flag: '--store-max-entries',
    env: 'PIN_STORE_MAX_ENTRIES',
    default: 100000,
    values: '100-10000000',
    help: 'bound of the embedded store (entries that protect nobody go first, least recently written first)',
    parse: integer(100, 10_000_000),
  }),
  setting({
    key: 'storeWhenFull',
    flag: '--store-when-full',
    env: 'PIN_STORE_WHEN_FULL',
    default: 'evict' as WhenFull,
    values: 'evict|refuse',
    help: 'when the embedded store holds only replay records and locked counts: evict the one that ends first, or refuse new secrets (fail closed)',
    parse: oneOf<WhenFull>('evict', 'refuse'),
  }),
  setting({
    key: 'storeTimeoutMs',
    flag: '--store-timeout',
    env: 'PIN_STORE_TIMEOUT',
    default: 1000,
    values: '50-60000',
    help: 'milliseconds ValidatePin waits for the state store (Redis, or the primary with --workers) before failing closed',
    parse: integer(50, 60_000),
  }),
  setting({
    key: 'storeReplicas',
    flag: '--store-replicas',
    env: 'PIN_STORE_REPLICAS',
    default: 0,
    values: '0-16',
    help: 'Redis replicas that must hold an accepted PIN (WAIT) before ValidatePin answers true; fewer within --store-timeout: it fails closed',
    parse: integer(0, 16),
  }),
  setting({
    key: 'storeTlsCa',
    flag: '--store-tls-ca',
    env: 'PIN_STORE_TLS_CA',
    default: undefined,
    values: 'PEM file',
    help: "CA certificates a rediss:// server's certificate must chain to (default: Node's list)",
    parse: pemFile,
  }),
  setting({
    key: 'stateKey',
    flag: '--state-key',
    env: 'PIN_STATE_KEY',
    default: undefined,
    values: 'at least 32 characters',
    help: 'key of the keyed hash that names state entries (default: random per process; instances sharing a store need the same)',
    parse: stateKey,
  }),
  setting({
    key: 'qr',
    flag: '--qr',
    env: 'PIN_QR',
    default: 'inline' as Config['qr'],
    values: 'inline|link',
    help: "inline: Html holds the QR code as an SVG data URI; link: it points at this service's /qr.aspx (needs --public-url)",
    parse: oneOf<Config['qr']>('inline', 'link'),
  }),
  setting({
    key: 'workers',
    flag: '--workers',
    env: 'PIN_WORKERS',
    default: 1,
    values: '1-64',
    help: 'processes serving requests (node:cluster); state stays exact across them',
    parse: integer(1, 64),
  }),
  setting({
    key: 'logLevel',
    flag: '--log-level',
    env: 'PIN_LOG_LEVEL',
    default: 'info' as Config['logLevel'],
    values: 'fatal|error|warn|info|debug|silent',
    help: 'least severe log level written',
    parse: oneOf<Config['logLevel']>('fatal', 'error', 'warn', 'info', 'debug', 'silent'),
  }),
] as const;

type AnySetting = (typeof SETTINGS)[number];

/** One setting's value, written under its key: typed by the setting, so no value can land under another's key. */
function assign<K extends keyof Config>(config: Partial<Config>, setting: Setting<K>, value: Config[K]): void {
  config[setting.key] = value;
}

/** Every setting has a value (the table covers the whole Config). */
function isComplete(config: Partial<Config>): config is Config {
  return SETTINGS.every((s) => s.key in config);
}

export function defaultConfig(): Config {
  const config: Partial<Config> = {};
  for (const s of SETTINGS) assign(config, s, s.default);
  if (!isComplete(config)) throw new Error('the settings table does not cover every setting');
  return config;
}

/**
 * Reads flags (`--name value` or `--name=value`) and PIN_* variables over the
 * defaults. Throws ConfigError with one line naming the setting.
 */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const config = defaultConfig();
  const known = new Set<string>(SETTINGS.map((s) => s.env));
  for (const name of Object.keys(env)) {
    if (name.startsWith('PIN_') && !known.has(name)) throw new ConfigError(`unknown setting ${name} (see --help)`);
  }
  const apply = (s: AnySetting, source: string, text: string) => {
    try {
      assign(config, s, s.parse(text));
    } catch (error) {
      throw new ConfigError(`invalid ${source}: ${(error as Error).message}`);
    }
  };
  for (const s of SETTINGS) {
    const value = env[s.env];
    if (value !== undefined && value !== '') apply(s, s.env, value);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const s = SETTINGS.find((x) => x.flag === flag);
    if (!s) throw new ConfigError(`unknown argument ${flag} (see --help)`);
    let value = inline;
    if (value === undefined) {
      // A yes/no flag may stand alone: `--trust-proxy` is `--trust-proxy true`.
      if (s.parse === boolean && (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))) value = 'true';
      else value = argv[++i];
    }
    if (value === undefined) throw new ConfigError(`${flag} needs a value (${s.values})`);
    apply(s, flag, value);
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    throw new ConfigError('--headers-timeout must not be longer than --request-timeout: the headers are part of the request');
  }
  if (config.qr === 'link' && config.publicUrl === undefined) {
    throw new ConfigError('--qr link needs --public-url: the QR link must be absolute for pages that embed the Html');
  }
  if (config.storeReplicas !== 0 && config.store === 'memory') {
    throw new ConfigError('--store-replicas needs a Redis store (--store redis://…, redis+sentinel://… or redis+cluster://…)');
  }
  if (config.storeTlsCa !== undefined && !/^rediss:/i.test(config.store)) {
    throw new ConfigError('--store-tls-ca needs a rediss:// store');
  }
  return config;
}

/** Terminal width the help text keeps to. */
export const HELP_COLUMNS = 80;

/** `words` on lines of at most `columns` characters (a longer word alone), each starting with `indent`. */
function wrap(words: string[], columns: number, indent: string): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    if (line !== indent && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = indent;
    }
    line += line === indent ? word : ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

export function helpText(): string {
  const flags = SETTINGS.map((s) => `${s.flag} <${s.values}>`);
  const width = Math.max(...flags.map((f) => f.length)) + 2;
  const rows = SETTINGS.map((s, i) => {
    // The default stays whole on one line, so that it reads (and is found) as one phrase.
    const words = [...s.help.split(' '), ...(s.default === undefined ? [] : [`(default: ${s.default})`])];
    return `  ${flags[i].padEnd(width)}${s.env}\n${wrap(words, HELP_COLUMNS, '      ')}`;
  });
  return [
    'Usage: pin-service [serve] [options]',
    '',
    'Settings (flag, or environment variable):',
    ...rows,
    '',
    '  --help  print this and exit',
  ].join('\n');
}
