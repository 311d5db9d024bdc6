/**
 * Calls of the running service over its four variants, and reading of the
 * answers through libxml2-wasm's XPath (test/support/readers.ts, never
 * patterns): shared by the replay, throttling, hardening and logging tests.
 */
import { elementAt, readXml, textOf } from './readers';
import { readFault as readSoapFault, type SoapFault } from './xml-assertions';
import { totp } from '../../src/otp/totp';

export const NS = 'http://authenticatorapi.com/';
export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

export { VARIANTS, type Variant } from '../../generated/routes';
import type { Variant } from '../../generated/routes';
export const isSoap = (variant: Variant): variant is 'soap11' | 'soap12' => variant === 'soap11' || variant === 'soap12';

export type Operation = 'Pair' | 'ValidatePin';

export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  body: string;
}

/** A clock the PINs are computed against: the service's own (injected) one. */
export interface HasClock {
  clock: { now(): number };
}

/** The PIN of `secret` (UTF-8 key bytes, SHA1, 6 digits, 30 s) `stepOffset` steps from the service's now. */
export function pinFor(service: HasClock, secret: string, stepOffset = 0): string {
  const seconds = Math.floor(service.clock.now() / 1000) + stepOffset * 30;
  return totp(Buffer.from(secret, 'utf8'), { algorithm: 'SHA1', digits: 6, period: 30 }, seconds);
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

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The operation element of a request body, fields in the contract's order. */
export function operationElement(operation: Operation, fields: Record<string, string>): string {
  const children = Object.entries(fields)
    .map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
    .join('');
  return `<${operation} xmlns="${NS}">${children}</${operation}>`;
}

export function soapEnvelope(version: '1.1' | '1.2', bodyContent: string): string {
  const ns = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>${bodyContent}</soap:Body></soap:Envelope>`;
}

export function soapHeaders(version: '1.1' | '1.2', operation: Operation): Record<string, string> {
  return version === '1.1'
    ? { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}${operation}"` }
    : { 'Content-Type': `application/soap+xml; charset=utf-8; action="${NS}${operation}"` };
}

async function answer(response: Response): Promise<Answer> {
  return {
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get('content-type') ?? '',
    body: await response.text(),
  };
}

export async function send(url: string, init: RequestInit): Promise<Answer> {
  return answer(await fetch(url, init));
}

/** POSTs a raw SOAP body (text or bytes) to /api.asmx. */
export async function postSoap(
  baseUrl: string,
  version: '1.1' | '1.2',
  body: string | Buffer,
  operation: Operation = 'ValidatePin',
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  return send(`${baseUrl}/api.asmx`, { method: 'POST', headers: { ...soapHeaders(version, operation), ...extraHeaders }, body });
}

/** POSTs a raw form body (text or bytes) to /api.asmx/{operation}. */
export async function postForm(baseUrl: string, operation: Operation, body: string | Buffer): Promise<Answer> {
  return send(`${baseUrl}/api.asmx/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
}

/** GETs /api.asmx/{operation}?{rawQuery}, the query sent exactly as given. */
export async function getQuery(baseUrl: string, operation: Operation | string, rawQuery: string): Promise<Answer> {
  return send(`${baseUrl}/api.asmx/${operation}?${rawQuery}`, { method: 'GET' });
}

/** Calls `operation` with `fields` over `variant`. */
export async function call(baseUrl: string, variant: Variant, operation: Operation, fields: Record<string, string>): Promise<Answer> {
  switch (variant) {
    case 'soap11':
      return postSoap(baseUrl, '1.1', soapEnvelope('1.1', operationElement(operation, fields)), operation);
    case 'soap12':
      return postSoap(baseUrl, '1.2', soapEnvelope('1.2', operationElement(operation, fields)), operation);
    case 'httpGet':
      return getQuery(baseUrl, operation, new URLSearchParams(fields).toString());
    case 'httpPost':
      return postForm(baseUrl, operation, new URLSearchParams(fields).toString());
  }
}

export async function validatePin(baseUrl: string, variant: Variant, pin: string, secretCode: string): Promise<Answer> {
  return call(baseUrl, variant, 'ValidatePin', { pin, secretCode });
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
export async function validatePinResult(baseUrl: string, variant: Variant, pin: string, secretCode: string): Promise<boolean> {
  return readBoolean(variant, await validatePin(baseUrl, variant, pin, secretCode));
}

export type Fault = SoapFault;

/** The Fault of a SOAP answer; throws when there is none. */
export function readFault(version: '1.1' | '1.2', body: string): Fault {
  return readSoapFault(body, version);
}

/** The client-fault code's local name of each SOAP version. */
export const CLIENT_CODE: Readonly<Record<'1.1' | '1.2', string>> = { '1.1': 'Client', '1.2': 'Sender' };

export const versionOf = (variant: 'soap11' | 'soap12'): '1.1' | '1.2' => (variant === 'soap11' ? '1.1' : '1.2');
