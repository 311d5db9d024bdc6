import { dirname, join } from 'node:path';
import { loadXmlEngine, type XmlDocument, type XmlElement } from '../src/runtime/xml-engine';
import { ContractModel, ElementModel, OperationModel, Segment } from './model';
import { attr, copyDocument, copyElementBefore, findAll, findOne, localName, NS, readXmlFile, withDocument } from './read/documents';
import { readWsdl } from './read/wsdl';
import { readXsdDocumentFacts, schemaImports } from './read/xsd-document';
import { readXsdTypes } from './read/xsd';

/** Stands for the service address in the WSDL text until it is cut into segments. */
const ADDRESS_TOKEN = 'urn:codegen:address';

/** Reads schema/<wsdlFile> and the XSD it imports, and builds the contract model. */
export async function buildContractModel(wsdlPath: string): Promise<ContractModel> {
  await loadXmlEngine(); // codegen/main.ts has loaded it already; the tests call this function directly
  const opened: XmlDocument[] = [];
  try {
    return await buildFromDocuments(wsdlPath, (path) => {
      const doc = readXmlFile(path);
      opened.push(doc);
      return doc;
    });
  } finally {
    for (const doc of opened) doc.dispose();
  }
}

async function buildFromDocuments(wsdlPath: string, open: (path: string) => XmlDocument): Promise<ContractModel> {
  const schemaDir = dirname(wsdlPath);
  const wsdl = open(wsdlPath);
  const imports = schemaImports(wsdl);
  if (imports.length !== 1 || !imports[0].location) {
    throw new Error('codegen: the WSDL must import exactly one schema with a schemaLocation');
  }
  const xsdFile = imports[0].location;
  const xsd = open(join(schemaDir, xsdFile));
  const wsdlFacts = readWsdl(wsdl);
  const xsdFacts = readXsdDocumentFacts(xsd);
  const xsdTypes = await readXsdTypes(schemaDir, xsdFile);
  const namespace = wsdlFacts.targetNamespace;
  if (xsdFacts.targetNamespace !== namespace || imports[0].namespace !== namespace) {
    throw new Error('codegen: the WSDL and its schema must share one target namespace');
  }

  // cxsd sorts members by name; the wire order is the document's sequence order.
  const types = xsdTypes.types.map((type) => {
    const order = xsdFacts.sequenceOrder.get(type.name);
    if (!order) throw new Error(`codegen: no sequence found for type ${type.name}`);
    return { ...type, fields: order.map((name) => type.fields.find((f) => f.name === name)!) };
  });
  const elements: ElementModel[] = xsdTypes.elements.map((e) => ({ ...e, nillable: xsdFacts.nillableElements.has(e.name) }));
  const typeOfElement = (name: string) => {
    const element = elements.find((e) => e.name === name);
    if (!element) throw new Error(`codegen: the WSDL names element ${name}, which the schema does not declare`);
    return element.type;
  };

  const operations: OperationModel[] = wsdlFacts.operations.map((op) => {
    if (!op.soapAction.startsWith(namespace)) {
      throw new Error(`codegen: SOAPAction of ${op.name} must be the namespace followed by the operation`);
    }
    const response = typeOfElement(op.soapOutputElement);
    const responseType = response.kind === 'complex' ? types.find((t) => t.name === response.typeName) : undefined;
    if (!responseType || responseType.fields.length !== 1) {
      throw new Error(`codegen: ${op.soapOutputElement} must hold exactly one result element`);
    }
    typeOfElement(op.soapInputElement);
    typeOfElement(op.httpOutputElement);
    return {
      name: op.name,
      documentation: op.documentation,
      soapActionSuffix: op.soapAction.slice(namespace.length),
      soap: { requestElement: op.soapInputElement, responseElement: op.soapOutputElement, result: responseType.fields[0] },
      http: { location: op.httpLocation, fields: op.httpInputParts, responseElement: op.httpOutputElement },
    };
  });

  return {
    service: wsdlFacts.service,
    authoredNamespace: namespace,
    elements,
    types,
    operations,
    ports: wsdlFacts.ports,
    wsdl: segments(selfContainedWsdl(wsdl, xsd), namespace),
    schema: segments(serialize(xsd), namespace),
    requestSchemas: Object.fromEntries(
      operations.map((op) => [op.name, segments(schemaFor(xsd, op.soap.requestElement), namespace)]),
    ),
  };
}

/** The WSDL with the imported schema inline and the addresses replaced by a token, comments dropped. */
function selfContainedWsdl(wsdl: XmlDocument, xsd: XmlDocument): string {
  return withDocument(copyDocument(wsdl, 'the WSDL'), (copy) => {
    const importingSchema = findOne(copy, '/wsdl:definitions/wsdl:types/s:schema');
    copyElementBefore(xsd.root, importingSchema);
    importingSchema.remove();
    for (const address of findAll(copy, '//soap:address | //soap12:address | //http:address')) {
      address.setAttr('location', ADDRESS_TOKEN);
    }
    return serialize(copy);
  });
}

/** A schema holding one global element and the named types it needs, serialised. */
function schemaFor(xsd: XmlDocument, elementName: string): string {
  return withDocument(copyDocument(xsd, 'the schema'), (copy) => {
    const root = copy.root;
    const prefixOfTarget = Object.entries(root.namespaces).find(([, uri]) => uri === attr(root, 'targetNamespace'))?.[0];
    const needed = new Set<string>();
    const visit = (node: XmlElement) => {
      for (const ref of findAll(node, './/*[@type]')) {
        const type = attr(ref, 'type');
        if (type.startsWith(`${prefixOfTarget}:`) && !needed.has(localName(type))) {
          needed.add(localName(type));
          visit(findOne(root, `s:complexType[@name='${localName(type)}']`));
        }
      }
    };
    visit(findOne(root, `s:element[@name='${elementName}']`));
    for (const child of findAll(root, 's:element | s:complexType | s:simpleType')) {
      const name = attr(child, 'name');
      const keep = child.name === 'element' ? name === elementName : needed.has(name);
      if (!keep) child.remove();
    }
    return serialize(copy);
  });
}

/** The root element, indented, without comments and without blank-only text left behind by removals. */
function serialize(doc: XmlDocument): string {
  return withDocument(copyDocument(doc, 'a generated document', { dropBlanks: true }), (copy) => {
    for (const comment of copy.find('//comment()')) comment.remove();
    return copy.root.toString({ format: true });
  });
}

/** Cuts text at each occurrence of the namespace and the address token. */
function segments(text: string, namespace: string): Segment[] {
  const out: Segment[] = [];
  const pattern = new RegExp(`${escapeRegExp(namespace)}|${escapeRegExp(ADDRESS_TOKEN)}`, 'g');
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index! > last) out.push({ text: text.slice(last, match.index) });
    out.push({ hole: match[0] === namespace ? 'namespace' : 'address' });
    last = match.index! + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export { NS };
