/**
 * What a call records about itself as it goes through the middleware: the
 * request id (observeRequests), the variant and operation (the binding that
 * takes the call), and the outcome of an error (errorResponse). The request
 * log and the metrics read it back; it holds nothing from the request itself.
 */
import type { ParameterizedContext } from 'koa';
import type { CallVariant } from './definition';
import type { ErrorKind } from './errors';

export interface CallState {
  requestId?: string;
  /** The WSDL variant, `json` for browser scripts, `page` for a plain page a service adds beside the endpoint. */
  variant?: CallVariant | 'page';
  /** The operation the call names, once the binding has read it. */
  operation?: string;
  /** The pattern of the route that took the call (`/Service.asmx/:operation`), never the path itself: for logs and metrics. */
  route?: string;
  outcome?: ErrorKind;
}

/** The Koa context of every middleware and route of the service. */
export type CallContext = ParameterizedContext<CallState>;
