/**
 * The four forms `--store` takes for Redis, read into what a client needs
 * (redis-client.ts builds the ioredis client from it):
 *
 *   redis://[user:pass@]host[:port][/db]           one server
 *   rediss://[user:pass@]host[:port][/db]          one server over TLS
 *   redis+sentinel://[user:pass@]host:port[,host:port…]/mastername
 *                                                  the master Sentinel names
 *   redis+cluster://[user:pass@]host:port[,host:port…]
 *                                                  a Redis Cluster, from any of its nodes
 *
 * User and password are those of the Redis servers (percent-encoded, as in
 * any URL); Sentinels are asked without them. No Node or ioredis import, so
 * that config.ts can check a URL at start-up without loading the client.
 * Errors are one line and never repeat the user or the password.
 */

export interface RedisEndpoint {
  host: string;
  port: number;
}

export interface RedisCredentials {
  username?: string;
  password?: string;
}

export type RedisTarget =
  | ({ topology: 'single'; tls: boolean; endpoint: RedisEndpoint; db: number } & RedisCredentials)
  | ({ topology: 'sentinel'; sentinels: RedisEndpoint[]; masterName: string } & RedisCredentials)
  | ({ topology: 'cluster'; nodes: RedisEndpoint[] } & RedisCredentials);

/** The four forms, as --store's error and help name them. */
export const REDIS_URL_FORMS: readonly string[] = [
  'redis://host:port/db',
  'rediss://host:port/db',
  'redis+sentinel://host:port[,host:port…]/mastername',
  'redis+cluster://host:port[,host:port…]',
];

const SCHEMES = ['redis', 'rediss', 'redis+sentinel', 'redis+cluster'];
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(?:([^/?#]*)@)?([^/?#]*)(\/[^?#]*)?([?#].*)?$/s;

/** `a, b or c`. */
export const orList = (items: readonly string[]): string =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** Whether a `--store` value is meant as a Redis URL: one of the four schemes, in any case (parseStoreUrl says what else is wrong). */
export function isRedisUrl(text: string): boolean {
  const scheme = URL_PARTS.exec(text)?.[1].toLowerCase();
  return scheme !== undefined && SCHEMES.includes(scheme);
}

export class StoreUrlError extends Error {
  override name = 'StoreUrlError';
}

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const IPV6 = /^\[([0-9A-Fa-f:.]+)\]$/;

/** `host:port` (`[v6]:port`); `defaultPort` when the port may be left out. `which` names it in errors (never its text: a mistyped URL may put a password there). */
function endpoint(text: string, defaultPort: number | undefined, which: string): RedisEndpoint {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d*))?$/.exec(text);
  if (!match || match[1] === '') throw new StoreUrlError(`${which} is not host:port`);
  const [, hostText, portText] = match;
  const v6 = IPV6.exec(hostText);
  if (!v6 && !HOST_NAME.test(hostText)) throw new StoreUrlError(`${which} is not a host name or IP address`);
  if (portText === undefined && defaultPort === undefined) throw new StoreUrlError(`${which} has no port (host:port)`);
  const port = portText === undefined ? defaultPort! : Number(portText);
  if (!/^\d{1,5}$/.test(String(portText ?? port)) || port < 1 || port > 65535)
    throw new StoreUrlError(`${which}: the port must be 1 to 65535`);
  return { host: v6 ? v6[1] : hostText, port };
}

const nth = (i: number, count: number) => (count === 1 ? 'the host' : `host ${i + 1} of ${count}`);

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new StoreUrlError(`the ${what} is not valid percent-encoding`);
  }
}

/** `user:pass`, `:pass` or `user`, as ioredis reads a redis:// URL's user information. */
function credentials(userInfo: string | undefined): RedisCredentials {
  if (userInfo === undefined || userInfo === '') return {};
  const colon = userInfo.indexOf(':');
  const username = decode(colon < 0 ? userInfo : userInfo.slice(0, colon), 'user name');
  const password = colon < 0 ? undefined : decode(userInfo.slice(colon + 1), 'password');
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

/** Reads a Redis `--store` URL; throws StoreUrlError with one line saying what is wrong. */
export function parseStoreUrl(text: string): RedisTarget {
  const match = URL_PARTS.exec(text);
  const scheme = match?.[1].toLowerCase();
  if (!match || !scheme || !SCHEMES.includes(scheme)) throw new StoreUrlError(`must be ${orList(REDIS_URL_FORMS)}`);
  const [, , userInfo, hostList, path = '', rest] = match;
  if (/\s/.test(text)) throw new StoreUrlError('must not contain white space');
  if (rest !== undefined) throw new StoreUrlError(`${scheme}:// takes no query or fragment`);
  if (hostList === '') throw new StoreUrlError(`${scheme}:// needs a host`);
  const auth = credentials(userInfo);
  const hosts = hostList.split(',');
  if (scheme === 'redis' || scheme === 'rediss') {
    if (hosts.length > 1) throw new StoreUrlError(`${scheme}:// takes one host; several: redis+sentinel:// or redis+cluster://`);
    if (!/^(\/\d{0,9})?\/?$/.test(path)) throw new StoreUrlError(`${scheme}://host:port/db: the database must be a whole number`);
    return {
      topology: 'single',
      tls: scheme === 'rediss',
      endpoint: endpoint(hosts[0], 6379, 'the host'),
      db: Number(path.replace(/\//g, '') || 0),
      ...auth,
    };
  }
  if (hosts.some((h) => h === '')) throw new StoreUrlError(`${scheme}://: an empty host in the list`);
  if (scheme === 'redis+sentinel') {
    const masterName = path.slice(1);
    if (!/^[A-Za-z0-9._-]+$/.test(masterName)) {
      throw new StoreUrlError(
        "redis+sentinel:// needs the master's name after the hosts: redis+sentinel://host:port[,host:port…]/mastername",
      );
    }
    return { topology: 'sentinel', sentinels: hosts.map((h, i) => endpoint(h, undefined, nth(i, hosts.length))), masterName, ...auth };
  }
  if (path !== '' && path !== '/')
    throw new StoreUrlError('redis+cluster:// takes no path (a Cluster has one database): redis+cluster://host:port[,host:port…]');
  return { topology: 'cluster', nodes: hosts.map((h, i) => endpoint(h, undefined, nth(i, hosts.length))), ...auth };
}
