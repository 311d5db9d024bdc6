/**
 * The contract at run time, for one configured namespace: the request
 * schemas parsed once, the namespace escaped once, the WSDL rendered per
 * address. Everything namespace-dependent hangs off this object.
 */
import type { Document } from 'libxmljs2';
import { REQUEST_SCHEMAS, renderWsdl } from '../generated/documents';
import { OPERATION_NAMES, ROUTES, type OperationName, type Route } from '../generated/routes';
import { XML_DECLARATION, escapeXmlAttribute } from './xml/codec';
import { parseTrustedXml } from './xml/parse';

export interface Contract {
  namespace: string;
  /** The namespace, escaped for an attribute value. */
  namespaceAttribute: string;
  routeByRequestElement(localName: string): Route<OperationName> | undefined;
  routeByHttpOperation(segment: string): Route<OperationName> | undefined;
  requestSchema(operation: OperationName): Document;
  soapAction(operation: OperationName): string;
  wsdl(address: string): string;
}

export function loadContract(namespace: string): Contract {
  const routes = OPERATION_NAMES.map((name) => ROUTES[name] as Route<OperationName>);
  const byElement = new Map(routes.map((r) => [r.requestElement, r]));
  // The operation segment of the HTTP variants matches case-insensitively, as ASMX does.
  const byHttp = new Map(routes.map((r) => [r.httpOperation.toLowerCase(), r]));
  const schemas = new Map(OPERATION_NAMES.map((name) => [name, parseTrustedXml(REQUEST_SCHEMAS[name](namespace))]));
  const wsdlByAddress = new Map<string, string>();
  return {
    namespace,
    namespaceAttribute: escapeXmlAttribute(namespace),
    routeByRequestElement: (localName) => byElement.get(localName),
    routeByHttpOperation: (segment) => byHttp.get(segment.toLowerCase()),
    requestSchema: (operation) => schemas.get(operation)!,
    soapAction: (operation) => namespace + ROUTES[operation].soapActionSuffix,
    wsdl(address) {
      let text = wsdlByAddress.get(address);
      if (text === undefined) {
        text = `${XML_DECLARATION}\n${renderWsdl(namespace, address)}\n`;
        // Bounded: addresses come from Host headers, which callers choose.
        if (wsdlByAddress.size >= 16) wsdlByAddress.clear();
        wsdlByAddress.set(address, text);
      }
      return text;
    },
  };
}
