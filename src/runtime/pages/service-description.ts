/**
 * GET on the endpoint's path (/Service.asmx, say), as ASMX answers it: `?WSDL` the self-contained service
 * description, `?disco` the discovery document, `?op=Name` an operation's
 * help page, and no query the service's help page. The query keywords match
 * in any case.
 */
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import type { OperationName, OperationsOf } from '../definition';
import { ServiceError, clientError } from '../errors';
import { createHelpPages, type HelpOptions, type HelpSite } from '../help/pages';
import { XML_DECLARATION, XSD_NAMESPACE, XSI_NAMESPACE } from '../xml/xml-codec';
import { escapeXmlAttribute } from '../xml/xml-escape';
import { parseUrlEncoded } from '../bindings/form';

/** Where the endpoint is served: its path, and the deployment's public URL when one is configured. */
export interface EndpointSite {
  /** The path of the WSDL's address, e.g. `/Service.asmx`. */
  endpointPath: string;
  /** The base URL written into the documents (`https://example.com/prefix`); default: the request's own. */
  publicUrl?: string;
}

/**
 * The base URL of this deployment: the configured public URL, or the
 * request's own (Host, and X-Forwarded-* when proxies are trusted). A Host
 * that makes no URL is the caller's mistake.
 */
export function publicBase(ctx: CallContext, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  if (!HOST_HEADER.test(ctx.host)) throw clientError('The Host header is not a valid host name.');
  return `${ctx.protocol}://${ctx.host}`;
}

/** The endpoint's absolute address on this deployment, e.g. `https://example.com/prefix/Service.asmx`. */
export function endpointAddress(ctx: CallContext, site: EndpointSite): string {
  return `${publicBase(ctx, site.publicUrl)}${site.endpointPath}`;
}

/** A host name or IPv4 address, or a bracketed IPv6 address, with an optional port: a Host header that makes a URL. */
export const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * GET /: to the service page. Relative without a public URL, so that it also
 * lands right behind a proxy that serves the service under a path prefix.
 */
export function toServicePage(site: EndpointSite) {
  return async function redirect(ctx: CallContext): Promise<void> {
    ctx.redirect(site.publicUrl ? endpointAddress(ctx, site) : site.endpointPath.slice(1));
  };
}

/** `help`: what a service says on its help pages besides the contract (see createHelpPages). */
export function serviceDescription<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  site: EndpointSite,
  help: HelpOptions<OperationName<Ops>> = {},
) {
  const pages = createHelpPages(contract, help);
  const { endpointPath, operationNames } = contract.definition;
  // The endpoint path's last segment, e.g. `Service.asmx`.
  const endpointName = endpointPath.slice(endpointPath.lastIndexOf('/') + 1);
  // The answer to a query that names no document or operation: what it may name.
  const notFound = `Use ?WSDL, ?disco or ${operationNames.map((name) => `?op=${name}`).join(' / ')}.`;
  return async function description(ctx: CallContext): Promise<void> {
    const address = endpointAddress(ctx, site);
    const query = ctx.querystring.toLowerCase();
    if (query === 'wsdl') {
      ctx.set('Content-Type', 'text/xml; charset=utf-8');
      ctx.body = contract.wsdl(address);
      return;
    }
    // A WSDL the contract's imports (wsdl:import), at the place the served WSDL names it.
    const imported = /^wsdl=wsdl(\d{1,4})$/.exec(query);
    if (imported) {
      const text = contract.importedWsdl(Number(imported[1]), address);
      if (text === undefined) throw new ServiceError('not-found', notFound);
      ctx.set('Content-Type', 'text/xml; charset=utf-8');
      ctx.body = text;
      return;
    }
    if (query === 'disco') {
      ctx.set('Content-Type', 'text/xml; charset=utf-8');
      ctx.body = discovery(contract, address);
      return;
    }
    const url = new URL(address);
    const page: HelpSite = { address, host: url.host, path: url.pathname, endpointLink: endpointLink(ctx.path, endpointName) };
    let html: string;
    if (query === '') {
      html = pages.index(page);
    } else {
      const op = parseUrlEncoded(ctx.querystring);
      const name = [...op].find(([key]) => key.toLowerCase() === 'op')?.[1];
      const route = name?.length === 1 ? contract.routeByHttpOperation(name[0]) : undefined;
      if (!route || op.size !== 1) throw new ServiceError('not-found', notFound);
      html = pages.operation(route.operation, page);
    }
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    ctx.set('Content-Security-Policy', pages.contentSecurityPolicy);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = html;
  };
}

/**
 * The endpoint's address relative to the page asked for, so the pages' links
 * work from /Service.asmx, /Service.asmx/ and /SERVICE.ASMX alike, and behind a proxy's
 * path prefix: the path's last segment as asked, or `../` and it after a
 * trailing slash. `endpointName` is the endpoint path's last segment.
 */
export function endpointLink(path: string, endpointName: string): string {
  const trailingSlash = path.endsWith('/');
  const segment = path.replace(/\/+$/, '').split('/').pop() ?? '';
  // The router matched the path in any case; anything else (an escaped character) gets the plain name.
  const name = segment.toLowerCase() === endpointName.toLowerCase() ? segment : endpointName;
  return trailingSlash ? `../${name}` : name;
}

/** The DISCO document: the WSDL, and the SOAP 1.1 and 1.2 bindings at this address. */
function discovery<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>, address: string): string {
  const a = escapeXmlAttribute(address);
  const ns = contract.namespaceAttribute;
  const soapPorts = contract.definition.ports.filter((p) => p.variant === 'soap11' || p.variant === 'soap12');
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
