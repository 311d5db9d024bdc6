/**
 * The help pages the runtime serves for a contract (src/runtime/help/), on
 * the calculator fixture contract served by the runtime's host: the service
 * page names the service and links each operation and the documents; each
 * operation's page shows its samples, which are valid against the
 * contract's schemas and, sent as they are, answered in their shape; the
 * pages load nothing from elsewhere. (The service's own contract tests,
 * test/service/help-pages.test.ts, check the same on its contract.)
 */
import test, { type ExecutionContext } from 'ava';
import { join } from 'node:path';
import type { XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet, firstLibxmlMessage } from '../../../src/runtime/xml/xml-schema';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../../support/fixture-contract';
import {
  type HtmlDocument,
  elementsAt,
  htmlAttribute,
  htmlElement,
  htmlElements,
  htmlTag,
  htmlText,
  loadReaders,
  namespaceOf,
  readHtml,
  readXml,
} from '../../support/readers';
import { soapEnvelopeValidator } from '../../support/soap-schemas';
import { type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';

const NS = 'http://calculator.example.org/';
const OPERATIONS = ['Add', 'Subtract', 'Multiply', 'Divide', 'Average', 'Clear'];
const SOAP_VARIANTS: ReadonlyArray<readonly [variant: string, version: SoapVersionName]> = [
  ['soap11', '1.1'],
  ['soap12', '1.2'],
];

let calculator: FixtureContract;
let served: ServedFixture;
let schema: XsdValidator;

test.before(async () => {
  await loadReaders();
  calculator = await generateFixture('calculator');
  served = await serveFixture(calculator.definition);
  const documents = require(join(calculator.folder, 'documents.js')) as { renderSchemas(namespace: string): readonly string[] };
  schema = compileSchemaSet(documents.renderSchemas(NS));
});

test.after.always(async () => {
  await served?.close();
  calculator?.remove();
});

async function page(t: ExecutionContext, url: string): Promise<HtmlDocument> {
  const answer = await fetch(url);
  t.is(answer.status, 200, `GET ${url}`);
  t.is(answer.headers.get('content-type'), 'text/html; charset=utf-8', url);
  t.truthy(answer.headers.get('content-security-policy'), `${url}: a Content-Security-Policy`);
  t.is(answer.headers.get('x-content-type-options'), 'nosniff', url);
  return readHtml(await answer.text());
}

const heading = (doc: HtmlDocument) => htmlText(htmlElement(doc, htmlTag('h1'))).trim();

test('the service page names the service and links each operation, the WSDL and the DISCO document', async (t) => {
  const doc = await page(t, served.endpoint);
  t.is(heading(doc), 'Calculator');
  const links = htmlElements(doc, htmlTag('a', { href: true })).map((a) => ({
    text: htmlText(a).trim(),
    url: new URL(htmlAttribute(a, 'href') ?? '', served.endpoint),
  }));
  for (const operation of OPERATIONS) {
    const link = links.find((l) => l.text === operation);
    t.is(link?.url.search, `?op=${operation}`, `a link to ${operation}`);
    t.is(heading(await page(t, link!.url.href)), operation, `the ${operation} link leads to its page`);
  }
  for (const query of ['?wsdl', '?disco']) {
    const link = links.find((l) => l.url.search.toLowerCase() === query);
    t.truthy(link, `a link to ${query}`);
    t.is((await fetch(link!.url)).status, 200, `${query} answers`);
  }
  t.true(htmlText(htmlElement(doc, htmlTag('main'))).includes(served.endpoint), 'the page shows the endpoint');
});

test('the pages load nothing from elsewhere: every script, style sheet and image is of this server', async (t) => {
  for (const url of [served.endpoint, ...OPERATIONS.map((operation) => `${served.endpoint}?op=${operation}`)]) {
    const doc = await page(t, url);
    const sources = [
      ...htmlElements(doc, htmlTag('script', { src: true })).map((e) => htmlAttribute(e, 'src')),
      ...htmlElements(doc, htmlTag('link', { href: true })).map((e) => htmlAttribute(e, 'href')),
      ...htmlElements(doc, htmlTag('img', { src: true })).map((e) => htmlAttribute(e, 'src')),
    ];
    for (const source of sources) t.is(new URL(source ?? '', url).origin, new URL(served.url).origin, `${url}: ${source}`);
  }
});

/** The text of the <pre data-variant=… data-kind=…> block of a variant, split at the blank line after its head. */
function sampleOf(t: ExecutionContext, doc: HtmlDocument, variant: string, kind: 'request' | 'response') {
  const blocks = htmlElements(doc, htmlTag('pre', { 'data-variant': variant, 'data-kind': kind }));
  t.is(blocks.length, 1, `one ${variant} ${kind} sample`);
  const text = htmlText(blocks[0]);
  const blank = text.indexOf('\n\n');
  const head = text.slice(0, blank).split('\n');
  const header = (name: string) =>
    head
      .slice(1)
      .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.replace(/^[^:]*:\s*/, '');
  return { head, header, body: text.slice(blank + 2) };
}

function assertValid(t: ExecutionContext, validator: XsdValidator, element: Parameters<XsdValidator['validate']>[0], what: string): void {
  try {
    validator.validate(element);
    t.pass();
  } catch (error) {
    t.fail(`${what} is not valid: ${firstLibxmlMessage(error)}`);
  }
}

/** The element names of an XML text, in document order. */
const shape = (text: string) => readXml(text, (doc) => elementsAt(doc, '//*').map((e) => `{${namespaceOf(e)}}${e.name}`));

for (const operation of OPERATIONS) {
  test(`?op=${operation}: the SOAP samples are valid envelopes holding elements valid against the contract, and the request, sent as it is, is answered in the response's shape`, async (t) => {
    const doc = await page(t, `${served.endpoint}?op=${operation}`);
    t.is(heading(doc), operation);
    for (const [variant, version] of SOAP_VARIANTS) {
      const request = sampleOf(t, doc, variant, 'request');
      const response = sampleOf(t, doc, variant, 'response');
      for (const [kind, sample] of [
        ['request', request],
        ['response', response],
      ] as const) {
        readXml(sample.body, (parsed) =>
          assertValid(t, soapEnvelopeValidator(version), parsed.root, `the ${variant} ${kind} sample's envelope`),
        );
        assertSoapEnvelope(t, sample.body, version, (element) => {
          t.is(namespaceOf(element), NS, `the ${variant} ${kind} sample's element is the contract's`);
          assertValid(t, schema, element, `the ${variant} ${kind} sample's ${element.name}`);
        });
      }
      const [method, target] = request.head[0].split(' ');
      t.is(method, 'POST');
      const headers: Record<string, string> = { 'Content-Type': request.header('Content-Type') ?? '' };
      const action = request.header('SOAPAction');
      if (action !== undefined) headers.SOAPAction = action;
      const answer = await fetch(new URL(target, served.url), { method: 'POST', headers, body: request.body });
      const text = await answer.text();
      t.is(answer.status, 200, `${variant}: the sample request is answered (${text.slice(0, 200)})`);
      readXml(text, (parsed) => assertValid(t, soapEnvelopeValidator(version), parsed.root, `the ${variant} answer's envelope`));
      assertSoapEnvelope(t, text, version, (element) => assertValid(t, schema, element, `the ${variant} answer's ${element.name}`));
      t.deepEqual(shape(text), shape(response.body), `${variant}: the answer has the elements of the response sample`);
    }
  });
}

test('the index says which variants OpenAPI describes, the operation page offers the form where HTTP POST takes it; a contract of SOAP ports only offers none', async (t) => {
  const text = (doc: HtmlDocument) => htmlText(htmlElement(doc, htmlTag('main'))).replace(/\s+/g, ' ');
  t.regex(text(await page(t, served.endpoint)), /the HTTP POST and JSON variants are described in OpenAPI 3\.1/);
  const add = await page(t, `${served.endpoint}?op=Add`);
  t.is(htmlElements(add, htmlTag('form')).length, 1);
  t.regex(text(add), /fill in the fields and click Invoke/);

  // The rpc/encoded tracker has SOAP ports only: JSON is what OpenAPI describes, and no page has a form to POST.
  const tracker = await generateFixture('rpc-encoded');
  const soapOnly = await serveFixture(tracker.definition);
  try {
    t.regex(text(await page(t, soapOnly.endpoint)), /the JSON variant is described in OpenAPI 3\.1/);
    for (const operation of tracker.definition.operationNames) {
      const operationPage = await page(t, `${soapOnly.endpoint}?op=${operation}`);
      t.is(htmlElements(operationPage, htmlTag('form')).length, 0, operation);
      t.is(htmlElements(operationPage, htmlTag('script')).length, 0, operation);
      t.regex(
        text(operationPage),
        /The test form is only available for operations the service takes over HTTP POST with fields/,
        operation,
      );
    }
  } finally {
    await soapOnly.close();
    tracker.remove();
  }
});

test('/favicon.ico is an icon, not a 404', async (t) => {
  const answer = await fetch(`${served.url}/favicon.ico`);
  t.is(answer.status, 200);
  t.is(answer.headers.get('content-type'), 'image/svg+xml');
  t.is(
    readXml(await answer.text(), (icon) => icon.root.namespaceUri),
    'http://www.w3.org/2000/svg',
  );
});
