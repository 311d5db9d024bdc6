/** An operation's HTTP GET or POST side: its location and the path it is served at, its input parts, its answer's element, an XML body. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, findOne, optionalAttr, refuseAt } from '../documents';
import type { WsdlOperationFacts } from './facts';
import type { WsdlDocuments } from './definitions';
import { messageOf, partsOf } from './messages';

export function httpFacts(
  documents: WsdlDocuments,
  binding: XmlElement,
  operation: XmlElement,
  name: string,
  portPath: string,
): WsdlOperationFacts['http'] {
  const outputMessage = messageOf(documents, binding, name, 'output');
  const output = outputMessage ? partsOf(outputMessage) : [];
  if (output.length > 1) refuseAt(outputMessage!, `${name}: an HTTP output message has one part (the answer's root element) or none`);
  if (output[0] && !output[0].element) refuseAt(outputMessage!, `${name}: an HTTP output part must name the answer's element`);
  const inputMessage = messageOf(documents, binding, name, 'input');
  const inputParts = inputMessage ? partsOf(inputMessage) : [];
  const [replacement] = findAll(operation, 'wsdl:input/http:urlReplacement');
  if (replacement) refuseAt(replacement, `${name}: http:urlReplacement (fields in the path) is not served; http:urlEncoded is`);
  const xmlIn = xmlContent(operation, 'input');
  let xmlBody: { mediaType: string } | undefined;
  if (xmlIn) {
    if (attr(findOne(binding, 'http:binding'), 'verb') !== 'POST') {
      refuseAt(
        xmlIn.element,
        `${name}: an XML request body is sent with POST, not with HTTP ${attr(findOne(binding, 'http:binding'), 'verb')}`,
      );
    }
    const parts = xmlIn.part === undefined ? inputParts : inputParts.filter((p) => p.name === xmlIn.part);
    // No part at all: the body is empty, as the SOAP body is.
    if (inputParts.length > 0 && (parts.length !== 1 || !parts[0].element)) {
      refuseAt(xmlIn.element, `${name}: an XML request body is one part naming an element`);
    }
    xmlBody = { mediaType: xmlContent(operation, 'output')?.mediaType ?? xmlIn.mediaType };
  }
  const location = attr(findOne(operation, 'http:operation'), 'location');
  return {
    location,
    segment: segmentOf(location, portPath),
    inputParts,
    outputElement: output[0]?.element,
    ...(xmlBody ? { xmlBody } : {}),
  };
}

/**
 * Where under its port's address an operation's location puts it. ASMX writes `/Add` under `/Service.asmx` and
 * means `/Service.asmx/Add`: the location is appended. Axis2 writes `Version/getVersion` under
 * `/axis2/services/Version`, a relative reference that resolves (RFC 3986) to `/axis2/services/Version/getVersion`:
 * a location that resolves under the address is taken so.
 */
export function segmentOf(location: string, portPath: string): string {
  const trimmed = location.trim();
  if (!trimmed.startsWith('/') && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed)) {
    const resolved = new URL(trimmed, `http://host${portPath}`).pathname;
    if (resolved.startsWith(`${portPath}/`) && resolved.length > portPath.length + 1) return resolved.slice(portPath.length + 1);
  }
  return trimmed.replace(/^\//, '');
}

/** An HTTP operation's direction written as an XML document: `mime:mimeXml`, or `mime:content` of an XML media type. */
function xmlContent(
  operation: XmlElement,
  direction: 'input' | 'output',
): { element: XmlElement; part?: string; mediaType: string } | undefined {
  for (const element of findAll(operation, `wsdl:${direction}/mime:mimeXml | wsdl:${direction}/mime:content`)) {
    const type = element.name === 'mimeXml' ? 'text/xml' : (optionalAttr(element, 'type') ?? '').trim().toLowerCase();
    if (type === 'text/xml' || type === 'application/xml') {
      return { element, part: optionalAttr(element, 'part'), mediaType: type };
    }
  }
  return undefined;
}
