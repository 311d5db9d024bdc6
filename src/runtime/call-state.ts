/**
 * What a call records about itself as it goes through the middleware: the
 * request id (the request log), the variant and operation (the binding that
 * takes the call), what its handler's answer meant (told through the Call
 * the binding hands the handler) and the outcome of an error (errorResponse).
 * The request log and the metrics read it back; it holds nothing from the
 * request itself.
 */
import type { ParameterizedContext } from 'koa';
import type { Call, CallVariant } from './definition';
import type { ErrorKind } from './errors';

export interface CallState {
  requestId?: string;
  /** The WSDL variant, `json` for browser scripts, `page` for a plain page a service adds beside the endpoint. */
  variant?: CallVariant | 'page';
  /** The operation the call names, once the binding has read it. */
  operation?: string;
  /** The pattern of the route that took the call (`/Service.asmx/:operation`), never the path itself: for logs and metrics. */
  route?: string;
  /** The service's word for what its handler's answer meant (`accepted`, `wrong`), told by Call.answered. */
  answered?: string;
  outcome?: ErrorKind;
}

/** The Koa context of every middleware and route of the service. */
export type CallContext = ParameterizedContext<CallState>;

/** The Call of the call `ctx` is: its fields copied once, and `answered` writing into the call's state (kept private). */
class BoundCall implements Call {
  readonly #state: CallState;

  constructor(
    readonly address: string,
    readonly requestId: string | undefined,
    readonly operation: string,
    readonly variant: CallVariant | 'page',
    state: CallState,
  ) {
    this.#state = state;
  }

  answered(outcome: string): void {
    this.#state.answered = outcome;
  }
}

/** The Call a binding (or a page) hands the handler of `operation`, for the call `ctx` is. */
export function callOf(ctx: CallContext, operation: string, variant: CallVariant | 'page'): Call {
  return new BoundCall(ctx.ip, ctx.state.requestId, operation, variant, ctx.state);
}
