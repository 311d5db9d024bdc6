/**
 * The WSDLs served: the WSDL with every schema inline and the WSDLs it imports, each with its WS-Policy as written
 * (wsp:Policy, wsp:PolicyReference, UsingAddressing, wsam:Action and wsaw:Action, and the namespace declarations they
 * need: the policies the runtime enforces, model/policies.ts), its addresses and imports pointing at the service,
 * and without what the model did not keep (ports, operations).
 */
import type { XmlDocument, XmlElement } from 'contract-runtime/xml';
import { attr, copyDocument, findAll, findOne, NS, optionalAttr, setPlainAttr, withDocument, XML_NAMESPACE } from '../read/documents';
import { pathOf } from '../read/wsdl';
import type { LoadedSchema } from '../read/xsd';
import { dropStrayAttributes } from './schemas';
import { editedText, serialize, serializeText } from './text';

/** Stands for the service address in the served WSDL's text; generated/ fills it in at run time. */
export const ADDRESS_MARKER = 'urn:codegen:address';

/** A schema as served inline: its includes dropped, its imports without locations, a chameleon one in its includer's namespace. */
function inlineSchemaText(schema: LoadedSchema): string {
  return editedText(schema.schema, (copy) => {
    dropStrayAttributes(copy);
    for (const reference of findAll(copy, 's:include')) reference.remove();
    for (const location of copy.find('s:import/@schemaLocation', NS)) location.remove();
    // An import of the XML namespace without a location is one zeep fetches from the W3C, which a service's clients
    // may not reach: the WSDL holds that namespace's schema inline, found by its namespace as every other one is.
    for (const imported of findAll(copy, 's:import')) if (optionalAttr(imported, 'namespace') === XML_NAMESPACE) imported.remove();
    if (schema.chameleon && optionalAttr(copy, 'targetNamespace') === undefined) setPlainAttr(copy, 'targetNamespace', schema.chameleon);
  });
}

const MARKER = 'codegenSchemasGoHere';

/** What the served WSDLs are made of. */
export interface WsdlSources {
  /** The WSDL and those it imports (wsdl:import), the main one first, as read/ parsed them. */
  wsdls: XmlDocument[];
  /** The location each imported WSDL was named by, in order: an import of one points at the service's `?wsdl=wsdlN`. */
  importLocations: string[];
  /** Every schema of the contract, inline in a WSDL or loaded from a file. */
  schemas: LoadedSchema[];
  /** The path of the first port's address, where the imported WSDLs are served. */
  endpointPath: string;
  /** What the model kept of the service, when it did not keep everything: the other ports and operations are taken out. */
  kept?: { services: readonly { name: string; ports: readonly string[] }[]; operations: readonly string[] };
}

/**
 * The WSDL with every schema inline and the WSDLs it imports. A client reads an imported WSDL (its messages) before
 * the importer's types: the schemas go inline in the first imported WSDL that imports none, so that every message
 * names an element already read.
 */
export function servedWsdls(sources: WsdlSources): { wsdl: string; importedWsdls: string[] } {
  const { wsdls, schemas } = sources;
  const importedWsdls = wsdls.slice(1);
  const withSchemas = importedWsdls.findIndex((doc) => importsNone(doc, sources.importLocations));
  return {
    wsdl: selfContainedWsdl(sources, wsdls[0], wsdls.length > 1 ? [] : schemas),
    importedWsdls: importedWsdls.map((doc, i) => importedWsdl(sources, doc, i === withSchemas ? schemas : [])),
  };
}

/** The WSDL with every schema it reaches inline (in place of its imports), the addresses replaced by the marker. */
function selfContainedWsdl(sources: WsdlSources, wsdl: XmlDocument, schemas: LoadedSchema[]): string {
  const texts = schemas
    .filter((s) => !(optionalAttr(s.schema, 'targetNamespace') === undefined && !s.chameleon && onlyImports(s.schema)))
    .map(inlineSchemaText);
  return withDocument(copyDocument(wsdl, 'the WSDL'), (copy) => {
    const definitions = findOne(copy, '/wsdl:definitions');
    let [types] = findAll(definitions, 'wsdl:types');
    if (!types) {
      const first = findAll(definitions, '*').find((e) => !(e.namespaceUri === NS.wsdl && ['documentation', 'import'].includes(e.name)));
      types = first ? first.prependElement('types') : definitions.addElement('types');
      if (definitions.prefix) types.prefix = definitions.prefix;
    }
    for (const schema of findAll(types, 's:schema | s:import')) schema.remove();
    types.addElement(MARKER);
    asServed(sources, copy);
    const text = copy.root.toString({ format: false });
    const at = text.search(new RegExp(`<[^<>]*${MARKER}[^<>]*/>`));
    const end = text.indexOf('>', at) + 1;
    return serializeText(text.slice(0, at) + texts.join('') + text.slice(end));
  });
}

/** A WSDL another imports, its addresses the marker: the schemas given inline (every schema, or none). */
function importedWsdl(sources: WsdlSources, wsdl: XmlDocument, schemas: LoadedSchema[]): string {
  if (schemas.length > 0) return selfContainedWsdl(sources, wsdl, schemas);
  return withDocument(copyDocument(wsdl, 'an imported WSDL'), (copy) => {
    for (const types of findAll(copy, '/wsdl:definitions/wsdl:types')) types.remove();
    asServed(sources, copy);
    return serialize(copy);
  });
}

/** A copy of a WSDL as served: its imports and addresses pointing at the service, its policies kept, only what the model kept. */
function asServed(sources: WsdlSources, copy: XmlDocument): void {
  pointImportsHere(findOne(copy, '/wsdl:definitions'), sources.importLocations, sources.endpointPath);
  addressesAtMarker(copy);
  if (sources.kept) pruned(copy, sources.kept);
}

/**
 * A served WSDL without what is not served: the ports of the services served not kept, and the operations not kept
 * (from every port type and binding), so that a client made from it calls only what answers.
 */
function pruned(doc: XmlDocument, kept: NonNullable<WsdlSources['kept']>): void {
  for (const service of kept.services) {
    for (const port of findAll(doc, `/wsdl:definitions/wsdl:service[@name='${service.name}']/wsdl:port`)) {
      if (!service.ports.includes(attr(port, 'name'))) port.remove();
    }
  }
  for (const operation of findAll(doc, '/wsdl:definitions/wsdl:portType/wsdl:operation | /wsdl:definitions/wsdl:binding/wsdl:operation')) {
    if (!kept.operations.includes(attr(operation, 'name'))) operation.remove();
  }
}

/**
 * A WSDL's wsdl:imports, as served: each imported WSDL at the service's `?wsdl=wsdlN`; an import of a schema document
 * left out (its schema is served inline, as every other one).
 */
function pointImportsHere(definitions: XmlElement, importLocations: string[], endpointPath: string): void {
  for (const imported of findAll(definitions, 'wsdl:import')) {
    const index = importLocations.indexOf(attr(imported, 'location'));
    if (index < 0) imported.remove();
    else setPlainAttr(imported, 'location', `${ADDRESS_MARKER}${endpointPath}?wsdl=wsdl${index}`);
  }
}

function onlyImports(schema: XmlElement): boolean {
  return findAll(schema, '*').every((c) => c.namespaceUri === NS.s && ['import', 'annotation'].includes(c.name));
}

/**
 * A WSDL that imports no other as served: an import of the WSDL named (a cycle: WCF's `?wsdl=wsdl0` importing its
 * `?wsdl` back), or of a schema document, is left out of it.
 */
function importsNone(wsdl: XmlDocument, importLocations: string[]): boolean {
  return findAll(wsdl, '/wsdl:definitions/wsdl:import').every((i) => !importLocations.includes(attr(i, 'location')));
}

/** Each port's address: the marker (the service's base URL, filled at run time) followed by the port's own path. */
function addressesAtMarker(doc: XmlDocument): void {
  for (const port of findAll(doc, '//wsdl:port')) {
    let path: string;
    try {
      path = pathOf(port);
    } catch {
      // A port codegen does not serve (read/ said so): taken out with what the model did not keep.
      continue;
    }
    for (const address of findAll(port, 'soap:address | soap12:address | http:address'))
      setPlainAttr(address, 'location', ADDRESS_MARKER + path);
  }
}
