import { createServer, Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AddressInfo } from 'node:net';

/**
 * Serves the files of one directory on a loopback port, flat (no sub-paths),
 * because cxsd fetches schemas only over HTTP.
 */
export async function serveDirectory(dir: string): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const name = basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    readFile(join(dir, name)).then(
      (data) => res.end(data),
      () => {
        res.statusCode = 404;
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
