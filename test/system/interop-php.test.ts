/**
 * PHP's SoapClient (Debian php-cli, php-soap), built from the WSDL we serve,
 * with SOAP_1_1 and SOAP_1_2: the reference ManualSetupCodes, PINs true once
 * and false when wrong or replayed, and every client error (throttling
 * included) as a SoapFault carrying our faultstring. SoapClient speaks SOAP
 * only; it ignores the WSDL's HTTP GET and POST ports.
 */
import test from 'ava';
import { join } from 'node:path';
import { CLIENTS_DIR, requireTool, runJsonClient, runScenario, type CallResult } from './clients/harness';

const VERSIONS = [
  { soapVersion: '1.1', constant: 'SOAP_1_1', variant: 'soap11', faultCode: 'soap:Client' },
  { soapVersion: '1.2', constant: 'SOAP_1_2', variant: 'soap12', faultCode: 'soap:Sender' },
] as const;

test.before(() => {
  requireTool('php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'], 'php-cli php-soap');
});

for (const { soapVersion, constant, variant, faultCode } of VERSIONS) {
  test.serial(`PHP SoapClient, ${constant}: Pair, ValidatePin and faults`, (t) =>
    runScenario(
      t,
      `php-${variant}`,
      variant,
      async (service, calls) =>
        (
          await runJsonClient<{ results: CallResult[] }>('php', [join(CLIENTS_DIR, 'soapclient.php')], {
            wsdl: `${service.url}/api.asmx?WSDL`,
            soapVersion,
            calls,
          })
        ).results,
      (result, what) => {
        t.is(result.fault?.type, 'SoapFault', `${what}: ${JSON.stringify(result)}`);
        t.is(result.fault?.code, faultCode, what);
        return result.fault?.message;
      },
    ),
  );
}
