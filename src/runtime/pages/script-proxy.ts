/**
 * GET {endpoint}/js and {endpoint}/jsdebug: the JavaScript proxy ASP.NET AJAX
 * pages load (generated from the contract), pointing at the endpoint's path
 * on this deployment.
 */
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import type { OperationsOf } from '../definition';
import { endpointAddress, type EndpointSite } from './service-description';

export const SCRIPT_CONTENT_TYPE = 'application/x-javascript; charset=utf-8';

export function scriptProxy<Ops extends OperationsOf<Ops>>(contract: Contract<Ops>, site: EndpointSite) {
  return async function proxy(ctx: CallContext): Promise<void> {
    // A path, as ASP.NET writes it: the proxy's calls stay on the page's origin unless a public URL says otherwise.
    const path = new URL(endpointAddress(ctx, site)).pathname;
    ctx.set('Content-Type', SCRIPT_CONTENT_TYPE);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = contract.definition.renderScriptProxy(path);
  };
}
