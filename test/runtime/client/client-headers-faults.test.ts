/**
 * The generated typed client of a published contract, against the runtime
 * serving it: contracts of test/fixtures/corpus/ generated into a temporary
 * folder, served with handlers of the test's own, and called with their
 * generated client. It sends the SOAP header blocks an operation declares
 * (the client's defaults and the call's own) and hands back those the
 * answer carried, typed; a declared fault arrives as its generated class
 * with its typed detail, an undeclared one as the client's error. Every
 * answer is checked against the SOAP envelope rules and its body, header
 * blocks and fault detail against the contract's schemas.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyOperations, loadContract } from '../../../codegen/harness/load-generated';
import type { Call, ContractDefinition, Handlers } from '../../../src/runtime/definition';
import { DeclaredFault, ServiceError } from '../../../src/runtime/errors';
import { HOST_SETTINGS, serveContract } from '../../../src/runtime/host';
import { loadXmlEngine, type XmlElement, type XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet, firstLibxmlMessage } from '../../../src/runtime/xml/xml-schema';
import { childElements, namespaceOf } from '../../support/readers';
import { WS_HEADER_NAMESPACES, wsHeaderValidator } from '../../support/soap-schemas';
import { SOAP_ENVELOPE_NAMESPACES, type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';

const CORPUS = join(__dirname, '..', '..', 'fixtures', 'corpus');
const work = mkdtempSync(join(tmpdir(), 'client-headers-faults-'));
const closers: (() => Promise<void>)[] = [];
test.after.always(async () => {
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: a generated folder loaded at run time has no static types
type Loaded = Record<string, any>;

/** One exchange as it went over the wire. */
interface Exchange {
  url: string;
  requestHeaders: Record<string, string>;
  request: string;
  status: number;
  answer: string;
}

const contracts = new Map<string, ReturnType<typeof loadContract>>();

/** Each contract generated once for the whole file (generating is the slow part). */
function generated(wsdl: string): ReturnType<typeof loadContract> {
  let contract = contracts.get(wsdl);
  if (!contract) {
    contract = loadContract(join(CORPUS, wsdl), { folder: mkdtempSync(join(work, 'g-')) });
    contracts.set(wsdl, contract);
  }
  return contract;
}

/**
 * Generates a contract (once), serves it with `handlers` (the others answer their
 * sample result), and returns its generated modules, a fetch that records
 * every exchange (and may rewrite an answer), and the schema set.
 */
async function serve(wsdl: string, handlers: (types: Loaded) => Record<string, (request: unknown, call: Call) => Promise<unknown>>) {
  await loadXmlEngine();
  const { definition, folder } = await generated(wsdl);
  const types = require(join(folder, 'types.js')) as Loaded;
  const client = require(join(folder, 'client.js')) as Loaded;
  const documents = require(join(folder, 'documents.js')) as { renderSchemas(namespace: string): Parameters<typeof compileSchemaSet>[0] };
  const all: Record<string, unknown> = {};
  for (const name of definition.operationNames) all[name] = async () => definition.routes[name].sampleResult();
  Object.assign(all, handlers(types));
  // The host's defaults (its limits and timeouts), on a free loopback port, silent.
  const listener = await serveContract(definition, all as Handlers<AnyOperations>, {
    ...HOST_SETTINGS.defaults(),
    port: 0,
    logLevel: 'silent',
  });
  closers.push(() => listener.close());
  const exchanges: Exchange[] = [];
  let rewrite: ((answer: string) => string) | undefined;
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    const answer = rewrite ? rewrite(text) : text;
    exchanges.push({
      url: String(input),
      requestHeaders: init?.headers as Record<string, string>,
      request: String(init?.body ?? ''),
      status: response.status,
      answer,
    });
    return new Response(answer, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const schema = compileSchemaSet(documents.renderSchemas(definition.targetNamespace));
  return {
    definition: definition as ContractDefinition<AnyOperations>,
    types,
    client,
    url: listener.url,
    exchanges,
    fetch: recording,
    schema,
    rewriteAnswers(change: ((answer: string) => string) | undefined) {
      rewrite = change;
    },
  };
}

function valid(t: ExecutionContext, schema: XsdValidator, element: XmlElement, what: string): void {
  try {
    schema.validate(element);
    t.pass();
  } catch (error) {
    t.fail(`${what} ${element.name} does not match the schema: ${firstLibxmlMessage(error)}`);
  }
}

/**
 * The answer is an envelope of `version` whose Body holds one element, valid
 * against the contract's schemas (a Fault's detail element is), and whose
 * header blocks are; returns the local names of the header blocks.
 */
function checkAnswer(t: ExecutionContext, exchange: Exchange, version: SoapVersionName, schema: XsdValidator): string[] {
  const envelopeNs = SOAP_ENVELOPE_NAMESPACES[version];
  return assertSoapEnvelope(t, exchange.answer, version, (content) => {
    if (content.name === 'Fault' && namespaceOf(content) === envelopeNs) {
      const detail = childElements(content).find((e) => e.name === (version === '1.1' ? 'detail' : 'Detail'));
      for (const element of detail ? childElements(detail) : []) valid(t, schema, element, 'the fault detail');
    } else valid(t, schema, content, 'the body element');
    const envelope = content.parent!.parent as XmlElement;
    const header = childElements(envelope).find((e) => e.name === 'Header' && namespaceOf(e) === envelopeNs);
    const blocks = header ? childElements(header) : [];
    for (const block of blocks)
      valid(t, WS_HEADER_NAMESPACES.has(namespaceOf(block) ?? '') ? wsHeaderValidator() : schema, block, 'the header block');
    return blocks.map((b) => b.name);
  });
}

const VERSIONS = [
  { variant: 'soap11', version: '1.1' },
  { variant: 'soap12', version: '1.2' },
] as const;

const SSRS = 'ssrs-ReportExecution2005/ssrs-ReportExecution2005.wsdl';

for (const { variant, version } of VERSIONS) {
  test.serial(`SOAP ${version}: the header blocks a call sends reach the handler typed, those it sets come back typed`, async (t) => {
    const seen: Record<string, unknown>[] = [];
    const served = await serve(SSRS, (types) => ({
      LoadReport: async (_request, { headers }) => {
        seen.push({ ...(headers.in as Record<string, unknown>) });
        Object.assign(headers.out, {
          ExecutionHeader: new types.ExecutionHeader({ ExecutionID: 'exec-42' }),
          ServerInfoHeader: new types.ServerInfoHeader({ ReportServerVersion: '2005', ReportServerEdition: 'Test' }),
        });
        return undefined;
      },
      GetExecutionInfo: async (_request, { headers }) => {
        seen.push({ ...(headers.in as Record<string, unknown>) });
        return undefined;
      },
    }));
    const { types } = served;
    const client = new served.client.ReportExecutionServiceClient({
      baseUrl: served.url,
      variant,
      fetch: served.fetch,
      headers: { TrustedUserHeader: new types.TrustedUserHeader({ UserName: 'default-user' }) },
    });

    // The client's default block, and the blocks the answer carried into the call's `out`.
    const headers = { out: {} as Record<string, unknown> };
    t.is(await client.loadReport({ Report: '/Sales' }, { headers }), undefined);
    t.true(seen[0].TrustedUserHeader instanceof types.TrustedUserHeader);
    t.is((seen[0].TrustedUserHeader as { UserName: string }).UserName, 'default-user');
    t.true(headers.out.ExecutionHeader instanceof types.ExecutionHeader);
    t.is((headers.out.ExecutionHeader as { ExecutionID: string }).ExecutionID, 'exec-42');
    t.true(headers.out.ServerInfoHeader instanceof types.ServerInfoHeader);
    t.like(headers.out.ServerInfoHeader, { ReportServerVersion: '2005', ReportServerEdition: 'Test' });
    t.deepEqual(checkAnswer(t, served.exchanges[0], version, served.schema), ['ExecutionHeader', 'ServerInfoHeader']);
    // Sent as .NET's proxy sends them: no mustUnderstand unless asked.
    t.regex(served.exchanges[0].request, /<soap:Header><(\w+:)?TrustedUserHeader [^>]*><(\w+:)?UserName>default-user</);
    t.notRegex(served.exchanges[0].request, /mustUnderstand/);

    // A call's own block wins by name over the default; the operation's other block goes too.
    await client.getExecutionInfo(
      {},
      {
        headers: {
          in: {
            TrustedUserHeader: new types.TrustedUserHeader({ UserName: 'this-call' }),
            ExecutionHeader: new types.ExecutionHeader({ ExecutionID: 'exec-42' }),
          },
        },
      },
    );
    t.is((seen[1].TrustedUserHeader as { UserName: string }).UserName, 'this-call');
    t.true(seen[1].ExecutionHeader instanceof types.ExecutionHeader);
    t.is((seen[1].ExecutionHeader as { ExecutionID: string }).ExecutionID, 'exec-42');
    checkAnswer(t, served.exchanges[1], version, served.schema);

    // A default set on the client after it was made is sent; one set to undefined for a call is not.
    client.headers.TrustedUserHeader = new types.TrustedUserHeader({ UserName: 'changed' });
    await client.getExecutionInfo({});
    t.is((seen[2].TrustedUserHeader as { UserName: string }).UserName, 'changed');
    await client.getExecutionInfo({}, { headers: { in: { TrustedUserHeader: undefined } } });
    t.is(seen[3].TrustedUserHeader, undefined);
    t.notRegex(served.exchanges[3].request, /<soap:Header>/);
  });
}

test.serial(
  'SOAP headers: a header block answered with mustUnderstand is read; one not valid against the schema is a protocol error',
  async (t) => {
    const served = await serve(SSRS, (types) => ({
      LoadReport: async (_request, { headers }) => {
        Object.assign(headers.out, { ExecutionHeader: new types.ExecutionHeader({ ExecutionID: 'exec-7' }) });
        return undefined;
      },
    }));
    const client = new served.client.ReportExecutionServiceClient({ baseUrl: served.url, fetch: served.fetch });

    served.rewriteAnswers((answer) => answer.replace(/<((\w+:)?ExecutionHeader) /, '<$1 soap:mustUnderstand="1" '));
    const headers = { out: {} as Record<string, unknown> };
    await client.loadReport({}, { headers });
    t.regex(served.exchanges[0].answer, /ExecutionHeader soap:mustUnderstand="1"/);
    t.is((headers.out.ExecutionHeader as { ExecutionID: string }).ExecutionID, 'exec-7');

    served.rewriteAnswers((answer) => answer.replace(/ExecutionID>/g, 'Unknown>'));
    const error = await t.throwsAsync(client.loadReport({}, { headers: { out: {} } }));
    t.true(error instanceof served.client.ReportExecutionServiceError);
    t.is((error as unknown as { code: string }).code, 'protocol');
    t.regex(
      error!.message,
      /^The ExecutionHeader header does not match the schema: Element '\{[^}]+\}Unknown': This element is not expected\./,
    );
  },
);

test.serial('mustUnderstand: the service still refuses a block it does not understand, whatever the client sends', async (t) => {
  const served = await serve(SSRS, () => ({}));
  const client = new served.client.ReportExecutionServiceClient({ baseUrl: served.url, fetch: served.fetch });
  const route = served.definition.routes.LoadReport;
  const answer = await fetch(`${served.url}${served.definition.endpointPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${served.definition.targetNamespace}${route.soapActionSuffix}"` },
    body: `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NAMESPACES['1.1']}"><soap:Header><x:Trace soap:mustUnderstand="1" xmlns:x="urn:example:trace" /></soap:Header><soap:Body>${route.encodeSoapRequest(route.sampleRequest(), served.definition.targetNamespace)}</soap:Body></soap:Envelope>`,
  });
  t.is(answer.status, 500);
  t.regex(await answer.text(), /<faultcode>soap:MustUnderstand<\/faultcode>/);
  // The client's own blocks carry no mustUnderstand, and are understood.
  await client.loadReport({}, { headers: { in: { TrustedUserHeader: new served.types.TrustedUserHeader({ UserName: 'u' }) } } });
  t.is(served.exchanges[0].status, 200);
});

test.serial('SOAP headers go in a SOAP envelope only: a JSON call that sets some is refused before it is sent', async (t) => {
  const served = await serve(SSRS, () => ({}));
  const client = new served.client.ReportExecutionServiceClient({ baseUrl: served.url, fetch: served.fetch, variant: 'json' });
  await t.throwsAsync(
    client.loadReport({ Report: '/r' }, { headers: { in: { TrustedUserHeader: new served.types.TrustedUserHeader({ UserName: 'u' }) } } }),
    { instanceOf: TypeError, message: "LoadReport's SOAP headers go in a SOAP envelope only: call it over soap11 or soap12" },
  );
  t.is(served.exchanges.length, 0);
});

/** A contract declaring faults, an operation of it, and the fault its handler throws. */
const DECLARED = [
  {
    wsdl: 'lnp-NumberManagement/NumberManagement.wsdl',
    operation: 'cancelPortingOrder',
    client: 'NumberManagementClient',
    error: 'NumberManagementCallError',
    fault: 'NumberManagementErrorFault',
    detail: 'NumberManagementError',
    fields: { errorCode: 4711n, errorMessage: 'no such order' },
    versions: ['soap11'],
  },
  {
    wsdl: 'yandex-direct-adgroups/adgroups.wsdl',
    operation: 'get',
    client: 'AdGroupsClient',
    error: 'AdGroupsError',
    fault: 'FaultResponseFault',
    detail: 'ApiExceptionMessage',
    fields: { requestId: 'r-1', errorCode: 53, errorDetail: 'authorization failed' },
    versions: ['soap11'],
  },
  {
    wsdl: 'euroconsumers-partner/PartnerService.local.wsdl',
    operation: 'ValidateMember',
    client: 'PartnerServiceClient',
    error: 'PartnerServiceError',
    fault: 'ValidationFault2',
    detail: 'ValidationFault',
    fields: { Reason: 'MemberNumberIsMandatory' },
    versions: ['soap11', 'soap12'],
  },
  {
    // Axis 1's rpc/literal fault, its part naming a type: the detail is an element named after the part (`fault`).
    wsdl: '../outside/axis1-rpc-faults.wsdl',
    operation: 'getCandidate',
    client: 'WebApiServiceClient',
    error: 'WebApiServiceError',
    fault: 'WebServiceExceptionFault',
    detail: 'WebServiceException',
    fields: { errorCode: 4711, message: 'no such candidate' },
    versions: ['soap11'],
  },
] as const;

for (const c of DECLARED) {
  const contract = c.wsdl.startsWith('../')
    ? c.wsdl
        .split('/')
        .at(-1)!
        .replace(/\.wsdl$/, '')
    : c.wsdl.split('/')[0];
  test.serial(`${contract}: a declared fault arrives as its class with its typed detail; an undeclared one as before`, async (t) => {
    let throwing: 'declared' | 'client' | 'undeclared' = 'declared';
    const served = await serve(c.wsdl, (types) => ({
      [c.operation]: async () => {
        if (throwing === 'undeclared') throw new ServiceError('client', 'The request is not acceptable.');
        throw new types[c.fault](new types[c.detail](c.fields), 'The call cannot be done.', throwing === 'client' ? 'client' : 'server');
      },
    }));
    const Client = served.client[c.client];
    t.truthy(Client, `the generated client is ${c.client}`);
    const method = c.operation[0].toLowerCase() + c.operation.slice(1);
    const request = served.definition.routes[c.operation].sampleRequest();
    for (const variant of c.versions) {
      const version = variant === 'soap11' ? '1.1' : '1.2';
      const client = new Client({ baseUrl: served.url, variant, fetch: served.fetch });

      throwing = 'declared';
      const declared = await t.throwsAsync(client[method](request));
      const exchange = served.exchanges.at(-1)!;
      t.is(exchange.status, 500, `SOAP ${version}`);
      checkAnswer(t, exchange, version, served.schema);
      t.true(declared instanceof served.types[c.fault], `SOAP ${version}: an instance of ${c.fault}`);
      t.true(declared instanceof DeclaredFault);
      t.false(declared instanceof served.client[c.error]);
      t.is(declared!.message, 'The call cannot be done.');
      t.is((declared as unknown as { kind: string }).kind, 'server');
      if (c.wsdl.includes('axis1'))
        t.regex(exchange.answer, /<detail><(\w+:)?fault xmlns(:\w+)?="urn:example:axis1"/, 'the detail element is named after the part');
      const detail = (declared as unknown as { detail: object }).detail;
      t.true(detail instanceof served.types[c.detail]);
      t.like(detail, c.fields);

      throwing = 'client';
      const callers = await t.throwsAsync(client[method](request));
      t.true(callers instanceof served.types[c.fault]);
      t.is((callers as unknown as { kind: string }).kind, 'client', `SOAP ${version}: soap:Client/Sender is the caller's fault`);
      checkAnswer(t, served.exchanges.at(-1)!, version, served.schema);

      throwing = 'undeclared';
      const undeclared = await t.throwsAsync(client[method](request));
      checkAnswer(t, served.exchanges.at(-1)!, version, served.schema);
      t.true(undeclared instanceof served.client[c.error]);
      t.false(undeclared instanceof DeclaredFault);
      t.like(undeclared, {
        code: version === '1.1' ? 'soap:Client' : 'soap:Sender',
        faultString: 'The request is not acceptable.',
        status: 500,
        operation: c.operation,
        variant,
      });
    }
  });
}

test.serial('a declared fault whose detail does not match the schema is a protocol error', async (t) => {
  const served = await serve('lnp-NumberManagement/NumberManagement.wsdl', (types) => ({
    cancelPortingOrder: async () => {
      throw new types.NumberManagementErrorFault(new types.NumberManagementError({ errorCode: 1n, errorMessage: 'm' }), 'No.');
    },
  }));
  served.rewriteAnswers((answer) => answer.replace(/<errorCode>1<\/errorCode>/, '<errorCode>one</errorCode>'));
  const client = new served.client.NumberManagementClient({ baseUrl: served.url, fetch: served.fetch });
  const error = await t.throwsAsync(client.cancelPortingOrder(served.definition.routes.cancelPortingOrder.sampleRequest()));
  t.true(error instanceof served.client.NumberManagementCallError);
  t.is((error as unknown as { code: string }).code, 'protocol');
  t.regex(error!.message, /^The NumberManagementError fault detail does not match the schema: .*errorCode/);
});
