/**
 * The constructs of published contracts, at work in the runtime: a contract
 * of test/fixtures/corpus/ generated and loaded (as the mock loads it),
 * served with handlers of the test's own, and called with SOAP envelopes.
 * SOAP headers reach the handler typed and its out headers the answer;
 * mustUnderstand is honoured for the blocks an operation reads and refused
 * for others; a declared fault is answered with its detail; rpc/literal
 * reads the operation's wrapper; a derived value keeps its xsi:type.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyOperations, loadContract } from '../../../codegen/harness/load-generated';
import type { Call, ContractDefinition, Handlers } from '../../../src/runtime/definition';
import { HOST_SETTINGS, serveContract } from '../../../src/runtime/host';
import { SOAP11, soapEnvelope } from '../../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../../src/runtime/xml/xml-escape';
import { loadXmlEngine, xml } from '../../../src/runtime/xml/xml-engine';

const CORPUS = join(__dirname, '..', '..', 'fixtures', 'corpus');
const work = mkdtempSync(join(tmpdir(), 'contract-constructs-'));
const closers: (() => Promise<void>)[] = [];
test.after.always(async () => {
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

/** The classes of a generated folder, by name. */
type Classes = Record<string, new (...args: never[]) => object>;

async function serve(
  wsdl: string,
  handlers: (definition: ContractDefinition<AnyOperations>, types: Classes) => Partial<Handlers<AnyOperations>>,
) {
  await loadXmlEngine();
  const { definition, folder } = await loadContract(join(CORPUS, wsdl), { folder: mkdtempSync(join(work, 'g-')) });
  const types = require(join(folder, 'types.js')) as Classes;
  const all: Record<string, unknown> = {};
  for (const name of definition.operationNames) all[name] = async () => definition.routes[name].sampleResult();
  Object.assign(all, handlers(definition, types));
  // The host's defaults (its limits and timeouts), on a free loopback port, silent.
  const listener = await serveContract(definition, all as Handlers<AnyOperations>, {
    ...HOST_SETTINGS.defaults(),
    port: 0,
    logLevel: 'silent',
  });
  closers.push(() => listener.close());
  const ns = escapeXmlAttribute(definition.targetNamespace);
  const call = async (operation: string, header?: string, request?: unknown) => {
    const route = definition.routes[operation];
    const answer = await fetch(`${listener.url}${definition.endpointPath}`, {
      method: 'POST',
      headers: {
        'Content-Type': SOAP11.contentType,
        SOAPAction: `"${route.soapActions?.soap11 ?? definition.targetNamespace + route.soapActionSuffix}"`,
      },
      body: soapEnvelope(SOAP11, route.encodeSoapRequest(request ?? route.sampleRequest(), ns), header),
    });
    return { status: answer.status, text: await answer.text() };
  };
  return { definition, call, ns };
}

test.serial('SOAP headers: the handler gets the in headers typed, sets the out headers, and they are written in the Header', async (t) => {
  let seen: unknown;
  const { definition, call, ns } = await serve('ssrs-ReportExecution2005/ssrs-ReportExecution2005.wsdl', (d) => ({
    LoadReport: async (_request: unknown, { headers }: Call) => {
      seen = (headers.in as Record<string, unknown>).TrustedUserHeader;
      (headers.out as Record<string, unknown>).ExecutionHeader = (
        d.routes.LoadReport.sampleHeaders!().out as Record<string, unknown>
      ).ExecutionHeader;
      return d.routes.LoadReport.sampleResult();
    },
  }));
  const route = definition.routes.LoadReport;
  const sent = route.encodeSoapRequestHeaders!(route.sampleHeaders!().in, ns);
  t.regex(sent, /^<(\w+:)?TrustedUserHeader /);
  const answer = await call('LoadReport', sent);
  t.is(answer.status, 200, answer.text);
  t.is((seen as { constructor: { name: string } }).constructor.name, 'TrustedUserHeader');
  t.deepEqual((seen as { UserName?: string }).UserName, 'string');
  t.regex(
    answer.text,
    /<soap:Header><(\w+:)?ExecutionHeader [^>]*><(\w+:)?ExecutionID>string<\/(\w+:)?ExecutionID><\/(\w+:)?ExecutionHeader><\/soap:Header>/,
  );
});

test.serial('mustUnderstand: a block an operation reads is understood; any other is a MustUnderstand fault', async (t) => {
  const { definition, call, ns } = await serve('ssrs-ReportExecution2005/ssrs-ReportExecution2005.wsdl', () => ({}));
  const route = definition.routes.LoadReport;
  const understood = route.encodeSoapRequestHeaders!(route.sampleHeaders!().in, ns).replace(/^<([\w:]+)/, '<$1 soap:mustUnderstand="1"');
  t.is((await call('LoadReport', understood)).status, 200);
  const unknown = await call('LoadReport', '<x:Trace soap:mustUnderstand="1" xmlns:x="urn:example:trace" />');
  t.is(unknown.status, 500);
  t.regex(
    unknown.text,
    /<faultcode>soap:MustUnderstand<\/faultcode><faultstring>The header block Trace is not understood by this service\.<\/faultstring>/,
  );
});

test.serial('a declared fault a handler throws is a soap:Server fault whose detail is its element, valid against the schema', async (t) => {
  const { call } = await serve('lnp-NumberManagement/NumberManagement.wsdl', (_d, types) => ({
    cancelPortingOrder: async () => {
      const Fault = types.NumberManagementErrorFault as unknown as new (detail: object, message: string) => Error;
      const Detail = types.NumberManagementError as unknown as new (fields: object) => object;
      throw new Fault(new Detail({ errorCode: 'E1', errorMessage: 'no such order' }), 'The order cannot be cancelled.');
    },
  }));
  const answer = await call('cancelPortingOrder');
  t.is(answer.status, 500);
  t.regex(
    answer.text,
    /<faultcode>soap:Server<\/faultcode><faultstring>The order cannot be cancelled\.<\/faultstring><detail><ns\d:NumberManagementError [^>]*>/,
  );
});

test.serial('rpc/literal: the call is the operation-named wrapper in the body namespace, its accessors unqualified', async (t) => {
  const { definition, call, ns } = await serve('lnp-NumberManagement/NumberManagement.wsdl', () => ({}));
  const route = definition.routes.getPortingOrderStatus;
  const body = route.encodeSoapRequest(route.sampleRequest(), ns);
  t.regex(
    body,
    /^<tns:getPortingOrderStatus xmlns:tns="http:\/\/localhost\/soap\/version_1\/number"[^>]*><orderId>0<\/orderId><\/tns:getPortingOrderStatus>$/,
  );
  const answer = await call('getPortingOrderStatus');
  t.is(answer.status, 200, answer.text);
  t.regex(answer.text, /<soap:Body><tns:getPortingOrderStatusResponse [^>]*><portingOrderStatus>/);
});

test.serial('a derived value where its base is declared is written with xsi:type and read back as the derived class', async (t) => {
  await loadXmlEngine();
  const { definition } = await loadContract(join(CORPUS, 'aplix-DeliveryService', 'aplix-DeliveryService.wsdl'), {
    folder: mkdtempSync(join(work, 'g-')),
  });
  const route = definition.routes.createShipper;
  const written = route.encodeSoapRequest(route.sampleRequest(), 'urn:x');
  t.regex(written, /xsi:type="ns\d:[^"]+"/, 'the abstract type is filled with a derived one, named by xsi:type');
  const doc = xml().XmlDocument.fromString(written);
  try {
    const back = route.decodeXml(doc.root) as object;
    t.is(route.encodeSoapRequest(back as never, 'urn:x'), written, 'read back and written again, the same XML');
  } finally {
    doc.dispose();
  }
});
