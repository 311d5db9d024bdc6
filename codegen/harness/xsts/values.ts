/**
 * Equality in XML Schema's value spaces, for the suite's comparison: two
 * lexical forms of one simple type are equal when they denote the same value
 * (the runtime's xsdValueKey: `+01` and `1` as integers, `1.0E0` and `1` as
 * doubles, white space as the type's facet treats it). QNames are compared by
 * namespace and local name, each resolved where it was written.
 */
import {
  INTEGER_BOUNDS,
  normalizeSpace,
  parseXsdQName,
  type WhiteSpace,
  whiteSpaceOf,
  type XmlElement,
  xsdLexicalMatches,
  xsdValueKey,
} from 'contract-runtime/xml';
import type { EnumModel, TypeRef } from '../../model/model';

/** Where a value was written: its element resolves the prefixes of a QName. */
export interface ValueContext {
  element: XmlElement;
}

/** The built-in a simple type's values belong to (a text kept for its pattern: its built-in's). */
function builtinOf(ref: TypeRef & { kind: 'primitive' }): string {
  if (ref.primitive === 'text') return ref.builtin ?? 'string';
  return ref.primitive;
}

/** Whether two lexical forms of `ref` denote one value. */
export function equalValues(
  ref: TypeRef,
  a: string,
  b: string,
  contextA: ValueContext,
  contextB: ValueContext,
  enums: ReadonlyMap<string, EnumModel>,
): boolean {
  if (ref.kind === 'enum') {
    const base = enums.get(ref.typeName)?.base;
    return base !== undefined && equalValues(base, a, b, contextA, contextB, enums);
  }
  if (ref.kind === 'list') {
    const items = (text: string) => normalizeSpace(text, 'collapse').split(' ').filter(Boolean);
    const [x, y] = [items(a), items(b)];
    return x.length === y.length && x.every((item, i) => equalValues(ref.item, item, y[i], contextA, contextB, enums));
  }
  if (ref.kind !== 'primitive') return a === b;
  if (ref.discriminated && ref.members) {
    // A union's values are its members': compared as the member the instance's text is a value of.
    const member = ref.members.find((m) => holds(m, a, contextA, enums));
    return member !== undefined && equalValues(member, a, b, contextA, contextB, enums);
  }
  const builtin = builtinOf(ref);
  if (builtin === 'QName' || builtin === 'NOTATION') return qname(a, contextA) !== undefined && qname(a, contextA) === qname(b, contextB);
  // A restriction's whiteSpace facet replaces its base's.
  const space = (ref.facets?.whiteSpace as WhiteSpace | undefined) ?? whiteSpaceOf(builtin);
  const [x, y] = [normalizeSpace(a, space), normalizeSpace(b, space)];
  if (x === y) return true;
  const [p, q] = [xsdValueKey(builtin, x), xsdValueKey(builtin, y)];
  return p !== undefined && p === q;
}

function qname(text: string, context: ValueContext): string | undefined {
  try {
    return parseXsdQName(text, context.element);
  } catch {
    return undefined;
  }
}

/** Whether a text is a value of a union's member (its lexical space, an integer's bounds, a number's range facets, an enumeration's values). */
function holds(ref: TypeRef, text: string, context: ValueContext, enums: ReadonlyMap<string, EnumModel>): boolean {
  if (ref.kind === 'enum') {
    const enumeration = enums.get(ref.typeName);
    return enumeration?.values.some((value) => equalValues(enumeration.base, text, value, context, context, enums)) === true;
  }
  if (ref.kind !== 'primitive') return false;
  if (ref.discriminated && ref.members) return ref.members.some((m) => holds(m, text, context, enums));
  const builtin = builtinOf(ref);
  if (!xsdLexicalMatches(builtin, text) || xsdValueKey(builtin, text) === undefined) return false;
  const bounds = (INTEGER_BOUNDS as Record<string, readonly [number, number] | undefined>)[builtin];
  const value = Number(normalizeSpace(text, 'collapse'));
  if (bounds && !(value >= bounds[0] && value <= bounds[1])) return false;
  const facet = (name: string) => (ref.facets?.[name] === undefined ? undefined : Number(ref.facets[name]));
  const [minI, maxI, minE, maxE] = ['minInclusive', 'maxInclusive', 'minExclusive', 'maxExclusive'].map(facet);
  if (ref.tsType === 'number' || ref.tsType === 'bigint') {
    if ((minI !== undefined && value < minI) || (maxI !== undefined && value > maxI)) return false;
    if ((minE !== undefined && value <= minE) || (maxE !== undefined && value >= maxE)) return false;
  }
  return true;
}
