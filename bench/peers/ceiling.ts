/**
 * The ceiling: a bare Koa app that answers every request (any method, any
 * path) with one fixed, pre-built ValidatePin SOAP 1.1 response. No routing,
 * no body reading, no parsing, no logging: what this HTTP stack and this
 * load generator can do on this machine at best.
 *
 *   node --import=tsx bench/peers/ceiling.ts --port P
 */
import { createServer } from 'node:http';
import Koa from 'koa';

const i = process.argv.indexOf('--port');
const port = Number(i < 0 ? 8082 : process.argv[i + 1]);

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

const server = createServer(app.callback());
server.listen(port, '127.0.0.1', () => process.stdout.write(`ceiling listening on ${port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
