/**
 * The TypeScript type that holds each schema type's values: a built-in's
 * primitive, an enumeration's union, a list's array, or a complex type's
 * class (queued for classes.ts to make when first reached).
 */
import type { XsdComplexType, XsdElement, XsdSimpleType, XsdTypeUse } from '../read/xsd';
import { complexByKey, type ModelContext, simpleByKey } from './context';
import { type EnumModel, LIST_BUILTINS, PRIMITIVES, type Primitive, type SimpleTypeRef, TEXT_BUILTINS, type TypeRef } from './model';

export const XSD = 'http://www.w3.org/2001/XMLSchema';
/** ASMX's guid type, and WCF's Serialization namespace (guid, char, duration). */
const ASMX_TYPES = 'http://microsoft.com/wsdl/types/';
const WCF_SERIALIZATION = 'http://schemas.microsoft.com/2003/10/Serialization/';

export function primitiveRef(
  primitive: Primitive,
  facets?: Record<string, string>,
  builtin?: string,
): Extract<TypeRef, { kind: 'primitive' }> {
  return {
    kind: 'primitive',
    primitive,
    tsType: PRIMITIVES[primitive],
    ...(facets && Object.keys(facets).length ? { facets } : {}),
    ...(builtin !== undefined ? { builtin } : {}),
  };
}

export function builtinRef(name: string, user: string): TypeRef {
  if (name === 'anyType') return { kind: 'any', tsType: 'XmlFragment' };
  if (Object.hasOwn(PRIMITIVES, name) && name !== 'guid' && name !== 'text') return primitiveRef(name as Primitive);
  if (TEXT_BUILTINS.includes(name)) return primitiveRef('text', undefined, name);
  if (LIST_BUILTINS.includes(name))
    return { kind: 'list', item: primitiveRef('text', undefined, name.replace(/S$/, '')) as SimpleTypeRef, tsType: 'string[]' };
  throw new Error(`codegen: ${user}: XML Schema type ${name} is not an XML Schema built-in type`);
}

/** A simple type's TypeRef: an enumeration, a list, or the built-in it restricts (with its facets). */
export function simpleRef(context: ModelContext, type: XsdSimpleType, user: string, depth = 0): TypeRef {
  if (depth > 32) throw new Error(`codegen: ${type.at}: simple type ${type.name ?? '(anonymous)'} derives from itself`);
  if (type.namespace === ASMX_TYPES && type.name === 'guid') return primitiveRef('guid');
  if (type.namespace === WCF_SERIALIZATION && type.name === 'guid') return primitiveRef('guid');
  if (type.namespace === WCF_SERIALIZATION && type.name === 'char') return primitiveRef('int');
  if (type.variety === 'union') {
    // Its members' types, for a sample of one of them; a member that cannot be read leaves the union its text.
    const members = (type.members ?? []).flatMap((member) => {
      try {
        const ref = useRef(context, member, user, depth + 1);
        return ref.kind === 'complex' || ref.kind === 'any' ? [] : [ref];
      } catch {
        return [];
      }
    });
    const union = { ...primitiveRef('text', undefined, 'union'), ...(members.length ? { members } : {}) };
    const discriminated = context.discriminateUnions && members.length === (type.members ?? []).length ? flatMembers(members) : undefined;
    return discriminated ? { ...union, members: discriminated, tsType: unionTsType(discriminated), discriminated: true } : union;
  }
  if (type.variety === 'list') {
    const item = useRef(context, type.base!, user, depth + 1);
    if (item.kind !== 'primitive' && item.kind !== 'enum') throw new Error(`codegen: ${type.at}: a list's items must be of a simple type`);
    return { kind: 'list', item, tsType: `${item.tsType.includes('|') ? `(${item.tsType})` : item.tsType}[]` };
  }
  if (type.enumeration.length > 0) {
    const known = context.enumNames.get(type);
    if (known) return { kind: 'enum', typeName: known, tsType: known };
    const base = type.base ? textRef(context, type.base, user, depth + 1) : undefined;
    // An enumeration of lists is a list: the schema checks that its value is one of the lists it names.
    // Its first value is kept as the `sample` facet: a sample must be one of them.
    if (base?.kind === 'list') return { ...base, facets: { ...(base.facets ?? {}), ...type.facets, sample: type.enumeration[0] } };
    const name = context.names.claim(type.name ?? `${user.split(/[/@ ]/).filter(Boolean).pop()}Type`);
    context.enumNames.set(type, name);
    const enumeration: EnumModel = { name, values: type.enumeration, base: primitiveRef('string') };
    if (base?.kind === 'primitive') enumeration.base = base;
    else if (base?.kind === 'enum') enumeration.base = context.enums.get(base.typeName)?.base ?? enumeration.base;
    // QNames are compared by namespace and name: the values as the schema resolves them.
    if (enumeration.base.kind === 'primitive' && (enumeration.base.builtin === 'QName' || enumeration.base.builtin === 'NOTATION'))
      enumeration.values = type.enumerationQNames;
    context.enums.set(name, enumeration);
    return { kind: 'enum', typeName: name, tsType: name };
  }
  const base = textRef(context, type.base!, user, depth + 1);
  if (base.kind === 'primitive') return patterned(base, type);
  if (base.kind === 'list') {
    const facets = { ...(base.facets ?? {}), ...type.facets };
    // A pattern checks the list's text: numbers, booleans and binary values are written in forms it admits.
    if (base.item.kind === 'primitive' && base.item.tsType !== 'string') {
      const patterns = [...(base.patterns ?? []), ...(type.patterns?.length ? [joinedPatterns(type.patterns)] : [])];
      return { ...base, facets, ...(patterns.length ? { patterns } : {}) };
    }
    return { ...base, facets };
  }
  if (base.kind === 'enum') return base;
  throw new Error(`codegen: ${type.at}: a simple type must restrict a simple type`);
}

/**
 * A union's members as its value is told apart by (a member that is a discriminated union itself standing for its
 * members, in place), or undefined when one of them cannot be: a QName or NOTATION (read where it is written), a list.
 */
function flatMembers(members: readonly TypeRef[]): TypeRef[] | undefined {
  const flat: TypeRef[] = [];
  for (const member of members) {
    if (member.kind === 'primitive' && member.builtin === 'union') {
      if (!member.discriminated || !member.members) return undefined;
      flat.push(...member.members);
    } else if (member.kind === 'primitive') {
      if (member.builtin === 'QName' || member.builtin === 'NOTATION') return undefined;
      flat.push(member);
    } else if (member.kind === 'enum') flat.push(member);
    else return undefined;
  }
  return flat;
}

/** The TypeScript type of a discriminated union's values: its members' types, each once. */
const unionTsType = (members: readonly TypeRef[]) => [...new Set(members.map((m) => m.tsType))].join(' | ');

/**
 * A restriction of a primitive: its facets over its base's. A number, boolean or binary value (whose lexical form is
 * not kept) has the patterns of every step on its way, each step's alternatives as one pattern: the runtime checks
 * them on read and writes a form they admit. A union's text and the types held as their text keep their form.
 */
function patterned(base: Extract<TypeRef, { kind: 'primitive' }>, type: XsdSimpleType): TypeRef {
  // A restricted discriminated union keeps its members (its facets, checked by validation, over its base's).
  if (base.builtin === 'union' && base.discriminated) return { ...base, facets: { ...(base.facets ?? {}), ...type.facets } };
  const ref = primitiveRef(base.primitive, { ...(base.facets ?? {}), ...type.facets }, base.builtin);
  if (ref.tsType === 'string' || !type.patterns?.length) return base.patterns ? { ...ref, patterns: base.patterns } : ref;
  return { ...ref, patterns: [...(base.patterns ?? []), joinedPatterns(type.patterns)] };
}

/** A step's patterns as one: each an alternative. */
const joinedPatterns = (patterns: readonly string[]) => (patterns.length === 1 ? patterns[0] : patterns.map((p) => `(${p})`).join('|'));

/**
 * The type a simple type restricts: a simple type, or (a simpleContent restriction) a complex type with simple
 * content, whose text's type it is.
 */
function textRef(context: ModelContext, use: XsdTypeUse, user: string, depth: number): TypeRef {
  if (use.kind === 'named') {
    const complex = complexByKey(context, use.qname);
    if (complex?.text) return textRef(context, complex.text, user, depth + 1);
  }
  if (use.kind === 'complex' && use.type.text) return textRef(context, use.type.text, user, depth + 1);
  return useRef(context, use, user, depth);
}

/** The TypeRef of a declaration's type: built-in, named, or declared in place. */
export function useRef(context: ModelContext, use: XsdTypeUse, user: string, depth = 0): TypeRef {
  switch (use.kind) {
    case 'builtin':
      return builtinRef(use.name, user);
    case 'simple':
      return simpleRef(context, use.type, user, depth);
    case 'complex':
      return complexRef(context, use.type, user);
    case 'named': {
      const { qname } = use;
      if (qname.namespace === XSD) return builtinRef(qname.name, user);
      const simple = simpleByKey(context, qname);
      if (simple) return simpleRef(context, simple, user, depth);
      const complex = complexByKey(context, qname);
      if (complex) return complexRef(context, complex, user);
      if (qname.namespace === ASMX_TYPES && qname.name === 'guid') return primitiveRef('guid');
      throw new Error(
        `codegen: ${user} names type ${qname.name}${qname.namespace ? ` of ${qname.namespace}` : ''}, which no schema declares`,
      );
    }
  }
}

/** A complex type reached: its class is made (once) when classes.ts drains the queue. */
export function complexRef(context: ModelContext, type: XsdComplexType, user: string): TypeRef {
  // A complex type with simple content and no attributes is its text's type, as .NET reads it.
  if (type.text && type.attributes.length === 0 && !type.base) return useRef(context, type.text, user);
  let name = context.complexNames.get(type);
  if (!name) {
    name = context.names.claim(user.split(/[/@ ]/).filter(Boolean).pop() ?? 'Anonymous');
    context.complexNames.set(type, name);
  }
  if (!context.types.has(type) && !context.pending.includes(type)) context.pending.push(type);
  return { kind: 'complex', typeName: name, tsType: name };
}

export const elementType = (context: ModelContext, element: XsdElement): TypeRef => useRef(context, element.type, element.name);
