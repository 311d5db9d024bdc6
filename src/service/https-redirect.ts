/**
 * --http-port with --tls-cert: a plain HTTP listener that serves nothing but
 * a redirect to the same path on HTTPS, so that a browser or a WSDL import
 * given an http:// address lands on TLS. No call is ever answered in clear.
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from './config';
import { HOST_HEADER } from '../runtime/host';

/** Where a request to the plain port belongs: the same host, the HTTPS port (left out when 443), path and query. */
export function httpsLocation(host: string | undefined, path: string, httpsPort: number): string | undefined {
  if (!host || !HOST_HEADER.test(host) || !path.startsWith('/')) return undefined;
  const name = host.replace(/:\d+$/, '');
  return `https://${name}${httpsPort === 443 ? '' : `:${httpsPort}`}${path}`;
}

/** Listens on `host`:`httpPort` (the service's connection limits apply; `reusePort`: beside other worker threads) and redirects every request to `httpsPort`. */
export async function listenForHttpsRedirects(
  limits: ServerOptions,
  host: string,
  httpPort: number,
  httpsPort: number,
  reusePort = false,
): Promise<{ server: Server; port: number }> {
  const server = createServer(limits, (req: IncomingMessage, res: ServerResponse) => {
    // One answer per connection: nothing to drain when the service stops.
    res.setHeader('Connection', 'close');
    const location = httpsLocation(req.headers.host, req.url ?? '', httpsPort);
    if (!location) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('The Host header is not a valid host name.\n');
      return;
    }
    res.writeHead(301, { Location: location, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('This service answers over HTTPS only.\n');
  });
  await new Promise<void>((resolve, reject) => {
    // The flag is the user's: say which port (the service's own failures name --port).
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new ConfigError(`--http-port ${httpPort}: already in use on ${host}`));
      else if (error.code === 'EACCES')
        reject(new ConfigError(`--http-port ${httpPort}: not allowed for this user (ports below 1024 need privileges)`));
      else reject(error);
    });
    server.listen({ port: httpPort, host, reusePort }, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
