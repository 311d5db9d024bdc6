import type { XmlDocument, XmlElement } from '../../src/xml/xml-engine';
import { ADDRESS_MARKER } from '../model';
import { attr, copyDocument, copyElementBefore, findAll, findOne, localName, namespaceOfQName, withDocument } from './documents';

/** The texts generated/ serves, as read from schema/: comments dropped, the authored namespace still in them. */
export interface ContractTexts {
  /** The WSDL with the schema inline and every address ADDRESS_MARKER. */
  wsdl: string;
  schema: string;
  /** Per global element, a schema holding only that element and the types it needs. */
  elementSchemas: Record<string, string>;
}

/** Serialises the served texts; the XSD has been read (and so checked) by read/xsd.ts first. */
export function readTexts(wsdl: XmlDocument, xsd: XmlDocument, elementNames: string[]): ContractTexts {
  return {
    wsdl: selfContainedWsdl(wsdl, xsd),
    schema: serialize(xsd),
    elementSchemas: Object.fromEntries(elementNames.map((name) => [name, schemaFor(xsd, name)])),
  };
}

/** The WSDL with the imported schema inline and the addresses replaced by the marker, comments dropped. */
function selfContainedWsdl(wsdl: XmlDocument, xsd: XmlDocument): string {
  return withDocument(copyDocument(wsdl, 'the WSDL'), (copy) => {
    const importingSchema = findOne(copy, '/wsdl:definitions/wsdl:types/s:schema');
    copyElementBefore(xsd.root, importingSchema);
    importingSchema.remove();
    for (const address of findAll(copy, '//soap:address | //soap12:address | //http:address')) {
      address.setAttr('location', ADDRESS_MARKER);
    }
    return serialize(copy);
  });
}

/** A schema holding one global element and the named types it needs, serialised. */
function schemaFor(xsd: XmlDocument, elementName: string): string {
  return withDocument(copyDocument(xsd, 'the schema'), (copy) => {
    const root = copy.root;
    const targetNamespace = attr(root, 'targetNamespace');
    const needed = new Set<string>();
    const visit = (node: XmlElement) => {
      // The element itself too: a global element may name its type.
      for (const ref of findAll(node, 'descendant-or-self::*[@type]')) {
        const type = attr(ref, 'type');
        if (namespaceOfQName(ref, type) === targetNamespace && !needed.has(localName(type))) {
          needed.add(localName(type));
          // None found: build-model.ts refuses the reference, naming its user.
          for (const named of findAll(root, `s:complexType[@name='${localName(type)}']`)) visit(named);
        }
      }
    };
    visit(findOne(root, `s:element[@name='${elementName}']`));
    for (const child of findAll(root, 's:element | s:complexType')) {
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
