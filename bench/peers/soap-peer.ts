/**
 * The peer: the npm `soap` package's server hosting our WSDL, with Pair and
 * ValidatePin of the same semantics as ours — the same TOTP, Base32 and
 * otpauth functions, the same field checks, the same ValidatePin logic over
 * an in-memory replay/throttle store — so that the benchmark compares the
 * SOAP stacks, not the business logic. Pair renders its QR code with the
 * qrcode package's own SVG output (`QRCode.toString(uri, {type: 'svg'})`), as
 * a data URI, in the same HTML fragment.
 *
 * SOAP only (the npm soap server has no HTTP GET/POST bindings). The soap
 * package writes SOAP 1.1 envelopes unless told `forceSoap12Headers`, a
 * server-wide option: `--soap12` starts a peer for the SOAP 1.2 scenario.
 *
 *   node --import=tsx bench/peers/soap-peer.ts --port P [--soap12] [--drift-window N]
 */
import { createServer } from 'node:http';
import * as QRCode from 'qrcode';
import * as soap from 'soap';
import { defaultConfig, type Config } from '../../src/config';
import { ServiceError } from '../../src/runtime/errors';
import { LIMITS, optionalText, presentText, secretKey } from '../../src/handlers/fields';
import { escapeHtml, pairingUri } from '../../src/handlers/pair';
import { checkPin } from '../../src/handlers/validate-pin';
import { encodeBase32 } from '../../src/otp/base32';
import { createStateKeyHasher } from '../../src/state/keyed-hash';
import { MemoryStore } from '../../src/state/memory-store';
import { renderWsdl } from '../../generated/documents';
import { ValidatePin } from '../../generated/types';

function argument(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
}

const port = Number(argument('--port') ?? 8081);
const soap12 = process.argv.includes('--soap12');
const config: Config = { ...defaultConfig(), driftWindow: Number(argument('--drift-window') ?? 1) };
const store = new MemoryStore(config.storeMaxEntries);
const state = { store, stateKeyOf: createStateKeyHasher(undefined) };

/** A SOAP fault the soap package writes: 1.1 style (faultcode) or 1.2 style (Code/Reason). */
function fault(error: unknown): { Fault: object } {
  const known = error instanceof ServiceError;
  const client = known && (error.kind === 'client' || error.kind === 'throttled');
  const text = known ? error.message : 'The service failed to process the request.';
  const Fault = soap12
    ? { Code: { Value: client ? 'soap:Sender' : 'soap:Receiver' }, Reason: { Text: text }, statusCode: 500 }
    : { faultcode: client ? 'soap:Client' : 'soap:Server', faultstring: text, statusCode: 500 };
  return { Fault };
}

interface PairArgs {
  appName?: string;
  appInfo?: string;
  secretCode?: string;
}

async function pair(args: PairArgs): Promise<object> {
  try {
    const key = secretKey(args.secretCode, config.secretEncoding);
    if (key.length < config.minSecretBytes)
      throw new ServiceError('client', `secretCode must be at least ${config.minSecretBytes} bytes long.`);
    const account = presentText('appInfo', args.appInfo, LIMITS.appInfo);
    const issuer = optionalText('appName', args.appName, LIMITS.appName);
    const manualSetupCode = encodeBase32(key);
    const uri = pairingUri(issuer, account, manualSetupCode, config);
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M' });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
    const html =
      `<a title='Manually pair with ${escapeHtml(manualSetupCode)}' href='${escapeHtml(uri)}'>` +
      `<img src='${escapeHtml(src)}' border=0></a>`;
    return { PairResult: { ManualSetupCode: manualSetupCode, Html: html } };
  } catch (error) {
    throw fault(error);
  }
}

async function validate(args: { pin?: string; secretCode?: string }): Promise<object> {
  try {
    const ok = await checkPin(new ValidatePin({ pin: args.pin, secretCode: args.secretCode }), config, Date.now(), state);
    return { ValidatePinResult: ok };
  } catch (error) {
    throw fault(error);
  }
}

const operations = { Pair: pair, ValidatePin: validate };
const services = { AuthenticatorAPI: { AuthenticatorAPISoap: operations, AuthenticatorAPISoap12: operations } };

const server = createServer((_req, res) => {
  res.statusCode = 404;
  res.end();
});
server.listen(port, '127.0.0.1', () => {
  const wsdl = renderWsdl('http://authenticatorapi.com/', `http://127.0.0.1:${port}/api.asmx`);
  soap.listen(server, { path: '/api.asmx', services, xml: wsdl, forceSoap12Headers: soap12 });
  process.stdout.write(`soap peer listening on ${port}${soap12 ? ' (SOAP 1.2 envelopes)' : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
