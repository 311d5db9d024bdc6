/** Messages and port types: an operation as its port type declares it, the message of each direction, a message's parts. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, findOne, localName, namespaceOfQName, optionalAttr, refuseAt } from '../documents';
import type { WsdlPart } from './facts';
import type { WsdlDocuments } from './definitions';

/** The operation `name` of the port type a binding binds. */
export function declaredOperation(documents: WsdlDocuments, binding: XmlElement, name: string): XmlElement {
  const portType = documents.lookup('portType', binding, attr(binding, 'type'));
  const found = documents.childrenNamed(portType, 'operation', name);
  return found.length === 1 ? found[0] : findOne(portType, `wsdl:operation[@name='${name}']`);
}

/** The message the port type's operation names for a direction; none for a direction it leaves out. */
export function messageOf(
  documents: WsdlDocuments,
  binding: XmlElement,
  operation: string,
  direction: 'input' | 'output',
): XmlElement | undefined {
  const [declared] = findAll(declaredOperation(documents, binding, operation), `wsdl:${direction}`);
  return declared ? documents.lookup('message', declared, attr(declared, 'message')) : undefined;
}

/** A message's parts, each naming an element or a type. */
export function partsOf(message: XmlElement): WsdlPart[] {
  return findAll(message, 'wsdl:part').map((part) => {
    const element = optionalAttr(part, 'element');
    const type = optionalAttr(part, 'type');
    const qname = (value: string) => {
      const namespace = namespaceOfQName(part, value);
      if (namespace === null) refuseAt(part, `part ${attr(part, 'name')}: ${value} has a prefix that is not declared`);
      return { namespace, name: localName(value) };
    };
    if ((element === undefined) === (type === undefined)) refuseAt(part, `part ${attr(part, 'name')} must name an element or a type`);
    return { name: attr(part, 'name'), ...(element ? { element: qname(element) } : { type: qname(type!) }) };
  });
}

/** The text of an operation's wsdl:documentation, in one line. */
export function documentationOf(declared: XmlElement): string {
  return findAll(declared, 'wsdl:documentation')
    .map((d) => d.content.trim().replace(/\s+/g, ' '))
    .join(' ');
}
