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

  /** An rpc/encoded operation's fault: its detail as written SOAP-encoded (set by the SOAP binding); else as it is. */
  encodeDetail?: (literal: string) => string;

  /** The wsdl:fault's name, where generated code tells it: the fault's WS-Addressing action is found by it (else by class name). */
  readonly faultName?: string;
}

/** A qualified fault code: its namespace, the prefix it is written with, and its local name. */
export interface FaultCode {
  namespace: string;
  prefix: string;
  local: string;
}

/**
 * A fault a SOAP header step answers (WS-Addressing's, WS-Security's): the sender's mistake, with the subcodes its
 * specification names, most general first. SOAP 1.2 writes soap:Sender and the subcodes nested; SOAP 1.1 writes the
 * first subcode as the faultcode (WS-Addressing 1.0 SOAP Binding §6, WSS 1.1 §12). `detail` is the content of the 1.2
 * Detail; `detailHeader11` the header block SOAP 1.1 carries it in instead (wsa:FaultDetail), both escaped already.
 */
export class HeaderFault extends ServiceError {
  override name = 'HeaderFault';
  constructor(
    readonly subcodes: readonly [FaultCode, ...FaultCode[]],
    message: string,
    logCause?: string,
    readonly detail = '',
    readonly detailHeader11 = '',
  ) {
    super('client', message, undefined, logCause);
  }
}
