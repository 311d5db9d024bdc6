/**
 * A real SOAP client, the npm `soap` package, built from the WSDL we serve:
 * Pair and ValidatePin over the SOAP 1.1 port and the SOAP 1.2 port, and a
 * client error reaching it as a SOAP fault that carries our faultstring.
 */
import test, { type ExecutionContext } from 'ava';
import * as soap from 'soap';
import { totp } from '../../src/service/otp/totp';
import { startTestService, type TestService } from '../support/service';
import { DEFAULT_NAMESPACE, SOAP_CONTENT_TYPES, assertSoapEnvelope, type SoapVersionName } from '../support/xml-assertions';
import { DEFAULT_TOTP, readFault } from '../support/requests';
import { namespaceOf } from '../support/readers';

/** A fixed instant, 22.345 s into its 30-second step. */
const NOW = 1_750_000_012_345;

let service: TestService;

test.before(async () => {
  service = await startTestService();
  service.clock.set(NOW);
});

test.after.always(async () => {
  await service?.close();
});

type Callback = (error: unknown, result: unknown) => void;
type PortMethod = (args: object, callback: Callback) => void;
interface Port {
  Pair: PortMethod;
  ValidatePin: PortMethod;
}

/** The SOAP fault as npm soap exposes it: the parsed answer on `root`, the HTTP response on `response`. */
interface SoapClientError extends Error {
  root?: { Envelope?: { Body?: { Fault?: Record<string, unknown> } } };
  response?: { status: number };
  body?: string;
}

const PORTS: Record<SoapVersionName, string> = { '1.1': 'AuthenticatorAPISoap', '1.2': 'AuthenticatorAPISoap12' };

async function clientFor(version: SoapVersionName): Promise<{ client: soap.Client; port: Port }> {
  const client = await soap.createClientAsync(`${service.url}/api.asmx?WSDL`, { forceSoap12Headers: version === '1.2' });
  const description = client.describe() as Record<string, Record<string, unknown>>;
  // The SOAP ports only: npm soap skips the HTTP GET and POST bindings.
  if (!description.AuthenticatorAPI?.[PORTS[version]]) throw new Error(`the WSDL has no ${PORTS[version]} port for npm soap`);
  const services = client as unknown as Record<string, Record<string, Port>>;
  return { client, port: services.AuthenticatorAPI[PORTS[version]] };
}

function invoke(port: Port, operation: keyof Port, args: object): Promise<unknown> {
  return new Promise((resolve, reject) => port[operation](args, (error, result) => (error ? reject(error) : resolve(result))));
}

/** The request npm soap really sent: its envelope version, headers and body element. */
function assertRequestWas(t: ExecutionContext, client: soap.Client, version: SoapVersionName, operation: string): void {
  const headers = client.lastRequestHeaders as Record<string, string>;
  assertSoapEnvelope(t, client.lastRequest!, version, (element) => {
    t.is(element.name, operation);
    t.is(namespaceOf(element), DEFAULT_NAMESPACE);
  });
  t.is(client.lastEndpoint, `${service.url}/api.asmx`, 'the address came from the WSDL');
  if (version === '1.1') {
    t.is(headers['Content-Type'], 'text/xml; charset=utf-8');
    t.is(headers.SOAPAction, `"${DEFAULT_NAMESPACE}${operation}"`);
  } else {
    t.is(headers['Content-Type'], `application/soap+xml; charset=utf-8; action="${DEFAULT_NAMESPACE}${operation}"`);
    t.is(headers.SOAPAction as string | undefined, undefined, 'SOAP 1.2 carries the action in the Content-Type, not in SOAPAction');
  }
  const responseHeaders = client.lastResponseHeaders as Record<string, string>;
  t.is(responseHeaders['content-type'], SOAP_CONTENT_TYPES[version]);
}

let counter = 0;
const freshSecret = () => `soap-client-${++counter}-secret`;
const pinFor = (secret: string, steps = 0) =>
  totp(Buffer.from(secret, 'utf8'), DEFAULT_TOTP, Math.floor(NOW / 1000) + steps * DEFAULT_TOTP.period);

for (const version of ['1.1', '1.2'] as const) {
  test(`SOAP ${version} port: Pair answers the reference ManualSetupCode and the Html`, async (t) => {
    const { client, port } = await clientFor(version);
    const result = (await invoke(port, 'Pair', { appName: 'Soap Client', appInfo: 'frank@example.com', secretCode: '12345678BXYT' })) as {
      PairResult: { ManualSetupCode: string; Html: string };
    };
    assertRequestWas(t, client, version, 'Pair');
    t.is(result.PairResult.ManualSetupCode, 'GEZDGNBVGY3TQQSYLFKA');
    t.true(result.PairResult.Html.startsWith("<a title='Manually pair with GEZDGNBVGY3TQQSYLFKA' href='otpauth://totp/"));
  });

  test(`SOAP ${version} port: ValidatePin answers true for the current PIN and false for a wrong one`, async (t) => {
    const { client, port } = await clientFor(version);
    const secret = freshSecret();
    const right = (await invoke(port, 'ValidatePin', { pin: pinFor(secret), secretCode: secret })) as { ValidatePinResult: unknown };
    assertRequestWas(t, client, version, 'ValidatePin');
    t.is(right.ValidatePinResult, true);

    const near = new Set([-2, -1, 0, 1, 2].map((s) => pinFor(secret, s)));
    let wrong = Number(pinFor(secret));
    do wrong = (wrong + 1) % 1_000_000;
    while (near.has(String(wrong).padStart(6, '0')));
    const refused = (await invoke(port, 'ValidatePin', { pin: String(wrong).padStart(6, '0'), secretCode: secret })) as {
      ValidatePinResult: unknown;
    };
    t.is(refused.ValidatePinResult, false);
  });

  test(`SOAP ${version} port: a missing secretCode reaches the client as a SOAP fault with our faultstring`, async (t) => {
    const { client, port } = await clientFor(version);
    const error = await t.throwsAsync<SoapClientError>(invoke(port, 'ValidatePin', { pin: '123456' }));
    assertRequestWas(t, client, version, 'ValidatePin');
    t.is(error?.response?.status, 500, 'the fault came in an HTTP 500 answer, as from ASMX');
    const fault = error?.root?.Envelope?.Body?.Fault;
    t.truthy(fault, 'npm soap parsed a SOAP fault (not a transport error)');

    // What the service answers to the very request the client sent.
    const direct = await fetch(client.lastEndpoint!, {
      method: 'POST',
      headers: client.lastRequestHeaders as Record<string, string>,
      body: client.lastRequest,
    });
    const ours = readFault(await direct.text(), version);
    t.true(ours.reason.includes('secretCode'), ours.reason);

    if (version === '1.1') {
      t.is(fault?.faultcode, 'soap:Client');
      t.is(fault?.faultstring, ours.reason);
    } else {
      const code = fault?.Code as { Value?: string } | undefined;
      const text = (fault?.Reason as { Text?: { $value?: string } | string } | undefined)?.Text;
      t.is(code?.Value, 'soap:Sender');
      t.is(typeof text === 'string' ? text : text?.$value, ours.reason);
    }
    t.true(error!.message.includes(ours.reason), `the error message carries the faultstring: ${error!.message}`);
  });
}
