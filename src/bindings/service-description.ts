/**
 * GET /api.asmx: `?WSDL` (any case) answers the self-contained WSDL with this
 * deployment's address; without a query, a short page naming the operations.
 */
import type { Context } from 'koa';
import { OPERATION_NAMES, SERVICE_NAME } from '../../generated/routes';
import type { Config } from '../config';
import type { Contract } from '../contract';
import { ServiceError } from '../errors';
import { escapeHtml } from '../handlers/pair';

/** The base URL of this deployment: the configured public URL, or the request's own. */
export function publicBase(ctx: Context, config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl ?? `${ctx.protocol}://${ctx.host}`;
}

export function serviceDescription(contract: Contract, config: Config) {
  return async function description(ctx: Context): Promise<void> {
    const query = ctx.querystring.toLowerCase();
    if (query === 'wsdl') {
      ctx.set('Content-Type', 'text/xml; charset=utf-8');
      ctx.body = contract.wsdl(`${publicBase(ctx, config)}/api.asmx`);
      return;
    }
    if (query !== '') throw new ServiceError('not-found', 'Use ?WSDL for the service description.');
    ctx.set('Content-Type', 'text/html; charset=utf-8');
    ctx.body =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${SERVICE_NAME}</title></head><body>` +
      `<h1>${SERVICE_NAME}</h1><p>Operations: ${OPERATION_NAMES.map(escapeHtml).join(', ')}.</p>` +
      `<p><a href="api.asmx?WSDL">Service description (WSDL)</a></p></body></html>`;
  };
}
