/**
 * Settings as one table: each row a flag, an environment variable, a
 * default, a kind of value and a line of help, from which parsing, --help
 * and the docs' table are all derived. Unknown or invalid settings stop
 * start-up with one line naming the setting (ConfigError). The kinds of
 * value every service needs (numbers, yes/no, addresses, URLs) are here; a
 * service adds its own.
 */
import { isIP } from 'node:net';

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
   * refused, so that a misspelt setting is never ignored. Throws ConfigError
   * with one line naming the setting.
   */
  parse(argv: readonly string[], env: NodeJS.ProcessEnv, envPrefix?: string): Values;
}

export function settingsTable<Table extends Record<string, SettingSpec<unknown>>>(table: Table): SettingsTable<SettingValues<Table>> {
  type Values = SettingValues<Table>;
  const rows = Object.keys(table).map((key) => ({ key, ...table[key], values: table[key].type.values }));
  const defaults = (): Values => Object.fromEntries(rows.map((row) => [row.key, row.default])) as Values;
  return {
    rows: rows as unknown as SettingsTable<Values>['rows'],
    defaults,
    parse(argv, env, envPrefix) {
      const values: Record<string, unknown> = defaults();
      if (envPrefix !== undefined) {
        const known = new Set(rows.map((row) => row.env));
        for (const name of Object.keys(env)) {
          if (name.startsWith(envPrefix) && !known.has(name)) throw new ConfigError(`unknown setting ${name} (see --help)`);
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
        const value = row.env === undefined ? undefined : env[row.env];
        if (value !== undefined && value !== '') apply(row, row.env!, value);
      }
      for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
        const row = rows.find((x) => x.flag === flag);
        if (!row) throw new ConfigError(`unknown argument ${flag} (see --help)`);
        let value = inline;
        if (value === undefined) {
          // A yes/no flag may stand alone: `--trust-proxy` is `--trust-proxy true`.
          if (row.type.yesNo && (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))) value = 'true';
          else value = argv[++i];
        }
        if (value === undefined) throw new ConfigError(`${flag} needs a value (${row.values})`);
        apply(row, flag, value);
      }
      return values as Values;
    },
  };
}
