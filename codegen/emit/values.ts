import type { Primitive, SchemaModel, SimpleTypeRef, TypeRef } from '../model/model';
import { byLowerCase, quote } from './ts';

export type { SimpleTypeRef };

/**
 * How generated code handles a value of one simple type: TypeScript
 * expressions (over `x`) reading its XML text, writing it as XML text and as
 * ASP.NET AJAX's JSON, reading it from JSON, and a sample valid for the
 * schema. The helpers are src/runtime/xml/xsd-values.ts's and src/runtime/xml/xsd-json.ts's.
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
  sample: string;
}

const integer = (type: string, sample = '0'): ValueCode => ({
  parse: (x) => `parseXsdInteger(${x}, ${quote(type)})`,
  format: (x) => `formatXsdInteger(${x}, ${quote(type)})`,
  text: (x) => `formatXsdInteger(${x}, ${quote(type)})`,
  toJson: (x) => `formatXsdInteger(${x}, ${quote(type)})`,
  fromJson: (d) => `fromJsonInteger(${d}, ${quote(type)})`,
  sample,
});
const bigInteger = (type: string): ValueCode => ({
  parse: (x) => `parseXsdBigInteger(${x}, ${quote(type)})`,
  format: (x) => `formatXsdBigInteger(${x}, ${quote(type)})`,
  text: (x) => `formatXsdBigInteger(${x}, ${quote(type)})`,
  toJson: (x) => `formatXsdBigInteger(${x}, ${quote(type)})`,
  fromJson: (d) => `fromJsonBigInteger(${d}, ${quote(type)})`,
  sample: '0n',
});
const float = (type: string): ValueCode => ({
  parse: (x) => `parseXsdFloat(${x}, ${quote(type)})`,
  format: (x) => (type === 'float' ? `formatXsdFloat(${x}, 'float')` : `formatXsdFloat(${x})`),
  text: (x) => (type === 'float' ? `formatXsdFloat(${x}, 'float')` : `formatXsdFloat(${x})`),
  toJson: (x) => `toJsonFloat(${x})`,
  fromJson: (d) => `fromJsonFloat(${d})`,
  sample: '0',
});
const lexical = (type: string, sample: string): ValueCode => ({
  parse: (x) => `parseXsdLexical(${x}, ${quote(type)})`,
  format: (x) => `formatXsdLexical(${x}, ${quote(type)})`,
  text: (x) => `formatXsdLexical(${x}, ${quote(type)})`,
  toJson: (x) => `jsonString(formatXsdLexical(${x}, ${quote(type)}))`,
  fromJson: (d) => `fromJsonLexical(${d}, ${quote(type)})`,
  sample: quote(sample),
});

const PRIMITIVE_CODE: Record<Primitive, ValueCode> = {
  string: {
    parse: (x) => x,
    format: (x) => `escapeXmlText(${x})`,
    text: (x) => x,
    toJson: (x) => `jsonString(${x})`,
    fromJson: (d) => `fromJsonString(${d})`,
    sample: "'string'",
  },
  boolean: {
    parse: (x) => `parseXsdBoolean(${x})`,
    format: (x) => `formatXsdBoolean(${x})`,
    text: (x) => `formatXsdBoolean(${x})`,
    toJson: (x) => `(${x} ? 'true' : 'false')`,
    fromJson: (d) => `fromJsonBoolean(${d})`,
    sample: 'true',
  },
  int: integer('int'),
  short: integer('short'),
  byte: integer('byte'),
  unsignedInt: integer('unsignedInt'),
  unsignedShort: integer('unsignedShort'),
  unsignedByte: integer('unsignedByte'),
  long: bigInteger('long'),
  unsignedLong: bigInteger('unsignedLong'),
  integer: bigInteger('integer'),
  nonNegativeInteger: bigInteger('nonNegativeInteger'),
  positiveInteger: { ...bigInteger('positiveInteger'), sample: '1n' },
  nonPositiveInteger: bigInteger('nonPositiveInteger'),
  negativeInteger: { ...bigInteger('negativeInteger'), sample: '-1n' },
  float: float('float'),
  double: float('double'),
  decimal: {
    ...lexical('decimal', '0'),
    toJson: (x) => `toJsonDecimal(${x})`,
    fromJson: (d) => `fromJsonDecimal(${d})`,
  },
  dateTime: {
    ...lexical('dateTime', '1970-01-01T00:00:00Z'),
    toJson: (x) => `toJsonDate(${x})`,
    fromJson: (d) => `fromJsonDate(${d})`,
  },
  date: lexical('date', '1970-01-01'),
  time: lexical('time', '00:00:00'),
  duration: lexical('duration', 'PT0S'),
  gYear: lexical('gYear', '1970'),
  gYearMonth: lexical('gYearMonth', '1970-01'),
  gMonth: lexical('gMonth', '--01'),
  gMonthDay: lexical('gMonthDay', '--01-01'),
  gDay: lexical('gDay', '---01'),
  text: {
    parse: (x) => `parseXsdText(${x}, 'token')`,
    format: (x) => `escapeXmlText(${x})`,
    text: (x) => x,
    toJson: (x) => `jsonString(${x})`,
    fromJson: (d) => `fromJsonString(${d})`,
    sample: "'string'",
  },
  guid: lexical('guid', '00000000-0000-0000-0000-000000000000'),
  base64Binary: {
    parse: (x) => `parseXsdBase64Binary(${x})`,
    format: (x) => `formatXsdBase64Binary(${x})`,
    text: (x) => `formatXsdBase64Binary(${x})`,
    toJson: (x) => `toJsonBytes(${x})`,
    fromJson: (d) => `fromJsonBytes(${d})`,
    sample: 'new Uint8Array(0)',
  },
  hexBinary: {
    parse: (x) => `parseXsdHexBinary(${x})`,
    format: (x) => `formatXsdHexBinary(${x})`,
    text: (x) => `formatXsdHexBinary(${x})`,
    toJson: (x) => `toJsonBytes(${x})`,
    fromJson: (d) => `fromJsonBytes(${d})`,
    sample: 'new Uint8Array(0)',
  },
};

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
const QNAME_CODE: ValueCode = {
  parse: (x, context) => (context ? `parseXsdQName(${x}, ${context})` : `parseXsdText(${x}, 'QName')`),
  format: (x, prefix = 'q') => `escapeXmlText(formatXsdQName(${x}, ${quote(prefix)}))`,
  declarations: (x, prefix) => `xsdQNameDeclaration(${x}, ${quote(prefix)})`,
  text: (x) => `formatXsdQName(${x}, 'q')`,
  toJson: (x) => `jsonString(${x})`,
  fromJson: (d) => `fromJsonString(${d})`,
  sample: "'string'",
};

export function valueCode(type: SimpleTypeRef, model?: SchemaModel): ValueCode {
  if (type.kind === 'primitive') {
    const builtin = builtinOf(type);
    if (type.primitive === 'string' && builtin !== 'string')
      return { ...PRIMITIVE_CODE.string, parse: (x) => `parseXsdText(${x}, ${quote(builtin!)})` };
    if (type.primitive !== 'text' || builtin === 'token') return PRIMITIVE_CODE[type.primitive];
    if (isQName(builtin)) return QNAME_CODE;
    // A union's text is kept as it is; any other string type's, with its white space facet applied.
    return builtin === 'union'
      ? { ...PRIMITIVE_CODE.text, parse: (x) => x }
      : { ...PRIMITIVE_CODE.text, parse: (x) => `parseXsdText(${x}, ${quote(builtin!)})` };
  }
  const values = enumValues(type.typeName);
  const enumeration = model?.enums.find((e) => e.name === type.typeName);
  const base = enumeration ? builtinOf(enumeration.base) : undefined;
  const sample = quote(enumeration?.values[0] ?? '');
  if (isQName(base)) {
    return {
      ...QNAME_CODE,
      parse: (x, context) => `parseXsdEnumeration(${QNAME_CODE.parse(x, context)}, ${values}, ${quote(type.typeName)})`,
      toJson: (x) => `toJsonEnum(${x}, ${values})`,
      fromJson: (d) => `fromJsonEnum(${d}, ${values}, ${quote(type.typeName)})`,
      sample,
    };
  }
  const baseArgument = base === undefined || base === 'string' ? '' : `, ${quote(base)}`;
  return {
    parse: (x) => `parseXsdEnumeration(${x}, ${values}, ${quote(type.typeName)}${baseArgument})`,
    format: (x) => `escapeXmlText(${x})`,
    text: (x) => x,
    toJson: (x) => `toJsonEnum(${x}, ${values})`,
    fromJson: (d) => `fromJsonEnum(${d}, ${values}, ${quote(type.typeName)})`,
    sample,
  };
}

/** The helpers of src/runtime/xml/ that `code` (generated text) calls, found by name. */
export function helpersUsed(code: string, module: 'xsd-values' | 'xsd-json'): string[] {
  const names =
    module === 'xsd-values'
      ? ['parseXsdInteger', 'formatXsdInteger', 'parseXsdBigInteger', 'formatXsdBigInteger', 'parseXsdFloat', 'formatXsdFloat']
          .concat(['parseXsdLexical', 'formatXsdLexical', 'parseXsdDateTime', 'formatXsdDateTime', 'parseXsdText', 'parseXsdQName'])
          .concat(['parseXsdBase64Binary', 'formatXsdBase64Binary', 'parseXsdEnumeration', 'parseXsdHexBinary', 'formatXsdHexBinary'])
          .concat(['formatXsdQName', 'xsdQNameDeclaration', 'formatXsdQNameList', 'xsdQNameListDeclarations'])
      : ['toJsonFloat', 'toJsonDecimal', 'toJsonDate', 'toJsonBytes', 'toJsonEnum', 'fromJsonString', 'fromJsonBoolean']
          .concat(['fromJsonInteger', 'fromJsonBigInteger', 'fromJsonFloat', 'fromJsonDecimal', 'fromJsonLexical', 'fromJsonDate'])
          .concat(['fromJsonBytes', 'fromJsonEnum', 'fromJsonArray', 'fromJsonObject']);
  return names.filter((name) => code.includes(`${name}(`)).sort(byLowerCase);
}
