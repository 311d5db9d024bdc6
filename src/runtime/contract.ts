/**
 * The contract at run time, for one configured namespace: the request
 * schemas compiled once by libxml2, the namespace escaped once, the WSDL
 * rendered per address. Everything namespace-dependent hangs off this object.
 */
import { REQUEST_SCHEMAS, renderWsdl } from '../../generated/documents';
import { OPERATION_NAMES, ROUTES, TARGET_NAMESPACE, VARIANTS, type OperationName, type Route, type Variant } from '../../generated/routes';
import { ServiceError } from './errors';
import type { Config } from '../config';
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

const VARIANT_NAMES: Record<Variant, string> = { soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', httpGet: 'HTTP GET', httpPost: 'HTTP POST' };

/**
 * A call over a variant the WSDL declares no port for (ASMX's HTTP GET, off
 * by default, say) is refused as ASMX refuses a protocol it has turned off:
 * never served beside the description. SOAP of such a version is a media
 * type the endpoint does not take (415); HTTP GET or POST, no such resource (404).
 */
export function refuseUndeclared(variant: Variant): void {
  if (VARIANTS.includes(variant)) return;
  const message = `This service's WSDL declares no ${VARIANT_NAMES[variant]} port; it is called over ${VARIANTS.map((v) => VARIANT_NAMES[v]).join(', ')}.`;
  throw new ServiceError(variant === 'soap11' || variant === 'soap12' ? 'unsupported-media-type' : 'not-found', message);
}

/** The namespace the service speaks: `--namespace`, else the WSDL's own. */
export function contractNamespace(config: Pick<Config, 'namespace'>): string {
  return config.namespace ?? TARGET_NAMESPACE;
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
