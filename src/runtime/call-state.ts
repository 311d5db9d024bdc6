/**
 * What a call records about itself as it goes through the middleware: the
 * request id (the request log), the variant and operation (the binding that
 * takes the call), what its handler's answer meant (told through the Call
 * the binding hands the handler) and the outcome of an error (errorResponse).
 * The request log and the metrics read it back; it holds nothing from the
 * request itself.
 */
import type { IncomingMessage } from 'node:http';
import type { ParameterizedContext } from 'koa';
import type { AddressingHeaders, Call, CallVariant, HeadersOf, OperationName, OperationsOf, Route, SoapHeaders } from './definition';
import type { ErrorKind, ServiceError } from './errors';

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
  /**
   * The header blocks a SOAP fault answer carries (WS-Addressing's Action and RelatesTo), set by the SOAP header
   * stack once it has read a call whose operation has a policy; written into the answer only, never logged.
   */
  faultHeaders?: (error: ServiceError) => string | undefined;
  /** The fault answer's envelope signed, set by a header stack whose policy asks for signed answers. */
  signAnswer?: (envelope: string) => string;
}

/** The Koa context of every middleware and route of the service. */
export type CallContext = ParameterizedContext<CallState>;

/** The Call of the call `ctx` is: its fields copied once, and `answered` writing into the call's state (kept private). */
class BoundCall<Headers extends SoapHeaders> implements Call<Headers> {
  readonly #state: CallState;
  /** The HTTP request, whose headers header(name) reads when asked (a call that asks none reads nothing). */
  readonly #request: IncomingMessage | undefined;
  // Own properties only of a call the SOAP header stack read: a plain call's Call is the plain data it was.
  declare addressing?: AddressingHeaders;
  declare principal?: unknown;

  constructor(
    readonly address: string,
    readonly requestId: string | undefined,
    readonly operation: string,
    readonly variant: CallVariant | 'page',
    readonly headers: Headers,
    state: CallState,
    request: IncomingMessage | undefined,
    soap: CallIdentity | undefined,
  ) {
    this.#state = state;
    this.#request = request;
    if (soap !== undefined) {
      if (soap.addressing !== undefined) this.addressing = soap.addressing;
      if (soap.principal !== undefined) this.principal = soap.principal;
    }
  }

  answered(outcome: string): void {
    this.#state.answered = outcome;
  }

  header(name: string): string | undefined {
    const value = this.#request?.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

/** What the SOAP header stack learnt of a call (its addressing headers, the principal), for its Call. */
export interface CallIdentity {
  addressing?: AddressingHeaders;
  principal?: unknown;
}

/**
 * The header blocks of a call before any is read: a new empty pair for an operation that declares some (its handler
 * sets `out`), one shared frozen pair for an operation that declares none (nothing is made per call).
 */
export function noHeaders<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(route: Route<Ops, K>): HeadersOf<Ops[K]> {
  return (route.headers ? { in: {}, out: {} } : NONE) as HeadersOf<Ops[K]>;
}
const NONE: SoapHeaders = Object.freeze({ in: Object.freeze({}), out: Object.freeze({}) });

/**
 * The Call a binding (or a page) hands the handler of `operation`, for the call `ctx` is, with the header blocks it
 * read (none: the operation declares none, as for a page), and what the SOAP header stack read (none: no policy).
 */
export function callOf<Headers extends SoapHeaders = SoapHeaders>(
  ctx: CallContext,
  operation: string,
  variant: CallVariant | 'page',
  headers: Headers = NONE as Headers,
  soap?: CallIdentity,
): Call<Headers> {
  return new BoundCall(ctx.ip, ctx.state.requestId, operation, variant, headers, ctx.state, ctx.req, soap);
}
