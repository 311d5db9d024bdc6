/**
 * The one way the tests and the benchmarks call the service: a request of any
 * variant (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST) built with the overrides
 * a test needs (namespace, SOAPAction, Content-Type, path, envelope prefix,
 * SOAP Header, fields in a given order, repeated or escaped), sent with
 * fetch, answered as {status, headers, contentType, body}; and the readers
 * of those answers (SOAP faults, ValidatePin's boolean) through
 * libxml2-wasm's XPath (test/support/readers.ts, never patterns). The JSON
 * variant is test/support/json-calls.ts, built on send() here.
 */
import { elementAt, namespaceInScope, readXml, textOf } from './readers';
import { DEFAULT_NAMESPACE, SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName } from './xml-assertions';
import { defaultConfig } from '../../src/service/config';
import { totp, type TotpParams } from '../../src/service/otp/totp';

export const NS = DEFAULT_NAMESPACE;
export const SOAP11_NS = SOAP_ENVELOPE_NAMESPACES['1.1'];
export const SOAP12_NS = SOAP_ENVELOPE_NAMESPACES['1.2'];
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export { VARIANTS, type OperationName as Operation } from '../../generated/routes';
export type { Variant } from '../../src/runtime/definition';
import type { OperationName as Operation } from '../../generated/routes';
import type { Variant } from '../../src/runtime/definition';
export const isSoap = (variant: Variant): variant is 'soap11' | 'soap12' => variant === 'soap11' || variant === 'soap12';
/** The SOAP version of each SOAP variant; none for the HTTP variants. */
export const SOAP_VERSION: Readonly<Partial<Record<Variant, SoapVersionName>>> = { soap11: '1.1', soap12: '1.2' };
export const versionOf = (variant: 'soap11' | 'soap12'): SoapVersionName => SOAP_VERSION[variant]!;

/** Name–value pairs, sent in the order given (a name may repeat). */
export type FieldList = ReadonlyArray<readonly [name: string, value: string]>;
/** Fields as an object, or as a FieldList. */
export type Fields = Readonly<Record<string, string>> | FieldList;

const entriesOf = (fields: Fields): FieldList => (Array.isArray(fields) ? fields : Object.entries(fields));

// --- PINs -----------------------------------------------------------------------------------------

/** A clock the PINs are computed against: the service's own (injected) one. */
export interface HasClock {
  clock: { now(): number };
}

/** The TOTP parameters of a service with default settings: those of src/service/config.ts's settings table. */
export const DEFAULT_TOTP: TotpParams = (({ algorithm, digits, period }) => ({ algorithm, digits, period }))(defaultConfig());

/** The PIN of `secret` (UTF-8 key bytes, DEFAULT_TOTP) `stepOffset` steps from the service's now. */
export function pinFor(service: HasClock, secret: string, stepOffset = 0): string {
  const seconds = Math.floor(service.clock.now() / 1000) + stepOffset * DEFAULT_TOTP.period;
  return totp(Buffer.from(secret, 'utf8'), DEFAULT_TOTP, seconds);
}

/** A 6-digit PIN that is not the PIN of `secret` for any step within `window` steps of now. */
export function wrongPinFor(service: HasClock, secret: string, window = 1): string {
  const valid = new Set<string>();
  for (let d = -window; d <= window; d++) valid.add(pinFor(service, secret, d));
  for (let n = 0; ; n++) {
    const candidate = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

// --- Request bodies -------------------------------------------------------------------------------

/** Text as XML element content; a CR is written as a character reference, as XML writers do, since a raw one is read back as LF. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** The operation element of a request body (any name, so unknown operations can be sent), fields in the order given. */
export function operationElement(operation: string, fields: Fields, namespace: string = NS): string {
  const children = entriesOf(fields)
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return `<${operation} xmlns="${namespace}">${children}</${operation}>`;
}

export interface EnvelopeOptions {
  /** The prefix of the envelope namespace (default `soap`). */
  prefix?: string;
  /** The whole SOAP Header element, written before the Body. */
  header?: string;
  /** Declare xsi and xsd on the Envelope, as .NET-generated clients write it. */
  schemaNamespaces?: boolean;
}

const SCHEMA_NAMESPACES = ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** A SOAP envelope of `version` around `bodyContent`, with the XML declaration. */
export function soapEnvelope(version: SoapVersionName, bodyContent: string, options: EnvelopeOptions = {}): string {
  const p = options.prefix ?? 'soap';
  const declarations = `xmlns:${p}="${SOAP_ENVELOPE_NAMESPACES[version]}"${options.schemaNamespaces ? SCHEMA_NAMESPACES : ''}`;
  return `<?xml version="1.0" encoding="utf-8"?><${p}:Envelope ${declarations}>${options.header ?? ''}<${p}:Body>${bodyContent}</${p}:Body></${p}:Envelope>`;
}

/** application/x-www-form-urlencoded, as browsers write it (a query string too), fields in the order given. */
export function formEncode(fields: Fields): string {
  return new URLSearchParams(entriesOf(fields).map(([name, value]): [string, string] => [name, value])).toString();
}

// --- Requests -------------------------------------------------------------------------------------

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  /** Path and query, from the service's root. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface SoapHeaderOptions {
  /** The contract namespace the action is in (default NS). */
  namespace?: string;
  /** SOAP 1.1 SOAPAction header value; null leaves it out. Default: the operation's, quoted, when there is an operation. */
  soapAction?: string | null;
  /** The Content-Type; default: the version's, for SOAP 1.2 with the operation's action parameter when there is an operation. */
  contentType?: string;
}

/** The headers of a SOAP request; without `operation`, no action at all unless given. */
function soapHeaders(version: SoapVersionName, operation?: string, options: SoapHeaderOptions = {}): Record<string, string> {
  const action = operation === undefined ? undefined : `${options.namespace ?? NS}${operation}`;
  if (version === '1.2') {
    return {
      'Content-Type':
        options.contentType ?? (action === undefined ? SOAP_CONTENT_TYPES['1.2'] : `${SOAP_CONTENT_TYPES['1.2']}; action="${action}"`),
    };
  }
  const headers: Record<string, string> = { 'Content-Type': options.contentType ?? SOAP_CONTENT_TYPES['1.1'] };
  const soapAction = options.soapAction === undefined ? (action === undefined ? null : `"${action}"`) : options.soapAction;
  if (soapAction !== null) headers.SOAPAction = soapAction;
  return headers;
}

/** A POST of a SOAP body given as it is (text or bytes) to /api.asmx, or `path`. */
export function soapRequest(
  version: SoapVersionName,
  body: string | Buffer,
  operation?: string,
  options: SoapHeaderOptions & { path?: string } = {},
): OutgoingRequest {
  return { method: 'POST', path: options.path ?? '/api.asmx', headers: soapHeaders(version, operation, options), body };
}

export interface RequestOptions extends SoapHeaderOptions, EnvelopeOptions {
  /** The namespace of the SOAP operation element, when it differs from `namespace`. */
  bodyNamespace?: string;
  /** Path instead of /api.asmx (SOAP) or /api.asmx/{operation} (HTTP). */
  path?: string;
}

/** The request a client of `variant` sends to call `operation` with `fields`. */
export function buildRequest(variant: Variant, operation: string, fields: Fields, options: RequestOptions = {}): OutgoingRequest {
  if (isSoap(variant)) {
    const version = versionOf(variant);
    const body = soapEnvelope(version, operationElement(operation, fields, options.bodyNamespace ?? options.namespace ?? NS), options);
    return soapRequest(version, body, operation, options);
  }
  const path = options.path ?? `/api.asmx/${operation}`;
  const form = formEncode(fields);
  return variant === 'httpGet'
    ? { method: 'GET', path: `${path}?${form}`, headers: {} }
    : { method: 'POST', path, headers: { 'Content-Type': FORM_CONTENT_TYPE }, body: form };
}

// --- Sending --------------------------------------------------------------------------------------

export interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  /** The Content-Type header, '' when there is none. */
  contentType: string;
  /** The body as UTF-8 text, a byte order mark kept (so a test can see one). */
  body: string;
  bytes: Buffer;
}

/** The service called: its base URL, or a running service (whose namespace is then the default). */
export type Target = string | { url: string; config?: { namespace?: string } };

const urlOf = (target: Target) => (typeof target === 'string' ? target : target.url);
const namespaceOf = (target: Target) => (typeof target === 'string' ? NS : (target.config?.namespace ?? NS));

/** Fetches `url` and reads the whole answer. */
export async function send(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    contentType: response.headers.get('content-type') ?? '',
    body: bytes.toString('utf8'),
    bytes,
  };
}

/** Sends a built request to `target`. */
export async function sendRequest(target: Target, request: OutgoingRequest): Promise<Answer> {
  return send(urlOf(target) + request.path, { method: request.method, headers: request.headers, body: request.body });
}

/** Calls `operation` with `fields` over `variant`, as that variant's client would. */
export async function call(
  target: Target,
  variant: Variant,
  operation: string,
  fields: Fields,
  options: RequestOptions = {},
): Promise<Answer> {
  return sendRequest(target, buildRequest(variant, operation, fields, { namespace: namespaceOf(target), ...options }));
}

/** POSTs a SOAP body (text or bytes) to /api.asmx with the action of `operation`, and `extraHeaders`. */
export async function postSoap(
  target: Target,
  version: SoapVersionName,
  body: string | Buffer,
  operation: Operation = 'ValidatePin',
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const request = soapRequest(version, body, operation, { namespace: namespaceOf(target) });
  return sendRequest(target, { ...request, headers: { ...request.headers, ...extraHeaders } });
}

/** POSTs a raw form body (text or bytes) to /api.asmx/{operation}, with `extraHeaders`. */
export async function postForm(
  target: Target,
  operation: Operation | string,
  body: string | Buffer,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  return sendRequest(target, {
    method: 'POST',
    path: `/api.asmx/${operation}`,
    headers: { 'Content-Type': FORM_CONTENT_TYPE, ...extraHeaders },
    body,
  });
}

/** GETs /api.asmx/{operation}?{rawQuery}, the query sent exactly as given. */
export async function getQuery(target: Target, operation: Operation | string, rawQuery: string): Promise<Answer> {
  return sendRequest(target, { method: 'GET', path: `/api.asmx/${operation}?${rawQuery}`, headers: {} });
}

export async function validatePin(target: Target, variant: Variant, pin: string, secretCode: string): Promise<Answer> {
  return call(target, variant, 'ValidatePin', { pin, secretCode });
}

// --- Reading answers ------------------------------------------------------------------------------

/** Status line, headers and body of an answer as one text, for checks that nothing leaked anywhere in it. */
export function wholeAnswer(answer: Answer): string {
  const headers = [...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return `${answer.status} ${answer.statusText}\n${headers}\n\n${answer.body}`;
}

/**
 * The boolean a successful ValidatePin answer carries; throws (with the
 * status and body) when the answer is not one.
 */
export function readBoolean(variant: Variant, answer: Answer): boolean {
  if (answer.status !== 200) throw new Error(`expected a 200 ValidatePin answer, got ${answer.status}: ${answer.body.slice(0, 300)}`);
  const text = readXml(answer.body, (doc) => {
    const ns = { env: variant === 'soap12' ? SOAP12_NS : SOAP11_NS, t: NS };
    const node = isSoap(variant)
      ? elementAt(doc, '/env:Envelope/env:Body/t:ValidatePinResponse/t:ValidatePinResult', ns)
      : elementAt(doc, '/t:boolean', ns);
    if (!node) throw new Error(`no ValidatePin result in the ${variant} answer: ${answer.body.slice(0, 300)}`);
    return textOf(node).trim();
  });
  if (text !== 'true' && text !== 'false') throw new Error(`the result is not an xsd:boolean literal: ${text}`);
  return text === 'true';
}

/** ValidatePin over `variant`, answered with a boolean. */
export async function validatePinResult(target: Target, variant: Variant, pin: string, secretCode: string): Promise<boolean> {
  return readBoolean(variant, await validatePin(target, variant, pin, secretCode));
}

export interface Fault {
  /** The fault code as written, e.g. `soap:Client` (1.1) or `soap:Sender` (1.2). */
  code: string;
  /** The namespace the code's prefix is bound to where it is written. */
  codeNamespace: string | undefined;
  /** The local part of the code, e.g. `Client`. */
  codeLocalName: string;
  /** faultstring (1.1) or the Reason Text (1.2). */
  reason: string;
}

/** Reads the Fault of a SOAP answer; throws when there is none. */
export function readFault(xml: string, version: SoapVersionName): Fault {
  return readXml(xml, (doc) => {
    const ns = { env: SOAP_ENVELOPE_NAMESPACES[version] };
    const fault = elementAt(doc, '/env:Envelope/env:Body/env:Fault', ns);
    if (!fault) throw new Error(`no SOAP ${version} Fault in the answer`);
    // SOAP 1.1: faultcode and faultstring are unqualified; SOAP 1.2: Code/Value and Reason/Text are qualified.
    const codeElement = version === '1.1' ? elementAt(fault, 'faultcode') : elementAt(fault, 'env:Code/env:Value', ns);
    const reasonElement = version === '1.1' ? elementAt(fault, 'faultstring') : elementAt(fault, 'env:Reason/env:Text', ns);
    if (!codeElement || !reasonElement) throw new Error(`the SOAP ${version} Fault lacks its code or reason`);
    const code = textOf(codeElement).trim();
    const colon = code.indexOf(':');
    const prefix = colon >= 0 ? code.slice(0, colon) : null;
    return {
      code,
      codeNamespace: namespaceInScope(codeElement, prefix),
      codeLocalName: code.slice(colon + 1),
      reason: textOf(reasonElement),
    };
  });
}

/** The client-fault code's local name of each SOAP version. */
export const CLIENT_CODE: Readonly<Record<SoapVersionName, string>> = { '1.1': 'Client', '1.2': 'Sender' };
