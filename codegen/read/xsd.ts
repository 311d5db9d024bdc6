import type { XmlDocument, XmlElement } from '../../src/xml/xml-engine';
import { PRIMITIVES, type Primitive, type SchemaTypeRef } from '../model';
import { attr, findAll, localName, namespaceOfQName, NS, optionalAttr } from './documents';

export interface XsdMember {
  name: string;
  type: SchemaTypeRef;
  minOccurs: number;
  maxOccurs: number;
}

export interface XsdComplexType {
  /** An anonymous type is named after its element. */
  name: string;
  anonymous: boolean;
  /** The sequence's elements in document order: the order on the wire. */
  members: XsdMember[];
}

export interface XsdElement {
  name: string;
  type: SchemaTypeRef;
  nillable: boolean;
}

/** The facts of an XSD, in document order. */
export interface XsdFacts {
  targetNamespace: string;
  elements: XsdElement[];
  types: XsdComplexType[];
}

type Refuse = (where: string, what: string) => never;

/** What the reader understands of each construct; anything else is refused rather than ignored. */
interface Understood {
  attributes: string[];
  children: string[];
  /** Said in the refusal, e.g. `one sequence of elements`. */
  reads: string;
}

const SCHEMA: Understood = {
  attributes: ['targetNamespace', 'elementFormDefault'],
  children: ['element', 'complexType'],
  reads: 'global elements and named complex types',
};
const GLOBAL_ELEMENT: Understood = {
  attributes: ['name', 'type', 'nillable'],
  children: ['complexType'],
  reads: 'a type or an anonymous complexType, and nillable',
};
const NAMED_TYPE: Understood = { attributes: ['name'], children: ['sequence'], reads: 'one sequence of elements' };
const ANONYMOUS_TYPE: Understood = { ...NAMED_TYPE, attributes: [] };
const SEQUENCE: Understood = { attributes: [], children: ['element'], reads: 'elements' };
const MEMBER: Understood = {
  attributes: ['name', 'type', 'minOccurs', 'maxOccurs'],
  children: [],
  reads: 'name, type, minOccurs and maxOccurs',
};

/**
 * Reads the global elements and complex types of the contract's XSD
 * (`source` names it in errors): the subset of XML Schema the emitters
 * support, every other construct refused with a one-line error.
 */
export function readXsd(xsd: XmlDocument, source: string): XsdFacts {
  const root = xsd.root;
  const refuse: Refuse = (where, what) => {
    throw new Error(`codegen: ${source}: ${where}: ${what}`);
  };
  if (root.namespaceUri !== NS.s || root.name !== 'schema') refuse('the root', `<${root.name}> is not an XML Schema`);
  checkUnderstood(root, 'the schema', SCHEMA, refuse);
  if (optionalAttr(root, 'elementFormDefault') !== 'qualified') {
    refuse('the schema', 'elementFormDefault must be "qualified" (generated code writes every element in the target namespace)');
  }
  const targetNamespace = attr(root, 'targetNamespace');

  const typeRef = (element: XmlElement, where: string): SchemaTypeRef => {
    const qname = attr(element, 'type');
    const namespace = namespaceOfQName(element, qname);
    const name = localName(qname);
    if (namespace === targetNamespace) return { kind: 'complex', typeName: name };
    if (namespace !== NS.s) refuse(where, `type ${qname} is neither an XML Schema type nor one of the target namespace`);
    if (!Object.hasOwn(PRIMITIVES, name))
      refuse(where, `XML Schema type ${name} is not supported (supported: ${Object.keys(PRIMITIVES).join(', ')})`);
    return { kind: 'primitive', primitive: name as Primitive };
  };

  const complexType = (node: XmlElement, name: string, anonymous: boolean): XsdComplexType => {
    const where = anonymous ? `the complexType of element ${name}` : `complex type ${name}`;
    checkUnderstood(node, where, anonymous ? ANONYMOUS_TYPE : NAMED_TYPE, refuse);
    const sequences = findAll(node, 's:sequence');
    if (sequences.length > 1) refuse(where, 'holds more than one sequence');
    // No sequence is an empty type, as ASMX writes a request without parameters.
    const members = sequences.flatMap((sequence) => {
      checkUnderstood(sequence, where, SEQUENCE, refuse);
      return findAll(sequence, 's:element').map((member) => {
        const memberWhere = `element ${name}/${optionalAttr(member, 'name') ?? '?'}`;
        checkUnderstood(member, memberWhere, MEMBER, refuse);
        return {
          name: attr(member, 'name'),
          type: typeRef(member, memberWhere),
          minOccurs: occurs(member, 'minOccurs', ['0', '1'], memberWhere, refuse),
          maxOccurs: occurs(member, 'maxOccurs', ['1'], memberWhere, refuse),
        };
      });
    });
    return { name, anonymous, members };
  };

  const types: XsdComplexType[] = [];
  const elements = findAll(root, 's:element | s:complexType').flatMap((node): XsdElement[] => {
    const name = attr(node, 'name');
    if (node.name === 'complexType') {
      types.push(complexType(node, name, false));
      return [];
    }
    const where = `element ${name}`;
    checkUnderstood(node, where, GLOBAL_ELEMENT, refuse);
    const anonymous = findAll(node, 's:complexType');
    const hasType = optionalAttr(node, 'type') !== undefined;
    if (anonymous.length + (hasType ? 1 : 0) !== 1) refuse(where, 'must have either a type or one anonymous complexType');
    let type: SchemaTypeRef;
    if (hasType) type = typeRef(node, where);
    else {
      types.push(complexType(anonymous[0], name, true));
      type = { kind: 'complex', typeName: name };
    }
    return [{ name, type, nillable: xsdBoolean(optionalAttr(node, 'nillable') ?? 'false', `${where}: nillable`, refuse) }];
  });
  return { targetNamespace, elements, types };
}

/** Refuses an attribute, a child element or text that `understood` does not list. */
function checkUnderstood(node: XmlElement, where: string, understood: Understood, refuse: Refuse): void {
  for (const attribute of node.attrs) {
    if (attribute.namespaceUri || !understood.attributes.includes(attribute.name)) {
      const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
      refuse(where, `attribute ${name} is not supported (codegen reads ${understood.reads})`);
    }
  }
  for (const child of findAll(node, '*')) {
    if (child.namespaceUri !== NS.s || !understood.children.includes(child.name)) {
      const name = child.prefix ? `${child.prefix}:${child.name}` : child.name;
      refuse(where, `<${name}> is not supported (codegen reads ${understood.reads})`);
    }
  }
  if (node.find('text()[normalize-space()]').length) refuse(where, 'holds text, which XML Schema does not allow there');
}

function occurs(member: XmlElement, name: string, supported: string[], where: string, refuse: Refuse): number {
  const value = optionalAttr(member, name) ?? '1';
  if (!supported.includes(value)) refuse(where, `${name}="${value}" is not supported (supported: ${supported.join(', ')})`);
  return Number(value);
}

function xsdBoolean(value: string, where: string, refuse: Refuse): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return refuse(where, `"${value}" is not an xs:boolean`);
}
