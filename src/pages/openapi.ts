/**
 * GET /openapi.json: the OpenAPI 3.1 description of the HTTP GET, HTTP POST
 * and JSON variants, generated from the contract like the WSDL, with this
 * deployment's endpoint as its server and the configured namespace.
 */
import type { CallContext } from '../call-state';
import { renderOpenApi } from '../../generated/openapi';
import type { OperationName } from '../../generated/routes';
import type { Config } from '../config';
import { endpointAddress } from './service-description';

/** The operations whose handler refuses a throttled secret (429, Retry-After): ValidatePin's attempt counter. */
const THROTTLED: readonly OperationName[] = ['ValidatePin'];

export function openApiDescription(config: Pick<Config, 'publicUrl' | 'namespace'>) {
  const byAddress = new Map<string, string>();
  return async function openApi(ctx: CallContext): Promise<void> {
    const address = endpointAddress(ctx, config);
    let text = byAddress.get(address);
    if (text === undefined) {
      text = `${renderOpenApi(config.namespace, address, THROTTLED)}\n`;
      // Bounded: addresses come from Host headers, which callers choose.
      if (byAddress.size >= 16) byAddress.clear();
      byAddress.set(address, text);
    }
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = text;
  };
}
