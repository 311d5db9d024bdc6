/** The two SOAP versions: what tells them apart on the wire, and how each writes envelopes and faults. */
import type { ErrorKind, FaultCode } from '../errors';
import { XML_DECLARATION, XSD_NAMESPACE, XSI_NAMESPACE } from '../xml/xml-codec';
import { escapeXmlAttribute, escapeXmlText } from '../xml/xml-escape';

export interface SoapVersion {
  variant: 'soap11' | 'soap12';
  envelopeNamespace: string;
  contentType: string;
  /** Fault code local names by error kind. */
  codes: Record<'client' | 'server' | 'version-mismatch' | 'must-understand', string>;
  /** Values of the mustUnderstand attribute that mean "yes". */
  mustUnderstandTrue: readonly string[];
}

export const SOAP11: SoapVersion = {
  variant: 'soap11',
  envelopeNamespace: 'http://schemas.xmlsoap.org/soap/envelope/',
  contentType: 'text/xml; charset=utf-8',
  codes: { client: 'Client', server: 'Server', 'version-mismatch': 'VersionMismatch', 'must-understand': 'MustUnderstand' },
  mustUnderstandTrue: ['1'],
};

export const SOAP12: SoapVersion = {
  variant: 'soap12',
  envelopeNamespace: 'http://www.w3.org/2003/05/soap-envelope',
  contentType: 'application/soap+xml; charset=utf-8',
  codes: { client: 'Sender', server: 'Receiver', 'version-mismatch': 'VersionMismatch', 'must-understand': 'MustUnderstand' },
  mustUnderstandTrue: ['1', 'true'],
};

/** The SOAP version of a call's variant; undefined for a variant that is not SOAP. */
export function soapVersionOfVariant(variant: string | undefined): SoapVersion | undefined {
  return variant === SOAP11.variant ? SOAP11 : variant === SOAP12.variant ? SOAP12 : undefined;
}

/** SOAP 1.1 is text/xml, SOAP 1.2 is application/soap+xml (media type without parameters, lower case). */
export function soapVersionOf(mediaType: string): SoapVersion | undefined {
  if (mediaType === 'text/xml') return SOAP11;
  if (mediaType === 'application/soap+xml') return SOAP12;
  return undefined;
}

const OPENINGS = new Map(
  [SOAP11, SOAP12].map((v) => [
    v,
    `${XML_DECLARATION}<soap:Envelope xmlns:soap="${v.envelopeNamespace}" xmlns:xsi="${XSI_NAMESPACE}" xmlns:xsd="${XSD_NAMESPACE}">`,
  ]),
);
const open = (v: SoapVersion) => OPENINGS.get(v)!;

export function soapEnvelope(version: SoapVersion, bodyContent: string, headerContent?: string): string {
  const header = headerContent === undefined ? '' : `<soap:Header>${headerContent}</soap:Header>`;
  return `${open(version)}${header}<soap:Body>${bodyContent}</soap:Body></soap:Envelope>`;
}

export type FaultKind = Extract<ErrorKind, keyof SoapVersion['codes']>;

/** What a fault carries beyond its code and reason: header blocks (escaped XML), and subcodes under the sender's code. */
export interface FaultExtras {
  /** Header blocks for the fault's Header (WS-Addressing's); none: no Header, as before. */
  header?: string;
  /** SOAP 1.2: nested under the code, most general first; SOAP 1.1: the first is the faultcode (a header's fault: no detail element). */
  subcodes?: readonly FaultCode[];
}

const qualified = (code: FaultCode) =>
  `<soap:Value xmlns:${code.prefix}="${escapeXmlAttribute(code.namespace)}">${code.prefix}:${code.local}</soap:Value>`;

/** SOAP 1.2 subcodes, nested, most general outermost. */
function subcodesOf(codes: readonly FaultCode[]): string {
  return codes.reduceRight((inner, code) => `<soap:Subcode>${qualified(code)}${inner}</soap:Subcode>`, '');
}

/** A fault; `detail` is the content of its detail (a declared fault's element), empty by default. */
export function soapFault(version: SoapVersion, kind: FaultKind, message: string, detail = '', extras?: FaultExtras): string {
  const code = `soap:${version.codes[kind]}`;
  const text = escapeXmlText(message);
  const header = extras?.header;
  const subcodes = extras?.subcodes ?? [];
  if (version === SOAP11) {
    const first = subcodes[0];
    // A header's fault carries no detail element (SOAP 1.1 §4.4: detail is the Body's); any other has one, empty or not.
    const details = first !== undefined ? '' : detail === '' ? '<detail />' : `<detail>${detail}</detail>`;
    const faultcode =
      first === undefined
        ? `<faultcode>${code}</faultcode>`
        : `<faultcode xmlns:${first.prefix}="${escapeXmlAttribute(first.namespace)}">${first.prefix}:${first.local}</faultcode>`;
    return soapEnvelope(version, `<soap:Fault>${faultcode}<faultstring>${text}</faultstring>${details}</soap:Fault>`, header);
  }
  // SOAP 1.2 §5.4.7: a VersionMismatch fault tells which envelope versions are supported.
  const upgrade = kind === 'version-mismatch' ? `<soap:Upgrade><soap:SupportedEnvelope qname="soap:Envelope" /></soap:Upgrade>` : '';
  const headerBlocks = upgrade + (header ?? '');
  return (
    `${open(version)}${headerBlocks === '' ? '' : `<soap:Header>${headerBlocks}</soap:Header>`}<soap:Body><soap:Fault><soap:Code><soap:Value>${code}</soap:Value>${subcodesOf(subcodes)}</soap:Code>` +
    `<soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason>${detail === '' ? '' : `<soap:Detail>${detail}</soap:Detail>`}</soap:Fault></soap:Body></soap:Envelope>`
  );
}
