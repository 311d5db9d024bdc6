/**
 * The ceiling: a bare Koa app that answers every request with one fixed, pre-built ValidatePin SOAP 1.1 response
 * (no routing, body reading, parsing or logging): the best this HTTP stack and load generator reach here. With
 * `--workers N`, N worker threads listen on the port with SO_REUSEPORT, as ours does: what N event loops cost with
 * no service work at all.
 *
 *   node --import=tsx bench/peers/ceiling.ts --port P [--workers N]
 */
import { createServer } from 'node:http';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import Koa from 'koa';

const option = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const port = option('--port', 8082);
const workers = option('--workers', 1);

const RESPONSE = Buffer.from(
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>' +
    '<ValidatePinResponse xmlns="http://authenticatorapi.com/"><ValidatePinResult>false</ValidatePinResult>' +
    '</ValidatePinResponse></soap:Body></soap:Envelope>',
  'utf8',
);

const app = new Koa();
app.use((ctx) => {
  ctx.type = 'text/xml; charset=utf-8';
  ctx.body = RESPONSE;
});

if (workers > 1 && isMainThread) {
  let listening = 0;
  for (let n = 0; n < workers; n++) {
    const worker = new Worker(__filename, { argv: process.argv.slice(2) });
    worker.on('message', () => {
      if (++listening === workers) process.stdout.write(`ceiling listening on ${port} (${workers} threads)\n`);
    });
  }
  process.on('SIGTERM', () => process.exit(0));
} else {
  const server = createServer(app.callback());
  server.listen({ port, host: '127.0.0.1', reusePort: workers > 1 }, () => {
    if (isMainThread) process.stdout.write(`ceiling listening on ${port}\n`);
    else parentPort?.postMessage('listening');
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
