/**
 * What every construct reader of a schema takes: the schema document it reads in (its namespace, its form
 * defaults, how it refuses), the set's global declarations, and the redefinitions being read. Readers are
 * functions of this scope and the node they read; none keeps state of its own.
 */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, localName, NS, namespaceOfQName, optionalAttr, type Refuse } from '../documents';
import { type Occurs, type QName, qnameKey, type XsdTypeUse } from './facts';
import { arrayType, DRAFT_NAMES, encodedBuiltin, isSoapArray, isSoapStruct } from './soap-arrays';

/** A global declaration of the set that references expand (a group, an attribute group, an attribute), and the scope it is read in. */
export interface Declared {
  node: XmlElement;
  scope: SchemaScope;
}

/** The set's declarations that are expanded where they are referenced, by key, and what a redefine redefines. */
export interface SchemaSet {
  readonly group: Map<string, Declared>;
  readonly attributeGroup: Map<string, Declared>;
  readonly attribute: Map<string, Declared>;
  /** What a redefine redefines, by kind and key (redefinedKey): the originals of those names take ORIGINAL keys. */
  readonly redefined: ReadonlySet<string>;
}

export interface SchemaScope {
  readonly schema: XmlElement;
  readonly namespace: string;
  readonly qualifiedElements: boolean;
  readonly qualifiedAttributes: boolean;
  readonly refuse: Refuse;
  /** A schema without targetNamespace read in its includer's: its no-namespace names are the includer's. */
  readonly chameleon: boolean;
  readonly set: SchemaSet;
  /** The redefinitions being read (redefinedKey): inside one, a reference to its own name is to the original. */
  readonly redefining: readonly string[];
  /** The contract speaks SOAP encoding: soapenc's arrays and simple types are read as read/xsd/soap-arrays.ts says. */
  readonly soapEncoding?: boolean;
}

/** What the reader understands of each construct; anything else is refused rather than ignored. */
export interface Understood {
  attributes: string[];
  children: string[];
  /** Said in the refusal, e.g. `one sequence of elements`. */
  reads: string;
}

/** The key a redefined component's original takes: the redefinition takes its name, and refers to it by this one. */
export const ORIGINAL = '#redefined';
export type RedefinedKind = 'type' | 'group' | 'attributeGroup';
export const redefinedKey = (kind: RedefinedKind, key: string) => `${kind} ${key}`;

/** A declaration of another document read from `scope`: in that document's scope, with the redefinitions being read. */
export const homeScope = (scope: SchemaScope, home: SchemaScope): SchemaScope => ({ ...home, redefining: scope.redefining });

/** The scope a declaration is read in: a redefinition (a redefine's child) refers to the original by its own name. */
export function declarationScope(scope: SchemaScope, kind: RedefinedKind, node: XmlElement): SchemaScope {
  if (node.parent?.name !== 'redefine') return scope;
  const key = redefinedKey(kind, qnameKey({ namespace: scope.namespace, name: attr(node, 'name') }));
  return { ...scope, redefining: [...scope.redefining, key] };
}

/** A reference as it resolves: to the original of a redefinition being read, else as written. */
export function original(scope: SchemaScope, kind: RedefinedKind, q: QName): QName {
  return scope.redefining.includes(redefinedKey(kind, qnameKey(q))) ? { namespace: q.namespace, name: `${q.name}${ORIGINAL}` } : q;
}

/** A QName written in an attribute, resolved in the node's scope; no-namespace names are the includer's in a chameleon schema. */
export function qnameOf(scope: SchemaScope, node: XmlElement, value: string, where: string): QName {
  const ns = namespaceOfQName(node, value);
  if (ns === null) scope.refuse(node, where, `${value} has a prefix that is not declared`);
  return { namespace: ns === '' && scope.chameleon ? scope.namespace : ns, name: localName(value) };
}

/** A type named by a QName: a built-in one of XML Schema's namespace, or a named one. */
export const namedType = (q: QName): XsdTypeUse =>
  q.namespace === NS.s ? { kind: 'builtin', name: DRAFT_NAMES[q.name] ?? q.name } : { kind: 'named', qname: q };

/** The type an attribute (`type`, `base`, `itemType`) names. */
export function typeUse(scope: SchemaScope, node: XmlElement, where: string, attribute = 'type'): XsdTypeUse {
  const q = qnameOf(scope, node, attr(node, attribute), where);
  if (scope.soapEncoding) {
    const builtin = encodedBuiltin(q);
    if (builtin) return { kind: 'builtin', name: builtin };
    if (isSoapArray(q))
      return { kind: 'complex', type: arrayType(undefined, '', { kind: 'builtin', name: 'anyType' }, 1, at(scope, node)) };
    if (isSoapStruct(q)) return { kind: 'builtin', name: 'anyType' };
  }
  return namedType(original(scope, 'type', q));
}

/** `file:line` of a node, as the facts keep it. */
export const at = (scope: SchemaScope, node: XmlElement) => `${scope.refuse.file}:${node.line}`;

export function occurs(scope: SchemaScope, node: XmlElement, where: string): { min: number; max: Occurs } {
  const min = optionalAttr(node, 'minOccurs') ?? '1';
  const max = optionalAttr(node, 'maxOccurs') ?? '1';
  if (!/^\d+$/.test(min)) scope.refuse(node, where, `minOccurs="${min}" is not a number`);
  if (max !== 'unbounded' && !/^\d+$/.test(max)) scope.refuse(node, where, `maxOccurs="${max}" is not a number or unbounded`);
  return { min: Number(min), max: max === 'unbounded' ? 'unbounded' : Number(max) };
}

export function xsdBoolean(node: XmlElement, value: string, where: string, refuse: Refuse): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return refuse(node, where, `"${value}" is not an xs:boolean`);
}

/** An optional attribute as a boolean (false when absent). */
export const flag = (scope: SchemaScope, node: XmlElement, name: string, where: string) =>
  xsdBoolean(node, optionalAttr(node, name) ?? 'false', `${where}: ${name}`, scope.refuse);

/** Refuses an attribute, a child element or text that `understood` does not list; annotations and extension attributes are read past. */
export function checkUnderstood(node: XmlElement, where: string, understood: Understood, refuse: Refuse): void {
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
