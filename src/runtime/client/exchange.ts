/**
 * The wire side of the generated client (generated/client.ts): writes the
 * request of each variant, sends it with Node's fetch, and reads the answer
 * with libxml2 (libxml2-wasm) into either the expected element, validated
 * against the contract's schema and decoded while its document lives, or a
 * fault. It knows the four variants, not the operations: those, and the
 * decoding of the element, are generated.
 */
import { requestAddressingHeaders } from '../soap-stack/addressing';
import { SOAP11, SOAP12, soapEnvelope, soapVersionOfVariant, type SoapVersion } from '../wire/soap-envelope';
import { encodedCall, encodedHeaders, literalAnswer, literalHeader, withLiteralForm } from '../wire/soap-encoding';
import type { SoapEncoding } from '../definition';
import { CALL_VARIANTS, type CallVariant, type HeaderRoute } from '../definition';
import { XSI_NAMESPACE, childElements } from '../xml/xml-codec';
import {
  loadXmlEngine,
  safeParseOptions,
  xml,
  type XmlAttribute,
  type XmlDocument,
  type XmlElement as Element,
  type XsdValidator,
} from '../xml/xml-engine';
import { firstLibxmlMessage } from '../xml/xml-schema';
import { ServiceError } from '../errors';
import { attachmentMarker, checkInlinedDecoded, inlineIncludes, mtomMessage, mtomPackageOf, readMtomMessage } from '../wire/mtom';
import { decodingInlined, encodingAttachable } from '../xml/xsd-values';

/** The four variants of the WSDL, and JSON for browser scripts (src/runtime/client/json-exchange.ts). */
export type ClientVariant = CallVariant;
export const CLIENT_VARIANTS: readonly ClientVariant[] = CALL_VARIANTS;

/** One operation as the contract names it (generated from the model). */
export interface OperationSpec {
  name: string;
  /** SOAPAction / `action` is the namespace followed by this, unless soapActions says. */
  soapActionSuffix: string;
  /** A version's action as the WSDL writes it. */
  soapActions?: Partial<Record<'soap11' | 'soap12', string>>;
  requestElement: string;
  /** The SOAP answer's body element ('' when the answer's body is its parts). */
  soapResponseElement: string;
  /** Its namespace, when not the contract's. */
  soapResponseNamespace?: string;
  /** The answer's body elements are the result's parts: decode reads the Body. */
  soapResponseParts?: true;
  /** One-way: the service answers 202 and nothing else. */
  oneWay?: true;
  /** `http:operation location`, e.g. `/Add`. */
  httpLocation: string;
  /** The root element of an HTTP GET/POST answer; '' for a void operation, whose answer is empty. */
  httpResponseElement: string;
  /**
   * HTTP POST sends the SOAP request's element as a body of this media type, and the answer is the SOAP answer's
   * element (an XML body: Axis2's HTTP binding); HTTP GET cannot call it.
   */
  httpXml?: string;
  /** The faults the WSDL declares for it: a SOAP fault whose detail is one of these is decoded into its error. */
  faults?: readonly DeclaredFaultSpec[];
  /**
   * The SOAP versions whose binding's WS-Policy asks for WS-Addressing, and the input action: a call by one of them
   * carries wsa:Action, wsa:MessageID, wsa:To and an anonymous wsa:ReplyTo (WS-Addressing 1.0).
   */
  addressing?: { action: string; variants: readonly ('soap11' | 'soap12')[] };
  /**
   * The SOAP versions whose binding's WS-Policy asks for MTOM: a call by one of them is sent as MTOM, each
   * base64Binary value of its request of at least 1024 bytes an attachment (the body is then a function, encoded here).
   */
  mtom?: readonly ('soap11' | 'soap12')[];
  /** rpc/encoded: the call is written SOAP-encoded, the answer read back into literal form (wire/soap-encoding.ts). */
  soapEncoding?: SoapEncoding;
}

/** A declared fault (`wsdl:fault`) as the client reads it: its detail element, decoded into the generated error class. */
export interface DeclaredFaultSpec {
  element: string;
  /** The element's namespace, when it is not the contract's. */
  namespace?: string;
  /** The error of the fault, from its validated detail element (while its document lives) and the fault's code and text. */
  decode(element: Element, fault: Fault): Error;
}

/** Where and how a client reaches the service. */
export interface Connection {
  /** `{baseUrl}/Service.asmx`. */
  endpoint: string;
  namespace: string;
  fetch: typeof fetch;
  timeoutMs: number;
  /** The contract's schema in this namespace, compiled (once, by the caller; the XML engine is loaded by then). */
  schema(): XsdValidator;
}

export interface CallInput {
  variant: ClientVariant;
  /**
   * The SOAP body's content: the request element, or the request's parts; a function for a contract with MTOM
   * operations (generated code passes one), called here while its binary values are taken as attachments.
   */
  body: string | (() => string);
  /** The HTTP GET/POST fields, in contract order; undefined ones are left out. */
  fields: readonly (readonly [string, string | undefined])[];
  /** The SOAP Header's content (the request's header blocks); no Header when undefined. */
  header?: string;
  /** The header blocks the operation's answer may carry, decoded into `into` by their names (SOAP). */
  outHeaders?: { blocks: readonly HeaderRoute[]; into: Record<string, unknown> };
  signal?: AbortSignal;
}

/** How a call failed, whatever the variant. */
export interface Fault {
  /**
   * `soap:Client`, `soap:Sender`, `soap:Server`, `soap:Receiver`, … for a SOAP
   * fault; `http:400`, `http:429`, … for any other answer that is not 200;
   * `protocol` for a 200 answer that does not fit the contract; `transport`
   * when no answer came (refused, reset, timed out).
   */
  code: string;
  /** The service's one sentence (faultstring, SOAP 1.2 Reason, or the text/plain line). */
  faultString: string;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** Seconds, from the Retry-After header (throttled, unavailable). */
  retryAfter?: number;
  cause?: unknown;
  /** A SOAP fault the operation declares: the generated error class's instance, with its typed detail. */
  declared?: Error;
}

/** What the decoder made of the answer element (SOAP: the body's response element; HTTP: the root), validated; or a fault. */
export type Outcome<T> = { value: T } | { fault: Fault };

/** Reads the validated answer element; it is called while the element's document lives, which is freed after. */
export type Decode<T> = (soap: boolean, element: Element) => T;

/** Sends one call and reads its answer. Rejects only when the caller's own signal aborts it. */
export async function exchange<T>(connection: Connection, op: OperationSpec, input: CallInput, decode: Decode<T>): Promise<Outcome<T>> {
  await loadXmlEngine();
  const answer = await send(connection, httpRequest(connection, op, input), input.signal);
  if ('fault' in answer) return answer;
  // A one-way operation's answer is 202 with no envelope (or 200 with an empty one).
  if (op.oneWay && soapVersionOfVariant(input.variant) && (answer.status === 202 || (answer.status === 200 && answer.text.trim() === ''))) {
    return { value: undefined as T };
  }
  const doc = parseAnswer(answer.text);
  const version = soapVersionOfVariant(input.variant);
  try {
    if (version && answer.attachments && doc)
      return readMtomAnswer(connection, op, version, answer, answer.attachments, doc, decode, input.outHeaders);
    return version
      ? readSoapAnswer(connection, op, version, answer, doc, decode, input.outHeaders)
      : readHttpAnswer(connection, op, answer, doc, decode);
  } finally {
    doc?.dispose();
  }
}

/**
 * An MTOM answer (wire/mtom.ts): its xop:Include elements replaced by their attachments' base64 text, then read as
 * any SOAP answer; an Include naming no attachment, or standing where the schema has no base64Binary, is `protocol`.
 */
function readMtomAnswer<T>(
  connection: Connection,
  op: OperationSpec,
  version: SoapVersion,
  answer: HttpAnswer,
  attachments: ReadonlyMap<string, Uint8Array>,
  doc: XmlDocument,
  decode: Decode<T>,
  outHeaders?: CallInput['outHeaders'],
): Outcome<T> {
  try {
    const inlined = inlineIncludes(doc, attachments);
    const outcome = decodingInlined(inlined, () => readSoapAnswer(connection, op, version, answer, doc, decode, outHeaders));
    if ('value' in outcome) checkInlinedDecoded(inlined);
    return outcome;
  } catch (error) {
    if (error instanceof ServiceError) return protocol(answer, error.message);
    throw error;
  }
}

/** An answer as it came: its status, Retry-After and text. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  retryAfter?: number;
  text: string;
  /** An MTOM answer's parts other than its root part (whose text is `text`), by Content-ID. */
  attachments?: ReadonlyMap<string, Uint8Array>;
}

export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/**
 * Sends one request of any variant within the connection's timeout; no answer is a `transport` fault.
 * Rejects only when the caller's own signal aborts it.
 */
export async function send(
  connection: Pick<Connection, 'endpoint' | 'fetch' | 'timeoutMs'>,
  request: WireRequest,
  callerSignal?: AbortSignal,
): Promise<HttpAnswer | { fault: Fault }> {
  const timeout = AbortSignal.timeout(connection.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  try {
    const response = await connection.fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal });
    const type = response.headers.get('content-type') ?? '';
    const mtom = /^\s*multipart\/related\s*;/i.test(type);
    const answer: HttpAnswer = {
      status: response.status,
      statusText: response.statusText,
      retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
      text: mtom ? '' : await response.text(),
    };
    return mtom ? mtomAnswer(answer, type, new Uint8Array(await response.arrayBuffer())) : answer;
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    return { fault: { code: 'transport', faultString: `No answer from ${connection.endpoint}: ${describe(error)}.`, cause: error } };
  }
}

/** An answer sent as MTOM: its root part as the text, its other parts as attachments; one that does not split is `protocol`. */
function mtomAnswer(answer: HttpAnswer, type: string, bytes: Uint8Array): HttpAnswer | { fault: Fault } {
  try {
    const pkg = mtomPackageOf(type);
    if (!pkg) return protocol(answer, 'The answer is not an MTOM message.');
    const message = readMtomMessage(bytes, pkg, { maxPartBytes: Number.POSITIVE_INFINITY });
    return { ...answer, text: Buffer.from(message.root).toString('utf8'), attachments: message.parts };
  } catch (error) {
    return protocol(answer, error instanceof ServiceError ? error.message : 'The MTOM answer could not be read.');
  }
}

/** The threshold of the typed client's MTOM calls: a base64Binary value of at least this many bytes is an attachment. */
const MTOM_ATTACHMENT_BYTES = 1024;

function httpRequest(connection: Connection, op: OperationSpec, input: CallInput): WireRequest {
  const version = soapVersionOfVariant(input.variant);
  if (version) {
    const action = op.soapActions?.[version.variant] ?? connection.namespace + op.soapActionSuffix;
    const addressing = op.addressing?.variants.includes(version.variant as 'soap11' | 'soap12')
      ? requestAddressingHeaders(op.addressing.action, connection.endpoint)
      : '';
    // Header blocks bound encoded are written SOAP-encoded, as the call's body is.
    const blocks =
      input.header && op.soapEncoding ? encodedHeaders(input.header, op.soapEncoding, version.envelopeNamespace) : input.header;
    const header = addressing + (blocks ?? '') || undefined;
    if (typeof input.body !== 'string' && op.mtom?.includes(version.variant as 'soap11' | 'soap12')) {
      return mtomRequest(connection, version, action, input.body, header);
    }
    const literal = bodyText(input);
    const body = soapEnvelope(
      version,
      op.soapEncoding ? encodedCall(literal, op.soapEncoding, version.envelopeNamespace) : literal,
      header,
    );
    const headers: Record<string, string> =
      version === SOAP11
        ? { 'Content-Type': SOAP11.contentType, SOAPAction: `"${action}"` }
        : { 'Content-Type': `${SOAP12.contentType}; action="${action}"` };
    return { url: connection.endpoint, method: 'POST', headers, body };
  }
  const url = connection.endpoint + op.httpLocation;
  if (op.httpXml && input.variant === 'httpGet') throw new TypeError(`${op.name} takes an XML body: call it with HTTP POST or SOAP`);
  if (op.httpXml) return { url, method: 'POST', headers: { 'Content-Type': `${op.httpXml}; charset=utf-8` }, body: bodyText(input) };
  const fields = new URLSearchParams();
  for (const [name, value] of input.fields) if (value !== undefined) fields.append(name, value);
  if (input.variant === 'httpGet') return { url: `${url}?${fields}`, method: 'GET', headers: {}, body: undefined };
  return { url, method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: fields.toString() };
}

const bodyText = (input: CallInput) => (typeof input.body === 'string' ? input.body : input.body());

/** A SOAP call as MTOM, as JAX-WS sends one: SOAP 1.1's SOAPAction header, SOAP 1.2's action in start-info. */
function mtomRequest(connection: Connection, version: SoapVersion, action: string, body: () => string, header?: string): WireRequest {
  const { result: content, found } = encodingAttachable(MTOM_ATTACHMENT_BYTES, attachmentMarker(), body);
  const message = mtomMessage(version, soapEnvelope(version, content, header), found, version === SOAP11 ? undefined : action);
  const headers: Record<string, string> = { 'Content-Type': message.contentType };
  if (version === SOAP11) headers.SOAPAction = `"${action}"`;
  return { url: connection.endpoint, method: 'POST', headers, body: Buffer.concat(message.chunks, message.length) };
}

function readSoapAnswer<T>(
  connection: Connection,
  op: OperationSpec,
  version: SoapVersion,
  answer: HttpAnswer,
  doc: XmlDocument | undefined,
  decode: Decode<T>,
  outHeaders?: CallInput['outHeaders'],
): Outcome<T> {
  const envelope = doc?.root;
  const inEnvelope = (e: Element) => e.namespaceUri === version.envelopeNamespace;
  if (envelope?.name !== 'Envelope' || !inEnvelope(envelope)) {
    return answer.status === 200
      ? protocol(answer, `The answer is not a SOAP ${version === SOAP11 ? '1.1' : '1.2'} envelope.`)
      : httpFault(answer);
  }
  const body = childElements(envelope).find((e) => e.name === 'Body' && inEnvelope(e));
  const [content] = body ? childElements(body) : [];
  if (content && content.name === 'Fault' && inEnvelope(content)) return declaredFault(connection, op, version, answer, content);
  if (answer.status !== 200) return httpFault(answer);
  const header = childElements(envelope).find((e) => e.name === 'Header' && inEnvelope(e));
  if (header && outHeaders) {
    const read = readHeaders(connection, header, outHeaders, answer, op.soapEncoding && { encoding: op.soapEncoding, envelope });
    if (read) return read;
  }
  if (op.soapResponseParts && body) {
    // The answer's parts: each valid against the schema, the whole Body decoded.
    for (const part of childElements(body)) {
      try {
        connection.schema().validate(part);
      } catch (error) {
        return protocol(answer, `The ${part.name} part does not match the schema: ${firstLibxmlMessage(error).slice(0, 200)}`);
      }
    }
    return { value: decode(true, body) };
  }
  if (!content) return protocol(answer, 'The SOAP answer has an empty Body.');
  if (op.soapEncoding && body) return encodedAnswerOf(connection, op, op.soapEncoding, content, body, answer, decode);
  return expected(connection, content, op.soapResponseElement, answer, (element) => decode(true, element), op.soapResponseNamespace);
}

/** An encoded answer: read into its literal form (what is wrong with it is `protocol`), then checked and decoded as any. */
function encodedAnswerOf<T>(
  connection: Connection,
  op: OperationSpec,
  encoding: SoapEncoding,
  content: Element,
  body: Element,
  answer: HttpAnswer,
  decode: Decode<T>,
): Outcome<T> {
  let literal: string;
  try {
    literal = literalAnswer(content, body, encoding);
  } catch (error) {
    return protocol(answer, `The encoded answer cannot be read: ${(error as Error).message}`);
  }
  const doc = parseAnswer(literal)!;
  try {
    // An overload's answer is read under its own name, which the schemas declare with its parts.
    const name = encoding.literalNames?.output ?? op.soapResponseElement;
    return expected(connection, doc.root, name, answer, (element) => decode(true, element), op.soapResponseNamespace);
  } finally {
    doc.dispose();
  }
}

function readHttpAnswer<T>(
  connection: Connection,
  op: OperationSpec,
  answer: HttpAnswer,
  doc: XmlDocument | undefined,
  decode: Decode<T>,
): Outcome<T> {
  if (answer.status !== 200) return httpFault(answer);
  if (op.httpXml) {
    // An XML body's answer is the SOAP answer's element (none for a one-way operation).
    if (op.oneWay) return { value: undefined as T };
    if (!doc) return protocol(answer, 'The answer is not well-formed XML.');
    return expected(connection, doc.root, op.soapResponseElement, answer, (element) => decode(true, element), op.soapResponseNamespace);
  }
  // A void operation's HTTP answer is empty, as ASMX's is.
  if (op.httpResponseElement === '')
    return answer.text.trim() === '' ? { value: undefined as T } : protocol(answer, 'A void operation answered a body.');
  if (!doc) return protocol(answer, 'The answer is not well-formed XML.');
  return expected(connection, doc.root, op.httpResponseElement, answer, (element) => decode(false, element));
}

/** The element the contract promises, in the namespace, valid against the schema, decoded. */
function expected<T>(
  connection: Connection,
  element: Element,
  name: string,
  answer: HttpAnswer,
  decode: (element: Element) => T,
  namespace = connection.namespace,
): Outcome<T> {
  const ns = element.namespaceUri;
  if (element.name !== name || ns !== namespace) {
    return protocol(answer, `The answer holds {${ns}}${element.name} where {${namespace}}${name} was expected.`);
  }
  try {
    connection.schema().validate(element);
  } catch (error) {
    return protocol(answer, `The ${name} answer does not match the schema: ${firstLibxmlMessage(error).slice(0, 200)}`);
  }
  return { value: decode(element) };
}

/** The header blocks the operation declares, each valid against the schema, decoded by name; other blocks are passed over. */
function readHeaders(
  connection: Connection,
  header: Element,
  outHeaders: NonNullable<CallInput['outHeaders']>,
  answer: HttpAnswer,
  encoded?: { encoding: SoapEncoding; envelope: Element },
): { fault: Fault } | undefined {
  for (const block of childElements(header)) {
    const known = outHeaders.blocks.find((h) => h.element === block.name && (h.namespace ?? connection.namespace) === block.namespaceUri);
    if (!known) continue;
    // The envelope's own attributes on a block (mustUnderstand, actor, role) are SOAP's, not the block's type's.
    for (const attribute of block.attrs)
      if (attribute.namespaceUri === SOAP11.envelopeNamespace || attribute.namespaceUri === SOAP12.envelopeNamespace) attribute.remove();
    const check = (element: Element): { fault: Fault } | undefined => {
      try {
        connection.schema().validate(element);
      } catch (error) {
        return protocol(answer, `The ${block.name} header does not match the schema: ${firstLibxmlMessage(error).slice(0, 200)}`);
      }
      outHeaders.into[known.name] = known.decode(element);
      return undefined;
    };
    // A block bound encoded: read into its literal form first, as the service reads a call's.
    let literal: string | undefined;
    try {
      literal = encoded?.encoding.headers ? literalHeader(block, encoded.envelope, encoded.encoding) : undefined;
    } catch (error) {
      return protocol(answer, `The ${block.name} header cannot be read: ${(error as Error).message}`);
    }
    const failed = literal === undefined ? check(block) : withLiteralForm(literal, check);
    if (failed) return failed;
  }
  return undefined;
}

/** A SOAP fault; when its detail is a fault the operation declares, valid against the schema, that fault's error comes with it. */
function declaredFault(
  connection: Connection,
  op: OperationSpec,
  version: SoapVersion,
  answer: HttpAnswer,
  content: Element,
): { fault: Fault } {
  const fault = soapFault(content, version, answer);
  if (!op.faults?.length) return { fault };
  // SOAP 1.1's detail is unqualified (§4.4); SOAP 1.2's Detail is in the envelope namespace.
  const detail = childElements(content).find((e) =>
    version === SOAP11 ? e.name === 'detail' && !e.namespaceUri : e.name === 'Detail' && e.namespaceUri === version.envelopeNamespace,
  );
  for (const element of detail ? childElements(detail) : []) {
    const spec = op.faults.find((f) => f.element === element.name && (f.namespace ?? connection.namespace) === element.namespaceUri);
    if (!spec) continue;
    try {
      connection.schema().validate(element);
    } catch (error) {
      return protocol(answer, `The ${element.name} fault detail does not match the schema: ${firstLibxmlMessage(error).slice(0, 200)}`);
    }
    return { fault: { ...fault, declared: spec.decode(element, fault) } };
  }
  return { fault };
}

/** SOAP 1.1 faultcode/faultstring, or SOAP 1.2 Code/Value and Reason/Text. */
function soapFault(fault: Element, version: SoapVersion, answer: HttpAnswer): Fault {
  let code: Element | undefined;
  let reason: Element | undefined;
  if (version === SOAP11) {
    code = childElements(fault).find((e) => e.name === 'faultcode');
    reason = childElements(fault).find((e) => e.name === 'faultstring');
  } else {
    const inEnvelope = (e: Element) => e.namespaceUri === version.envelopeNamespace;
    const child = (parent: Element | undefined, name: string) =>
      parent && childElements(parent).find((e) => e.name === name && inEnvelope(e));
    code = child(child(fault, 'Code'), 'Value');
    reason = child(child(fault, 'Reason'), 'Text');
  }
  return {
    code: code ? faultCode(code, version) : 'soap:Fault',
    faultString: reason?.content.trim() ?? '',
    status: answer.status,
    retryAfter: answer.retryAfter,
  };
}

/** A fault code is a QName; one in the envelope namespace reads `soap:Local` whatever prefix the answer used. */
function faultCode(element: Element, version: SoapVersion): string {
  const text = element.content.trim();
  const colon = text.indexOf(':');
  const href = element.namespaceForPrefix(colon > 0 ? text.slice(0, colon) : '');
  return href === version.envelopeNamespace ? `soap:${text.slice(colon + 1)}` : text;
}

/** An answer other than 200: `http:STATUS`, with `message` when the caller read one from the answer, else its first line. */
export function httpFault(answer: HttpAnswer, message?: string): { fault: Fault } {
  const line = answer.text.trim().split('\n')[0]?.trim().slice(0, 300);
  return {
    fault: {
      code: `http:${answer.status}`,
      faultString: message ?? (line || answer.statusText || `HTTP ${answer.status}`),
      status: answer.status,
      retryAfter: answer.retryAfter,
    },
  };
}

export function protocol(answer: HttpAnswer, faultString: string): { fault: Fault } {
  return { fault: { code: 'protocol', faultString, status: answer.status, retryAfter: answer.retryAfter } };
}

/** Parses an answer: no entity substitution, no DTD loading, no network. Undefined when not well-formed; the caller disposes it. */
function parseAnswer(text: string): XmlDocument | undefined {
  try {
    return xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  } catch {
    return undefined;
  }
}

/** `xsi:nil="true"` (or `1`) on an element of a nillable type. */
export function isNil(element: Element): boolean {
  const nil = element.attrs.find((a: XmlAttribute) => a.name === 'nil' && a.namespaceUri === XSI_NAMESPACE);
  return nil !== undefined && ['true', '1'].includes(nil.value.trim());
}

/** Retry-After as seconds: delta-seconds, or an HTTP date counted from now. */
export function retryAfterSeconds(header: string | null, nowMs = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** A transport failure in a few words: undici hides the reason (ECONNREFUSED, …) in `cause`. */
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}
