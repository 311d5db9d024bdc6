/**
 * GET /api.asmx (the endpoint path), as ASMX answers it: `?WSDL` the self-contained service
 * description, `?disco` the discovery document, `?op=Name` an operation's
 * help page, and no query the service's help page. The query keywords match
 * in any case.
 */
import type { CallContext } from '../call-state';
import { ENDPOINT_PATH, OPERATION_NAMES, PORTS, type OperationName } from '../../../generated/routes';
import type { Config } from '../../config';
import type { Contract } from '../contract';
import { ServiceError, clientError } from '../errors';
import { createHelpPages, HELP_CSP, type HelpSite } from '../help/pages';
import { XML_DECLARATION, XSD_NAMESPACE, XSI_NAMESPACE, escapeXmlAttribute } from '../xml/xml-codec';
import { parseUrlEncoded } from '../bindings/form';

/** The endpoint path's last segment, e.g. `api.asmx`. */
const ENDPOINT_NAME = ENDPOINT_PATH.slice(ENDPOINT_PATH.lastIndexOf('/') + 1);

/** The answer to a query that names no document or operation: what it may name. */
const NOT_FOUND = `Use ?WSDL, ?disco or ${OPERATION_NAMES.map((name) => `?op=${name}`).join(' / ')}.`;

/**
 * The base URL of this deployment: the configured public URL, or the
 * request's own (Host, and X-Forwarded-* with --trust-proxy). A Host that
 * makes no URL is the caller's mistake.
 */
export function publicBase(ctx: CallContext, config: Pick<Config, 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  if (!HOST_HEADER.test(ctx.host)) throw clientError('The Host header is not a valid host name.');
  return `${ctx.protocol}://${ctx.host}`;
}

/** The endpoint's absolute address on this deployment, e.g. `https://pins.example.com/auth/api.asmx`. */
export function endpointAddress(ctx: CallContext, config: Pick<Config, 'publicUrl'>): string {
  return `${publicBase(ctx, config)}${ENDPOINT_PATH}`;
}

/** A host name or IPv4 address, or a bracketed IPv6 address, with an optional port: a Host header that makes a URL. */
export const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * GET /: to the service page. Relative without a public URL, so that it also
 * lands right behind a proxy that serves the service under a path prefix.
 */
export function toServicePage(config: Pick<Config, 'publicUrl'>) {
  return async function redirect(ctx: CallContext): Promise<void> {
    ctx.redirect(config.publicUrl ? endpointAddress(ctx, config) : ENDPOINT_PATH.slice(1));
  };
}

/** `showsPairing`: see createHelpPages. */
export function serviceDescription(contract: Contract, config: Config, showsPairing: ReadonlySet<OperationName>) {
  const help = createHelpPages(contract, showsPairing);
  return async function description(ctx: CallContext): Promise<void> {
    const address = endpointAddress(ctx, config);
    const query = ctx.querystring.toLowerCase();
    if (query === 'wsdl') {
      ctx.set('Content-Type', 'text/xml; charset=utf-8');
      ctx.body = contract.wsdl(address);
      return;
    }
    if (query === 'disco') {
      ctx.set('Content-Type', 'text/xml; charset=utf-8');
      ctx.body = discovery(contract, address);
      return;
    }
    const url = new URL(address);
    const site: HelpSite = { address, host: url.host, path: url.pathname, endpointLink: endpointLink(ctx.path) };
    let html: string;
    if (query === '') {
      html = help.index(site);
    } else {
      const op = parseUrlEncoded(ctx.querystring);
      const name = [...op].find(([key]) => key.toLowerCase() === 'op')?.[1];
      const route = name?.length === 1 ? contract.routeByHttpOperation(name[0]) : undefined;
      if (!route || op.size !== 1) throw new ServiceError('not-found', NOT_FOUND);
      html = help.operation(route.operation, site);
    }
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    ctx.set('Content-Security-Policy', HELP_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = html;
  };
}

/**
 * The endpoint's address relative to the page asked for, so the pages' links
 * work from /api.asmx, /api.asmx/ and /API.asmx alike, and behind a proxy's
 * path prefix: the path's last segment as asked, or `../` and it after a
 * trailing slash.
 */
export function endpointLink(path: string): string {
  const trailingSlash = path.endsWith('/');
  const segment = path.replace(/\/+$/, '').split('/').pop() ?? '';
  // The router matched the path in any case; anything else (an escaped character) gets the plain name.
  const name = segment.toLowerCase() === ENDPOINT_NAME.toLowerCase() ? segment : ENDPOINT_NAME;
  return trailingSlash ? `../${name}` : name;
}

/** The DISCO document: the WSDL, and the SOAP 1.1 and 1.2 bindings at this address. */
function discovery(contract: Contract, address: string): string {
  const a = escapeXmlAttribute(address);
  const ns = contract.namespaceAttribute;
  const soapPorts = PORTS.filter((p) => p.variant === 'soap11' || p.variant === 'soap12');
  return (
    `${XML_DECLARATION}\n<discovery xmlns:xsd="${XSD_NAMESPACE}" xmlns:xsi="${XSI_NAMESPACE}" xmlns="http://schemas.xmlsoap.org/disco/">\n` +
    `  <contractRef ref="${a}?wsdl" docRef="${a}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />\n` +
    soapPorts
      .map(
        (p, i) =>
          `  <soap address="${a}" xmlns:q${i + 1}="${ns}" binding="q${i + 1}:${escapeXmlAttribute(p.binding)}" xmlns="http://schemas.xmlsoap.org/disco/soap/" />\n`,
      )
      .join('') +
    `</discovery>\n`
  );
}
