/** Free TCP ports on the loopback interface, for the servers tests and benchmarks start. */
import { createServer } from 'node:net';

/** A port nothing listens on at the moment of the call: the system picks it, and it is released at once. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
