import type { XmlElement } from '../../src/runtime/xml/xml-engine';
import { attr, findAll, localName, NS, namespaceOfQName, optionalAttr, type Refuse, refuser, XML_NAMESPACE } from './documents';

/** A name in a namespace ('' for none): how XML Schema names its components. */
export interface QName {
  namespace: string;
  name: string;
}

export const qnameKey = (q: QName) => `{${q.namespace}}${q.name}`;

/** How a declaration names its type: a built-in one, a named one, or one declared in place (anonymous). */
export type XsdTypeUse =
  | { kind: 'builtin'; name: string }
  | { kind: 'named'; qname: QName }
  | { kind: 'complex'; type: XsdComplexType }
  | { kind: 'simple'; type: XsdSimpleType };

/** A global element. */
export interface XsdElement {
  name: string;
  namespace: string;
  type: XsdTypeUse;
  nillable: boolean;
  abstract: boolean;
  /** A fixed value (`fixed`): the only one the element may hold. */
  fixed?: string;
  /** The value an empty element holds (`default`). */
  default?: string;
  /** The head of the substitution group the element is a member of: it may stand where the head is referenced. */
  substitutionGroup?: QName;
  at: string;
}

/** An element inside a content model: declared there, or a reference to a global element. */
export interface XsdLocalElement {
  name: string;
  /** '' for an unqualified element. */
  namespace: string;
  /** Absent for a reference: the global element says. */
  type?: XsdTypeUse;
  ref?: QName;
  nillable: boolean;
  fixed?: string;
  default?: string;
  at: string;
}

export type Occurs = number | 'unbounded';

/** The namespaces a wildcard takes elements of ('' for none): `only` those, or all `but` those (`##any`: but none). */
export type XsdNamespaceConstraint = { only: string[] } | { but: string[] };

/** A content model: elements, compositors (sequence, choice, all; groups expanded in place) and wildcards. */
export type XsdParticle =
  | { kind: 'element'; element: XsdLocalElement; min: number; max: Occurs }
  | { kind: 'sequence' | 'choice' | 'all'; particles: XsdParticle[]; min: number; max: Occurs }
  | {
      kind: 'any';
      min: number;
      max: Occurs;
      namespaces: XsdNamespaceConstraint;
      processContents: 'strict' | 'lax' | 'skip';
      at: string;
    };

export interface XsdAttribute {
  name: string;
  /** '' for an unqualified attribute (the usual case). */
  namespace: string;
  type: XsdTypeUse;
  required: boolean;
  fixed?: string;
  at: string;
}

export interface XsdComplexType {
  /** Absent for an anonymous type. */
  name?: string;
  namespace: string;
  /** The base of a complexContent or simpleContent derivation. */
  base?: QName;
  derivation?: 'extension' | 'restriction';
  /** The element content: the type's own particle (an extension's base content comes first, from the base). */
  particle?: XsdParticle;
  /** simpleContent: the type of the text (the base, for an extension; the restricted type, for a restriction). */
  text?: XsdTypeUse;
  attributes: XsdAttribute[];
  anyAttribute: boolean;
  mixed: boolean;
  abstract: boolean;
  at: string;
}

/** A simple type: a restriction (enumeration values and other facets), a list, or a union. */
export interface XsdSimpleType {
  name?: string;
  namespace: string;
  variety: 'atomic' | 'list' | 'union';
  /** atomic: the restricted type; list: the item type. A union is read as its text. */
  base?: XsdTypeUse;
  /** A union's member types, in order (memberTypes, then the anonymous ones): a sample takes a member's value. */
  members?: XsdTypeUse[];
  enumeration: string[];
  /** The enumeration's values read as QNames where they are written (`{namespace}local`), for a type of QNames. */
  enumerationQNames: string[];
  /** The other facets, by name (pattern, minLength, maxInclusive, …): the served schema checks them; samples keep to them. */
  facets: Record<string, string>;
  at: string;
}

/** The facts of the contract's schemas: every global declaration, by `{namespace}name`. */
export interface XsdFacts {
  elements: Map<string, XsdElement>;
  complexTypes: Map<string, XsdComplexType>;
  simpleTypes: Map<string, XsdSimpleType>;
  /** The namespaces the schemas declare components in, in the order first met. */
  namespaces: string[];
}

/** One xs:schema element to read, and the file it is in (named in errors). */
export interface SchemaSource {
  schema: XmlElement;
  file: string;
  /** The namespace a schema without targetNamespace takes: its includer's (a chameleon include). */
  chameleon?: string;
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

// `id` is allowed everywhere, `annotation` as a child everywhere; attributes of other namespaces are extensions (read past).
const SCHEMA: Understood = {
  attributes: ['targetNamespace', 'elementFormDefault', 'attributeFormDefault', 'version', 'blockDefault', 'finalDefault', 'xml:lang'],
  children: ['element', 'complexType', 'simpleType', 'import', 'include', 'redefine', 'group', 'attributeGroup', 'attribute', 'notation'],
  reads: 'global elements, attributes, groups, named complex and simple types, import, include and redefine',
};
const REDEFINE: Understood = {
  attributes: ['schemaLocation'],
  children: ['simpleType', 'complexType', 'group', 'attributeGroup'],
  reads: 'the simple and complex types, groups and attribute groups it redefines',
};
/** The key a redefined component's original takes: the redefinition takes its name, and refers to it by this one. */
const ORIGINAL = '#redefined';
type RedefinedKind = 'type' | 'group' | 'attributeGroup';
const GLOBAL_ELEMENT: Understood = {
  attributes: ['name', 'type', 'nillable', 'abstract', 'block', 'final', 'default', 'fixed', 'substitutionGroup'],
  children: ['complexType', 'simpleType', 'key', 'keyref', 'unique'],
  reads: 'a type or an anonymous type, nillable, abstract, default, fixed and substitutionGroup',
};
/** Attributes of an element written on its type by some generators (not XML Schema): left out of the served schema. */
export const STRAY_TYPE_ATTRIBUTES = ['nillable', 'type'];

const COMPLEX_TYPE: Understood = {
  attributes: ['name', 'mixed', 'abstract', 'block', 'final', ...STRAY_TYPE_ATTRIBUTES],
  children: ['sequence', 'choice', 'all', 'group', 'attribute', 'attributeGroup', 'anyAttribute', 'complexContent', 'simpleContent'],
  reads: 'a content model, attributes, complexContent or simpleContent',
};
const CONTENT: Understood = { attributes: ['mixed'], children: ['extension', 'restriction'], reads: 'an extension or a restriction' };
const DERIVATION: Understood = {
  attributes: ['base'],
  children: [
    'sequence',
    'choice',
    'all',
    'group',
    'attribute',
    'attributeGroup',
    'anyAttribute',
    'simpleType',
    'enumeration',
    'pattern',
    'length',
    'minLength',
    'maxLength',
    'minInclusive',
    'maxInclusive',
    'minExclusive',
    'maxExclusive',
    'totalDigits',
    'fractionDigits',
    'whiteSpace',
  ],
  reads: 'a content model and attributes, or facets',
};
const COMPOSITOR: Understood = {
  attributes: ['minOccurs', 'maxOccurs'],
  children: ['element', 'sequence', 'choice', 'group', 'any'],
  reads: 'elements, compositors, group references and any',
};
const MEMBER: Understood = {
  attributes: ['name', 'type', 'ref', 'minOccurs', 'maxOccurs', 'nillable', 'form', 'default', 'fixed', 'block'],
  children: ['complexType', 'simpleType', 'key', 'keyref', 'unique'],
  reads: 'name or ref, type or an anonymous type, occurrences, nillable, form, default and fixed',
};
const ANY: Understood = { attributes: ['minOccurs', 'maxOccurs', 'namespace', 'processContents'], children: [], reads: 'occurrences' };
const ATTRIBUTE: Understood = {
  attributes: ['name', 'type', 'ref', 'use', 'form', 'default', 'fixed'],
  children: ['simpleType'],
  reads: 'name or ref, a simple type, use, form, default and fixed',
};
const SIMPLE_TYPE: Understood = {
  attributes: ['name', 'final'],
  children: ['restriction', 'list', 'union'],
  reads: 'a restriction, list or union',
};
const RESTRICTION: Understood = {
  attributes: ['base'],
  children: [
    'simpleType',
    'enumeration',
    'pattern',
    'length',
    'minLength',
    'maxLength',
    'minInclusive',
    'maxInclusive',
    'minExclusive',
    'maxExclusive',
    'totalDigits',
    'fractionDigits',
    'whiteSpace',
  ],
  reads: 'a base and facets',
};
const LIST: Understood = { attributes: ['itemType'], children: ['simpleType'], reads: 'an item type' };
const UNION: Understood = { attributes: ['memberTypes'], children: ['simpleType'], reads: 'member types' };
const FACET: Understood = { attributes: ['value', 'fixed'], children: [], reads: 'value' };
const GROUP_REF: Understood = { attributes: ['ref', 'minOccurs', 'maxOccurs'], children: [], reads: 'ref and occurrences' };
const ATTRIBUTE_GROUP_REF: Understood = { attributes: ['ref'], children: [], reads: 'ref' };

const FACETS = ['pattern', 'length', 'minLength', 'maxLength', 'minInclusive', 'maxInclusive', 'minExclusive', 'maxExclusive'].concat([
  'totalDigits',
  'fractionDigits',
  'whiteSpace',
]);

/** A schema document as read: its namespace, its form defaults, its declarations' nodes by name. */
interface SchemaScope {
  schema: XmlElement;
  namespace: string;
  qualifiedElements: boolean;
  qualifiedAttributes: boolean;
  refuse: Refuse;
  chameleon: boolean;
}

/**
 * Reads the global declarations of the contract's schemas (every schema,
 * of every namespace): elements, complex and simple types, with groups and
 * attribute groups expanded in place. What changes the wire and is not read
 * (substitution groups, redefinitions) is refused with one line naming its
 * file and line; what does not (annotations, identity constraints, extension
 * attributes) is read past.
 */
export function readXsd(sources: SchemaSource[]): XsdFacts {
  const facts: XsdFacts = { elements: new Map(), complexTypes: new Map(), simpleTypes: new Map(), namespaces: [] };
  const scopes: SchemaScope[] = [];
  const globals = {
    group: new Map<string, [XmlElement, SchemaScope]>(),
    attributeGroup: new Map<string, [XmlElement, SchemaScope]>(),
    attribute: new Map<string, [XmlElement, SchemaScope]>(),
  };
  // What a redefine redefines, by kind and key: the original declarations of those names take ORIGINAL keys.
  const redefined = new Set<string>();
  const redefinedKey = (kind: RedefinedKind, key: string) => `${kind} ${key}`;
  for (const { schema, chameleon } of sources) {
    const namespace = optionalAttr(schema, 'targetNamespace') ?? chameleon ?? '';
    for (const node of findAll(
      schema,
      's:redefine/s:complexType | s:redefine/s:simpleType | s:redefine/s:group | s:redefine/s:attributeGroup',
    )) {
      const kind: RedefinedKind = node.name === 'group' || node.name === 'attributeGroup' ? node.name : 'type';
      redefined.add(redefinedKey(kind, qnameKey({ namespace, name: attr(node, 'name') })));
    }
  }
  /** The key of a global declaration: an original that a redefine replaces takes its ORIGINAL key. */
  const declaredKey = (kind: RedefinedKind, node: XmlElement, namespace: string) => {
    const key = qnameKey({ namespace, name: attr(node, 'name') });
    const inRedefine = node.parent?.name === 'redefine';
    return !inRedefine && redefined.has(redefinedKey(kind, key)) ? `${key}${ORIGINAL}` : key;
  };
  for (const { schema, file, chameleon } of sources) {
    const refuse = refuser(file);
    if (schema.namespaceUri !== NS.s || schema.name !== 'schema') refuse(schema, 'the root', `<${schema.name}> is not an XML Schema`);
    checkUnderstood(schema, 'the schema', SCHEMA, refuse);
    const own = optionalAttr(schema, 'targetNamespace');
    const namespace = own ?? chameleon ?? '';
    const scope: SchemaScope = {
      schema,
      namespace,
      qualifiedElements: optionalAttr(schema, 'elementFormDefault') === 'qualified',
      qualifiedAttributes: optionalAttr(schema, 'attributeFormDefault') === 'qualified',
      refuse,
      chameleon: own === undefined && chameleon !== undefined,
    };
    scopes.push(scope);
    for (const kind of ['group', 'attributeGroup', 'attribute'] as const) {
      for (const node of findAll(schema, `s:${kind} | s:redefine/s:${kind}`)) {
        const key = kind === 'attribute' ? qnameKey({ namespace, name: attr(node, 'name') }) : declaredKey(kind, node, namespace);
        globals[kind].set(key, [node, scope]);
      }
    }
  }
  /** The redefinitions being read: inside one, a reference to its own name is to the original it redefines. */
  const redefining: string[] = [];
  const original = (kind: RedefinedKind, q: QName): QName =>
    redefining.includes(redefinedKey(kind, qnameKey(q))) ? { namespace: q.namespace, name: `${q.name}${ORIGINAL}` } : q;
  /** Reads a redefinition (a redefine's child) with its own name referring to the original. */
  const asRedefinition = <T>(kind: RedefinedKind, node: XmlElement, namespace: string, read: () => T): T => {
    if (node.parent?.name !== 'redefine') return read();
    redefining.push(redefinedKey(kind, qnameKey({ namespace, name: attr(node, 'name') })));
    try {
      return read();
    } finally {
      redefining.pop();
    }
  };

  const makeReader = (scope: SchemaScope): ScopeReader => {
    const { schema, namespace } = scope;
    const refuse: Refuse = scope.refuse;
    /** A QName written in an attribute, resolved in the node's scope; no-namespace names are the includer's in a chameleon schema. */
    const qnameOf = (node: XmlElement, value: string, where: string): QName => {
      const ns = namespaceOfQName(node, value);
      if (ns === null) refuse(node, where, `${value} has a prefix that is not declared`);
      return { namespace: ns === '' && scope.chameleon ? namespace : ns, name: localName(value) };
    };
    const typeUse = (node: XmlElement, where: string, attribute = 'type'): XsdTypeUse => {
      const q = original('type', qnameOf(node, attr(node, attribute), where));
      return q.namespace === NS.s ? { kind: 'builtin', name: q.name } : { kind: 'named', qname: q };
    };
    const at = (node: XmlElement) => `${refuse.file}:${node.line}`;
    const occurs = (node: XmlElement, where: string): { min: number; max: Occurs } => {
      const min = optionalAttr(node, 'minOccurs') ?? '1';
      const max = optionalAttr(node, 'maxOccurs') ?? '1';
      if (!/^\d+$/.test(min)) refuse(node, where, `minOccurs="${min}" is not a number`);
      if (max !== 'unbounded' && !/^\d+$/.test(max)) refuse(node, where, `maxOccurs="${max}" is not a number or unbounded`);
      return { min: Number(min), max: max === 'unbounded' ? 'unbounded' : Number(max) };
    };

    const simpleType = (node: XmlElement, name: string | undefined): XsdSimpleType => {
      const where = name ? `simple type ${name}` : 'an anonymous simple type';
      checkUnderstood(node, where, SIMPLE_TYPE, refuse);
      const [list] = findAll(node, 's:list');
      const [union] = findAll(node, 's:union');
      const base = {
        name,
        namespace,
        enumeration: [] as string[],
        enumerationQNames: [] as string[],
        facets: {} as Record<string, string>,
        at: at(node),
      };
      if (list) {
        checkUnderstood(list, where, LIST, refuse);
        const inner = findAll(list, 's:simpleType')[0];
        const item: XsdTypeUse = inner ? { kind: 'simple', type: simpleType(inner, undefined) } : typeUse(list, where, 'itemType');
        return { ...base, variety: 'list', base: item };
      }
      if (union) {
        checkUnderstood(union, where, UNION, refuse);
        // A member whose prefix is not declared is left out (the union is read as its text all the same).
        const members = (optionalAttr(union, 'memberTypes') ?? '').split(/\s+/).flatMap((value): XsdTypeUse[] => {
          const ns = value === '' ? null : namespaceOfQName(union, value);
          if (ns === null) return [];
          const q = original('type', { namespace: ns === '' && scope.chameleon ? namespace : ns, name: localName(value) });
          return [q.namespace === NS.s ? { kind: 'builtin', name: q.name } : { kind: 'named', qname: q }];
        });
        for (const inner of findAll(union, 's:simpleType')) members.push({ kind: 'simple', type: simpleType(inner, undefined) });
        return { ...base, variety: 'union', members };
      }
      const restrictions = findAll(node, 's:restriction');
      if (restrictions.length !== 1) refuse(node, where, 'must hold one restriction, list or union');
      const restriction = restrictions[0];
      checkUnderstood(restriction, where, RESTRICTION, refuse);
      return { ...base, variety: 'atomic', ...facetsOf(restriction, where), base: restrictedBase(restriction, where) };
    };
    const facetsOf = (restriction: XmlElement, where: string) => {
      const enumeration: string[] = [];
      const enumerationQNames: string[] = [];
      const facets: Record<string, string> = {};
      for (const facet of findAll(restriction, '*')) {
        if (facet.namespaceUri !== NS.s || facet.name === 'annotation' || facet.name === 'simpleType') continue;
        if (facet.name === 'enumeration') {
          checkUnderstood(facet, where, FACET, refuse);
          const value = attr(facet, 'value');
          // A value listed twice is one value.
          if (enumeration.includes(value)) continue;
          enumeration.push(value);
          const trimmed = value.trim();
          const ns = /^[^\s:]+(:[^\s:]+)?$/.test(trimmed) ? namespaceOfQName(facet, trimmed) : null;
          enumerationQNames.push(ns ? `{${ns}}${localName(trimmed)}` : trimmed);
        } else if (FACETS.includes(facet.name)) {
          checkUnderstood(facet, where, FACET, refuse);
          // Several patterns are alternatives; a sample keeps to the first.
          facets[facet.name] ??= attr(facet, 'value');
        }
      }
      return { enumeration, enumerationQNames, facets };
    };
    const restrictedBase = (restriction: XmlElement, where: string): XsdTypeUse => {
      const inner = findAll(restriction, 's:simpleType')[0];
      if (inner) return { kind: 'simple', type: simpleType(inner, undefined) };
      return typeUse(restriction, where, 'base');
    };

    const localElement = (node: XmlElement, owner: string): XsdParticle => {
      const where = `element ${owner}/${optionalAttr(node, 'name') ?? optionalAttr(node, 'ref') ?? '?'}`;
      checkUnderstood(node, where, MEMBER, refuse);
      const { min, max } = occurs(node, where);
      const nillable = xsdBoolean(node, optionalAttr(node, 'nillable') ?? 'false', `${where}: nillable`, refuse);
      const ref = optionalAttr(node, 'ref');
      if (ref !== undefined) {
        const q = qnameOf(node, ref, where);
        const fixed = optionalAttr(node, 'fixed');
        const value = optionalAttr(node, 'default');
        return {
          kind: 'element',
          element: {
            name: q.name,
            namespace: q.namespace,
            ref: q,
            nillable,
            ...(fixed !== undefined ? { fixed } : {}),
            ...(value !== undefined ? { default: value } : {}),
            at: at(node),
          },
          min,
          max,
        };
      }
      const name = attr(node, 'name');
      const form = optionalAttr(node, 'form');
      const qualified = form === undefined ? scope.qualifiedElements : form === 'qualified';
      return {
        kind: 'element',
        element: {
          name,
          namespace: qualified ? namespace : '',
          type: declaredType(node, where, `${owner}/${name}`),
          nillable,
          ...(optionalAttr(node, 'fixed') !== undefined ? { fixed: optionalAttr(node, 'fixed') } : {}),
          ...(optionalAttr(node, 'default') !== undefined ? { default: optionalAttr(node, 'default') } : {}),
          at: at(node),
        },
        min,
        max,
      };
    };
    /** The type of an element or attribute: named, anonymous, or none (anyType, or anySimpleType for an attribute). */
    const declaredType = (node: XmlElement, where: string, name: string, simpleOnly = false): XsdTypeUse => {
      const complex = simpleOnly ? [] : findAll(node, 's:complexType');
      const simple = findAll(node, 's:simpleType');
      const named = optionalAttr(node, 'type') !== undefined;
      if (complex.length + simple.length + (named ? 1 : 0) > 1) refuse(node, where, 'has both a type and an anonymous type');
      if (named) return typeUse(node, where);
      if (complex[0]) return { kind: 'complex', type: complexType(complex[0], undefined, name) };
      if (simple[0]) return { kind: 'simple', type: simpleType(simple[0], undefined) };
      return { kind: 'builtin', name: simpleOnly ? 'anySimpleType' : 'anyType' };
    };

    const particle = (node: XmlElement, owner: string, depth = 0): XsdParticle => {
      const where = `complex type ${owner}`;
      if (depth > 32) refuse(node, where, 'nests groups more than 32 deep (a group that holds itself?)');
      if (node.name === 'element') return localElement(node, owner);
      if (node.name === 'any') {
        checkUnderstood(node, where, ANY, refuse);
        const process = optionalAttr(node, 'processContents');
        return {
          kind: 'any',
          ...occurs(node, where),
          namespaces: namespaceConstraint(optionalAttr(node, 'namespace') ?? '##any', namespace),
          processContents: process === 'lax' || process === 'skip' ? process : 'strict',
          at: at(node),
        };
      }
      if (node.name === 'group') {
        checkUnderstood(node, where, GROUP_REF, refuse);
        const key = qnameKey(original('group', qnameOf(node, attr(node, 'ref'), where)));
        const found = globals.group.get(key);
        if (!found) refuse(node, where, `group ${attr(node, 'ref')} is not declared`);
        const [definition, home] = found;
        const [model] = findAll(definition, 's:sequence | s:choice | s:all');
        if (!model) refuse(definition, `group ${attr(definition, 'name')}`, 'holds no sequence, choice or all');
        // The group's content is read in its own schema's scope (its form defaults, its prefixes).
        const inner = asRedefinition('group', definition, home.namespace, () => readParticleIn(home, model, owner, depth + 1));
        return { ...inner, ...occurs(node, where) } as XsdParticle;
      }
      checkUnderstood(node, where, node.name === 'all' ? { ...COMPOSITOR, children: ['element'] } : COMPOSITOR, refuse);
      const particles = findAll(node, '*')
        .filter((child) => child.namespaceUri === NS.s && child.name !== 'annotation')
        .map((child) => particle(child, owner, depth));
      return { kind: node.name as 'sequence' | 'choice' | 'all', particles, ...occurs(node, where) };
    };

    const attributeDecl = (node: XmlElement, owner: string): XsdAttribute | undefined => {
      const where = `attribute ${owner}/@${optionalAttr(node, 'name') ?? optionalAttr(node, 'ref') ?? '?'}`;
      checkUnderstood(node, where, ATTRIBUTE, refuse);
      const use = optionalAttr(node, 'use') ?? 'optional';
      if (!['optional', 'required', 'prohibited'].includes(use)) refuse(node, where, `use="${use}" is not an attribute use`);
      if (use === 'prohibited') return undefined;
      const ref = optionalAttr(node, 'ref');
      if (ref !== undefined) {
        const q = qnameOf(node, ref, where);
        if (q.namespace === XML_NAMESPACE) {
          return {
            name: q.name,
            namespace: q.namespace,
            type: { kind: 'builtin', name: 'string' },
            required: use === 'required',
            at: at(node),
          };
        }
        const found = globals.attribute.get(qnameKey(q));
        if (!found) refuse(node, where, `attribute ${ref} is not declared`);
        const [global, home] = found;
        const type = readAttributeTypeIn(home, global, where);
        const fixed = optionalAttr(node, 'fixed') ?? optionalAttr(global, 'fixed');
        return {
          name: q.name,
          namespace: q.namespace,
          type,
          required: use === 'required',
          ...(fixed !== undefined ? { fixed } : {}),
          at: at(node),
        };
      }
      const name = attr(node, 'name');
      const form = optionalAttr(node, 'form');
      const qualified = form === undefined ? scope.qualifiedAttributes : form === 'qualified';
      return {
        name,
        namespace: qualified ? namespace : '',
        type: declaredType(node, where, `${owner}/@${name}`, true),
        required: use === 'required',
        ...(optionalAttr(node, 'fixed') !== undefined ? { fixed: optionalAttr(node, 'fixed') } : {}),
        at: at(node),
      };
    };
    const attributesOf = (node: XmlElement, owner: string, depth = 0): { attributes: XsdAttribute[]; anyAttribute: boolean } => {
      const attributes: XsdAttribute[] = [];
      let anyAttribute = false;
      for (const child of findAll(node, 's:attribute | s:attributeGroup | s:anyAttribute')) {
        if (child.name === 'attribute') {
          const read = attributeDecl(child, owner);
          if (read) attributes.push(read);
        } else if (child.name === 'anyAttribute') anyAttribute = true;
        else {
          const where = `complex type ${owner}`;
          checkUnderstood(child, where, ATTRIBUTE_GROUP_REF, refuse);
          if (depth > 32) refuse(child, where, 'nests attribute groups more than 32 deep');
          const found = globals.attributeGroup.get(qnameKey(original('attributeGroup', qnameOf(child, attr(child, 'ref'), where))));
          if (!found) refuse(child, where, `attribute group ${attr(child, 'ref')} is not declared`);
          const inner = asRedefinition('attributeGroup', found[0], found[1].namespace, () =>
            readAttributesIn(found[1], found[0], owner, depth + 1),
          );
          attributes.push(...inner.attributes);
          anyAttribute ||= inner.anyAttribute;
        }
      }
      return { attributes, anyAttribute };
    };

    const complexType = (node: XmlElement, name: string | undefined, owner: string): XsdComplexType => {
      const where = name ? `complex type ${name}` : `the complexType of element ${owner}`;
      checkUnderstood(node, where, COMPLEX_TYPE, refuse);
      const mixed = xsdBoolean(node, optionalAttr(node, 'mixed') ?? 'false', `${where}: mixed`, refuse);
      const abstract = xsdBoolean(node, optionalAttr(node, 'abstract') ?? 'false', `${where}: abstract`, refuse);
      const base = { name, namespace, mixed, abstract, at: at(node) };
      const [content] = findAll(node, 's:complexContent | s:simpleContent');
      if (content) {
        checkUnderstood(content, where, CONTENT, refuse);
        const [derivation] = findAll(content, 's:extension | s:restriction');
        if (!derivation) refuse(content, where, `<${content.name}> holds no extension or restriction`);
        checkUnderstood(derivation, where, DERIVATION, refuse);
        const baseType = original('type', qnameOf(derivation, attr(derivation, 'base'), where));
        const own = attributesOf(derivation, name ?? owner);
        const mixedContent = mixed || xsdBoolean(content, optionalAttr(content, 'mixed') ?? 'false', `${where}: mixed`, refuse);
        if (content.name === 'simpleContent') {
          const text: XsdTypeUse =
            derivation.name === 'extension'
              ? baseType.namespace === NS.s
                ? { kind: 'builtin', name: baseType.name }
                : { kind: 'named', qname: baseType }
              : {
                  kind: 'simple',
                  type: {
                    namespace,
                    variety: 'atomic',
                    ...facetsOf(derivation, where),
                    base: findAll(derivation, 's:simpleType')[0]
                      ? { kind: 'simple', type: simpleType(findAll(derivation, 's:simpleType')[0], undefined) }
                      : baseType.namespace === NS.s
                        ? { kind: 'builtin', name: baseType.name }
                        : { kind: 'named', qname: baseType },
                    at: at(derivation),
                  },
                };
          return { ...base, mixed: false, base: baseType, derivation: derivation.name as 'extension' | 'restriction', text, ...own };
        }
        const [model] = findAll(derivation, 's:sequence | s:choice | s:all | s:group');
        return {
          ...base,
          mixed: mixedContent,
          // A restriction of anyType (SOAP encoding's arrays aside) is a type of its own.
          ...(baseType.namespace === NS.s && baseType.name === 'anyType'
            ? {}
            : { base: baseType, derivation: derivation.name as 'extension' | 'restriction' }),
          ...(model ? { particle: particle(model, name ?? owner) } : {}),
          ...own,
        };
      }
      const models = findAll(node, 's:sequence | s:choice | s:all | s:group');
      if (models.length > 1) refuse(models[1], where, 'holds more than one content model');
      return { ...base, ...(models[0] ? { particle: particle(models[0], name ?? owner) } : {}), ...attributesOf(node, name ?? owner) };
    };

    const declarations = () => {
      if (!facts.namespaces.includes(namespace) && findAll(schema, 's:element | s:complexType | s:simpleType').length > 0) {
        facts.namespaces.push(namespace);
      }
      for (const redefine of findAll(schema, 's:redefine')) checkUnderstood(redefine, 'the redefine', REDEFINE, refuse);
      // A redefinition first, so that it keeps its name; the original it redefines takes the ORIGINAL key.
      for (const node of findAll(schema, 's:redefine/s:complexType | s:redefine/s:simpleType | s:element | s:complexType | s:simpleType')) {
        const name = attr(node, 'name');
        const key = qnameKey({ namespace, name });
        if (node.name === 'complexType' || node.name === 'simpleType') {
          const own = declaredKey('type', node, namespace);
          const ownName = own.endsWith(ORIGINAL) ? `${name}${ORIGINAL}` : name;
          if (node.name === 'complexType') {
            if (!facts.complexTypes.has(own))
              facts.complexTypes.set(
                own,
                asRedefinition('type', node, namespace, () => complexType(node, ownName, ownName)),
              );
          } else if (!facts.simpleTypes.has(own))
            facts.simpleTypes.set(
              own,
              asRedefinition('type', node, namespace, () => simpleType(node, ownName)),
            );
          continue;
        }
        const where = `element ${name}`;
        checkUnderstood(node, where, GLOBAL_ELEMENT, refuse);
        if (facts.elements.has(key)) continue;
        facts.elements.set(key, {
          name,
          namespace,
          type: declaredType(node, where, name),
          nillable: xsdBoolean(node, optionalAttr(node, 'nillable') ?? 'false', `${where}: nillable`, refuse),
          abstract: xsdBoolean(node, optionalAttr(node, 'abstract') ?? 'false', `${where}: abstract`, refuse),
          ...(optionalAttr(node, 'fixed') !== undefined ? { fixed: optionalAttr(node, 'fixed') } : {}),
          ...(optionalAttr(node, 'default') !== undefined ? { default: optionalAttr(node, 'default') } : {}),
          ...(optionalAttr(node, 'substitutionGroup') !== undefined
            ? { substitutionGroup: qnameOf(node, attr(node, 'substitutionGroup'), where) }
            : {}),
          at: at(node),
        });
      }
    };
    // Groups, attribute groups and global attributes are read in their own schema's scope: these read them for the others.
    return {
      particle: (model, owner, depth) => particle(model, owner, depth),
      attributes: (node, owner, depth) => attributesOf(node, owner, depth),
      attributeType: (node, where) => declaredType(node, where, where, true),
      declarations,
    };
  };
  const readers = new Map(scopes.map((scope) => [scope, makeReader(scope)]));
  for (const scope of scopes) readers.get(scope)!.declarations();
  expandSubstitutionGroups(facts);

  function readParticleIn(scope: SchemaScope, model: XmlElement, owner: string, depth: number): XsdParticle {
    return readerOf(scope).particle(model, owner, depth);
  }
  function readAttributesIn(scope: SchemaScope, node: XmlElement, owner: string, depth: number) {
    return readerOf(scope).attributes(node, owner, depth);
  }
  function readAttributeTypeIn(scope: SchemaScope, node: XmlElement, where: string): XsdTypeUse {
    return readerOf(scope).attributeType(node, where);
  }
  function readerOf(scope: SchemaScope): ScopeReader {
    return readers.get(scope)!;
  }
  return facts;
}

/**
 * A reference to the head of a substitution group stands for the head (unless
 * abstract) or any member of its group, members of members too: it is read as
 * a choice of those elements, each a field of its own (the served schema keeps
 * the group, so libxml2 checks the members' types).
 */
function expandSubstitutionGroups(facts: XsdFacts): void {
  const members = new Map<string, XsdElement[]>();
  for (const element of facts.elements.values()) {
    if (!element.substitutionGroup) continue;
    const head = qnameKey(element.substitutionGroup);
    members.set(head, [...(members.get(head) ?? []), element]);
  }
  if (members.size === 0) return;
  const standIns = (head: string, seen: Set<string>): XsdElement[] =>
    (members.get(head) ?? []).flatMap((member) => {
      const key = qnameKey(member);
      if (seen.has(key)) return [];
      seen.add(key);
      return [...(member.abstract ? [] : [member]), ...standIns(key, seen)];
    });
  const seenTypes = new Set<XsdComplexType>();
  const inType = (type: XsdComplexType) => {
    if (seenTypes.has(type)) return;
    seenTypes.add(type);
    if (type.particle) type.particle = inParticle(type.particle);
  };
  const inParticle = (particle: XsdParticle): XsdParticle => {
    if (particle.kind === 'any') return particle;
    if (particle.kind !== 'element') return { ...particle, particles: particle.particles.map(inParticle) };
    const { element } = particle;
    if (element.type?.kind === 'complex') inType(element.type.type);
    if (!element.ref || !members.has(qnameKey(element.ref))) return particle;
    const head = facts.elements.get(qnameKey(element.ref));
    const alternatives = [...(head && !head.abstract ? [head] : []), ...standIns(qnameKey(element.ref), new Set())];
    return {
      kind: 'choice',
      min: particle.min,
      max: particle.max,
      particles: alternatives.map((alternative) => ({
        kind: 'element',
        element: {
          name: alternative.name,
          namespace: alternative.namespace,
          ref: { namespace: alternative.namespace, name: alternative.name },
          nillable: element.nillable,
          at: element.at,
        },
        min: 1,
        max: 1,
      })),
    };
  };
  for (const type of facts.complexTypes.values()) inType(type);
  for (const element of facts.elements.values()) if (element.type.kind === 'complex') inType(element.type.type);
}

interface ScopeReader {
  particle(model: XmlElement, owner: string, depth: number): XsdParticle;
  attributes(node: XmlElement, owner: string, depth: number): { attributes: XsdAttribute[]; anyAttribute: boolean };
  attributeType(node: XmlElement, where: string): XsdTypeUse;
  /** Reads the schema's global elements and types into the facts. */
  declarations(): void;
}

/** Refuses an attribute, a child element or text that `understood` does not list; annotations and extension attributes are read past. */
function checkUnderstood(node: XmlElement, where: string, understood: Understood, refuse: Refuse): void {
  for (const attribute of node.attrs) {
    const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
    if (attribute.name === 'id' && !attribute.namespaceUri) continue;
    if (attribute.namespaceUri && attribute.namespaceUri !== NS.s && name !== 'xml:lang') continue;
    if (!understood.attributes.includes(name)) {
      refuse(node, where, `attribute ${name} is not supported (codegen reads ${understood.reads})`);
    }
  }
  for (const child of findAll(node, '*')) {
    if (child.namespaceUri === NS.s && child.name === 'annotation') continue;
    if (child.namespaceUri !== NS.s || !understood.children.includes(child.name)) {
      const name = child.prefix ? `${child.prefix}:${child.name}` : child.name;
      const hint =
        child.name === 'redefine' || child.name === 'override'
          ? 'redefinitions change declared types: publish the redefined schema instead'
          : `codegen reads ${understood.reads}`;
      refuse(child, where, `<${name}> is not supported (${hint})`);
    }
  }
  if (node.find('text()[normalize-space()]').length) refuse(node, where, 'holds text, which XML Schema does not allow there');
}

/** A wildcard's namespace attribute, in a schema of `namespace`: ##any, ##other (neither that one nor none), or a list. */
function namespaceConstraint(value: string, namespace: string): XsdNamespaceConstraint {
  const tokens = value.split(/\s+/).filter(Boolean);
  if (tokens.includes('##any')) return { but: [] };
  if (tokens.includes('##other')) return { but: [...new Set([namespace, ''])] };
  return { only: tokens.map((t) => (t === '##targetNamespace' ? namespace : t === '##local' ? '' : t)) };
}

function xsdBoolean(node: XmlElement, value: string, where: string, refuse: Refuse): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return refuse(node, where, `"${value}" is not an xs:boolean`);
}
