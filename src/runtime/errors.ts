/**
 * The errors a call can end in (docs/clients.md, *Errors*). Each carries one
 * human sentence that is safe to send: never a stack trace, never a value
 * from the request. The bindings turn them into SOAP faults or plain HTTP
 * answers.
 */

export type ErrorKind =
  | 'client' // the caller's mistake: soap:Client / soap:Sender, HTTP 400
  | 'version-mismatch' // SOAP envelope of the other version
  | 'must-understand' // a mustUnderstand header we do not understand
  | 'too-large' // 413
  | 'unsupported-media-type' // 415
  | 'not-found' // 404
  | 'method-not-allowed' // 405: a GET of the JSON variant, whose methods allow POST only
  | 'throttled' // the handler refuses the caller for a while: soap:Client / soap:Sender or 429, Retry-After
  | 'unavailable' // something the handler needs cannot be reached: soap:Server / soap:Receiver or 503
  | 'server'; // our failure: soap:Server / soap:Receiver, HTTP 500

export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Seconds, for the Retry-After header. */
    readonly retryAfter?: number,
    /** What the log line says caused it (a dependency's failure); never sent to the client, never a value from the request. */
    readonly logCause?: string,
  ) {
    super(message);
  }
}

export const clientError = (message: string) => new ServiceError('client', message);

/**
 * A fault the contract declares (`wsdl:fault`): its detail element written
 * in the fault's detail. Generated code derives one class per declared
 * fault, which a handler throws.
 */
export class DeclaredFault extends ServiceError {
  override name = 'DeclaredFault';
  constructor(
    kind: 'client' | 'server',
    message: string,
    /** The detail's content: the fault's element, written in the given namespace (escaped already). */
    readonly detailXml: (namespace: string) => string,
  ) {
    super(kind, message);
  }

  /** The contract's namespace (escaped), set by the binding that answers the fault. */
  namespaceAttribute = '';
}
