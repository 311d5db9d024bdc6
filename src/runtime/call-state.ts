/**
 * What a call records about itself as it goes through the middleware: the
 * request id (observeRequests), the variant and operation (the binding that
 * takes the call), and the outcome of an error (errorResponse). The request
 * log and the metrics read it back; it holds nothing from the request itself.
 */
import type { ParameterizedContext } from 'koa';
import type { CallVariant, OperationName } from '../../generated/routes';
import type { ErrorKind } from './errors';

export interface CallState {
  requestId?: string;
  /** The WSDL variant, `json` for browser scripts, `page` for the plain .aspx pages. */
  variant?: CallVariant | 'page';
  operation?: OperationName;
  outcome?: ErrorKind;
}

/** The Koa context of every middleware and route of the service. */
export type CallContext = ParameterizedContext<CallState>;
