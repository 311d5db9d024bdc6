/**
 * GET /openapi.json: the OpenAPI 3.1 description of the HTTP GET, HTTP POST
 * and JSON variants, generated from the contract like the WSDL, with this
 * deployment's endpoint as its server and the contract's namespace.
 */
import type { CallContext } from '../call-state';
import type { Contract } from '../contract';
import type { OperationName, OperationsOf } from '../definition';
import { endpointAddress, type EndpointSite } from './service-description';

/** `throttled`: the operations whose handler refuses a caller for a while (429, Retry-After), which the WSDL cannot say. */
export function openApiDescription<Ops extends OperationsOf<Ops>>(
  contract: Contract<Ops>,
  site: EndpointSite,
  throttled: readonly OperationName<Ops>[] = [],
) {
  const byAddress = new Map<string, string>();
  return async function openApi(ctx: CallContext): Promise<void> {
    const address = endpointAddress(ctx, site);
    let text = byAddress.get(address);
    if (text === undefined) {
      text = `${contract.definition.renderOpenApi(contract.namespace, address, throttled)}\n`;
      // Bounded: addresses come from Host headers, which callers choose.
      if (byAddress.size >= 16) byAddress.clear();
      byAddress.set(address, text);
    }
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = text;
  };
}
