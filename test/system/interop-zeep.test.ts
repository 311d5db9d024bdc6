/**
 * Python zeep (Debian python3-zeep), built from the WSDL we serve, over each
 * of its four ports: the reference ManualSetupCodes, PINs true once and false
 * when wrong or replayed, and every client error (throttling included) as a
 * zeep.exceptions.Fault carrying our faultstring, never a transport error.
 */
import test from 'ava';
import { join } from 'node:path';
import { CLIENTS_DIR, PYTHON, requireTool, runJsonClient, runScenario, type CallResult } from './clients/harness';

const PORTS = [
  { port: 'AuthenticatorAPISoap', variant: 'soap11', title: 'SOAP 1.1', faultCode: 'soap:Client' },
  { port: 'AuthenticatorAPISoap12', variant: 'soap12', title: 'SOAP 1.2', faultCode: 'soap:Sender' },
  // zeep's HTTP bindings raise Fault(body) for any answer that is not 200, without a code.
  { port: 'AuthenticatorAPIHttpGet', variant: 'httpGet', title: 'HTTP GET', faultCode: null },
  { port: 'AuthenticatorAPIHttpPost', variant: 'httpPost', title: 'HTTP POST', faultCode: null },
] as const;

test.before(() => {
  requireTool(PYTHON, ['-c', 'import zeep'], 'python3-zeep');
});

for (const { port, variant, title, faultCode } of PORTS) {
  test.serial(`zeep, ${title} port (${port}): Pair, ValidatePin and faults`, (t) =>
    runScenario(
      t,
      `zeep-${variant}`,
      variant,
      async (service, calls) =>
        (
          await runJsonClient<{ results: CallResult[] }>(PYTHON, [join(CLIENTS_DIR, 'zeep_client.py')], {
            wsdl: `${service.url}/api.asmx?WSDL`,
            port,
            calls,
          })
        ).results,
      (result, what) => {
        t.is(result.fault?.type, 'zeep.exceptions.Fault', `${what}: ${JSON.stringify(result)}`);
        t.is(result.fault?.code, faultCode, what);
        return result.fault?.message;
      },
    ),
  );
}
