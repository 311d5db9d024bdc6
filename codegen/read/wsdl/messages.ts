/** Messages and port types: an operation as its port type declares it, the message of each direction, a message's parts. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, findOne, localName, namespaceOfQName, optionalAttr, refuseAt } from '../documents';
import type { WsdlPart } from './facts';
import type { WsdlDocuments } from './definitions';

/**
 * The names of an operation's input and output, as a binding operation (or a port type's, with `defaults`) writes
 * them: what tells overloaded operations of one name apart (WSDL 1.1, 2.4.5). A port type's input left unnamed is
 * `{name}Request` (`{name}` when the operation is one-way), its output `{name}Response`.
 */
export function messageNames(op: XmlElement, defaults = false): { input?: string; output?: string } {
  const [input] = findAll(op, 'wsdl:input');
  const [output] = findAll(op, 'wsdl:output');
  const name = attr(op, 'name');
  const named = (element: XmlElement | undefined, fallback: string) =>
    element ? (optionalAttr(element, 'name') ?? (defaults ? fallback : undefined)) : undefined;
  return { input: named(input, output ? `${name}Request` : name), output: named(output, `${name}Response`) };
}

/** Whether an operation's input and output names (a port type's or a binding's) are those `overload` names. */
export function isOverload(op: XmlElement, overload: { input?: string; output?: string }, defaults = false): boolean {
  const names = messageNames(op, defaults);
  return (
    (overload.input === undefined || names.input === overload.input) && (overload.output === undefined || names.output === overload.output)
  );
}

/**
 * The operation `name` of the port type a binding binds; of several of that name (overloaded), the one whose input
 * and output names are `overload`'s.
 */
export function declaredOperation(
  documents: WsdlDocuments,
  binding: XmlElement,
  name: string,
  overload?: { input?: string; output?: string },
): XmlElement {
  const portType = documents.lookup('portType', binding, attr(binding, 'type'));
  const found = documents.childrenNamed(portType, 'operation', name);
  if (found.length > 1 && overload) {
    const chosen = found.filter((op) => isOverload(op, overload, true));
    if (chosen.length === 1) return chosen[0];
  }
  return found.length === 1 ? found[0] : findOne(portType, `wsdl:operation[@name='${name}']`);
}

/** The message the port type's operation names for a direction; none for a direction it leaves out. */
export function messageOf(
  documents: WsdlDocuments,
  binding: XmlElement,
  operation: string,
  direction: 'input' | 'output',
  overload?: { input?: string; output?: string },
): XmlElement | undefined {
  const [declared] = findAll(declaredOperation(documents, binding, operation, overload), `wsdl:${direction}`);
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
