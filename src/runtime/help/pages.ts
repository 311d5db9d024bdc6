/**
 * The help pages of GET /Service.asmx, as users of ASMX services expect them:
 * the service page listing the operations, and one page per operation with
 * the sample requests and responses of all four variants and of JSON, and a test form
 * that invokes the operation over HTTP POST. Rendered from handlebars
 * templates compiled once; no external assets. A service may add a sentence
 * to the service page and a part to an operation's page (HelpOptions).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { Contract } from '../contract';
import type { OperationName, OperationsOf, Variant } from '../definition';
import { samplesFor, type SampleSite } from './samples';

// Progressive enhancement: without script the form posts and the browser shows the XML answer. With it, the
// answer is shown under the form, and an `answer` event on #answer ({ status, text }) lets a page's extension
// show what the answer means (a service's own script, see HelpExtension).
const INVOKE_SCRIPT = `
const form = document.getElementById('invoke');
const answer = document.getElementById('answer');
const told = (status, text) => answer.dispatchEvent(new CustomEvent('answer', { detail: { status, text } }));
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  answer.textContent = '…';
  told(0, '');
  try {
    const response = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)) });
    const text = await response.text();
    answer.textContent = 'HTTP ' + response.status + '\\n\\n' + text;
    told(response.status, text);
  } catch (error) {
    answer.textContent = 'The request failed: ' + error.message;
  }
});`;

/**
 * What a service adds to an operation's help page with a test form: shown above the form's answer, which stands in
 * `<details id="answer-xml" open>` (the extension's script may fold it once it shows what the answer means).
 */
export interface HelpExtension {
  /** HTML placed above the folded answer (it may hold its own <style>). */
  markup: string;
  /** A script run after the page's own: it hears `answer` events on #answer, whose detail is `{ status, text }`. */
  script: string;
}

/** What a service says on its help pages besides what the contract says. */
export interface HelpOptions<Name extends string> {
  /** The service page's first sentence; none when absent. */
  lead?: string;
  extensions?: Partial<Record<Name, HelpExtension>>;
}

const sha256 = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** Only the pages' own scripts may run, and a page may talk to this service only. */
function contentSecurityPolicy(scripts: readonly string[]): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${scripts.map(sha256).join(' ')}`,
    "connect-src 'self'",
    "form-action 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface HelpSite extends SampleSite {
  /** Absolute address of the endpoint, e.g. `https://example.com/Service.asmx`. */
  address: string;
  /** The endpoint's address relative to the page's own URL, e.g. `Service.asmx`, or `../Service.asmx` from `/Service.asmx/`. */
  endpointLink: string;
}

export interface HelpPages<Name extends string> {
  index(site: HelpSite): string;
  operation(name: Name, site: HelpSite): string;
  /** The Content-Security-Policy the pages are served with. */
  contentSecurityPolicy: string;
}

export function createHelpPages<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  { lead, extensions = {} }: HelpOptions<OperationName<Ops>> = {},
): HelpPages<OperationName<Ops>> {
  const dir = join(__dirname, 'templates');
  const compile = (name: string) => Handlebars.compile(readFileSync(join(dir, `${name}.hbs`), 'utf8'), { strict: true });
  const layout = compile('layout');
  const index = compile('index');
  const operation = compile('operation');
  const page = (title: string, body: string) => layout({ title, body });
  const { serviceName, operationNames, routes, variants } = contract.definition;
  const extensionScripts = Object.values<HelpExtension | undefined>(extensions).flatMap((e) => (e ? [e.script] : []));

  return {
    contentSecurityPolicy: contentSecurityPolicy([INVOKE_SCRIPT, ...extensionScripts]),
    index(site: HelpSite): string {
      const operations = operationNames.map((name) => ({ name, documentation: routes[name].documentation }));
      return page(
        serviceName,
        index({
          service: serviceName,
          lead: lead ?? false,
          operations,
          endpoint: site.endpointLink,
          // /openapi.json is the endpoint's sibling, so the link is relative to it the same way.
          openApi: site.endpointLink.replace(/[^/]*$/, 'openapi.json'),
          address: site.address,
          namespace: contract.namespace,
          variants: variants.map((v) => VARIANT_TITLES[v]).join(', '),
          // What /openapi.json describes: the HTTP variants the WSDL declares, and JSON.
          described: described(variants),
          firstOperation: routes[operationNames[0]].httpOperation,
        }),
      );
    },
    operation(name: OperationName<Ops>, site: HelpSite): string {
      const route = routes[name];
      const extension = extensions[name];
      return page(
        `${serviceName}: ${name}`,
        operation({
          service: serviceName,
          name,
          documentation: route.documentation,
          endpoint: site.endpointLink,
          httpOperation: route.httpOperation,
          fields: route.httpFields,
          xmlBody: route.httpXml ?? false,
          // The form POSTs the fields to the HTTP POST variant: there is none without that port, nor for a request
          // HTTP fields cannot carry.
          form: variants.includes('httpPost') && route.httpXml === undefined && (route.fromFields || route.requestElement === ''),
          samples: samplesFor(route, contract, site),
          extension: extension ?? false,
          script: INVOKE_SCRIPT,
        }),
      );
    },
  };
}

/** What /openapi.json describes: the HTTP variants the WSDL declares, and JSON (`HTTP GET, HTTP POST and JSON variants are`). */
function described(variants: readonly Variant[]): string {
  const names = [...variants.filter((v) => v === 'httpGet' || v === 'httpPost').map((v) => VARIANT_TITLES[v]), 'JSON'];
  return names.length === 1 ? 'JSON variant is' : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} variants are`;
}

const VARIANT_TITLES: Record<Variant, string> = { soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', httpGet: 'HTTP GET', httpPost: 'HTTP POST' };
