/**
 * Calls over HTTPS trusting a test CA (node:https, so a test can see the
 * certificate the server presented and keep a connection open across calls).
 */
import { type Agent, request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Answer, OutgoingRequest } from './requests';

export interface HttpsAnswer extends Answer {
  /** The serial number of the certificate the server presented on this call's connection. */
  serialNumber: string;
  /** The connection the call went over (to tell a reused one from a new one). */
  socket: TLSSocket;
}

/** Sends `outgoing` to `baseUrl` (https://…), trusting `ca` only; `agent` keeps connections alive between calls. */
export function sendHttps(
  baseUrl: string,
  outgoing: OutgoingRequest,
  options: { ca: string; agent?: Agent; headers?: Record<string, string> },
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}${outgoing.path}`,
      { method: outgoing.method, headers: { ...outgoing.headers, ...options.headers }, ca: options.ca, agent: options.agent ?? false },
      (res) => {
        // Read now: after the end, the socket is detached (kept alive for the next call, or gone).
        const socket = res.socket as TLSSocket;
        const serialNumber = socket.getPeerCertificate().serialNumber;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers,
            contentType: headers.get('content-type') ?? '',
            body: bytes.toString('utf8'),
            bytes,
            serialNumber,
            socket,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(outgoing.body);
  });
}

/** GET `path` over HTTPS. */
export const getHttps = (baseUrl: string, path: string, options: { ca: string; agent?: Agent; headers?: Record<string, string> }) =>
  sendHttps(baseUrl, { method: 'GET', path, headers: {} }, options);
