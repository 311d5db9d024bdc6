/**
 * The peer: the npm `soap` package's server hosting our WSDL, with ValidatePin of the same semantics as ours — the
 * same TOTP, field checks and ValidatePin logic over an in-memory replay/throttle store of the same bound — so that
 * the benchmark compares the SOAP stacks, not the business logic. SOAP 1.1 ValidatePin only: what the goal compares
 * (the npm soap server has no HTTP GET/POST bindings).
 *
 *   node --import=tsx bench/peers/soap-peer.ts --port P
 */
import { createServer } from 'node:http';
import * as soap from 'soap';
import { defaultConfig, type Config } from '../../src/service/config';
import { ServiceError } from '../../src/runtime/errors';
import { checkPin } from '../../src/service/handlers/validate-pin';
import { createStateKeyHasher } from '../../src/service/state/keyed-hash';
import { MemoryStore } from '../../src/service/state/memory-store';
import { renderWsdl } from '../../generated/documents';
import { ValidatePin } from '../../generated/types';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const config: Config = defaultConfig();
const store = new MemoryStore(config.storeMaxEntries);
const state = { store, stateKeyOf: createStateKeyHasher(undefined) };

/** A SOAP 1.1 fault, as the soap package writes one. */
function fault(error: unknown): { Fault: object } {
  const known = error instanceof ServiceError;
  const client = known && (error.kind === 'client' || error.kind === 'throttled');
  const text = known ? error.message : 'The service failed to process the request.';
  return { Fault: { faultcode: client ? 'soap:Client' : 'soap:Server', faultstring: text, statusCode: 500 } };
}

async function validate(args: { pin?: string; secretCode?: string }): Promise<object> {
  try {
    const ok = await checkPin(new ValidatePin({ pin: args.pin, secretCode: args.secretCode }), config, Date.now(), state);
    return { ValidatePinResult: ok };
  } catch (error) {
    throw fault(error);
  }
}

const operations = { ValidatePin: validate };
const services = { AuthenticatorAPI: { AuthenticatorAPISoap: operations, AuthenticatorAPISoap12: operations } };

const server = createServer((_req, res) => {
  res.statusCode = 404;
  res.end();
});
server.listen(port, '127.0.0.1', () => {
  const wsdl = renderWsdl('http://authenticatorapi.com/', `http://127.0.0.1:${port}/api.asmx`);
  soap.listen(server, { path: '/api.asmx', services, xml: wsdl });
  process.stdout.write(`soap peer listening on ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
