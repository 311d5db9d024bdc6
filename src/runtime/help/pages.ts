/**
 * The help pages of GET /api.asmx, as users of ASMX services expect them:
 * the service page listing the operations, and one page per operation with
 * the sample requests and responses of all four variants and of JSON, and a test form
 * that invokes the operation over HTTP POST. Rendered from handlebars
 * templates compiled once; no external assets.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { OPERATION_NAMES, ROUTES, SERVICE_NAME, type OperationName } from '../../../generated/routes';
import type { Contract } from '../contract';
import { samplesFor, type SampleSite } from './samples';

// Progressive enhancement: without script the form posts and the browser shows the XML answer.
// A PairingInfo answer is also shown as a person needs it: the QR code drawn, the setup code as text.
// Both are read with the browser's own parsers; the Html is never inserted as markup.
const INVOKE_SCRIPT = `
const form = document.getElementById('invoke');
const answer = document.getElementById('answer');
const meaning = document.getElementById('meaning');
function showPairing(status, text) {
  if (!meaning) return;
  meaning.hidden = true;
  const qr = document.getElementById('qr');
  qr.replaceChildren();
  const info = status === 200 ? new DOMParser().parseFromString(text, 'application/xml').documentElement : null;
  if (!info || info.localName !== 'PairingInfo') return;
  const field = (name) => [...info.children].find((e) => e.localName === name)?.textContent ?? '';
  const fragment = new DOMParser().parseFromString(field('Html'), 'text/html');
  const source = fragment.querySelector('img[src]')?.getAttribute('src');
  const target = fragment.querySelector('a[href]')?.getAttribute('href') ?? '';
  if (source) {
    const image = document.createElement('img');
    image.src = source;
    image.alt = 'QR code to scan with the authenticator app';
    if (target.startsWith('otpauth:')) {
      const link = document.createElement('a');
      link.href = target;
      link.append(image);
      qr.append(link);
    } else qr.append(image);
  }
  document.getElementById('setup-code').textContent = field('ManualSetupCode');
  meaning.hidden = false;
}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  answer.textContent = '…';
  showPairing(0, '');
  try {
    const response = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)) });
    const text = await response.text();
    answer.textContent = 'HTTP ' + response.status + '\\n\\n' + text;
    showPairing(response.status, text);
  } catch (error) {
    answer.textContent = 'The request failed: ' + error.message;
  }
});`;

/** Only the script above may run, and the page may talk to this service only. */
export const HELP_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(INVOKE_SCRIPT).digest('base64')}'`,
  "connect-src 'self'",
  "form-action 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface HelpSite extends SampleSite {
  /** Absolute address of the endpoint, e.g. `https://pins.example.com/api.asmx`. */
  address: string;
  /** The endpoint's address relative to the page's own URL, e.g. `api.asmx`, or `../api.asmx` from `/api.asmx/`. */
  endpointLink: string;
}

/** `showsPairing`: the operations whose Invoke shows the answer's QR code and setup code (Pair for schema/). */
export function createHelpPages(contract: Contract, showsPairing: ReadonlySet<OperationName>) {
  const dir = join(__dirname, 'templates');
  const compile = (name: string) => Handlebars.compile(readFileSync(join(dir, `${name}.hbs`), 'utf8'), { strict: true });
  const layout = compile('layout');
  const index = compile('index');
  const operation = compile('operation');
  const page = (title: string, body: string) => layout({ title, body });

  return {
    index(site: HelpSite): string {
      const operations = OPERATION_NAMES.map((name) => ({ name, documentation: ROUTES[name].documentation }));
      return page(
        SERVICE_NAME,
        index({
          service: SERVICE_NAME,
          operations,
          endpoint: site.endpointLink,
          // /openapi.json is the endpoint's sibling, so the link is relative to it the same way.
          openApi: site.endpointLink.replace(/[^/]*$/, 'openapi.json'),
          address: site.address,
          namespace: contract.namespace,
        }),
      );
    },
    operation(name: OperationName, site: HelpSite): string {
      const route = ROUTES[name];
      return page(
        `${SERVICE_NAME}: ${name}`,
        operation({
          service: SERVICE_NAME,
          name,
          documentation: route.documentation,
          endpoint: site.endpointLink,
          httpOperation: route.httpOperation,
          fields: route.httpFields,
          samples: samplesFor(route, contract, site),
          pairing: showsPairing.has(name),
          script: INVOKE_SCRIPT,
        }),
      );
    },
  };
}
