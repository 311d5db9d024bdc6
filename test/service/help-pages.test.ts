/**
 * Around the contract (docs/clients.md, *Around the contract*): the help pages of GET /api.asmx, the
 * discovery document (?disco) and the service description (?WSDL). The help
 * pages are generated from the same contract model as the routes, so their
 * samples are well-formed, valid against the schema in the configured
 * namespace, show this deployment's host and path, and name every field the
 * WSDL names; their test form invokes the operation over HTTP POST. Pages are
 * read with an HTML parser (htmlparser2), never with patterns.
 */
import test, { type ExecutionContext } from 'ava';
import { request } from 'node:http';
import { encodeBase32 } from '../../src/service/otp/base32';
import { startTestService, type TestService } from '../support/service';
import { OPERATION_NAMES, ROUTES, VARIANTS, type OperationName as Operation } from '../../generated/routes';
import type { Variant } from '../../src/runtime/definition';
import { SOAP_VERSION, pinFor, send, type Answer } from '../support/requests';
import {
  DEFAULT_NAMESPACE,
  SOAP_CONTENT_TYPES,
  assertSoapEnvelope,
  assertXmlDeclaration,
  validateAgainstContract,
  validateElement,
} from '../support/xml-assertions';
import {
  attributeOf,
  childElements,
  elementsAt,
  elementAt,
  htmlAncestor,
  htmlAttribute,
  htmlElement,
  htmlElements,
  htmlPrecedingSibling,
  htmlTag,
  htmlText,
  loadReaders,
  namespaceInScope,
  namespaceOf,
  readHtml,
  readXml,
  textOf,
  type HtmlDocument,
  type HtmlElement,
} from '../support/readers';

const OTHER_NAMESPACE = 'urn:example:pins/';
const PUBLIC_URL = 'https://pins.example.com/auth';
const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const DISCO_NS = 'http://schemas.xmlsoap.org/disco/';
const DISCO_SCL_NS = 'http://schemas.xmlsoap.org/disco/scl/';
const DISCO_SOAP_NS = 'http://schemas.xmlsoap.org/disco/soap/';

const OPERATIONS: readonly Operation[] = OPERATION_NAMES;
/** The root element of the HTTP GET/POST answer (global elements of the schema); an operation added to schema/ has the route's. */
const HTTP_ROOT: Partial<Record<Operation, string>> = { Pair: 'PairingInfo', ValidatePin: 'boolean' };

let service: TestService; // the defaults
let renamed: TestService; // another namespace
let published: TestService; // behind a public URL with a path prefix

test.before(async () => {
  await loadReaders();
  [service, renamed, published] = await Promise.all([
    startTestService(),
    startTestService({ namespace: OTHER_NAMESPACE }),
    startTestService({ publicUrl: PUBLIC_URL }),
  ]);
});

test.after.always(async () => {
  await Promise.all([service, renamed, published].filter(Boolean).map((s) => s.close()));
});

type Page = Answer & { url: string };

async function get(url: string): Promise<Page> {
  return { url, ...(await send(url, { redirect: 'manual' })) };
}

/** Fetches an HTML page, asserts it is one, and parses it with the HTML parser. */
async function htmlPage(t: ExecutionContext, url: string): Promise<{ page: Page; doc: HtmlDocument }> {
  const page = await get(url);
  t.is(page.status, 200, `GET ${url}`);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  return { page, doc: readHtml(page.body) };
}

const attr = htmlAttribute;

/** The trimmed text of the first element under `root` that passes `test` ('' when there is none). */
const firstText = (root: HtmlDocument | HtmlElement, test: (element: HtmlElement) => boolean) => htmlText(htmlElement(root, test)).trim();

/** The name of a parsed XML document's root element. */
const rootName = (xml: string) => readXml(xml, (doc) => doc.root.name);

/** The address an attribute of the page points at, resolved as a browser would. */
const resolve = (pageUrl: string, reference: string | undefined) => new URL(reference ?? '', pageUrl);

interface Sample {
  /** The request or status line and the headers. */
  head: string[];
  /** What follows the blank line ('' when nothing does, as for HTTP GET requests). */
  body: string;
}

/** The <pre data-variant=… data-kind=…> block of a variant: exactly one, split at the blank line. */
function sampleOf(t: ExecutionContext, doc: HtmlDocument, variant: Variant, kind: 'request' | 'response'): Sample {
  const blocks = htmlElements(doc, htmlTag('pre', { 'data-variant': variant, 'data-kind': kind }));
  t.is(blocks.length, 1, `one ${variant} ${kind} sample`);
  const text = htmlText(blocks[0]);
  const blank = text.indexOf('\n\n');
  const head = (blank < 0 ? text : text.slice(0, blank)).split('\n');
  return { head, body: blank < 0 ? '' : text.slice(blank + 2) };
}

/** A header of a sample's head, by name (case-insensitive); undefined when absent. */
function headerOf(sample: Sample, name: string): string | undefined {
  const line = sample.head.slice(1).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(line.indexOf(':') + 1).trim();
}

/** The request-target of a sample request's first line, e.g. `/api.asmx/Pair?appName=string`. */
function requestTarget(t: ExecutionContext, sample: Sample, method: string): string {
  const [verb, target, version] = sample.head[0].split(' ');
  t.is(verb, method, 'the request method');
  t.is(version, 'HTTP/1.1', 'the HTTP version');
  return target ?? '';
}

/** The names of the parts of a WSDL message, in order: the contract's own list of fields. */
async function wsdlFields(target: TestService, message: string): Promise<string[]> {
  return readXml((await get(`${target.url}/api.asmx?WSDL`)).body, (wsdl) =>
    elementsAt(wsdl, `/wsdl:definitions/wsdl:message[@name='${message}']/wsdl:part`, { wsdl: WSDL_NS }).map((p) => attributeOf(p, 'name')!),
  );
}

// --- The service page ---------------------------------------------------------------------------

test('GET /api.asmx names the service and links each operation and the service description', async (t) => {
  const { page, doc } = await htmlPage(t, `${service.url}/api.asmx`);
  t.is(firstText(doc, htmlTag('h1')), 'AuthenticatorAPI');
  t.is(firstText(doc, htmlTag('title')), 'AuthenticatorAPI');
  t.truthy(htmlElement(doc, htmlTag('meta', { name: 'viewport' })), 'a viewport meta element, for phones');

  const links = htmlElements(doc, htmlTag('a', { href: true })).map((a) => ({
    text: htmlText(a).trim(),
    url: resolve(page.url, attr(a, 'href')),
  }));
  for (const operation of OPERATIONS) {
    const link = links.find((l) => l.text === operation);
    t.truthy(link, `a link named ${operation}`);
    t.is(link?.url.pathname, '/api.asmx');
    t.is(link?.url.search, `?op=${operation}`);
    const target = await get(link!.url.href);
    t.is(target.status, 200, `the ${operation} link answers`);
    t.is(firstText(readHtml(target.body), htmlTag('h1')), operation);
  }

  const wsdlLink = links.find((l) => l.url.search.toLowerCase() === '?wsdl');
  t.truthy(wsdlLink, 'a link to ?WSDL');
  t.is(wsdlLink?.url.pathname, '/api.asmx');
  const wsdl = await get(wsdlLink!.url.href);
  t.is(wsdl.status, 200);
  t.is(rootName(wsdl.body), 'definitions');

  const discoLink = links.find((l) => l.url.search.toLowerCase() === '?disco');
  t.truthy(discoLink, 'a link to ?disco');
  t.is((await get(discoLink!.url.href)).status, 200);

  const main = htmlElement(doc, htmlTag('main'));
  t.truthy(main, 'the page has a main element');
  t.true(htmlText(main).includes(`${service.url}/api.asmx`), 'the page shows the endpoint address');
  t.true(htmlText(main).includes(DEFAULT_NAMESPACE), 'the page shows the namespace');
});

test('the help pages answer at any case of the path', async (t) => {
  for (const path of ['/API.ASMX', '/Api.asmx?op=Pair', '/api.ASMX?op=ValidatePin']) {
    const { doc, page } = await htmlPage(t, `${service.url}${path}`);
    const first = htmlElement(doc, htmlTag('a', { href: true }));
    t.is(resolve(page.url, attr(first, 'href')).pathname.toLowerCase(), '/api.asmx', `${path}: links stay on the endpoint`);
  }
});

/**
 * Every link and form action of every page, resolved as a browser resolves it from the URL the
 * page was asked with, leads to something the service answers: from /api.asmx, /api.asmx/,
 * /API.asmx and /API.asmx/, directly and as seen through a proxy that publishes the service under
 * a path prefix (--public-url https://pins.example.com/auth, the proxy stripping /auth).
 */
const linksWork = test.macro({
  async exec(t, through: 'direct' | 'proxy') {
    const target = through === 'direct' ? service : published;
    const prefix = through === 'direct' ? '' : new URL(PUBLIC_URL).pathname;
    const seenAt = (path: string) => (through === 'direct' ? `${target.url}${path}` : `${PUBLIC_URL}${path}`);
    /** The service's own URL for an address the browser would ask for (the proxy strips the prefix). */
    const servedAt = (url: URL) => {
      t.true(url.pathname.startsWith(`${prefix}/`), `${url.href} stays under the published prefix`);
      return `${target.url}${url.pathname.slice(prefix.length)}${url.search}`;
    };
    for (const endpoint of ['/api.asmx', '/api.asmx/', '/API.asmx', '/API.asmx/']) {
      for (const query of ['', '?op=Pair', '?op=ValidatePin']) {
        const path = `${endpoint}${query}`;
        const { doc } = await htmlPage(t, `${target.url}${path}`);
        const links = htmlElements(doc, htmlTag('a', { href: true })).map((a) => attr(a, 'href')!);
        t.true(links.length >= (query ? 1 : 4), `${path}: links to follow`);
        for (const href of links) {
          const url = resolve(seenAt(path), href);
          t.regex(
            url.pathname.slice(prefix.length).toLowerCase(),
            /^\/(api\.asmx(\/js|\/jsdebug)?|openapi\.json)$/,
            `${path}: ${href} leads to the endpoint, its script proxy or the OpenAPI description`,
          );
          const answer = await get(servedAt(url));
          t.is(answer.status, 200, `${path}: ${href} (${url.pathname}${url.search}) answers`);
        }
        for (const form of htmlElements(doc, htmlTag('form'))) {
          const url = resolve(seenAt(path), attr(form, 'action'));
          const operation = query.slice('?op='.length);
          t.is(
            url.pathname.slice(prefix.length).toLowerCase(),
            `/api.asmx/${operation.toLowerCase()}`,
            `${path}: the form posts to the operation`,
          );
          const fields = htmlElements(form, htmlTag('input')).map((i) => attr(i, 'name')!);
          const values: Record<string, string> = {
            appName: 'Example',
            appInfo: 'a@example.com',
            secretCode: `links-${through}-secret`,
            pin: '000000',
          };
          const answer = await fetch(servedAt(url), {
            method: 'POST',
            body: new URLSearchParams(fields.map((f): [string, string] => [f, values[f] ?? ''])),
          });
          t.is(answer.status, 200, `${path}: the form's POST is answered`);
        }
      }
    }
  },
  title: (_, through: 'direct' | 'proxy') =>
    `links and the form work from /api.asmx, /api.asmx/ and /API.asmx${through === 'proxy' ? ", behind a proxy's path prefix" : ''}`,
});

test(linksWork, 'direct');
test(linksWork, 'proxy');

// --- The operation pages ------------------------------------------------------------------------

const operationPage = test.macro({
  async exec(t, operation: Operation) {
    const { page, doc } = await htmlPage(t, `${service.url}/api.asmx?op=${operation}`);
    t.is(firstText(doc, htmlTag('h1')), operation);
    t.is(firstText(doc, htmlTag('title')), `AuthenticatorAPI: ${operation}`);
    const back = htmlElement(doc, htmlTag('a', { href: true }));
    t.is(resolve(page.url, attr(back, 'href')).href, `${service.url}/api.asmx`, 'a link back to the service page');

    const forms = htmlElements(doc, htmlTag('form'));
    t.is(forms.length, 1, 'one test form');
    const form = forms[0];
    t.is(attr(form, 'method')?.toLowerCase(), 'post', 'the form posts (the HTTP POST variant)');
    t.is(resolve(page.url, attr(form, 'action')).href, `${service.url}/api.asmx/${operation}`, 'the form posts to /api.asmx/{operation}');
    const inputs = htmlElements(form, htmlTag('input')).map((i) => attr(i, 'name'));
    t.deepEqual(inputs, await wsdlFields(service, `${operation}HttpPostIn`), 'one input per field of the contract, in order');
    for (const input of htmlElements(form, htmlTag('input'))) {
      t.truthy(htmlAncestor(input, htmlTag('label')), `input ${attr(input, 'name')} has a label`);
    }
    const submit = htmlTag('button', { type: 'submit' });
    const submitInput = htmlTag('input', { type: 'submit' });
    const buttons = htmlElements(form, (e) => submit(e) || submitInput(e));
    t.is(buttons.length, 1, 'one submit button');
    const answer = htmlElement(doc, htmlTag('pre', { id: 'answer' }));
    t.truthy(answer, 'a place for the answer');
    // Pair's answer is also shown as the QR code and the setup code (drawn by the page's script, which then folds the
    // raw answer: test/system/browser.test.ts), above the raw answer, which stands open in a <details> until then.
    const folded = answer && htmlAncestor(answer, htmlTag('details', { id: 'answer-xml' }));
    const meaning = folded && htmlPrecedingSibling(folded, htmlTag('section', { id: 'meaning' }));
    const withId = (id: string) => (e: HtmlElement) => e.attribs.id === id;
    if (operation === 'Pair') {
      t.not(attr(folded, 'open'), undefined, 'the raw answer in an open <details>');
      t.not(attr(meaning, 'hidden'), undefined, 'above the answer, a section for its meaning, hidden until there is one');
      t.truthy(
        meaning && htmlElement(meaning, withId('qr')) && htmlElement(meaning, htmlTag('code', { id: 'setup-code' })),
        'with a place for the QR code and one for the setup code',
      );
    } else t.falsy(htmlElement(doc, withId('meaning')), 'no pairing section');

    t.deepEqual(
      htmlElements(doc, htmlTag('h2'))
        .map((h) => htmlText(h).trim())
        .filter((h) => h !== 'Test'),
      ['SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST', 'JSON'],
      'a section per variant',
    );
  },
  title: (_, operation: Operation) => `?op=${operation}: the operation, a test form over HTTP POST, samples for the four variants`,
});

for (const operation of OPERATIONS) test(operationPage, operation);

/** Checks every sample of `operation` on `target`'s page: well-formed, schema-valid in `namespace`. */
async function assertSamplesValid(t: ExecutionContext, target: TestService, operation: Operation, namespace: string): Promise<void> {
  const { doc } = await htmlPage(t, `${target.url}/api.asmx?op=${operation}`);
  for (const variant of VARIANTS) {
    const version = SOAP_VERSION[variant];
    for (const kind of ['request', 'response'] as const) {
      const sample = sampleOf(t, doc, variant, kind);
      if (version) {
        t.is(headerOf(sample, 'Content-Type'), SOAP_CONTENT_TYPES[version], `${variant} ${kind}: Content-Type`);
        assertSoapEnvelope(t, sample.body, version, (element) => {
          const expected = kind === 'request' ? operation : `${operation}Response`;
          t.is(element.name, expected, `${variant} ${kind}: the body element`);
          t.is(namespaceOf(element), namespace, `${variant} ${kind}: the body element is in the namespace`);
          const result = validateElement(element, namespace);
          t.true(result.valid, `${variant} ${kind} body against the contract schema: ${result.errors.join('; ')}`);
        });
      } else if (kind === 'response') {
        assertXmlDeclaration(t, sample.body);
        readXml(sample.body, ({ root }) => {
          t.is(root.name, HTTP_ROOT[operation] ?? ROUTES[operation].httpResponseElement, `${variant} response: the root element`);
          t.is(namespaceOf(root), namespace, `${variant} response: the root element is in the namespace`);
        });
        const result = validateAgainstContract(sample.body, namespace);
        t.true(result.valid, `${variant} response against the contract schema: ${result.errors.join('; ')}`);
      }
    }
  }
}

const samplesValid = test.macro({
  async exec(t, operation: Operation, which: 'default' | 'configured') {
    const [target, namespace] = which === 'default' ? [service, DEFAULT_NAMESPACE] : [renamed, OTHER_NAMESPACE];
    await assertSamplesValid(t, target, operation, namespace);
  },
  title: (_, operation: Operation, which: 'default' | 'configured') =>
    `?op=${operation}: every sample is well-formed and valid against the schema (${which} namespace)`,
});

for (const operation of OPERATIONS) {
  test(samplesValid, operation, 'default');
  test(samplesValid, operation, 'configured');
}

test('a configured namespace is the one the pages show, everywhere', async (t) => {
  const index = await htmlPage(t, `${renamed.url}/api.asmx`);
  t.true(htmlText(htmlElement(index.doc, htmlTag('main'))).includes(OTHER_NAMESPACE), 'the service page shows the namespace');
  for (const operation of OPERATIONS) {
    const { page, doc } = await htmlPage(t, `${renamed.url}/api.asmx?op=${operation}`);
    t.false(page.body.includes(DEFAULT_NAMESPACE), `?op=${operation} does not mention the default namespace`);
    t.is(
      headerOf(sampleOf(t, doc, 'soap11', 'request'), 'SOAPAction'),
      `"${OTHER_NAMESPACE}${operation}"`,
      'the SOAPAction follows the namespace',
    );
    // The samples are not valid in the default namespace: the validation above is not vacuous.
    assertSoapEnvelope(t, sampleOf(t, doc, 'soap11', 'request').body, '1.1', (element) => {
      t.false(validateElement(element, DEFAULT_NAMESPACE).valid, 'a sample in the configured namespace is invalid in the default one');
    });
  }
});

const samplesShowDeployment = test.macro({
  async exec(t, operation: Operation, which: 'request' | 'public URL') {
    const target = which === 'request' ? service : published;
    const base = new URL(which === 'request' ? target.url : PUBLIC_URL);
    const path = `${base.pathname.replace(/\/$/, '')}/api.asmx`;
    const { doc } = await htmlPage(t, `${target.url}/api.asmx?op=${operation}`);
    for (const variant of VARIANTS) {
      const sample = sampleOf(t, doc, variant, 'request');
      t.is(headerOf(sample, 'Host'), base.host, `${variant}: Host is this deployment's`);
      const method = variant === 'httpGet' ? 'GET' : 'POST';
      const requested = new URL(requestTarget(t, sample, method), 'http://x');
      const expectedPath = variant.startsWith('soap') ? path : `${path}/${operation}`;
      t.is(requested.pathname, expectedPath, `${variant}: the request path is this deployment's`);
    }
  },
  title: (_, operation: Operation, which: 'request' | 'public URL') =>
    `?op=${operation}: the samples show this deployment's host and path (from the ${which})`,
});

for (const operation of OPERATIONS) {
  test(samplesShowDeployment, operation, 'request');
  test(samplesShowDeployment, operation, 'public URL');
}

test('the samples take their host from the Host header the page was asked with', async (t) => {
  const { status, body } = await rawGet(service, '/api.asmx?op=ValidatePin', 'pins.example.org:8443');
  t.is(status, 200);
  const sample = sampleOf(t, readHtml(body), 'soap12', 'request');
  t.is(headerOf(sample, 'Host'), 'pins.example.org:8443');
});

const httpSamplesNameEveryField = test.macro({
  async exec(t, operation: Operation) {
    const { doc } = await htmlPage(t, `${service.url}/api.asmx?op=${operation}`);
    const getSample = sampleOf(t, doc, 'httpGet', 'request');
    t.is(getSample.body, '', 'an HTTP GET request has no body');
    const query = new URL(requestTarget(t, getSample, 'GET'), 'http://x').searchParams;
    t.deepEqual([...query.keys()], await wsdlFields(service, `${operation}HttpGetIn`), 'the GET query names every field, in order');
    t.true(
      [...query.values()].every((v) => v !== ''),
      'each with a placeholder value',
    );

    const postSample = sampleOf(t, doc, 'httpPost', 'request');
    t.is(headerOf(postSample, 'Content-Type'), 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(postSample.body);
    t.deepEqual([...form.keys()], await wsdlFields(service, `${operation}HttpPostIn`), 'the POST body names every field, in order');
  },
  title: (_, operation: Operation) => `?op=${operation}: the HTTP GET and POST samples name every field of the WSDL`,
});

for (const operation of OPERATIONS) test(httpSamplesNameEveryField, operation);

test('the ValidatePin samples, sent as they are, are answered in the shape of the response samples', async (t) => {
  const { doc } = await htmlPage(t, `${service.url}/api.asmx?op=ValidatePin`);
  for (const variant of VARIANTS) {
    const sample = sampleOf(t, doc, variant, 'request');
    const method = variant === 'httpGet' ? 'GET' : 'POST';
    const headers: Record<string, string> = {};
    for (const name of ['Content-Type', 'SOAPAction']) {
      const value = headerOf(sample, name);
      if (value !== undefined) headers[name] = value;
    }
    const url = new URL(requestTarget(t, sample, method), service.url);
    const response = await fetch(url, { method, headers, body: method === 'POST' ? sample.body : undefined });
    const answer = await response.text();
    t.is(response.status, 200, `${variant}: the sample request is accepted (${answer.slice(0, 200)})`);
    const shape = (xml: string): string[] => readXml(xml, (d) => elementsAt(d, '//*').map((e) => `{${namespaceOf(e)}}${e.name}`));
    const expected = shape(sampleOf(t, doc, variant, 'response').body);
    t.deepEqual(shape(answer), expected, `${variant}: the answer has the elements of the response sample`);
  }
});

test('the test form, posted as a browser posts it, invokes the operation over HTTP POST', async (t) => {
  for (const operation of OPERATIONS) {
    const { page, doc } = await htmlPage(t, `${service.url}/api.asmx?op=${operation}`);
    const form = htmlElement(doc, htmlTag('form'))!;
    const secret = `help-form-${operation}-secret`;
    const values: Record<string, string> =
      operation === 'Pair'
        ? { appName: 'Example', appInfo: 'alice@example.com', secretCode: secret }
        : { pin: pinFor(service, secret), secretCode: secret };
    const body = new URLSearchParams(
      htmlElements(form, htmlTag('input')).map((i): [string, string] => [attr(i, 'name')!, values[attr(i, 'name')!]]),
    );
    const response = await fetch(resolve(page.url, attr(form, 'action')), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body,
    });
    const ns = { t: DEFAULT_NAMESPACE };
    const answered = readXml(await response.text(), (answer) => {
      const result = elementAt(answer, operation === 'Pair' ? '/t:PairingInfo/t:ManualSetupCode' : '/t:boolean', ns);
      return result ? textOf(result) : undefined;
    });
    t.is(response.status, 200);
    t.is(answered, operation === 'Pair' ? encodeBase32(Buffer.from(secret, 'utf8')) : 'true');
  }
});

test('the help pages load nothing from elsewhere and allow no other origin', async (t) => {
  for (const path of ['/api.asmx', '/api.asmx?op=Pair', '/api.asmx?op=ValidatePin']) {
    const { page, doc } = await htmlPage(t, `${service.url}${path}`);
    const origin = new URL(service.url).origin;
    const loading = ['link', 'iframe', 'object', 'embed', 'img', 'video', 'audio', 'source'];
    const scriptFrom = htmlTag('script', { src: true });
    t.is(htmlElements(doc, (e) => loading.includes(e.name) || scriptFrom(e)).length, 0, `${path}: no external resource element`);
    for (const element of htmlElements(doc, (e) => ['href', 'src', 'action'].some((name) => attr(e, name) !== undefined))) {
      const reference = attr(element, 'href') ?? attr(element, 'src') ?? attr(element, 'action');
      t.is(resolve(page.url, reference).origin, origin, `${path}: ${element.name} points at this service (${reference})`);
    }
    for (const style of htmlElements(doc, htmlTag('style'))) {
      t.false(/url\(|@import/i.test(htmlText(style)), `${path}: the style sheet loads nothing`);
    }
    const csp = page.headers.get('content-security-policy') ?? '';
    t.true(
      csp
        .split(';')
        .map((d) => d.trim())
        .includes("default-src 'none'"),
      `${path}: the CSP allows nothing by default (${csp})`,
    );
    t.true(
      csp
        .split(';')
        .map((d) => d.trim())
        .includes("connect-src 'self'"),
      `${path}: the form's script talks to this service only`,
    );
    t.is(page.headers.get('x-content-type-options'), 'nosniff');
  }
});

// --- ?disco and ?WSDL ---------------------------------------------------------------------------

const discovery = test.macro({
  async exec(t, which: 'default' | 'configured') {
    const [target, namespace, base] =
      which === 'default' ? [service, DEFAULT_NAMESPACE, service.url] : [published, DEFAULT_NAMESPACE, PUBLIC_URL];
    const address = `${base}/api.asmx`;
    const page = await get(`${target.url}/api.asmx?disco`);
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/xml; charset=utf-8');
    assertXmlDeclaration(t, page.body);
    readXml(page.body, ({ root }) => {
      t.is(root.name, 'discovery');
      t.is(namespaceOf(root), DISCO_NS);

      const contractRefs = childElements(root).filter((e) => e.name === 'contractRef');
      t.is(contractRefs.length, 1, 'one contractRef');
      t.is(namespaceOf(contractRefs[0]), DISCO_SCL_NS);
      t.is(attributeOf(contractRefs[0], 'ref'), `${address}?wsdl`, 'contractRef points at the WSDL');
      t.is(attributeOf(contractRefs[0], 'docRef'), address);

      const soaps = childElements(root).filter((e) => e.name === 'soap');
      t.true(
        soaps.every((s) => namespaceOf(s) === DISCO_SOAP_NS),
        'soap elements in the disco/soap namespace',
      );
      t.true(
        soaps.every((s) => attributeOf(s, 'address') === address),
        'each soap address is the endpoint',
      );
      const bindings = soaps.map((s) => {
        const [prefix, local] = (attributeOf(s, 'binding') ?? '').split(':');
        return `{${namespaceInScope(s, prefix)}}${local}`;
      });
      t.deepEqual(
        bindings,
        [`{${namespace}}AuthenticatorAPISoap`, `{${namespace}}AuthenticatorAPISoap12`],
        'the SOAP 1.1 and 1.2 bindings, as QNames in the namespace',
      );
    });

    // The contractRef really is the WSDL.
    const wsdl = await get(`${target.url}/api.asmx?wsdl`);
    t.is(wsdl.status, 200);
    t.is(rootName(wsdl.body), 'definitions');
  },
  title: (_, which: 'default' | 'configured') =>
    `?disco: the discovery document points at the WSDL and the SOAP address (${which} address)`,
});

test(discovery, 'default');
test(discovery, 'configured');

test('?disco follows a configured namespace', async (t) => {
  readXml((await get(`${renamed.url}/api.asmx?disco`)).body, (doc) => {
    const soaps = elementsAt(doc, '//s:soap', { s: DISCO_SOAP_NS });
    t.is(soaps.length, 2);
    for (const soap of soaps) {
      const prefix = (attributeOf(soap, 'binding') ?? '').split(':')[0];
      t.is(namespaceInScope(soap, prefix), OTHER_NAMESPACE);
    }
  });
});

test('?WSDL answers the service description in any case of the keyword', async (t) => {
  const bodies: string[] = [];
  for (const keyword of ['wsdl', 'WSDL', 'Wsdl', 'wSdL']) {
    const page = await get(`${service.url}/api.asmx?${keyword}`);
    t.is(page.status, 200, `?${keyword}`);
    t.is(page.headers.get('content-type'), 'text/xml; charset=utf-8', `?${keyword}`);
    readXml(page.body, ({ root }) => {
      t.is(root.name, 'definitions', `?${keyword}`);
      t.is(namespaceOf(root), WSDL_NS, `?${keyword}`);
      t.is(attributeOf(root, 'targetNamespace'), DEFAULT_NAMESPACE);
    });
    bodies.push(page.body);
  }
  t.true(
    bodies.every((b) => b === bodies[0]),
    'the same document each time',
  );
  t.true(bodies[0].includes(`location="${service.url}/api.asmx"`), "the addresses are this deployment's");
  for (const keyword of ['DISCO', 'Disco']) {
    t.is(rootName((await get(`${service.url}/api.asmx?${keyword}`)).body), 'discovery', `?${keyword}`);
  }
});

test('an unknown ?op, or any other query, is 404 with one line of text', async (t) => {
  for (const query of ['op=Nope', 'op=', 'op=Pair&op=ValidatePin', 'op=Pair&x=1', 'foo', 'wsdl=1', 'op=Pair%00']) {
    const page = await get(`${service.url}/api.asmx?${query}`);
    t.is(page.status, 404, `?${query}`);
    t.is(page.headers.get('content-type'), 'text/plain; charset=utf-8', `?${query}`);
    t.is(page.body.trimEnd().split('\n').length, 1, `?${query}: one line`);
    t.false(page.body.includes('    at '), `?${query}: no stack trace`);
  }
});

// --- A hostile Host header ----------------------------------------------------------------------

function rawGet(target: TestService, path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(target.url);
  return new Promise((done, fail) => {
    const call = request({ host: url.hostname, port: url.port, path, headers: { Host: host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', fail);
    call.end();
  });
}

test('a Host header with markup in it is refused on every page, never echoed', async (t) => {
  const host = 'pins.example.org"><script>alert(1)</script>';
  for (const path of ['/api.asmx?disco', '/api.asmx?WSDL', '/api.asmx', '/api.asmx?op=ValidatePin']) {
    const { status, body } = await rawGet(service, path, host);
    t.is(status, 400, `${path}: a client error`);
    t.false(body.includes('<script>') || body.includes('pins.example.org'), `${path}: nothing of the Host header in the answer`);
  }
});

test('a valid Host header, with a port or as an IPv6 address, is the one the documents and pages show', async (t) => {
  for (const host of ['pins-1.example.org:8443', '[::1]:8443']) {
    for (const path of ['/api.asmx?disco', '/api.asmx?WSDL', '/api.asmx?op=ValidatePin']) {
      const { status, body } = await rawGet(service, path, host);
      t.is(status, 200, `${path} with Host: ${host}`);
      if (path === '/api.asmx?op=ValidatePin') {
        t.true(body.includes(`Host: ${host}`), `${path}: the samples are for Host: ${host}`);
      } else {
        t.notThrows(() => readXml(body, () => undefined), `${path}: well-formed`);
        t.true(body.includes(`http://${host}/api.asmx`), `${path}: the address holds Host: ${host}`);
      }
    }
  }
});

// Found by this suite: `new URL(address)` in service-description.ts throws on such a Host, answered 500.
test('a malformed Host header on the help pages is a client error (400), not a server error', async (t) => {
  for (const [path, host] of [
    ['/api.asmx', 'a b'],
    ['/api.asmx?op=Pair', 'pins.example.org"><script>'],
  ] as const) {
    const { status } = await rawGet(service, path, host);
    t.is(status, 400, `GET ${path} with Host: ${host}`);
  }
});
