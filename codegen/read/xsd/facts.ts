/** The facts read/ takes from a schema set: every global declaration, as plain data (read/xsd.ts reads them). */
import type { XmlElement } from 'contract-runtime/xml';

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
  /**
   * SOAP encoding's array (a derivation of soapenc:Array, in a contract SOAP encoding speaks): read as a sequence of
   * items (read/xsd/soap-arrays.ts); `rank` is its dimensions' count (`T[,]`: 2).
   */
  soapArray?: { rank: number };
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
  /** Its pattern facets, alternatives of one another (the `pattern` facet is the first). */
  patterns?: string[];
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
