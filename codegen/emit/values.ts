import type { Primitive, SchemaModel, SimpleTypeRef, TypeRef } from '../model/model';
import { TYPES } from './header';
import { type Imports, quote, type RuntimeName } from './ts';

export type { SimpleTypeRef };

/**
 * How generated code handles a value of one simple type: TypeScript
 * expressions (over `x`) reading its XML text, writing it as XML text and as
 * ASP.NET AJAX's JSON, and reading it from JSON. The helpers are
 * src/runtime/xml/xsd-values.ts's and src/runtime/xml/xsd-json.ts's, each
 * recorded in the file's imports when an expression calling it is written.
 */
export interface ValueCode {
  /** `context`: the element the text was read from (a QName's prefix is resolved there), when there is one. */
  parse(text: string, context?: string): string;
  /** XML text, already escaped; `prefix` the one `declarations` declares for a QName. */
  format(value: string, prefix?: string): string;
  /** The namespace declarations a value needs in its element's start tag (a QName's), as an expression; none: undefined. */
  declarations?(value: string, prefix: string): string;
  /** The lexical form, unescaped (an HTTP field, an attribute before escaping). */
  text(value: string): string;
  toJson(value: string): string;
  fromJson(d: string): string;
}

/** A call of a runtime helper, the helper recorded in the file's imports. */
type Call = (helper: RuntimeName, ...args: string[]) => string;

const integer = (call: Call, type: string): ValueCode => ({
  parse: (x) => call('parseXsdInteger', x, quote(type)),
  format: (x) => call('formatXsdInteger', x, quote(type)),
  text: (x) => call('formatXsdInteger', x, quote(type)),
  toJson: (x) => call('formatXsdInteger', x, quote(type)),
  fromJson: (d) => call('fromJsonInteger', d, quote(type)),
});
const bigInteger = (call: Call, type: string): ValueCode => ({
  parse: (x) => call('parseXsdBigInteger', x, quote(type)),
  format: (x) => call('formatXsdBigInteger', x, quote(type)),
  text: (x) => call('formatXsdBigInteger', x, quote(type)),
  toJson: (x) => call('formatXsdBigInteger', x, quote(type)),
  fromJson: (d) => call('fromJsonBigInteger', d, quote(type)),
});
const float = (call: Call, type: string): ValueCode => ({
  parse: (x) => call('parseXsdFloat', x, quote(type)),
  format: (x) => (type === 'float' ? call('formatXsdFloat', x, quote('float')) : call('formatXsdFloat', x)),
  text: (x) => (type === 'float' ? call('formatXsdFloat', x, quote('float')) : call('formatXsdFloat', x)),
  toJson: (x) => call('toJsonFloat', x),
  fromJson: (d) => call('fromJsonFloat', d),
});
const lexical = (call: Call, type: string): ValueCode => ({
  parse: (x) => call('parseXsdLexical', x, quote(type)),
  format: (x) => call('formatXsdLexical', x, quote(type)),
  text: (x) => call('formatXsdLexical', x, quote(type)),
  toJson: (x) => call('jsonString', call('formatXsdLexical', x, quote(type))),
  fromJson: (d) => call('fromJsonLexical', d, quote(type)),
});
const bytes = (call: Call, type: 'Base64Binary' | 'HexBinary'): ValueCode => ({
  parse: (x) => call(`parseXsd${type}`, x),
  format: (x) => call(`formatXsd${type}`, x),
  text: (x) => call(`formatXsd${type}`, x),
  toJson: (x) => call('toJsonBytes', x),
  fromJson: (d) => call('fromJsonBytes', d),
});
/** A string's: its text as it is. */
const text = (call: Call): ValueCode => ({
  parse: (x) => x,
  format: (x) => call('escapeXmlText', x),
  text: (x) => x,
  toJson: (x) => call('jsonString', x),
  fromJson: (d) => call('fromJsonString', d),
});

function primitiveCode(call: Call, primitive: Primitive): ValueCode {
  switch (primitive) {
    case 'string':
      return text(call);
    case 'boolean':
      return {
        parse: (x) => call('parseXsdBoolean', x),
        format: (x) => call('formatXsdBoolean', x),
        text: (x) => call('formatXsdBoolean', x),
        toJson: (x) => `(${x} ? 'true' : 'false')`,
        fromJson: (d) => call('fromJsonBoolean', d),
      };
    case 'int':
    case 'short':
    case 'byte':
    case 'unsignedInt':
    case 'unsignedShort':
    case 'unsignedByte':
      return integer(call, primitive);
    case 'long':
    case 'unsignedLong':
    case 'integer':
    case 'nonNegativeInteger':
    case 'positiveInteger':
    case 'nonPositiveInteger':
    case 'negativeInteger':
      return bigInteger(call, primitive);
    case 'float':
    case 'double':
      return float(call, primitive);
    case 'decimal':
      return { ...lexical(call, 'decimal'), toJson: (x) => call('toJsonDecimal', x), fromJson: (d) => call('fromJsonDecimal', d) };
    case 'dateTime':
      return { ...lexical(call, 'dateTime'), toJson: (x) => call('toJsonDate', x), fromJson: (d) => call('fromJsonDate', d) };
    case 'text':
      return { ...text(call), parse: (x) => call('parseXsdText', x, quote('token')) };
    case 'base64Binary':
      return bytes(call, 'Base64Binary');
    case 'hexBinary':
      return bytes(call, 'HexBinary');
    default:
      // date, time, duration, the g* types, guid: kept as their lexical form.
      return lexical(call, primitive);
  }
}

/**
 * A number's, boolean's or binary value's of a type restricted by patterns: its text checked against them before it
 * is read, and written in a form they admit (its JSON is its type's).
 */
function patternedCode(call: Call, primitive: Primitive, patterns: readonly string[]): ValueCode {
  const code = primitiveCode(call, primitive);
  const list = patternList(patterns);
  const format = (x: string) => call('formatXsdPatterned', x, quote(primitive), list);
  return { ...code, parse: (x) => code.parse(call('checkXsdPatterns', x, list)), format, text: format };
}

/** Patterns as an array literal. */
export const patternList = (patterns: readonly string[]) => `[${patterns.map(quote).join(', ')}]`;

/** The array of an enumeration's values, which generated/types.ts exports beside its type. */
export const enumValues = (name: string) => `${name}Values`;

/**
 * The built-in whose values a `text` value is (a QName, a token, or a type kept as its lexical form for its
 * pattern); a string restricted by a whiteSpace facet is read as the built-in that has that facet.
 */
const builtinOf = (type: SimpleTypeRef | TypeRef) => {
  if (type.kind !== 'primitive') return undefined;
  const space = type.facets?.whiteSpace;
  if ((type.primitive === 'string' || type.builtin === 'anySimpleType') && space === 'collapse') return 'token';
  if ((type.primitive === 'string' || type.builtin === 'anySimpleType') && space === 'replace') return 'normalizedString';
  return type.builtin ?? type.primitive;
};
const isQName = (builtin: string | undefined) => builtin === 'QName' || builtin === 'NOTATION';

/** A QName's code: read with its element's namespaces, written with a prefix its element declares. */
const qnameCode = (call: Call): ValueCode => ({
  parse: (x, context) => (context ? call('parseXsdQName', x, context) : call('parseXsdText', x, quote('QName'))),
  format: (x, prefix = 'q') => call('escapeXmlText', call('formatXsdQName', x, quote(prefix))),
  declarations: (x, prefix) => call('xsdQNameDeclaration', x, quote(prefix)),
  text: (x) => call('formatXsdQName', x, quote('q')),
  toJson: (x) => call('jsonString', x),
  fromJson: (d) => call('fromJsonString', d),
});

/** The built-ins kept as their text whose lexical space the runtime checks for a union's member (xsd-unions.ts's). */
const LEXICAL_CHECKED = new Set([
  'decimal',
  'dateTime',
  'date',
  'time',
  'gYearMonth',
  'gYear',
  'gMonthDay',
  'gDay',
  'gMonth',
  'duration',
  'language',
]);
/** The facets of a member the runtime checks where its reader does not: bounds and lengths. */
const MEMBER_FACETS = ['minInclusive', 'maxInclusive', 'minExclusive', 'maxExclusive', 'length', 'minLength', 'maxLength'];

/**
 * A discriminated union's code: its text read as the value of the first member that holds it, a value written by
 * the first member whose values it is of (the runtime's parseXsdUnion and formatXsdUnion over the members' table).
 */
function unionCode(call: Call, imports: Imports, type: Extract<SimpleTypeRef, { kind: 'primitive' }>, model?: SchemaModel): ValueCode {
  const members = (type.members ?? []) as SimpleTypeRef[];
  const table = `[${members.map((m) => memberCode(imports, m, model)).join(', ')}]`;
  const tsType = [...new Set(members.map((m) => memberTsType(imports, m)))].join(' | ');
  return {
    parse: (x) => `(${call('parseXsdUnion', x, table)} as ${tsType})`,
    format: (x) => call('escapeXmlText', call('formatXsdUnion', x, table)),
    text: (x) => call('formatXsdUnion', x, table),
    toJson: (x) => call('jsonString', call('formatXsdUnion', x, table)),
    fromJson: (d) => call('parseXsdUnion', call('fromJsonString', d), table),
  };
}

/** A member's TypeScript type, an enumeration's name imported where it is used. */
const memberTsType = (imports: Imports, member: SimpleTypeRef) =>
  member.kind === 'enum' ? imports.local(TYPES, member.typeName, 'type') : member.tsType;

/** One member of a union's table: its reader, its writer of the values of its TypeScript type, what the runtime checks. */
function memberCode(imports: Imports, member: SimpleTypeRef, model?: SchemaModel): string {
  const code = valueCode(imports, member, model);
  let guard: string;
  if (member.kind === 'enum')
    guard = `typeof v === 'string' && (${imports.local(TYPES, enumValues(member.typeName))} as readonly string[]).includes(v)`;
  else if (member.tsType === 'Uint8Array') guard = 'v instanceof Uint8Array';
  else guard = `typeof v === ${quote(member.tsType)}`;
  const extra: string[] = [];
  if (member.kind === 'primitive') {
    const builtin = builtinOf(member);
    if (member.tsType === 'string' && builtin && LEXICAL_CHECKED.has(builtin)) extra.push(`lexical: ${quote(builtin)}`);
    const facets = MEMBER_FACETS.filter((f) => member.facets?.[f] !== undefined).map((f) => `${f}: ${quote(member.facets![f])}`);
    if (facets.length) extra.push(`facets: { ${facets.join(', ')} }`);
  }
  const write = `(v: unknown) => (${guard} ? ${code.text(`(v as ${memberTsType(imports, member)})`)} : undefined)`;
  return `{ read: (t: string) => ${code.parse('t')}, write: ${write}${extra.map((e) => `, ${e}`).join('')} }`;
}

/** The code of a simple type's values, for a file whose imports record the helpers it calls (and an enumeration's values). */
export function valueCode(imports: Imports, type: SimpleTypeRef, model?: SchemaModel): ValueCode {
  const call: Call = (helper, ...args) => `${imports.runtime(helper)}(${args.join(', ')})`;
  if (type.kind === 'primitive') {
    const builtin = builtinOf(type)!;
    if (type.primitive === 'string' && builtin !== 'string')
      return { ...text(call), parse: (x) => call('parseXsdText', x, quote(builtin)) };
    if (type.patterns?.length) return patternedCode(call, type.primitive, type.patterns);
    if (type.discriminated) return unionCode(call, imports, type, model);
    if (type.primitive !== 'text' || builtin === 'token') return primitiveCode(call, type.primitive);
    if (isQName(builtin)) return qnameCode(call);
    // A union's text is kept as it is; any other string type's, with its white space facet applied.
    return builtin === 'union'
      ? { ...primitiveCode(call, 'text'), parse: (x) => x }
      : { ...primitiveCode(call, 'text'), parse: (x) => call('parseXsdText', x, quote(builtin)) };
  }
  const values = () => imports.local(TYPES, enumValues(type.typeName));
  const enumeration = model?.enums.find((e) => e.name === type.typeName);
  const base = enumeration ? builtinOf(enumeration.base) : undefined;
  const toJson = (x: string) => call('toJsonEnum', x, values());
  const fromJson = (d: string) => call('fromJsonEnum', d, values(), quote(type.typeName));
  if (isQName(base)) {
    const qname = qnameCode(call);
    return {
      ...qname,
      parse: (x, context) => call('parseXsdEnumeration', qname.parse(x, context), values(), quote(type.typeName)),
      toJson,
      fromJson,
    };
  }
  const baseArgument = base === undefined || base === 'string' ? [] : [quote(base)];
  return {
    parse: (x) => call('parseXsdEnumeration', x, values(), quote(type.typeName), ...baseArgument),
    format: (x) => call('escapeXmlText', x),
    text: (x) => x,
    toJson,
    fromJson,
  };
}
