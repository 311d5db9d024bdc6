import type { Primitive, SimpleTypeRef } from '../model/model';

export type { SimpleTypeRef };

/**
 * How generated code handles a value of one simple type: TypeScript
 * expressions (over `x`) reading its XML text, writing it as XML text and as
 * ASP.NET AJAX's JSON, reading it from JSON, and a sample valid for the
 * schema. The helpers are src/runtime/xml/xsd-values.ts's and src/runtime/xml/xsd-json.ts's.
 */
export interface ValueCode {
  parse(text: string): string;
  /** XML text, already escaped. */
  format(value: string): string;
  /** The lexical form, unescaped (an HTTP field, an attribute before escaping). */
  text(value: string): string;
  toJson(value: string): string;
  fromJson(d: string): string;
  sample: string;
}

const integer = (type: string, sample = '0'): ValueCode => ({
  parse: (x) => `parseXsdInteger(${x}, '${type}')`,
  format: (x) => `formatXsdInteger(${x}, '${type}')`,
  text: (x) => `formatXsdInteger(${x}, '${type}')`,
  toJson: (x) => `formatXsdInteger(${x}, '${type}')`,
  fromJson: (d) => `fromJsonInteger(${d}, '${type}')`,
  sample,
});
const bigInteger = (type: string): ValueCode => ({
  parse: (x) => `parseXsdBigInteger(${x}, '${type}')`,
  format: (x) => `formatXsdBigInteger(${x}, '${type}')`,
  text: (x) => `formatXsdBigInteger(${x}, '${type}')`,
  toJson: (x) => `formatXsdBigInteger(${x}, '${type}')`,
  fromJson: (d) => `fromJsonBigInteger(${d}, '${type}')`,
  sample: '0n',
});
const float = (type: string): ValueCode => ({
  parse: (x) => `parseXsdFloat(${x}, '${type}')`,
  format: (x) => `formatXsdFloat(${x})`,
  text: (x) => `formatXsdFloat(${x})`,
  toJson: (x) => `toJsonFloat(${x})`,
  fromJson: (d) => `fromJsonFloat(${d})`,
  sample: '0',
});
const lexical = (type: string, sample: string): ValueCode => ({
  parse: (x) => `parseXsdLexical(${x}, '${type}')`,
  format: (x) => `formatXsdLexical(${x}, '${type}')`,
  text: (x) => `formatXsdLexical(${x}, '${type}')`,
  toJson: (x) => `jsonString(formatXsdLexical(${x}, '${type}'))`,
  fromJson: (d) => `fromJsonLexical(${d}, '${type}')`,
  sample: `'${sample}'`,
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
    parse: (x) => `parseXsdDateTime(${x})`,
    format: (x) => `formatXsdDateTime(${x})`,
    text: (x) => `formatXsdDateTime(${x})`,
    toJson: (x) => `toJsonDate(${x})`,
    fromJson: (d) => `fromJsonDate(${d})`,
    sample: 'new Date(0)',
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
    parse: (x) => x,
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

export function valueCode(type: SimpleTypeRef, enumFirstValue?: string): ValueCode {
  if (type.kind === 'primitive') return PRIMITIVE_CODE[type.primitive];
  const values = enumValues(type.typeName);
  return {
    parse: (x) => `parseXsdEnumeration(${x}, ${values}, '${type.typeName}')`,
    format: (x) => `escapeXmlText(${x})`,
    text: (x) => x,
    toJson: (x) => `toJsonEnum(${x}, ${values})`,
    fromJson: (d) => `fromJsonEnum(${d}, ${values}, '${type.typeName}')`,
    sample: JSON.stringify(enumFirstValue ?? '').replaceAll('"', "'"),
  };
}

/** The helpers of src/runtime/xml/ that `code` (generated text) calls, found by name. */
export function helpersUsed(code: string, module: 'xsd-values' | 'xsd-json'): string[] {
  const names =
    module === 'xsd-values'
      ? ['parseXsdInteger', 'formatXsdInteger', 'parseXsdBigInteger', 'formatXsdBigInteger', 'parseXsdFloat', 'formatXsdFloat']
          .concat(['parseXsdLexical', 'formatXsdLexical', 'parseXsdDateTime', 'formatXsdDateTime'])
          .concat(['parseXsdBase64Binary', 'formatXsdBase64Binary', 'parseXsdEnumeration', 'parseXsdHexBinary', 'formatXsdHexBinary'])
      : ['toJsonFloat', 'toJsonDecimal', 'toJsonDate', 'toJsonBytes', 'toJsonEnum', 'fromJsonString', 'fromJsonBoolean']
          .concat(['fromJsonInteger', 'fromJsonBigInteger', 'fromJsonFloat', 'fromJsonDecimal', 'fromJsonLexical', 'fromJsonDate'])
          .concat(['fromJsonBytes', 'fromJsonEnum', 'fromJsonArray', 'fromJsonObject']);
  return names.filter((name) => code.includes(`${name}(`)).sort(byLowerCase);
}

export function byLowerCase(a: string, b: string): number {
  return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
}
