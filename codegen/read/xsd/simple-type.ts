/** Simple types: a restriction (enumeration values and other facets), a list, or a union. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, localName, NS, namespaceOfQName, optionalAttr, type Refuse } from '../documents';
import type { XsdSimpleType, XsdTypeUse } from './facts';
import { at, checkUnderstood, namedType, original, type SchemaScope, typeUse, type Understood } from './scope';

const SIMPLE_TYPE: Understood = {
  attributes: ['name', 'final'],
  children: ['restriction', 'list', 'union'],
  reads: 'a restriction, list or union',
};
/** The facets other than enumeration, by name: the served schema checks them; samples keep to them. */
export const FACETS = [
  'pattern',
  'length',
  'minLength',
  'maxLength',
  'minInclusive',
  'maxInclusive',
  'minExclusive',
  'maxExclusive',
].concat(['totalDigits', 'fractionDigits', 'whiteSpace']);
const RESTRICTION: Understood = { attributes: ['base'], children: ['simpleType', 'enumeration', ...FACETS], reads: 'a base and facets' };
const LIST: Understood = { attributes: ['itemType'], children: ['simpleType'], reads: 'an item type' };
const UNION: Understood = { attributes: ['memberTypes'], children: ['simpleType'], reads: 'member types' };
const FACET: Understood = { attributes: ['value', 'fixed'], children: [], reads: 'value' };

/** A named or anonymous xs:simpleType. */
export function simpleType(scope: SchemaScope, node: XmlElement, name: string | undefined): XsdSimpleType {
  const refuse: Refuse = scope.refuse;
  const where = name ? `simple type ${name}` : 'an anonymous simple type';
  checkUnderstood(node, where, SIMPLE_TYPE, refuse);
  const [list] = findAll(node, 's:list');
  const [union] = findAll(node, 's:union');
  const base = {
    name,
    namespace: scope.namespace,
    enumeration: [] as string[],
    enumerationQNames: [] as string[],
    facets: {} as Record<string, string>,
    at: at(scope, node),
  };
  if (list) {
    checkUnderstood(list, where, LIST, refuse);
    const inner = findAll(list, 's:simpleType')[0];
    const item: XsdTypeUse = inner
      ? { kind: 'simple', type: simpleType(scope, inner, undefined) }
      : typeUse(scope, list, where, 'itemType');
    return { ...base, variety: 'list', base: item };
  }
  if (union) {
    checkUnderstood(union, where, UNION, refuse);
    // A member whose prefix is not declared is left out (the union is read as its text all the same).
    const members = (optionalAttr(union, 'memberTypes') ?? '').split(/\s+/).flatMap((value): XsdTypeUse[] => {
      const ns = value === '' ? null : namespaceOfQName(union, value);
      if (ns === null) return [];
      return [
        namedType(original(scope, 'type', { namespace: ns === '' && scope.chameleon ? scope.namespace : ns, name: localName(value) })),
      ];
    });
    for (const inner of findAll(union, 's:simpleType')) members.push({ kind: 'simple', type: simpleType(scope, inner, undefined) });
    return { ...base, variety: 'union', members };
  }
  const restrictions = findAll(node, 's:restriction');
  if (restrictions.length !== 1) refuse(node, where, 'must hold one restriction, list or union');
  const restriction = restrictions[0];
  checkUnderstood(restriction, where, RESTRICTION, refuse);
  return { ...base, variety: 'atomic', ...facetsOf(scope, restriction, where), base: restrictedBase(scope, restriction, where) };
}

/** A restriction's enumeration (its values, and as QNames where they are written) and its other facets. */
export function facetsOf(
  scope: SchemaScope,
  restriction: XmlElement,
  where: string,
): { enumeration: string[]; enumerationQNames: string[]; facets: Record<string, string>; patterns?: string[] } {
  const enumeration: string[] = [];
  const patterns: string[] = [];
  const enumerationQNames: string[] = [];
  const facets: Record<string, string> = {};
  for (const facet of findAll(restriction, '*')) {
    if (facet.namespaceUri !== NS.s || facet.name === 'annotation' || facet.name === 'simpleType') continue;
    if (facet.name === 'enumeration') {
      checkUnderstood(facet, where, FACET, scope.refuse);
      const value = attr(facet, 'value');
      // A value listed twice is one value.
      if (enumeration.includes(value)) continue;
      enumeration.push(value);
      const trimmed = value.trim();
      const ns = /^[^\s:]+(:[^\s:]+)?$/.test(trimmed) ? namespaceOfQName(facet, trimmed) : null;
      enumerationQNames.push(ns ? `{${ns}}${localName(trimmed)}` : trimmed);
    } else if (FACETS.includes(facet.name)) {
      checkUnderstood(facet, where, FACET, scope.refuse);
      // Several patterns are alternatives; a sample keeps to the first.
      facets[facet.name] ??= attr(facet, 'value');
      if (facet.name === 'pattern') patterns.push(attr(facet, 'value'));
    }
  }
  return { enumeration, enumerationQNames, facets, ...(patterns.length ? { patterns } : {}) };
}

/** The type a restriction restricts: its anonymous simple type, else its base. */
export function restrictedBase(scope: SchemaScope, restriction: XmlElement, where: string): XsdTypeUse {
  const inner = findAll(restriction, 's:simpleType')[0];
  if (inner) return { kind: 'simple', type: simpleType(scope, inner, undefined) };
  return typeUse(scope, restriction, where, 'base');
}
