import type { XmlElement } from '../../src/runtime/xml/xml-engine';
import { PRIMITIVES, type Primitive, type SchemaTypeRef } from '../model';
import { attr, findAll, localName, namespaceOfQName, NS, optionalAttr, type Refuse, refuser } from './documents';

export interface XsdMember {
  name: string;
  type: SchemaTypeRef;
  minOccurs: number;
  maxOccurs: 1 | 'unbounded';
  nillable: boolean;
}

export interface XsdAttribute {
  name: string;
  type: SchemaTypeRef;
  required: boolean;
}

export interface XsdComplexType {
  /** An anonymous type is named after its element. */
  name: string;
  anonymous: boolean;
  /** The complexContent extension's base, in the target namespace. */
  base?: string;
  /** The sequence's elements in document order: the order on the wire. */
  members: XsdMember[];
  attributes: XsdAttribute[];
  /** `file:line`, for the model's messages. */
  at: string;
}

/** A named simpleType: a restriction of a built-in type, by enumeration values or ASMX's guid pattern. */
export interface XsdSimpleType {
  name: string;
  namespace: string;
  base: Primitive;
  enumeration: string[];
  at: string;
}

export interface XsdElement {
  name: string;
  type: SchemaTypeRef;
  nillable: boolean;
}

/** The facts of the contract's schemas, in document order. */
export interface XsdFacts {
  targetNamespace: string;
  elements: XsdElement[];
  types: XsdComplexType[];
  simpleTypes: XsdSimpleType[];
}

/** One xs:schema element to read, and the file it is in (named in errors). */
export interface SchemaSource {
  schema: XmlElement;
  file: string;
}

/** An xs:schema of the contract: inline in the WSDL, or the root of a file that one imports or includes. */
export interface LoadedSchema extends SchemaSource {
  /** The schema files it imports or includes by schemaLocation, as loaded. */
  locations: { element: XmlElement; loaded: LoadedSchema }[];
  inline: boolean;
}

/** What the reader understands of each construct; anything else is refused rather than ignored. */
interface Understood {
  attributes: string[];
  children: string[];
  /** Said in the refusal, e.g. `one sequence of elements`. */
  reads: string;
}

const SCHEMA: Understood = {
  attributes: ['targetNamespace', 'elementFormDefault'],
  children: ['element', 'complexType', 'simpleType', 'import', 'include'],
  reads: 'global elements, named complex and simple types, import and include',
};
const GLOBAL_ELEMENT: Understood = {
  attributes: ['name', 'type', 'nillable'],
  children: ['complexType'],
  reads: 'a type or an anonymous complexType, and nillable',
};
const NAMED_TYPE: Understood = {
  attributes: ['name'],
  children: ['sequence', 'attribute', 'complexContent'],
  reads: 'one sequence of elements, attributes, or a complexContent extension',
};
const ANONYMOUS_TYPE: Understood = { ...NAMED_TYPE, attributes: [] };
const COMPLEX_CONTENT: Understood = { attributes: ['mixed'], children: ['extension'], reads: 'an extension of a named complex type' };
const EXTENSION: Understood = {
  attributes: ['base'],
  children: ['sequence', 'attribute'],
  reads: 'one sequence of elements and attributes',
};
const SEQUENCE: Understood = { attributes: [], children: ['element'], reads: 'elements (choice and any are not supported)' };
const MEMBER: Understood = {
  attributes: ['name', 'type', 'minOccurs', 'maxOccurs', 'nillable'],
  children: [],
  reads: 'name, type, minOccurs, maxOccurs and nillable',
};
const ATTRIBUTE: Understood = { attributes: ['name', 'type', 'use'], children: [], reads: 'name, type and use' };
const SIMPLE_TYPE: Understood = { attributes: ['name'], children: ['restriction'], reads: 'a restriction of a built-in type' };
const RESTRICTION: Understood = {
  attributes: ['base'],
  children: ['enumeration', 'pattern'],
  reads: "enumeration values, or ASMX's guid pattern",
};
const FACET: Understood = { attributes: ['value'], children: [], reads: 'value' };

const GUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * Reads the global elements, complex types and simple types of the
 * contract's schemas: the XmlSerializer subset that ASMX services publish,
 * every other construct refused with a one-line error naming its file and
 * line. The first schema's namespace is the target namespace; a schema of
 * another namespace may hold simple types only (as ASMX's guid schema does).
 */
export function readXsd(sources: SchemaSource[], targetNamespace?: string): XsdFacts {
  const facts: XsdFacts = { targetNamespace: '', elements: [], types: [], simpleTypes: [] };
  for (const [i, { schema, file }] of sources.entries()) {
    const refuse = refuser(file);
    if (schema.namespaceUri !== NS.s || schema.name !== 'schema') refuse(schema, 'the root', `<${schema.name}> is not an XML Schema`);
    checkUnderstood(schema, 'the schema', SCHEMA, refuse);
    const namespace = optionalAttr(schema, 'targetNamespace') ?? '';
    if (i === 0) facts.targetNamespace = targetNamespace ?? namespace;
    readSchema(schema, namespace, namespace === facts.targetNamespace, refuse, facts);
  }
  return facts;
}

function readSchema(root: XmlElement, namespace: string, isTarget: boolean, refuse: Refuse, facts: XsdFacts): void {
  const declares = findAll(root, 's:element | s:complexType');
  if (declares.length > 0 && optionalAttr(root, 'elementFormDefault') !== 'qualified') {
    refuse(root, 'the schema', 'elementFormDefault must be "qualified" (generated code writes every element in the target namespace)');
  }
  if (declares.length > 0 && !isTarget) {
    refuse(
      declares[0],
      `the schema of ${namespace || 'no namespace'}`,
      `declares elements or complex types outside the target namespace ${facts.targetNamespace}, which generated code does not write (only simple types may live there, as ASMX's guid does)`,
    );
  }

  const typeRef = (element: XmlElement, where: string, attribute = 'type'): SchemaTypeRef => {
    const qname = attr(element, attribute);
    const typeNamespace = namespaceOfQName(element, qname);
    const name = localName(qname);
    if (typeNamespace === NS.s) {
      if (!Object.hasOwn(PRIMITIVES, name) || name === 'guid') {
        const supported = Object.keys(PRIMITIVES).filter((p) => p !== 'guid');
        refuse(element, where, `XML Schema type ${name} is not supported (supported: ${supported.join(', ')})`);
      }
      return { kind: 'primitive', primitive: name as Primitive };
    }
    if (typeNamespace === null) refuse(element, where, `type ${qname} has a prefix that is not declared`);
    return { kind: 'named', typeName: name, namespace: typeNamespace };
  };

  const members = (sequence: XmlElement, typeName: string): XsdMember[] => {
    checkUnderstood(sequence, `complex type ${typeName}`, SEQUENCE, refuse);
    return findAll(sequence, 's:element').map((member) => {
      const where = `element ${typeName}/${optionalAttr(member, 'name') ?? '?'}`;
      checkUnderstood(member, where, MEMBER, refuse);
      const maxOccurs = occurs(member, 'maxOccurs', ['1', 'unbounded'], where, refuse);
      return {
        name: attr(member, 'name'),
        type: typeRef(member, where),
        minOccurs: Number(occurs(member, 'minOccurs', ['0', '1'], where, refuse)),
        maxOccurs: maxOccurs === 'unbounded' ? 'unbounded' : 1,
        nillable: xsdBoolean(member, optionalAttr(member, 'nillable') ?? 'false', `${where}: nillable`, refuse),
      };
    });
  };

  const attributes = (node: XmlElement, typeName: string): XsdAttribute[] =>
    findAll(node, 's:attribute').map((attribute) => {
      const where = `attribute ${typeName}/@${optionalAttr(attribute, 'name') ?? '?'}`;
      checkUnderstood(attribute, where, ATTRIBUTE, refuse);
      const use = optionalAttr(attribute, 'use') ?? 'optional';
      if (use !== 'optional' && use !== 'required')
        refuse(attribute, where, `use="${use}" is not supported (supported: optional, required)`);
      return { name: attr(attribute, 'name'), type: typeRef(attribute, where), required: use === 'required' };
    });

  const oneSequence = (node: XmlElement, where: string): XmlElement | undefined => {
    const sequences = findAll(node, 's:sequence');
    if (sequences.length > 1) refuse(sequences[1], where, 'holds more than one sequence');
    return sequences[0];
  };

  const complexType = (node: XmlElement, name: string, anonymous: boolean): XsdComplexType => {
    const where = anonymous ? `the complexType of element ${name}` : `complex type ${name}`;
    checkUnderstood(node, where, anonymous ? ANONYMOUS_TYPE : NAMED_TYPE, refuse);
    const at = `${refuse.file}:${node.line}`;
    const content = findAll(node, 's:complexContent');
    if (content.length > 0) {
      if (findAll(node, 's:sequence | s:attribute').length > 0) refuse(node, where, 'has both complexContent and its own sequence');
      checkUnderstood(content[0], where, COMPLEX_CONTENT, refuse);
      if (xsdBoolean(content[0], optionalAttr(content[0], 'mixed') ?? 'false', `${where}: mixed`, refuse)) {
        refuse(content[0], where, 'mixed content is not supported');
      }
      const extensions = findAll(content[0], 's:extension');
      if (extensions.length !== 1) refuse(content[0], where, 'complexContent must hold one extension (restriction is not supported)');
      const extension = extensions[0];
      checkUnderstood(extension, where, EXTENSION, refuse);
      const base = typeRef(extension, `${where}: base`, 'base');
      if (base.kind !== 'named' || base.namespace !== namespace)
        refuse(extension, where, 'the base must be a complex type of the target namespace');
      const sequence = oneSequence(extension, where);
      return {
        name,
        anonymous,
        base: base.typeName,
        members: sequence ? members(sequence, name) : [],
        attributes: attributes(extension, name),
        at,
      };
    }
    // No sequence is an empty type, as ASMX writes a request without parameters.
    const sequence = oneSequence(node, where);
    return { name, anonymous, members: sequence ? members(sequence, name) : [], attributes: attributes(node, name), at };
  };

  const simpleType = (node: XmlElement, name: string): XsdSimpleType => {
    const where = `simple type ${name}`;
    checkUnderstood(node, where, SIMPLE_TYPE, refuse);
    const restrictions = findAll(node, 's:restriction');
    if (restrictions.length !== 1) refuse(node, where, 'must hold one restriction (list and union are not supported)');
    const restriction = restrictions[0];
    checkUnderstood(restriction, where, RESTRICTION, refuse);
    const base = typeRef(restriction, where, 'base');
    if (base.kind !== 'primitive') refuse(restriction, where, 'the base must be an XML Schema type');
    const enumeration = findAll(restriction, 's:enumeration').map((facet) => {
      checkUnderstood(facet, where, FACET, refuse);
      return attr(facet, 'value');
    });
    const patterns = findAll(restriction, 's:pattern');
    for (const facet of patterns) checkUnderstood(facet, where, FACET, refuse);
    if (enumeration.length > 0 && base.primitive !== 'string') refuse(restriction, where, 'an enumeration must restrict s:string');
    if (enumeration.length > 0 && patterns.length > 0) refuse(restriction, where, 'has both enumeration values and a pattern');
    if (new Set(enumeration).size !== enumeration.length) refuse(restriction, where, 'lists a value twice');
    if (patterns.length > 0) {
      if (patterns.length > 1 || attr(patterns[0], 'value') !== GUID_PATTERN || base.primitive !== 'string') {
        refuse(patterns[0], where, `the only pattern supported is ASMX's guid (${GUID_PATTERN}) on s:string`);
      }
      return { name, namespace, base: 'guid', enumeration, at: `${refuse.file}:${node.line}` };
    }
    return { name, namespace, base: base.primitive, enumeration, at: `${refuse.file}:${node.line}` };
  };

  for (const node of findAll(root, 's:element | s:complexType | s:simpleType')) {
    const name = attr(node, 'name');
    if (node.name === 'complexType') {
      facts.types.push(complexType(node, name, false));
      continue;
    }
    if (node.name === 'simpleType') {
      facts.simpleTypes.push(simpleType(node, name));
      continue;
    }
    const where = `element ${name}`;
    checkUnderstood(node, where, GLOBAL_ELEMENT, refuse);
    const anonymous = findAll(node, 's:complexType');
    const hasType = optionalAttr(node, 'type') !== undefined;
    if (anonymous.length + (hasType ? 1 : 0) !== 1) refuse(node, where, 'must have either a type or one anonymous complexType');
    let type: SchemaTypeRef;
    if (hasType) type = typeRef(node, where);
    else {
      facts.types.push(complexType(anonymous[0], name, true));
      type = { kind: 'named', typeName: name, namespace };
    }
    facts.elements.push({
      name,
      type,
      nillable: xsdBoolean(node, optionalAttr(node, 'nillable') ?? 'false', `${where}: nillable`, refuse),
    });
  }
}

/** Refuses an attribute, a child element or text that `understood` does not list. */
function checkUnderstood(node: XmlElement, where: string, understood: Understood, refuse: Refuse): void {
  for (const attribute of node.attrs) {
    if (attribute.namespaceUri || !understood.attributes.includes(attribute.name)) {
      const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
      refuse(node, where, `attribute ${name} is not supported (codegen reads ${understood.reads})`);
    }
  }
  for (const child of findAll(node, '*')) {
    if (child.namespaceUri !== NS.s || !understood.children.includes(child.name)) {
      const name = child.prefix ? `${child.prefix}:${child.name}` : child.name;
      refuse(child, where, `<${name}> is not supported (codegen reads ${understood.reads})`);
    }
  }
  if (node.find('text()[normalize-space()]').length) refuse(node, where, 'holds text, which XML Schema does not allow there');
}

function occurs(member: XmlElement, name: string, supported: string[], where: string, refuse: Refuse): string {
  const value = optionalAttr(member, name) ?? '1';
  if (!supported.includes(value)) refuse(member, where, `${name}="${value}" is not supported (supported: ${supported.join(', ')})`);
  return value;
}

function xsdBoolean(node: XmlElement, value: string, where: string, refuse: Refuse): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return refuse(node, where, `"${value}" is not an xs:boolean`);
}
