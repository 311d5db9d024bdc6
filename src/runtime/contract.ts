/**
 * A contract at run time, for one namespace: its definition (what codegen
 * wrote), the request schemas compiled once by libxml2, the namespace escaped
 * once, the WSDL rendered per address. Everything namespace-dependent hangs
 * off this object.
 */
import type { ContractDefinition, OperationName, OperationsOf, Route, Variant } from './definition';
import { ServiceError } from './errors';
import { XML_DECLARATION } from './xml/xml-codec';
import { escapeXmlAttribute } from './xml/xml-escape';
import type { XsdValidator } from './xml/xml-engine';
import { compileSchema, compileSchemaSet } from './xml/xml-schema';

export interface Contract<Ops extends OperationsOf<Ops>> {
  definition: ContractDefinition<Ops>;
  namespace: string;
  /** The namespace, escaped for an attribute value. */
  namespaceAttribute: string;
  /** The one operation whose request body is this element of the target namespace (the usual call's lookup). */
  routeByRequestElement(localName: string): Route<Ops, OperationName<Ops>> | undefined;
  /** The operations whose request body starts with this element ('' and '' for an empty body): SOAPAction tells several apart. */
  routesByBody(namespaceUri: string, localName: string): readonly Route<Ops, OperationName<Ops>>[];
  routeByHttpOperation(segment: string): Route<Ops, OperationName<Ops>> | undefined;
  requestSchema(operation: OperationName<Ops>): XsdValidator;
  /** Every namespace's schema, compiled once: headers, parts and faults are validated against it. */
  schemas(): XsdValidator;
  soapAction(operation: OperationName<Ops>, variant?: 'soap11' | 'soap12'): string;
  wsdl(address: string): string;
  /** The N-th WSDL the WSDL imports (`?wsdl=wsdlN`); undefined when there is none. */
  importedWsdl(index: number, address: string): string | undefined;
  /**
   * A call over a variant the WSDL declares no port for (ASMX's HTTP GET, off
   * by default, say) is refused as ASMX refuses a protocol it has turned off:
   * never served beside the description. SOAP of such a version is a media
   * type the endpoint does not take (415); HTTP GET or POST, no such resource (404).
   */
  refuseUndeclared(variant: Variant): void;
}

const VARIANT_NAMES: Record<Variant, string> = { soap11: 'SOAP 1.1', soap12: 'SOAP 1.2', httpGet: 'HTTP GET', httpPost: 'HTTP POST' };

/**
 * The contract in `namespace` (a service's setting; the WSDL's own by
 * default). Needs the XML engine loaded (loadXmlEngine); a namespace libxml2
 * cannot compile as a schema target throws a one-line Error.
 */
export function loadContract<Ops extends OperationsOf<Ops>>(
  definition: ContractDefinition<Ops>,
  namespace = definition.targetNamespace,
): Contract<Ops> {
  const routes: Route<Ops, OperationName<Ops>>[] = definition.operationNames.map((name) => definition.routes[name]);
  const bodyKey = (ns: string, local: string) => `{${ns}}${local}`;
  const byBody = new Map<string, Route<Ops, OperationName<Ops>>[]>();
  for (const r of routes) {
    const key = r.requestElement === '' ? '' : bodyKey(r.requestNamespace ?? namespace, r.requestElement);
    byBody.set(key, [...(byBody.get(key) ?? []), r]);
  }
  const byElement = new Map(
    routes
      .filter(
        (r) =>
          r.requestNamespace === undefined &&
          !r.requestParts &&
          r.requestElement !== '' &&
          byBody.get(bodyKey(namespace, r.requestElement))?.length === 1,
      )
      .map((r) => [r.requestElement, r]),
  );
  // The operation segment of the HTTP variants matches case-insensitively, as ASMX does.
  const byHttp = new Map(routes.map((r) => [r.httpOperation.toLowerCase(), r]));
  let all: XsdValidator | undefined;
  const schemaSet = () => {
    all ??= compileSchemaSet(definition.renderSchemas?.(namespace) ?? [definition.renderSchema(namespace)]);
    return all;
  };
  const schemas = new Map(
    definition.operationNames.map((name) => [
      name,
      definition.requestSchemas[name] ? compileRequestSchema(definition, name, namespace) : undefined,
    ]),
  );
  if ([...schemas.values()].some((s) => s === undefined)) {
    try {
      schemaSet();
    } catch (error) {
      throw new Error(
        `The namespace ${JSON.stringify(namespace)} cannot be used: libxml2 refuses it as a schema target namespace (${(error as Error).message}).`,
      );
    }
  }
  const importedByAddress = new Map<string, readonly string[]>();
  const wsdlByAddress = new Map<string, string>();
  const declared = definition.variants;
  return {
    definition,
    namespace,
    namespaceAttribute: escapeXmlAttribute(namespace),
    routeByRequestElement: (localName) => byElement.get(localName),
    routesByBody: (ns, local) => byBody.get(local === '' ? '' : bodyKey(ns, local)) ?? [],
    routeByHttpOperation: (segment) => byHttp.get(segment.toLowerCase()),
    requestSchema: (operation) => schemas.get(operation) ?? schemaSet(),
    schemas: schemaSet,
    soapAction: (operation, variant = 'soap11') => {
      const route = definition.routes[operation];
      return route.soapActions?.[variant] ?? namespace + route.soapActionSuffix;
    },
    importedWsdl(index, address) {
      let texts = importedByAddress.get(address);
      if (texts === undefined) {
        texts = (definition.renderImportedWsdls?.(namespace, address) ?? []).map((t) => `${XML_DECLARATION}\n${t}\n`);
        if (importedByAddress.size >= 16) importedByAddress.clear();
        importedByAddress.set(address, texts);
      }
      return texts[index];
    },
    wsdl(address) {
      let text = wsdlByAddress.get(address);
      if (text === undefined) {
        text = `${XML_DECLARATION}\n${definition.renderWsdl(namespace, address)}\n`;
        // Bounded: addresses come from Host headers, which callers choose.
        if (wsdlByAddress.size >= 16) wsdlByAddress.clear();
        wsdlByAddress.set(address, text);
      }
      return text;
    },
    refuseUndeclared(variant) {
      if (declared.includes(variant)) return;
      const message = `This service's WSDL declares no ${VARIANT_NAMES[variant]} port; it is called over ${declared.map((v) => VARIANT_NAMES[v]).join(', ')}.`;
      throw new ServiceError(variant === 'soap11' || variant === 'soap12' ? 'unsupported-media-type' : 'not-found', message);
    },
  };
}

function compileRequestSchema<Ops extends OperationsOf<Ops>>(
  definition: ContractDefinition<Ops>,
  operation: OperationName<Ops>,
  namespace: string,
): XsdValidator {
  try {
    return compileSchema(definition.requestSchemas[operation]!(namespace));
  } catch (error) {
    throw new Error(
      `The namespace ${JSON.stringify(namespace)} cannot be used: libxml2 refuses it as a schema target namespace (${(error as Error).message}).`,
    );
  }
}
