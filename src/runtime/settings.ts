/**
 * Settings as one table: each row a flag, an environment variable, a
 * default, a kind of value and a line of help, from which parsing, --help
 * and the docs' table are all derived. Unknown or invalid settings stop
 * start-up with one line naming the setting (ConfigError). The kinds of
 * value every service needs (numbers, yes/no, addresses, URLs) are here; a
 * service adds its own.
 */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { serviceLinkTest } from './service-links';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A kind of value: how a setting's text becomes its value, and the accepted values as --help and the docs describe them. */
export interface ValueType<T> {
  readonly values: string;
  parse(text: string): T;
  /** A yes/no value: its flag may stand alone (`--trust-proxy` is `--trust-proxy true`). */
  readonly yesNo?: boolean;
}

export const oneOf = <T extends string>(...allowed: T[]): ValueType<T> => ({
  values: allowed.join('|'),
  parse(text) {
    const found = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
    if (!found) throw new ConfigError(`must be one of ${allowed.join(', ')}`);
    return found;
  },
});

export const integer = (min: number, max: number): ValueType<number> => ({
  values: `${min}-${max}`,
  parse(text) {
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) throw new ConfigError(`must be a whole number from ${min} to ${max}`);
    return value;
  },
});

export const digits = (...allowed: number[]): ValueType<number> => {
  const words = oneOf(...allowed.map(String));
  return { values: words.values, parse: (text) => Number(words.parse(text)) };
};

export const yesNo: ValueType<boolean> = {
  values: 'true|false',
  yesNo: true,
  parse(text) {
    if (/^(1|true|yes|on)$/i.test(text)) return true;
    if (/^(0|false|no|off)$/i.test(text)) return false;
    throw new ConfigError('must be true or false');
  },
};

/** A setting with no default: absent unless given. */
export const optional = <T>(type: ValueType<T>): ValueType<T | undefined> => type;

export function absoluteUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('must be an absolute URI');
  }
  if (!url.protocol || text !== text.trim()) throw new ConfigError('must be an absolute URI');
  return url;
}

export const namespaceUri: ValueType<string> = {
  values: 'absolute URI ending in /',
  parse(text) {
    absoluteUrl(text);
    if (!text.endsWith('/')) throw new ConfigError('must end with /');
    return text;
  },
};

export const publicUrl: ValueType<string> = {
  values: 'http(s) URL',
  parse(text) {
    absoluteUrl(text);
    if (!/^https?:\/\//i.test(text)) throw new ConfigError('must be an http:// or https:// URL');
    return text.replace(/\/+$/, '');
  },
};

/** An IPv4 or IPv6 address, or a host name (RFC 1123); dotted numbers must be a real IPv4 address. */
export const listenHost: ValueType<string> = {
  values: 'address',
  parse(text) {
    if (isIP(text)) return text;
    const hostName = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
    if (/^[\d.]+$/.test(text) || !hostName.test(text)) throw new ConfigError('must be an IP address or a host name');
    return text;
  },
};

/** One row of a settings table. */
export interface SettingSpec<T> {
  readonly flag: string;
  /** The environment variable; none: the setting is read from the command line only. */
  readonly env?: string;
  readonly default: T;
  readonly type: ValueType<T>;
  readonly help: string;
}

/** A row, typed by its kind of value (the default must be one of its values). */
export const setting = <T>(spec: Omit<SettingSpec<T>, 'default'> & { readonly default: NoInfer<T> }): SettingSpec<T> => spec;

/** The values of a table's settings, one per row. */
export type SettingValues<Table> = { [K in keyof Table]: Table[K] extends SettingSpec<infer T> ? T : never };

/** A table's rows in order, each with its key and the description of its values. */
export type SettingRow<Table> = {
  [K in keyof Table & string]: { key: K; values: string } & SettingSpec<SettingValues<Table>[K]>;
}[keyof Table & string];

export interface SettingsTable<Values> {
  readonly rows: readonly SettingRow<{ [K in keyof Values]: SettingSpec<Values[K]> }>[];
  defaults(): Values;
  /**
   * Reads flags (`--name value` or `--name=value`; a yes/no flag may stand
   * alone) and environment variables over the defaults; a flag wins. An
   * environment variable that starts with `envPrefix` and is no row's is
   * refused, with the nearest row's name, so that a misspelt setting is never
   * ignored; Kubernetes' service links under the prefix are not settings and
   * are left out (`serviceLinks` names them). Throws ConfigError with one
   * line naming the setting.
   */
  parse(argv: readonly string[], env: NodeJS.ProcessEnv, envPrefix?: string): Values;
  /**
   * The variables under `envPrefix` that `parse` leaves out as Kubernetes
   * service links (service-links.ts), a row's own variable among them when
   * it holds a service link's value (`PIN_PORT=tcp://10.0.0.1:8080`), sorted.
   */
  serviceLinks(env: NodeJS.ProcessEnv, envPrefix: string): string[];
}

/** Edits between two names (insert, delete, replace, swap two neighbours): optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The known name nearest to a misspelt one, case aside, when it is near enough
 * to be what was meant (at most 2 edits, and fewer than a third of its length).
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toUpperCase(), candidate.toUpperCase());
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= 2 && best.distance * 3 < best.name.length ? best.name : undefined;
}

/** `unknown setting PIN_PROT; did you mean PIN_PORT?`, or with no name near: `… (see --help)`. */
function unknown(what: string, name: string, known: Iterable<string>): ConfigError {
  const near = nearestName(name, known);
  return new ConfigError(`unknown ${what} ${name}${near ? `; did you mean ${near}?` : ' (see --help)'}`);
}

export function settingsTable<Table extends Record<string, SettingSpec<unknown>>>(table: Table): SettingsTable<SettingValues<Table>> {
  type Values = SettingValues<Table>;
  const rows = Object.keys(table).map((key) => ({ key, ...table[key], values: table[key].type.values }));
  const defaults = (): Values => Object.fromEntries(rows.map((row) => [row.key, row.default])) as Values;
  const variables = rows.flatMap((row) => (row.env === undefined ? [] : [row.env]));
  const byFlag = new Map(rows.map((row) => [row.flag, row]));
  // Each row's flag as parseArgs names it (`--port` → `port`): a yes/no row takes no value of its own.
  const parseOptions = Object.fromEntries(
    rows.map((row) => [row.flag.replace(/^--/, ''), { type: row.type.yesNo ? ('boolean' as const) : ('string' as const) }]),
  );
  const serviceLinks = (env: NodeJS.ProcessEnv, envPrefix: string): string[] => {
    const isServiceLink = serviceLinkTest(envPrefix);
    return Object.keys(env)
      .filter((name) => name.startsWith(envPrefix) && isServiceLink(name, env[name] ?? ''))
      .sort();
  };
  return {
    rows: rows as unknown as SettingsTable<Values>['rows'],
    defaults,
    serviceLinks,
    parse(argv, env, envPrefix) {
      const values: Record<string, unknown> = defaults();
      const links = new Set(envPrefix === undefined ? [] : serviceLinks(env, envPrefix));
      if (envPrefix !== undefined) {
        const known = new Set(variables);
        for (const name of Object.keys(env)) {
          if (name.startsWith(envPrefix) && !known.has(name) && !links.has(name)) throw unknown('setting', name, variables);
        }
      }
      const apply = (row: (typeof rows)[number], source: string, text: string) => {
        try {
          values[row.key] = row.type.parse(text);
        } catch (error) {
          throw new ConfigError(`invalid ${source}: ${(error as Error).message}`);
        }
      };
      for (const row of rows) {
        const value = row.env === undefined || links.has(row.env) ? undefined : env[row.env];
        if (value !== undefined && value !== '') apply(row, row.env!, value);
      }
      // node:util's parseArgs splits the arguments (`--name value`, `--name=value`, `--`); the table gives them meaning.
      // A yes/no row is a boolean option, so that it may stand alone; a value after it is its own token, taken here.
      const { tokens } = parseArgs({ args: [...argv], options: parseOptions, strict: false, allowPositionals: true, tokens: true });
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i];
        const flag = token.kind === 'option' ? token.rawName : token.kind === 'positional' ? token.value : '--';
        const row = token.kind === 'option' ? byFlag.get(flag) : undefined;
        if (token.kind !== 'option' || !row)
          throw unknown(
            'argument',
            flag,
            rows.map((x) => x.flag),
          );
        let value = token.value;
        if (value === undefined && row.type.yesNo) {
          // `--trust-proxy` is `--trust-proxy true`; `--trust-proxy false` gives its value as the next argument.
          const next = tokens[i + 1];
          if (next?.kind === 'positional' && next.index === token.index + 1) {
            value = next.value;
            i++;
          } else value = 'true';
        }
        if (value === undefined) throw new ConfigError(`${flag} needs a value (${row.values})`);
        apply(row, flag, value);
      }
      return values as Values;
    },
  };
}
