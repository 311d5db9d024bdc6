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
