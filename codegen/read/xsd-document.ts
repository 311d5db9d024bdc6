import type { XmlDocument } from '../../src/runtime/xml-engine';
import { attr, findAll, optionalAttr } from './documents';

/** What cxsd does not keep: sequence order (it sorts members) and nillable. */
export interface XsdDocumentFacts {
  targetNamespace: string;
  /** Type name (anonymous types named after their element) → child element names in document order. */
  sequenceOrder: Map<string, string[]>;
  nillableElements: Set<string>;
}

export function readXsdDocumentFacts(xsd: XmlDocument): XsdDocumentFacts {
  const root = xsd.root;
  const sequenceOrder = new Map<string, string[]>();
  const childNames = (owner: string, xpath: string) => {
    sequenceOrder.set(owner, findAll(root, xpath).map((e) => attr(e, 'name')));
  };
  for (const element of findAll(root, 's:element[s:complexType]')) {
    const name = attr(element, 'name');
    childNames(name, `s:element[@name='${name}']/s:complexType/s:sequence/s:element`);
  }
  for (const type of findAll(root, 's:complexType[@name]')) {
    const name = attr(type, 'name');
    childNames(name, `s:complexType[@name='${name}']/s:sequence/s:element`);
  }
  const nillableElements = new Set(
    findAll(root, 's:element[@nillable="true"]').map((e) => attr(e, 'name')),
  );
  return { targetNamespace: attr(root, 'targetNamespace'), sequenceOrder, nillableElements };
}

export function schemaImports(wsdl: XmlDocument): { namespace: string; location: string }[] {
  return findAll(wsdl, '/wsdl:definitions/wsdl:types/s:schema/s:import').map((e) => ({
    namespace: attr(e, 'namespace'),
    location: optionalAttr(e, 'schemaLocation') ?? '',
  }));
}
