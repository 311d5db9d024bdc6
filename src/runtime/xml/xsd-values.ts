/**
 * The XML Schema types that ASMX services publish, as values: each type's
 * lexical form read into the TypeScript value generated code holds, and
 * written back. Reading refuses what is not in the type's lexical space (a
 * DecodeError), since HTTP fields reach it without schema validation.
 */
import { DecodeError } from './xml-codec';

/** XML Schema's white space "collapse", which every type below applies before reading. */
const collapse = (text: string) => text.replace(/[\t\n\r ]+/g, ' ').trim();

/** The integer types held as a JavaScript number, with their bounds (also the bounds codegen's OpenAPI description gives). */
export const INTEGER_BOUNDS = {
  int: [-2147483648, 2147483647],
  short: [-32768, 32767],
  byte: [-128, 127],
  unsignedInt: [0, 4294967295],
  unsignedShort: [0, 65535],
  unsignedByte: [0, 255],
} as const;
export type XsdIntegerType = keyof typeof INTEGER_BOUNDS;

/** long and unsignedLong exceed a double's 53 bits: held as a bigint. */
const BIG_INTEGER_BOUNDS: Record<XsdBigIntegerType, readonly [bigint | undefined, bigint | undefined]> = {
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  // The unbounded integer types: a bigint holds any of their values.
  integer: [undefined, undefined],
  nonNegativeInteger: [0n, undefined],
  positiveInteger: [1n, undefined],
  nonPositiveInteger: [undefined, 0n],
  negativeInteger: [undefined, -1n],
};
export type XsdBigIntegerType =
  | 'long'
  | 'unsignedLong'
  | 'integer'
  | 'nonNegativeInteger'
  | 'positiveInteger'
  | 'nonPositiveInteger'
  | 'negativeInteger';

export type XsdFloatType = 'float' | 'double';

/** The types kept as their (checked) lexical form: no JavaScript value holds them exactly. */
const LEXICAL_PATTERNS = {
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  duration: /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
  gYear: /^-?\d{4,}(Z|[+-]\d{2}:\d{2})?$/,
  gYearMonth: /^-?\d{4,}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  gMonth: /^--\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  gMonthDay: /^--\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  gDay: /^---\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  // ASMX's guid: a string restricted by this pattern (http://microsoft.com/wsdl/types/).
  guid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
} as const;
export type XsdLexicalType = keyof typeof LEXICAL_PATTERNS;

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|NaN)$/;
const DATE_TIME = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function parseXsdInteger(text: string, type: XsdIntegerType): number {
  const value = collapse(text);
  const [min, max] = INTEGER_BOUNDS[type];
  const n = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max)) throw new DecodeError(`an ${type} must be a whole number from ${min} to ${max}`);
  return n;
}

export function formatXsdInteger(value: number, type: XsdIntegerType): string {
  const [min, max] = INTEGER_BOUNDS[type];
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${value} is not an xs:${type}`);
  return String(value);
}

export function parseXsdBigInteger(text: string, type: XsdBigIntegerType): bigint {
  const value = collapse(text);
  const [min, max] = BIG_INTEGER_BOUNDS[type];
  const n = INTEGER.test(value) ? BigInt(value) : undefined;
  if (n === undefined || (min !== undefined && n < min) || (max !== undefined && n > max)) {
    throw new DecodeError(
      `a ${type} must be a whole number${min === undefined ? '' : ` from ${min}`}${max === undefined ? '' : ` to ${max}`}`,
    );
  }
  return n;
}

export function formatXsdBigInteger(value: bigint, type: XsdBigIntegerType): string {
  const [min, max] = BIG_INTEGER_BOUNDS[type];
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) throw new RangeError(`${value} is not an xs:${type}`);
  return String(value);
}

/** float and double: a JavaScript number; INF, -INF and NaN as XML Schema spells them. */
export function parseXsdFloat(text: string, type: XsdFloatType): number {
  const value = collapse(text);
  if (!FLOAT.test(value)) throw new DecodeError(`a ${type} must be a number (or INF, -INF, NaN)`);
  if (value === 'INF') return Number.POSITIVE_INFINITY;
  if (value === '-INF') return Number.NEGATIVE_INFINITY;
  // A float is read at its own precision, as .NET's Single would hold it.
  return type === 'float' ? Math.fround(Number(value)) : Number(value);
}

export function formatXsdFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'INF';
  if (value === Number.NEGATIVE_INFINITY) return '-INF';
  return String(value);
}

/** decimal, date, time, duration and guid: the checked lexical form, white space collapsed. */
export function parseXsdLexical(text: string, type: XsdLexicalType): string {
  const value = collapse(text);
  if (!LEXICAL_PATTERNS[type].test(value)) throw new DecodeError(`"${value.slice(0, 40)}" is not an xs:${type}`);
  return value;
}

export function formatXsdLexical(value: string, type: XsdLexicalType): string {
  if (!LEXICAL_PATTERNS[type].test(value)) throw new RangeError(`"${value.slice(0, 40)}" is not an xs:${type}`);
  return value;
}

/** dateTime: a Date; a time without an offset is read as UTC (.NET's DateTimeKind.Unspecified has no better reading). */
export function parseXsdDateTime(text: string): Date {
  const value = collapse(text);
  const match = DATE_TIME.exec(value);
  const date = match ? new Date(match[8] ? value : `${value}Z`) : undefined;
  if (!match || date === undefined || Number.isNaN(date.getTime())) throw new DecodeError(`"${value.slice(0, 40)}" is not an xs:dateTime`);
  return date;
}

/** dateTime in UTC with milliseconds, as Date.toISOString writes it (a valid xs:dateTime). */
export function formatXsdDateTime(value: Date): string {
  if (Number.isNaN(value.getTime())) throw new RangeError('an invalid Date is not an xs:dateTime');
  return value.toISOString();
}

export function parseXsdBase64Binary(text: string): Uint8Array {
  const value = text.replace(/[\t\n\r ]+/g, '');
  if (!BASE64.test(value)) throw new DecodeError('a base64Binary must be Base64 text');
  return new Uint8Array(Buffer.from(value, 'base64'));
}

export function formatXsdBase64Binary(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

/** A value of an enumeration (a named simpleType restricting string, so no white space is collapsed), one of `values`. */
export function parseXsdEnumeration<T extends string>(text: string, values: readonly T[], type: string): T {
  const value = text;
  if (!(values as readonly string[]).includes(value)) throw new DecodeError(`"${value.slice(0, 40)}" is not a value of ${type}`);
  return value as T;
}

const HEX = /^([0-9a-fA-F]{2})*$/;

export function parseXsdHexBinary(text: string): Uint8Array {
  const value = text.replace(/[\t\n\r ]+/g, '');
  if (!HEX.test(value)) throw new DecodeError('a hexBinary must be pairs of hexadecimal digits');
  return new Uint8Array(Buffer.from(value, 'hex'));
}

export function formatXsdHexBinary(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex').toUpperCase();
}
