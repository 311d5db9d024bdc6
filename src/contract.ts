/**
 * The contract at run time, for one configured namespace: the request
 * schemas compiled once by libxml2, the namespace escaped once, the WSDL
 * rendered per address. Everything namespace-dependent hangs off this object.
 */
import { REQUEST_SCHEMAS, renderWsdl } from '../generated/documents';
import { OPERATION_NAMES, ROUTES, type OperationName, type Route } from '../generated/routes';
import { XML_DECLARATION, escapeXmlAttribute } from './xml/xml-codec';
import type { XsdValidator } from './xml/xml-engine';
import { compileSchema } from './xml/xml-schema';

export interface Contract {
  namespace: string;
  /** The namespace, escaped for an attribute value. */
  namespaceAttribute: string;
  routeByRequestElement(localName: string): Route<OperationName> | undefined;
  routeByHttpOperation(segment: string): Route<OperationName> | undefined;
  requestSchema(operation: OperationName): XsdValidator;
  soapAction(operation: OperationName): string;
  wsdl(address: string): string;
}

/** Needs the XML engine loaded (loadXmlEngine); a namespace libxml2 cannot compile as a schema target throws a one-line Error. */
export function loadContract(namespace: string): Contract {
  const routes: Route<OperationName>[] = OPERATION_NAMES.map((name) => ROUTES[name]);
  const byElement = new Map(routes.map((r) => [r.requestElement, r]));
  // The operation segment of the HTTP variants matches case-insensitively, as ASMX does.
  const byHttp = new Map(routes.map((r) => [r.httpOperation.toLowerCase(), r]));
  const schemas = new Map(OPERATION_NAMES.map((name) => [name, compileRequestSchema(name, namespace)]));
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

function compileRequestSchema(operation: OperationName, namespace: string): XsdValidator {
  try {
    return compileSchema(REQUEST_SCHEMAS[operation](namespace));
  } catch (error) {
    throw new Error(
      `The namespace ${JSON.stringify(namespace)} cannot be used: libxml2 refuses it as a schema target namespace (${(error as Error).message}).`,
    );
  }
}
