/**
 * The settings of a contract's listener and app as rows of a settings table
 * (settings.ts): where it listens, the contract's namespace and public URL,
 * the proxy in front of it, the body limit, the listener's timeouts
 * (listener.ts) and the log level. Every host takes its rows from here: a
 * contract served on its own (HOST_SETTINGS) as they are; a service with a
 * table of its own (src/service/config.ts) places them among its rows, with
 * its environment variables and the defaults it chooses.
 */
import { integer, listenHost, namespaceUri, oneOf, optional, publicUrl, setting, settingsTable, yesNo } from './settings';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';

/** What a host chooses of its listener's rows. */
export interface ListenerSettingChoices {
  /** Each row's environment variable is the prefix, then its flag in capitals (`PIN_` and `--max-body-bytes`: `PIN_MAX_BODY_BYTES`); none: flags only. */
  envPrefix?: string;
  /** The address listened on by default (127.0.0.1). */
  host?: string;
  /** The body limit's default and the largest it may be set to (1 MiB, and 64 MiB). */
  maxBodyBytes?: { default: number; max: number };
  /** The namespace --namespace defaults to, named in its help (the generated contract's TARGET_NAMESPACE). */
  targetNamespace?: string;
}

/** The listener's rows, by the keys the runtime reads them by (HostSettings), as `choices` say. */
export function listenerSettings(choices: ListenerSettingChoices = {}) {
  const { envPrefix, host = '127.0.0.1', maxBodyBytes = { default: 1048576, max: 67108864 }, targetNamespace } = choices;
  const env = (flag: string) => (envPrefix === undefined ? {} : { env: `${envPrefix}${flag.slice(2).toUpperCase().replaceAll('-', '_')}` });
  return {
    port: setting({ flag: '--port', ...env('--port'), default: 8080, type: integer(0, 65535), help: 'TCP port to listen on' }),
    host: setting({ flag: '--host', ...env('--host'), default: host, type: listenHost, help: 'address to listen on' }),
    namespace: setting({
      flag: '--namespace',
      ...env('--namespace'),
      default: undefined,
      type: optional(namespaceUri),
      help: `XML namespace of the contract (WSDL, validation, SOAPAction); default: the WSDL's targetNamespace${targetNamespace === undefined ? '' : ` (${targetNamespace})`}`,
    }),
    publicUrl: setting({
      flag: '--public-url',
      ...env('--public-url'),
      default: undefined,
      type: optional(publicUrl),
      help: 'base URL written into the WSDL addresses (default: from the request)',
    }),
    trustProxy: setting({
      flag: '--trust-proxy',
      ...env('--trust-proxy'),
      default: false,
      type: yesNo,
      help: "behind a proxy: the caller's address is the last X-Forwarded-For entry, the public host and scheme X-Forwarded-Host/-Proto",
    }),
    maxBodyBytes: setting({
      flag: '--max-body-bytes',
      ...env('--max-body-bytes'),
      default: maxBodyBytes.default,
      type: integer(1024, maxBodyBytes.max),
      help: 'largest request body accepted (larger: 413)',
    }),
    headersTimeoutMs: setting({
      flag: '--headers-timeout',
      ...env('--headers-timeout'),
      default: 10000,
      type: integer(100, 300000),
      help: "milliseconds a client has to send a request's headers, from its connection or the request's first byte (then 408, closed)",
    }),
    requestTimeoutMs: setting({
      flag: '--request-timeout',
      ...env('--request-timeout'),
      default: 30000,
      type: integer(100, 3600000),
      help: 'milliseconds a client has to send a whole request, headers and body (then 408, closed)',
    }),
    keepAliveTimeoutMs: setting({
      flag: '--keep-alive-timeout',
      ...env('--keep-alive-timeout'),
      default: 5000,
      type: integer(100, 600000),
      help: 'milliseconds an idle kept-alive connection waits for its next request before it is closed',
    }),
    logLevel: setting({
      flag: '--log-level',
      ...env('--log-level'),
      default: 'info',
      type: oneOf<LogLevel>('fatal', 'error', 'warn', 'info', 'debug', 'silent'),
      help: 'least severe log level written',
    }),
  };
}

/** The settings of a contract served on its own (contract-server.ts): the listener's rows as they are, flags only. */
export const HOST_SETTINGS = settingsTable(listenerSettings());

export type HostSettings = ReturnType<typeof HOST_SETTINGS.defaults>;
