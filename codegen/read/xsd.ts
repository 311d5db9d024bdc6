/**
 * The facts of a schema set (every global declaration of every namespace) and their reader. Each construct is read
 * by its module of read/xsd/, a function of the schema's scope (scope.ts) and the node it reads.
 */
import type { XmlElement } from '../../src/runtime/xml/xml-engine';
import { attr, findAll } from './documents';
import { complexType } from './xsd/complex-type';
import { checkGlobalElement, globalElement } from './xsd/element';
import { checkRedefines, declaredName } from './xsd/redefine';
import { declarationScope, type SchemaScope } from './xsd/scope';
import { schemaScopes } from './xsd/set';
import { simpleType } from './xsd/simple-type';

export { STRAY_TYPE_ATTRIBUTES } from './xsd/complex-type';

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

/**
 * Reads the global declarations of the contract's schemas (every schema,
 * of every namespace): elements, complex and simple types, with groups and
 * attribute groups expanded in place, substitution groups (each element's
 * head: model/substitution-groups.ts expands them) and redefinitions. What changes the wire and is not read is
 * refused with one line naming its file and line; what does not
 * (annotations, identity constraints, extension attributes) is read past.
 */
export function readXsd(sources: SchemaSource[]): XsdFacts {
  const facts: XsdFacts = { elements: new Map(), complexTypes: new Map(), simpleTypes: new Map(), namespaces: [] };
  for (const scope of schemaScopes(sources)) readDeclarations(scope, facts);
  return facts;
}

/** A schema's global elements and types, into the facts: the first declaration of a name is the one read. */
function readDeclarations(scope: SchemaScope, facts: XsdFacts): void {
  const { schema, namespace } = scope;
  if (!facts.namespaces.includes(namespace) && findAll(schema, 's:element | s:complexType | s:simpleType').length > 0) {
    facts.namespaces.push(namespace);
  }
  checkRedefines(scope);
  // A redefinition first, so that it keeps its name; the original it redefines takes the ORIGINAL key.
  for (const node of findAll(schema, 's:redefine/s:complexType | s:redefine/s:simpleType | s:element | s:complexType | s:simpleType')) {
    if (node.name === 'element') {
      checkGlobalElement(scope, node);
      const key = qnameKey({ namespace, name: attr(node, 'name') });
      if (!facts.elements.has(key)) facts.elements.set(key, globalElement(scope, node));
      continue;
    }
    const { key, name } = declaredName(scope, node);
    const inScope = declarationScope(scope, 'type', node);
    if (node.name === 'complexType') {
      if (!facts.complexTypes.has(key)) facts.complexTypes.set(key, complexType(inScope, node, name, name));
    } else if (!facts.simpleTypes.has(key)) facts.simpleTypes.set(key, simpleType(inScope, node, name));
  }
}
