/**
 * GET /openapi.json (docs/clients.md, *OpenAPI*): the OpenAPI 3.1 description
 * of the HTTP GET, HTTP POST and JSON variants, generated from the contract
 * model. It is valid for a standard validator (@seriousme/openapi-schema-validator),
 * takes its server and namespace from the deployment, is linked from the
 * service page, and a client generated from it with openapi-typescript
 * type-checks and calls the running service with openapi-fetch. The fixture
 * contracts' descriptions give every type of the supported subset its form.
 */
import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from '../../../codegen/emit/openapi';
import { generate, contractModel } from '../../../codegen/main';
import { readContract } from '../../../codegen/read/contract';
import { pinFor, send, wrongPinFor } from '../../support/requests';
import { htmlAttribute, htmlElements, htmlTag, loadReaders, readHtml, readXml } from '../../support/readers';
import { startTestService, type TestService } from '../../support/service';

const REPO = join(__dirname, '..', '..', '..');
const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'contracts');
const TSC = require.resolve('typescript/bin/tsc');
const OPENAPI_TYPESCRIPT = join(REPO, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
const OTHER_NAMESPACE = 'urn:example:pins/';
const PUBLIC_URL = 'https://pins.example.com/auth';

type OpenApi = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, Response> }>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response> };
};
type Response = { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> };
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[] };

let service: TestService;
let renamed: TestService;
const folders: string[] = [];

test.before(async () => {
  await loadReaders();
  service = await startTestService();
  renamed = await startTestService({ namespace: OTHER_NAMESPACE, publicUrl: PUBLIC_URL });
});
test.after.always(async () => {
  await Promise.all([service, renamed].filter(Boolean).map((s) => s.close()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Valid for the validator, and every $ref names a schema of the document (which the validator does not check). */
async function validate(t: ExecutionContext, document: OpenApi): Promise<void> {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const validator = new Validator();
  const result = await validator.validate(document as unknown as Record<string, unknown>);
  t.is(validator.version, '3.1', 'read as OpenAPI 3.1');
  t.true(result.valid, JSON.stringify(result.errors));
  const refs = JSON.stringify(document).matchAll(/"\$ref":"#\/components\/(schemas|responses)\/([^"]+)"/g);
  const dangling = [...refs]
    .map((m) => `${m[1]}/${m[2]}`)
    .filter((path) => {
      const [kind, name] = path.split('/') as ['schemas' | 'responses', string];
      return !(name in document.components[kind]);
    });
  t.deepEqual(dangling, [], 'every $ref resolves');
}

async function openApiOf(base: string): Promise<{ status: number; contentType: string; document: OpenApi }> {
  const answer = await send(`${base}/openapi.json`, {});
  return { status: answer.status, contentType: answer.contentType, document: JSON.parse(answer.body) };
}

test('GET /openapi.json is OpenAPI 3.1, valid, with this deployment as its server', async (t) => {
  const { status, contentType, document } = await openApiOf(service.url);
  t.is(status, 200);
  t.is(contentType, 'application/json; charset=utf-8');
  t.is(document.openapi, '3.1.0');
  await validate(t, document);
  t.deepEqual(
    document.servers.map((s) => s.url),
    [`${service.url}/api.asmx`],
  );
  t.deepEqual(Object.keys(document.paths).sort(), ['/Pair', '/ValidatePin']);
  for (const path of ['/Pair', '/ValidatePin']) t.deepEqual(Object.keys(document.paths[path]).sort(), ['get', 'post']);
});

test('the public URL is its server, and the configured namespace its XML answers’ namespace', async (t) => {
  const { document } = await openApiOf(renamed.url);
  await validate(t, document);
  t.deepEqual(
    document.servers.map((s) => s.url),
    [`${PUBLIC_URL}/api.asmx`],
  );
  const answer = document.paths['/Pair'].get.responses['200'].content?.['text/xml'].schema;
  t.deepEqual(answer?.xml, { name: 'PairingInfo', namespace: OTHER_NAMESPACE });
  t.deepEqual(document.components.schemas['xml.PairingInfo'].xml, { name: 'PairingInfo', namespace: OTHER_NAMESPACE });
  t.false(JSON.stringify(document).includes('http://authenticatorapi.com/'), 'the default namespace appears nowhere');
});

test('with --trust-proxy, the server is the address the proxy says the caller used', async (t) => {
  const proxied = await startTestService({ trustProxy: true });
  try {
    const answer = await send(`${proxied.url}/openapi.json`, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'pins.example.org' },
    });
    const document = JSON.parse(answer.body) as OpenApi;
    t.deepEqual(
      document.servers.map((s) => s.url),
      ['https://pins.example.org/api.asmx'],
    );
    const direct = JSON.parse((await send(`${proxied.url}/openapi.json`, {})).body) as OpenApi;
    t.deepEqual(
      direct.servers.map((s) => s.url),
      [`${proxied.url}/api.asmx`],
      'and its own address without the headers',
    );
  } finally {
    await proxied.close();
  }
});

test('each variant’s errors are described: text/plain for GET and POST, JsonError with jsonerror for JSON, 429 only where ValidatePin throttles', async (t) => {
  const { document } = await openApiOf(service.url);
  for (const path of ['/Pair', '/ValidatePin']) {
    const { get, post } = document.paths[path];
    for (const status of ['400', '413', '415', '500', '503']) {
      t.deepEqual(Object.keys(get.responses[status].content ?? {}), ['text/plain'], `${path} GET ${status}`);
      t.deepEqual(Object.keys(post.responses[status].content ?? {}), ['text/plain', 'application/json'], `${path} POST ${status}`);
      t.truthy(post.responses[status].headers?.jsonerror, `${path} POST ${status}: the jsonerror header`);
    }
    const throttles = path === '/ValidatePin';
    t.deepEqual(get.responses['429'], throttles ? { $ref: '#/components/responses/Throttled' } : undefined, `${path} GET: 429`);
    t.deepEqual(post.responses['429'], throttles ? { $ref: '#/components/responses/ThrottledPost' } : undefined, `${path} POST: 429`);
  }
  const { Throttled, ThrottledPost } = document.components.responses;
  t.deepEqual(Object.keys(Throttled.headers ?? {}), ['Retry-After']);
  t.deepEqual(Object.keys(Throttled.content ?? {}), ['text/plain']);
  t.deepEqual(Object.keys(ThrottledPost.headers ?? {}), ['Retry-After', 'jsonerror']);
  t.deepEqual(Object.keys(ThrottledPost.content ?? {}), ['text/plain', 'application/json']);
  const error = document.components.schemas.JsonError;
  t.deepEqual(error.required, ['Message', 'StackTrace', 'ExceptionType']);

  // What the service answers matches: a JSON client error is 400, jsonerror: true, a JsonError body.
  const answer = await send(`${service.url}/api.asmx/ValidatePin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ pin: '123456', secretCode: '' }),
  });
  t.is(answer.status, 400);
  t.is(answer.headers.get('jsonerror'), 'true');
  t.deepEqual(Object.keys(JSON.parse(answer.body)).sort(), [...(error.required ?? [])].sort());
});

test('the service page links the OpenAPI description', async (t) => {
  const page = await send(`${service.url}/api.asmx`, {});
  const links = htmlElements(readHtml(page.body), htmlTag('a', { href: true })).map(
    (a) => new URL(htmlAttribute(a, 'href') ?? '', `${service.url}/api.asmx`),
  );
  const link = links.find((url) => url.pathname === '/openapi.json');
  t.truthy(link, 'a link to /openapi.json');
  t.is((await send(link!.href, {})).status, 200);
});

// --- A client generated from it: openapi-typescript (types) + openapi-fetch (calls) ---

const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';

async function main(): Promise<void> {
  const [baseUrl, ...args] = process.argv.slice(2);
  const [pairSecret, jsonSecret, jsonWrong, jsonRight, formSecret, formWrong, formRight, getSecret, getWrong, getRight] = args;
  const json = createClient<paths, 'application/json'>({ baseUrl });
  const xml = createClient<paths, 'text/xml'>({ baseUrl });
  const out: Record<string, unknown> = {};

  const pair = await json.POST('/Pair', { body: { appName: 'Example', appInfo: 'alice@example.com', secretCode: pairSecret } });
  out.pairManualSetupCode = pair.data?.d?.ManualSetupCode;
  out.pairType = pair.data?.d?.__type;

  out.jsonWrong = (await json.POST('/ValidatePin', { body: { pin: jsonWrong, secretCode: jsonSecret } })).data?.d;
  out.jsonRight = (await json.POST('/ValidatePin', { body: { pin: jsonRight, secretCode: jsonSecret } })).data?.d;
  const refused = await json.POST('/ValidatePin', { body: { pin: '123456', secretCode: '' } });
  out.jsonErrorStatus = refused.response.status;
  out.jsonErrorType = refused.error?.ExceptionType;

  const form = (fields: { pin?: string; secretCode?: string }) =>
    xml.POST('/ValidatePin', {
      body: fields,
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      parseAs: 'text',
    });
  out.formWrong = (await form({ pin: formWrong, secretCode: formSecret })).data;
  out.formRight = (await form({ pin: formRight, secretCode: formSecret })).data;

  const get = (pin: string) => xml.GET('/ValidatePin', { params: { query: { pin, secretCode: getSecret } }, parseAs: 'text' });
  out.getWrong = (await get(getWrong)).data;
  out.getRight = (await get(getRight)).data;
  const pairGet = await xml.GET('/Pair', { params: { query: { appName: 'Example', appInfo: 'alice@example.com', secretCode: pairSecret } }, parseAs: 'text' });
  out.pairGet = pairGet.data;
  console.log(JSON.stringify(out));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

/** A folder inside the checkout, so that the program resolves openapi-fetch from its node_modules. */
function clientFolder(): string {
  const parent = join(REPO, 'test-output');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'openapi-client-'));
  folders.push(dir);
  return dir;
}

/** Runs a Node.js script without blocking: the service it calls answers from this process. */
async function run(file: string, args: string[]): Promise<string> {
  try {
    return (await promisify(execFile)(process.execPath, [file, ...args], { encoding: 'utf8', cwd: REPO })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    throw new Error(`${file} failed: ${stdout}${stderr}`);
  }
}

/** The root element's name and text of an XML answer. */
const rootOf = (text: unknown): { name: string; text: string } =>
  readXml(String(text), (doc) => ({ name: doc.root.name, text: doc.root.content }));

test.serial(
  'openapi-typescript generates types from the served document; an openapi-fetch program type-checks and calls the service over JSON, HTTP POST and HTTP GET',
  async (t) => {
    const dir = clientFolder();
    await run(OPENAPI_TYPESCRIPT, [`${service.url}/openapi.json`, '--output', join(dir, 'schema.d.ts')]);
    writeFileSync(join(dir, 'program.ts'), PROGRAM);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'node16',
          moduleResolution: 'node16',
          strict: true,
          noEmit: true,
          types: ['node'],
          skipLibCheck: false,
        },
        files: ['program.ts'],
      }),
    );
    t.is(await run(TSC, ['--noEmit', '-p', dir]), '', 'the program type-checks against the generated types');

    const secrets = { pair: '12345678BXYT', json: 'openapi-json-secret', form: 'openapi-form-secret', get: 'openapi-get-secret' };
    const args = [`${service.url}/api.asmx`, secrets.pair];
    for (const secret of [secrets.json, secrets.form, secrets.get])
      args.push(secret, wrongPinFor(service, secret), pinFor(service, secret));
    const out = JSON.parse(await run(require.resolve('tsx/cli'), [join(dir, 'program.ts'), ...args]));

    t.is(out.pairManualSetupCode, 'GEZDGNBVGY3TQQSYLFKA', "Pair over JSON: the key's Base32");
    t.is(out.pairType, 'AuthenticatorAPI.PairingInfo');
    t.false(out.jsonWrong, 'JSON: a wrong PIN is false');
    t.true(out.jsonRight, 'JSON: the right PIN is true');
    t.is(out.jsonErrorStatus, 400);
    t.is(out.jsonErrorType, 'System.ArgumentException');
    t.deepEqual(rootOf(out.formWrong), { name: 'boolean', text: 'false' }, 'HTTP POST: a wrong PIN');
    t.deepEqual(rootOf(out.formRight), { name: 'boolean', text: 'true' }, 'HTTP POST: the right PIN');
    t.deepEqual(rootOf(out.getWrong), { name: 'boolean', text: 'false' }, 'HTTP GET: a wrong PIN');
    t.deepEqual(rootOf(out.getRight), { name: 'boolean', text: 'true' }, 'HTTP GET: the right PIN');
    t.is(rootOf(out.pairGet).name, 'PairingInfo', 'HTTP GET: Pair answers PairingInfo');
  },
);

// --- Fixture contracts: every type of the subset ---

async function fixtureDocument(wsdl: string): Promise<OpenApi> {
  const out = mkdtempSync(join(tmpdir(), 'codegen-openapi-'));
  folders.push(out);
  await generate(wsdl, out);
  const { renderOpenApi } = await import(join(out, 'openapi.ts'));
  return JSON.parse(renderOpenApi('http://fixture.example.com/', 'http://fixture.example.com/api.asmx', []));
}

test.serial('the all-types fixture’s description is valid and gives each type of the subset its JSON and XML form', async (t) => {
  const document = await fixtureDocument(join(FIXTURES, 'all-types', 'AllTypes.wsdl'));
  await validate(t, document);
  const { schemas } = document.components;
  const json = schemas.Everything.properties ?? {};
  const xml = schemas['xml.Everything'].properties ?? {};
  t.deepEqual(json.Text, { type: ['string', 'null'] }, 'string, minOccurs 0: null in JSON');
  t.deepEqual(xml.Text, { type: 'string', xml: { name: 'Text', namespace: 'http://fixture.example.com/' } });
  t.deepEqual(json.Flag, { type: 'boolean' });
  t.deepEqual(json.Int, { type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647 });
  t.deepEqual(json.Short, { type: 'integer', minimum: -32768, maximum: 32767 });
  t.deepEqual(json.Byte, { type: 'integer', minimum: -128, maximum: 127 });
  t.deepEqual(json.UnsignedByte, { type: 'integer', minimum: 0, maximum: 255 });
  t.deepEqual(json.UnsignedShort, { type: 'integer', minimum: 0, maximum: 65535 });
  t.deepEqual(json.UnsignedInt, { type: 'integer', minimum: 0, maximum: 4294967295 });
  t.deepEqual(json.Long, { type: 'integer', format: 'int64' });
  t.like(json.UnsignedLong, { type: 'integer', minimum: 0 });
  t.like(json.Double, { type: ['number', 'null'], format: 'double' }, 'double: null for a non-finite one in JSON');
  t.like(xml.Double, {
    oneOf: [
      { type: 'number', format: 'double' },
      { type: 'string', enum: ['INF', '-INF', 'NaN'] },
    ],
  });
  t.like(json.Float, { type: ['number', 'null'], format: 'float' });
  t.deepEqual(json.Decimal, { type: 'number' });
  t.like(xml.Decimal, { type: 'string', pattern: '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$' });
  t.like(json.When, { type: 'string', pattern: '^/Date\\(-?[0-9]+\\)/$' }, 'dateTime: "\\/Date(ms)\\/" in JSON');
  t.like(xml.When, { type: 'string', format: 'date-time' }, 'dateTime: xs:dateTime in XML');
  t.like(json.Day, { type: 'string', format: 'date' });
  t.like(json.Clock, { type: 'string', format: 'time' });
  t.like(json.Span, { type: ['string', 'null'], format: 'duration' });
  t.like(json.Id, { type: 'string', format: 'uuid' });
  t.deepEqual(
    json.Bytes,
    { type: ['array', 'null'], items: { type: 'integer', minimum: 0, maximum: 255 } },
    'base64Binary: numbers in JSON',
  );
  t.like(xml.Bytes, { type: 'string', contentEncoding: 'base64' });
  t.deepEqual(json.Shade, { $ref: '#/components/schemas/Color' });
  t.like(schemas.Color, { type: 'integer', enum: [0, 1, 2] }, 'an enumeration is its position in JSON');
  t.like(schemas['xml.Color'], { type: 'string', enum: ['Red', 'Green', 'Blue'] }, 'and its value in XML');
  t.deepEqual(json.MaybeCount, { type: ['integer', 'null'], format: 'int32', minimum: -2147483648, maximum: 2147483647 }, 'nillable: null');
  t.deepEqual(json.Numbers, { oneOf: [{ $ref: '#/components/schemas/ArrayOfInt' }, { type: 'null' }] });
  t.like(schemas.ArrayOfInt, { type: 'array', items: { type: 'integer' } }, 'an ArrayOfX is an array in JSON');
  t.like(json.Tag, { type: ['array', 'null'], items: { type: 'string' } }, 'maxOccurs unbounded: an array');
  t.like(xml.Tag, { type: 'array', xml: { name: 'Tag', wrapped: false } });
  t.deepEqual(json.Owner, { oneOf: [{ $ref: '#/components/schemas/Person' }, { type: 'null' }] }, 'a nested complex type');
  t.like(xml.version, { type: 'integer', xml: { attribute: true } }, 'an attribute');
  t.deepEqual(json.__type, { type: 'string', const: 'AllTypes.Everything' }, '__type first in JSON');
  t.is(Object.keys(json)[0], '__type');
  t.true(schemas['xml.Everything'].required?.includes('Int'), 'minOccurs 1 is required in XML');
  t.false(schemas['xml.Everything'].required?.includes('Text'), 'minOccurs 0 is not');
  t.true(schemas['xml.Everything'].required?.includes('version'), 'a required attribute is required');
});

test.serial(
  'the generate-secret fixture’s description is valid: int and optional string fields, a void operation, one without parameters',
  async (t) => {
    const document = await fixtureDocument(join(FIXTURES, 'generate-secret', 'SecretService.wsdl'));
    await validate(t, document);
    t.deepEqual(Object.keys(document.paths).sort(), ['/GenerateSecret', '/Ping', '/SecretCount']);
    const generateSecret = document.paths['/GenerateSecret'].post as unknown as {
      requestBody: { content: Record<string, { schema: Schema }> };
      responses: Record<string, Response>;
    };
    t.deepEqual(Object.keys(document.paths['/GenerateSecret']), ['post'], 'no HttpGet port: POST only');
    const form = generateSecret.requestBody.content['application/x-www-form-urlencoded'].schema;
    t.deepEqual(form.required, ['length'], 'minOccurs 1 is required');
    t.like(form.properties?.length, { type: 'integer', format: 'int32' });
    t.deepEqual(form.properties?.alphabet, { type: 'string' });
    t.deepEqual(generateSecret.responses['200'].content?.['text/xml'].schema.$ref, '#/components/schemas/xml.SecretInfo');
    const info = document.components.schemas.SecretInfo.properties ?? {};
    t.like(info.CreatedUtc, { pattern: '^/Date\\(-?[0-9]+\\)/$' });
    t.deepEqual(info.Warnings, { oneOf: [{ $ref: '#/components/schemas/ArrayOfString' }, { type: 'null' }] });
    t.deepEqual(document.components.schemas.ArrayOfString.items, { type: ['string', 'null'] }, 'nillable items');
    const ping = document.paths['/Ping'].post.responses['200'].content ?? {};
    t.deepEqual(Object.keys(ping), ['application/json'], 'a void operation: no XML answer');
    t.deepEqual(ping['application/json'].schema.properties?.d, { type: 'null' }, 'and {"d":null} over JSON');
  },
);

test.serial('a contract type named JsonError is refused with one line naming it', async (t) => {
  const model = contractModel(await readContract(join(FIXTURES, 'generate-secret', 'SecretService.wsdl')));
  const clash = { ...model, types: [...model.types, { ...model.types[0], name: 'JsonError' }] };
  t.throws(() => openApiDocument(clash), {
    message: "codegen: the type JsonError has the name of the OpenAPI description's JSON error; rename it",
  });
});
