/**
 * Axis2's HTTP binding: `http:binding verb="POST"` whose messages are
 * `mime:content type="text/xml"` or `application/xml` parts. The request is
 * the SOAP request's element POSTed as the body, the answer the SOAP
 * answer's element, at the operation's location resolved against the HTTP
 * port's address. Two Apache Axis2 WSDLs (test/fixtures/contracts/axis2-*,
 * with Axis2's licence and notice) are generated, served with handlers of
 * the test's own, called over their XML body, SOAP and the generated typed
 * client, and every answer is validated against the contract's schemas.
 */
import test from 'ava';
import { join } from 'node:path';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import type { ContractDefinition } from '../../../src/runtime/definition';
import { compileSchemaSet, firstLibxmlMessage } from '../../../src/runtime/xml/xml-schema';
import type { XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../../support/fixture-contract';
import { childElements, loadReaders, readXml } from '../../support/readers';

const fixtures: FixtureContract[] = [];
const served: ServedFixture[] = [];
test.after.always(async () => {
  for (const s of served) await s.close();
  for (const f of fixtures) f.remove();
});

test.before(async () => {
  await loadReaders();
});

async function serve(name: string, handlers: Parameters<typeof serveFixture>[1] = {}) {
  const fixture = await generateFixture(name);
  fixtures.push(fixture);
  const service = await serveFixture(fixture.definition, handlers);
  served.push(service);
  return { ...fixture, service, schemas: schemasOf(fixture.definition) };
}

function schemasOf(definition: ContractDefinition<AnyOperations>): XsdValidator {
  return compileSchemaSet(definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)]);
}

/** The answer's root element, named and valid against the contract's schemas. */
function validRoot(t: import('ava').ExecutionContext, schemas: XsdValidator, text: string, name: string): string {
  return readXml(text, (doc) => {
    t.is(doc.root.name, name);
    try {
      schemas.validate(doc.root);
    } catch (error) {
      t.fail(`the ${name} answer is not valid: ${firstLibxmlMessage(error)}`);
    }
    return childElements(doc.root)
      .map((e) => `${e.name}=${e.content}`)
      .join(' ');
  });
}

const post = (url: string, body: string, type = 'application/xml') =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': `${type}; charset=utf-8` }, body });

test.serial('an XML body is the SOAP request element, answered with the SOAP answer element, at {HTTP address}/{location}', async (t) => {
  let seen: unknown;
  const { definition, service, schemas, types } = await serve('axis2-libraryservice', {
    echoLibrary: async (request) => {
      seen = request;
      return (request as { args0?: unknown }).args0;
    },
  });
  const Library = types.Library as unknown as new (fields: object) => object;
  const ns = 'http://adb.json.axis2.apache.org';
  const body = `<?xml version="1.0" encoding="UTF-8"?><echoLibrary xmlns="${ns}"><args0><staff xmlns="http://adb.json.axis2.apache.org/xsd">7</staff></args0></echoLibrary>`;
  // The HTTP port's own address (its path is not the SOAP ports').
  const url = `${service.url}/axis2/services/LibraryService.LibraryServiceHttpEndpoint/echoLibrary`;
  const answer = await post(url, body);
  const text = await answer.text();
  t.is(answer.status, 200, text);
  t.is(answer.headers.get('content-type'), 'application/xml; charset=utf-8');
  t.regex(text, /^<\?xml version="1\.0" encoding="utf-8"\?>/);
  t.is(validRoot(t, schemas, text, 'echoLibraryResponse'), 'return=7');
  t.true((seen as { args0: object }).args0 instanceof Library);
  t.is((seen as { args0: { staff: number } }).args0.staff, 7);
  // The same operation over SOAP 1.1 at the SOAP port.
  t.true(definition.variants.includes('httpPost'));
  t.false(definition.variants.includes('httpGet'));
});

test.serial(
  'an XML body that is not the request element, not valid, not XML, or of another media type is refused in one line',
  async (t) => {
    const { service } = await serve('axis2-libraryservice');
    const url = `${service.url}/axis2/services/LibraryService.LibraryServiceHttpEndpoint/getLibrary`;
    const ns = 'http://adb.json.axis2.apache.org';
    const cases: [string, string, string, number, RegExp][] = [
      [
        'another element',
        `<echoLibrary xmlns="${ns}"/>`,
        'application/xml',
        400,
        /^The body must be the getLibrary element of http:\/\/adb\.json\.axis2\.apache\.org\.\n$/,
      ],
      ['another namespace', '<getLibrary xmlns="urn:x"/>', 'application/xml', 400, /^The body must be the getLibrary element/],
      [
        'an invalid member',
        `<getLibrary xmlns="${ns}"><nope/></getLibrary>`,
        'application/xml',
        400,
        /^The getLibrary element does not match the schema: /,
      ],
      ['not XML', '<getLibrary', 'application/xml', 400, /^The request is not well-formed XML\.\n$/],
      ['a DOCTYPE', `<!DOCTYPE x [<!ENTITY a "b">]><getLibrary xmlns="${ns}"/>`, 'application/xml', 400, /^A DOCTYPE is not allowed/],
      ['a form', 'args0=x', 'application/x-www-form-urlencoded', 415, /^POST the getLibrary element as application\/xml\.\n$/],
    ];
    for (const [what, body, type, status, message] of cases) {
      const answer = await post(url, body, type);
      const text = await answer.text();
      t.is(answer.status, status, what);
      t.regex(text, message, what);
      t.is(answer.headers.get('content-type'), 'text/plain; charset=utf-8', what);
    }
    const get = await fetch(url);
    t.is(get.status, 404, 'the WSDL declares no HTTP GET port');
    t.is(await get.text(), "This service's WSDL declares no HTTP GET port; it is called over SOAP 1.1, SOAP 1.2, HTTP POST.\n");
    const valid = await post(url, `<getLibrary xmlns="${ns}"><args0>x</args0></getLibrary>`);
    t.is(valid.status, 200, await valid.text());
  },
);

test.serial('a location relative to the address resolves under it; a request of no part is an empty body', async (t) => {
  const { service, schemas } = await serve('axis2-version', { getVersion: async () => 'Hello I am Axis2 version service' });
  // location="Version/getVersion" against http://…/axis2/services/Version: /axis2/services/Version/getVersion (RFC 3986).
  const url = `${service.url}/axis2/services/Version/getVersion`;
  const answer = await fetch(url, { method: 'POST' });
  const text = await answer.text();
  t.is(answer.status, 200, text);
  t.is(answer.headers.get('content-type'), 'text/xml; charset=utf-8');
  t.is(validRoot(t, schemas, text, 'getVersionResponse'), 'return=Hello I am Axis2 version service');
  const withBody = await post(url, '<getVersion/>', 'text/xml');
  t.is(withBody.status, 400);
  t.is(await withBody.text(), 'The operation takes an empty body.\n');
  t.is((await fetch(`${service.url}/axis2/services/Version/Version/getVersion`, { method: 'POST' })).status, 404);
});

test.serial('the typed client calls an XML-body operation over HTTP POST and refuses HTTP GET', async (t) => {
  const { service, folder, types } = await serve('axis2-libraryservice', {
    echoLibrary: async (request) => (request as { args0?: unknown }).args0,
  });
  const { LibraryServiceClient } = require(join(folder, 'client.js')) as {
    LibraryServiceClient: new (options: object) => Record<string, (request: object, options?: object) => Promise<unknown>>;
  };
  // The client calls {baseUrl}{endpoint}/{segment}: operations are served under every port's path.
  const client = new LibraryServiceClient({ baseUrl: service.url, variant: 'httpPost' });
  const Library = types.Library as unknown as new (fields: object) => object;
  const echoed = (await client.echoLibrary({ args0: new Library({ staff: 3 }) })) as { staff?: number };
  t.is(echoed.staff, 3);
  const soap = new LibraryServiceClient({ baseUrl: service.url, variant: 'soap12' });
  t.is(((await soap.echoLibrary({ args0: new Library({ staff: 4 }) })) as { staff?: number }).staff, 4);
  await t.throwsAsync(() => client.echoLibrary({ args0: new Library({}) }, { variant: 'httpGet' }), {
    instanceOf: TypeError,
    message: 'echoLibrary takes an XML body: call it with HTTP POST or SOAP',
  });
});

test.serial('the help page shows the XML body sample and no form; /openapi.json describes the element as the body', async (t) => {
  const { definition, service } = await serve('axis2-libraryservice');
  const page = await (await fetch(`${service.endpoint}?op=getLibrary`)).text();
  t.regex(page, /this one is POSTed its XML element \(application\/xml\)/);
  t.notRegex(page, /<form id="invoke"|getElementById\('invoke'\)/);
  t.regex(page, /Content-Type: application\/xml\n/);
  t.regex(
    page,
    /Content-Length: length\n\n&lt;\?xml version&#x3D;&quot;1\.0&quot; encoding&#x3D;&quot;utf-8&quot;\?&gt;\n&lt;(\w+:)?getLibrary xmlns/,
  );
  const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as {
    paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { xml?: { name: string } } }> } } }>;
  };
  const path = `/${definition.routes.getLibrary.httpOperation}`;
  t.is(openapi.paths[path].post.requestBody.content['application/xml'].schema.xml?.name, 'getLibrary');
  t.false('application/x-www-form-urlencoded' in openapi.paths[path].post.requestBody.content);
});
