/**
 * GET /openapi.json: the OpenAPI 3.1 description of the HTTP GET, HTTP POST
 * and JSON variants, generated from the contract like the WSDL, with this
 * deployment's endpoint as its server and the configured namespace.
 */
import type { CallContext } from '../call-state';
import { renderOpenApi } from '../../../generated/openapi';
import type { OperationName } from '../../../generated/routes';
import type { Config } from '../../config';
import { contractNamespace } from '../contract';
import { endpointAddress } from './service-description';

/** `throttled`: the operations whose handler refuses a throttled caller (429, Retry-After), ValidatePin for schema/. */
export function openApiDescription(config: Pick<Config, 'publicUrl' | 'namespace'>, throttled: readonly OperationName[]) {
  const byAddress = new Map<string, string>();
  return async function openApi(ctx: CallContext): Promise<void> {
    const address = endpointAddress(ctx, config);
    let text = byAddress.get(address);
    if (text === undefined) {
      text = `${renderOpenApi(contractNamespace(config), address, throttled)}\n`;
      // Bounded: addresses come from Host headers, which callers choose.
      if (byAddress.size >= 16) byAddress.clear();
      byAddress.set(address, text);
    }
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = text;
  };
}
