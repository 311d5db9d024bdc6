/**
 * MTOM (SOAP Message Transmission Optimization Mechanism) over XOP (XML-binary Optimized Packaging): a SOAP message
 * sent as `multipart/related; type="application/xop+xml"`, its root part the envelope, each binary value an
 * attachment that an `xop:Include href="cid:..."` stands for. Both sides use it: the SOAP binding reads MTOM calls
 * and writes MTOM answers, the typed client reads MTOM answers (docs/soap-security.md, *MTOM*).
 *
 * Reading splits the body (already read to the body limit) into its parts with @remix-run/multipart-parser, each part
 * a view of the body (no copy), then replaces each xop:Include of the root part's document by the base64 text of its
 * part: the document is validated and decoded as if the value were inline. Writing takes the base64Binary values the
 * encoder wrote as tokens (xsd-values.ts, encodingAttachable) and sends each over the threshold as an attachment.
 */
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { parse as parseContentType } from 'content-type';
import { ServiceError, clientError } from '../errors';
import { type XmlDocument, type XmlElement, xml } from '../xml/xml-engine';
import type { InlinedBinary } from '../xml/xsd-values';
import { SOAP11, SOAP12, type SoapVersion } from './soap-envelope';

type MultipartParserModule = typeof import('@remix-run/multipart-parser', { with: { 'resolution-mode': 'import' }});
// An ES module without top-level await: Node (>= 22.12) requires it from CommonJS.
const multipart = require('@remix-run/multipart-parser') as MultipartParserModule;

export const XOP_NAMESPACE = 'http://www.w3.org/2004/08/xop/include';
export const XOP_MEDIA_TYPE = 'application/xop+xml';

/** The limits of an MTOM call and the answer's threshold (ContractRouteOptions.mtom); the body limit holds as well. */
export interface MtomSettings {
  /** The largest part, the root part too, in bytes (default 10 MiB). */
  maxPartBytes?: number;
  /** The most parts a call may have, the root part counted (default 100). */
  maxParts?: number;
  /** A base64Binary value of an MTOM answer of at least this many bytes travels as an attachment (default 1024). */
  attachmentThreshold?: number;
  /**
   * Read MTOM calls even where no operation's policy asks for MTOM (default false: such a contract answers a
   * multipart call 415, as a service that does not speak MTOM does).
   */
  acceptUnasked?: boolean;
}

export const MTOM_DEFAULTS: Required<MtomSettings> = {
  maxPartBytes: 10 * 1024 * 1024,
  maxParts: 100,
  attachmentThreshold: 1024,
  acceptUnasked: false,
};

/** What the Content-Type of an MTOM message says: its SOAP version, boundary, root part and SOAP 1.2 action. */
export interface MtomPackage {
  version: SoapVersion;
  boundary: string;
  /** The root part's Content-ID, without angle brackets; undefined: the first part. */
  start?: string;
  /** SOAP 1.2's action, from start-info (JAX-WS) or the multipart type itself (gSOAP, node-soap). */
  action?: string;
}

const stripBrackets = (id: string) => {
  const trimmed = id.trim();
  return trimmed.startsWith('<') && trimmed.endsWith('>') ? trimmed.slice(1, -1).trim() : trimmed;
};

/**
 * The package a `multipart/related` Content-Type describes; undefined for any other media type. A multipart/related
 * of another type than XOP is 415; one without a boundary has boundary '' (refused when the body is read, as a fault
 * of the call's version). The SOAP version is start-info's media
 * type; start-info `text/xml` with an `action` parameter on the multipart type is SOAP 1.2 (node-soap writes that for
 * a SOAP 1.2 call), since only SOAP 1.2 has that parameter.
 */
export function mtomPackageOf(contentType: string): MtomPackage | undefined {
  let parsed: ReturnType<typeof parseContentType>;
  try {
    parsed = parseContentType(contentType);
  } catch {
    return undefined;
  }
  if (parsed.type !== 'multipart/related') return undefined;
  const p = parsed.parameters;
  if ((p.type ?? '').trim().toLowerCase() !== XOP_MEDIA_TYPE) {
    throw new ServiceError('unsupported-media-type', 'A multipart/related SOAP call must be MTOM: type="application/xop+xml".');
  }
  // Without one (or one longer than RFC 2046's 70 characters allow, well past): refused by readMtomMessage, as a fault.
  const boundary = p.boundary !== undefined && p.boundary.length <= 200 ? p.boundary : '';
  let startInfo: { type: string; action?: string } | undefined;
  try {
    const info = p['start-info'] === undefined ? undefined : parseContentType(p['start-info']);
    startInfo = info && { type: info.type, action: info.parameters.action };
  } catch {
    // Not a media type: the version is told by the action parameter alone.
  }
  const soap12 = startInfo?.type === 'application/soap+xml' || p.action !== undefined;
  return {
    version: soap12 ? SOAP12 : SOAP11,
    boundary,
    start: p.start === undefined ? undefined : stripBrackets(p.start),
    action: soap12 ? (startInfo?.action ?? p.action)?.trim() : undefined,
  };
}

/** An MTOM message's parts: the root part (its bytes checked to be UTF-8) and the others by Content-ID. */
export interface MtomMessage {
  root: Uint8Array;
  parts: ReadonlyMap<string, Uint8Array>;
}

/** The transfer encodings of a part whose bytes are taken as they are. */
const IDENTITY_ENCODINGS = new Set(['binary', '8bit', '7bit']);

/**
 * Splits an MTOM message into its parts, each a view of `body`. The root part is the one whose Content-ID is the
 * package's start (without it: the first); a malformed message, a part or count over the limits, a missing root
 * part, a transfer encoding other than binary/8bit/7bit, or a root part that is not UTF-8 application/xop+xml is
 * the caller's mistake.
 */
export function readMtomMessage(body: Uint8Array, pkg: MtomPackage, settings: MtomSettings = {}): MtomMessage {
  if (pkg.boundary === '') throw clientError('The multipart/related Content-Type has no boundary.');
  const maxPartBytes = settings.maxPartBytes ?? MTOM_DEFAULTS.maxPartBytes;
  const maxParts = settings.maxParts ?? MTOM_DEFAULTS.maxParts;
  const parts = new Map<string, Uint8Array>();
  let first: { id: string | undefined; bytes: Uint8Array; type: string | undefined } | undefined;
  let root: { bytes: Uint8Array; type: string | undefined } | undefined;
  try {
    // A preamble before the first boundary (a CRLF, as Axis2 sends) is passed over, as RFC 2046 §5.1.1 has it.
    const opening = Buffer.from(`--${pkg.boundary}`);
    const at = Buffer.from(body.buffer, body.byteOffset, body.byteLength).indexOf(opening);
    const message = at <= 0 ? body : body.subarray(at);
    for (const part of multipart.parseMultipart(message, {
      boundary: pkg.boundary,
      maxFileSize: maxPartBytes,
      maxParts,
      maxTotalSize: Number.POSITIVE_INFINITY,
    })) {
      const headers = part.headers;
      const encoding = (headers['content-transfer-encoding'] ?? 'binary').trim().toLowerCase();
      if (!IDENTITY_ENCODINGS.has(encoding)) throw clientError("An MTOM part's Content-Transfer-Encoding is not read: send it binary.");
      const bytes = joined(part.content);
      const id = headers['content-id'] === undefined ? undefined : stripBrackets(headers['content-id']);
      const type = headers['content-type'];
      if (first === undefined) first = { id, bytes, type };
      if (pkg.start !== undefined && id === pkg.start && root === undefined) root = { bytes, type };
      else if (id !== undefined && !parts.has(id)) parts.set(id, bytes);
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw clientError(multipartMessage(error));
  }
  if (first === undefined) throw clientError('The MTOM message has no parts.');
  if (pkg.start === undefined) {
    root = first;
    if (first.id !== undefined) parts.delete(first.id);
  }
  if (root === undefined) throw clientError('The MTOM message has no part whose Content-ID is its start.');
  checkRootPart(root.type, root.bytes);
  return { root: root.bytes, parts };
}

/** What the parser's error says, in a sentence that holds no value from the request. */
function multipartMessage(error: unknown): string {
  if (error instanceof multipart.MaxFileSizeExceededError) return 'An MTOM part is larger than this service accepts.';
  if (error instanceof multipart.MaxPartsExceededError) return 'The MTOM message has more parts than this service accepts.';
  if (error instanceof multipart.MaxHeaderSizeExceededError) return "An MTOM part's headers are larger than this service accepts.";
  return 'The MTOM message is not a well-formed multipart/related body (its boundaries, its end or its parts).';
}

/** A part's content as one view: the parser hands a whole message's part over as a single chunk of it. */
function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  return new Uint8Array(Buffer.concat(chunks));
}

/** The root part: application/xop+xml (or the SOAP types, as some clients label it), UTF-8. */
function checkRootPart(type: string | undefined, bytes: Uint8Array): void {
  if (type !== undefined) {
    let parsed: ReturnType<typeof parseContentType>;
    try {
      parsed = parseContentType(type);
    } catch {
      throw clientError('The Content-Type of the MTOM root part is not a media type.');
    }
    if (![XOP_MEDIA_TYPE, 'text/xml', 'application/soap+xml'].includes(parsed.type)) {
      throw clientError('The MTOM root part must be application/xop+xml.');
    }
    const charset = parsed.parameters.charset?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ServiceError('unsupported-media-type', 'The MTOM root part must be UTF-8.');
    }
  }
  if (!isUtf8(bytes)) throw clientError('The MTOM root part is not valid UTF-8.');
}

/**
 * Replaces each xop:Include of `doc` by the base64 text of the part its href names (`cid:` and the Content-ID,
 * URL-encoded, RFC 2392): the element that held it then holds that text alone. An Include elsewhere than alone in its
 * element (white space aside), one without a cid: href, one naming no part, or another element of the XOP namespace
 * is the caller's mistake. Returns the texts, for decodingInlined (xsd-values.ts): a text not decoded as a
 * base64Binary stood where the schema has another type.
 */
export function inlineIncludes(doc: XmlDocument, parts: ReadonlyMap<string, Uint8Array>): Map<string, InlinedBinary> {
  const inlined = new Map<string, InlinedBinary>();
  const found = doc.find(`//*[namespace-uri()='${XOP_NAMESPACE}']`) as XmlElement[];
  for (const include of found) {
    if (include.name !== 'Include') throw clientError('The XOP namespace has no element but Include.');
    const href = include.attrs.find((a) => a.name === 'href' && !a.namespaceUri)?.value.trim() ?? '';
    if (!/^cid:/i.test(href)) throw clientError('An xop:Include must name its part by an href of cid:.');
    let id: string;
    try {
      id = stripBrackets(decodeURIComponent(href.slice(4)));
    } catch {
      throw clientError('The href of an xop:Include is not a well-formed cid: URL.');
    }
    const bytes = parts.get(id);
    if (bytes === undefined) throw clientError('An xop:Include names a part the MTOM message does not have.');
    const parent = include.parent;
    if (parent === null || include.firstChild !== null)
      throw clientError('An xop:Include must be empty, in the element whose value it is.');
    // Node objects are made anew on each visit: the Include is the parent's one element.
    let elements = 0;
    for (let child = parent.firstChild; child !== null; child = child.next) {
      if (child instanceof xml().XmlElement) elements++;
      else if (!(child instanceof xml().XmlText && /^[ \t\r\n]*$/.test(child.content))) elements = 2;
    }
    if (elements !== 1) throw clientError('An xop:Include must stand alone in the element whose value it is.');
    for (let node = parent.firstChild; node !== null; node = parent.firstChild) node.remove();
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    parent.addText(text);
    const known = inlined.get(text);
    if (known) known.pending++;
    else inlined.set(text, { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), pending: 1 });
  }
  return inlined;
}

/** Every Include was decoded as a base64Binary; else one stood in an element of another type. */
export function checkInlinedDecoded(inlined: ReadonlyMap<string, InlinedBinary>, fault: (message: string) => Error = clientError): void {
  for (const binary of inlined.values()) {
    if (binary.pending > 0) throw fault('An xop:Include stands in an element whose type is not base64Binary.');
  }
}

/** An MTOM message to send: its Content-Type and its body, in chunks (the attachments as they are, not copied). */
export interface MtomOutgoing {
  contentType: string;
  chunks: Buffer[];
  length: number;
}

const CRLF = '\r\n';

/** A token no answer holds but where the encoder wrote it: a base64Binary value to send (encodingAttachable's marker). */
export const attachmentMarker = () => `xop.${randomUUID()}.`;

/**
 * An envelope as an MTOM message, as JAX-WS writes one. `found` holds the base64Binary values the encoder wrote as
 * tokens (encodingAttachable, with a marker of attachmentMarker): a token that is an element's whole content becomes
 * an xop:Include and its value an attachment of application/octet-stream, binary, sent from the value's own bytes;
 * a token anywhere else (an attribute, a list) is written as the value's base64 text. `startInfo` is SOAP 1.1's
 * text/xml or SOAP 1.2's application/soap+xml, with its action for a request.
 */
export function mtomMessage(version: SoapVersion, envelope: string, found: ReadonlyMap<string, Uint8Array>, action?: string): MtomOutgoing {
  const uuid = randomUUID();
  const boundary = `uuid:${uuid}`;
  const rootId = `rootpart*${uuid}@soap.mtom`;
  const soapType =
    version === SOAP12
      ? `application/soap+xml${action === undefined ? '' : `;action=\\"${action.replaceAll(/["\\]/g, '')}\\"`}`
      : 'text/xml';
  const attachments: { id: string; bytes: Uint8Array }[] = [];
  let rootXml = envelope;
  for (const [token, bytes] of found) {
    const content = `>${token}<`;
    if (rootXml.includes(content)) {
      const id = `${attachments.length + 1}.${uuid}@soap.mtom`;
      rootXml = rootXml.replaceAll(content, `><xop:Include xmlns:xop="${XOP_NAMESPACE}" href="cid:${encodeURIComponent(id)}"/><`);
      attachments.push({ id, bytes });
    }
    if (rootXml.includes(token))
      rootXml = rootXml.replaceAll(token, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'));
  }
  const chunks: Buffer[] = [
    Buffer.from(
      `--${boundary}${CRLF}Content-Id: <${rootId}>${CRLF}Content-Type: ${XOP_MEDIA_TYPE};charset=utf-8;type="${soapType}"${CRLF}` +
        `Content-Transfer-Encoding: binary${CRLF}${CRLF}${rootXml}`,
    ),
  ];
  for (const { id, bytes } of attachments) {
    chunks.push(
      Buffer.from(
        `${CRLF}--${boundary}${CRLF}Content-Id: <${id}>${CRLF}Content-Type: application/octet-stream${CRLF}Content-Transfer-Encoding: binary${CRLF}${CRLF}`,
      ),
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
  }
  chunks.push(Buffer.from(`${CRLF}--${boundary}--${CRLF}`));
  const contentType = `multipart/related;start="<${rootId}>";type="${XOP_MEDIA_TYPE}";boundary="${boundary}";start-info="${soapType}"`;
  return { contentType, chunks, length: chunks.reduce((n, chunk) => n + chunk.length, 0) };
}
