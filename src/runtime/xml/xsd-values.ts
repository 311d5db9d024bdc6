/**
 * The XML Schema types that ASMX services publish, as values: each type's
 * lexical form read into the TypeScript value generated code holds, and
 * written back. Reading refuses what is not in the type's lexical space (a
 * DecodeError), since HTTP fields reach it without schema validation.
 */
import { DecodeError } from './decode-error';
import { escapeXmlAttribute } from './xml-escape';
import type { XmlElement } from './xml-engine';

/** XML Schema's white space "collapse", which every type below applies before reading. */
export const collapse = (text: string) => text.replace(/[\t\n\r ]+/g, ' ').trim();

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
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
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

/**
 * A float or double as text: the shortest that reads back as the same value (a float at single precision, so
 * Math.fround(0.01) is written 0.01, not 0.009999999776482582).
 */
export function formatXsdFloat(value: number, type: XsdFloatType = 'double'): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'INF';
  if (value === Number.NEGATIVE_INFINITY) return '-INF';
  if (type === 'float' && value !== 0) {
    for (let digits = 1; digits <= 9; digits++) {
      const text = value.toPrecision(digits);
      if (Math.fround(Number(text)) === value) return String(Number(text));
    }
  }
  return String(value);
}

/** decimal, the date and time types, duration and guid: the checked lexical form, white space collapsed. */
export function parseXsdLexical(text: string, type: XsdLexicalType): string {
  const value = collapse(text);
  if (!LEXICAL_PATTERNS[type].test(value)) throw new DecodeError(`"${value.slice(0, 40)}" is not an xs:${type}`);
  return value;
}

export function formatXsdLexical(value: string, type: XsdLexicalType): string {
  if (!LEXICAL_PATTERNS[type].test(value)) throw new RangeError(`"${value.slice(0, 40)}" is not an xs:${type}`);
  return value;
}

/**
 * A dateTime's text as a Date, for a handler that wants one (generated code keeps the text, which holds what a
 * Date cannot: no time zone, years past 9999, digits past milliseconds); a time without an offset is read as UTC.
 */
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
  if (inlinedBinaries !== undefined) {
    const inlined = inlinedBinaries.get(text);
    if (inlined !== undefined) {
      inlined.pending--;
      return inlined.bytes;
    }
  }
  const value = text.replace(/[\t\n\r ]+/g, '');
  if (!BASE64.test(value)) throw new DecodeError('a base64Binary must be Base64 text');
  return new Uint8Array(Buffer.from(value, 'base64'));
}

export function formatXsdBase64Binary(value: Uint8Array): string {
  if (attachable !== undefined && value.byteLength > 0 && value.byteLength >= attachable.threshold) {
    const token = `${attachable.marker}${attachable.found.size}.`;
    attachable.found.set(token, value);
    return token;
  }
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

/** An MTOM attachment inlined as the base64 text of an element (wire/mtom.ts): its bytes, and how many of its xop:Include elements are still to be decoded. */
export interface InlinedBinary {
  bytes: Uint8Array;
  pending: number;
}

/**
 * While a call whose xop:Include elements were replaced by base64 text is decoded: those texts. A text decoded as a
 * base64Binary is its part's bytes as they came (no second copy); one never decoded so stood in an element of another
 * type. Decoding is synchronous, so no other call's decoding sees them.
 */
let inlinedBinaries: ReadonlyMap<string, InlinedBinary> | undefined;

/** Runs `decode` with `binaries` taken for their texts (see inlinedBinaries); the caller checks what is still pending. */
export function decodingInlined<T>(binaries: ReadonlyMap<string, InlinedBinary>, decode: () => T): T {
  inlinedBinaries = binaries;
  try {
    return decode();
  } finally {
    inlinedBinaries = undefined;
  }
}

/**
 * While an MTOM answer is encoded: every base64Binary value of at least `threshold` bytes, by the token written in its
 * place (`marker` and a number), so that its base64 text is never made where the value travels as an attachment.
 */
let attachable: { threshold: number; marker: string; found: Map<string, Uint8Array> } | undefined;

/**
 * Runs `encode` with each base64Binary value of at least `threshold` bytes written as a token (`marker`, which the
 * caller makes unique, a number and a dot), and tells the tokens with their values: the caller writes each as an attachment
 * or as its base64 text (wire/mtom.ts).
 */
export function encodingAttachable<T>(threshold: number, marker: string, encode: () => T): { result: T; found: Map<string, Uint8Array> } {
  const found = new Map<string, Uint8Array>();
  attachable = { threshold, marker, found };
  try {
    return { result: encode(), found };
  } finally {
    attachable = undefined;
  }
}

/**
 * A value of an enumeration, one of `values` as the schema writes them: the one equal to the text in the value
 * space of the enumeration's `base` type (a string's text as it is; `+01` is the int `1`).
 */
export function parseXsdEnumeration<T extends string>(text: string, values: readonly T[], type: string, base: XsdBuiltin = 'string'): T {
  if ((values as readonly string[]).includes(text)) return text as T;
  const key = xsdValueKey(base, text);
  const found = key === undefined ? undefined : values.find((value) => xsdValueKey(base, value) === key);
  if (found === undefined) throw new DecodeError(`"${text.slice(0, 40)}" is not a value of ${type}`);
  return found;
}

/** A string type's text, its white space as the type's facet treats it (`token` and its kin collapse it). */
export function parseXsdText(text: string, type: XsdBuiltin): string {
  const space = whiteSpaceOf(type);
  return space === 'preserve' ? text : normalizeSpace(text, space);
}

/** The XML Schema built-in types by name (and `union`, a union's text, and ASMX's `guid`). */
export type XsdBuiltin = string;
export type WhiteSpace = 'preserve' | 'replace' | 'collapse';

/** The whiteSpace facet of a built-in type: preserve for string (and a union's or anySimpleType's text), replace for normalizedString. */
export function whiteSpaceOf(type: XsdBuiltin): WhiteSpace {
  if (type === 'string' || type === 'anySimpleType' || type === 'union' || type === 'guid') return 'preserve';
  if (type === 'normalizedString') return 'replace';
  return 'collapse';
}

export function normalizeSpace(text: string, whiteSpace: WhiteSpace): string {
  if (whiteSpace === 'preserve') return text;
  const replaced = text.replace(/[\t\n\r]/g, ' ');
  return whiteSpace === 'replace' ? replaced : replaced.replace(/ +/g, ' ').trim();
}

const INTEGER_TYPES = new Set([
  'integer',
  'nonNegativeInteger',
  'positiveInteger',
  'nonPositiveInteger',
  'negativeInteger',
  'long',
  'int',
  'short',
  'byte',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
]);
const DATE_TYPES = new Set(['dateTime', 'date', 'time', 'gYear', 'gYearMonth', 'gMonth', 'gMonthDay', 'gDay']);

/**
 * A text standing for a lexical form's value in its built-in type's value space (undefined when it is not in the
 * type's lexical space): two forms are equal values exactly when their keys are equal (`+01` and `1` as integers,
 * `1.0E0` and `1` as doubles). Dates and times with a time zone are keyed in UTC; one without stays apart from
 * every one with one, as XML Schema 1.0 orders them only partially.
 */
export function xsdValueKey(type: XsdBuiltin, text: string): string | undefined {
  const value = normalizeSpace(text, whiteSpaceOf(type));
  if (INTEGER_TYPES.has(type)) return INTEGER.test(value) ? String(BigInt(value)) : undefined;
  if (DATE_TYPES.has(type)) return dateKey(value);
  switch (type) {
    case 'boolean':
      return value === 'true' || value === '1' ? 'true' : value === 'false' || value === '0' ? 'false' : undefined;
    case 'decimal':
      return decimalKey(value);
    case 'float':
    case 'double': {
      if (!FLOAT.test(value)) return undefined;
      const n = value === 'INF' ? Number.POSITIVE_INFINITY : value === '-INF' ? Number.NEGATIVE_INFINITY : Number(value);
      return String(type === 'float' ? Math.fround(n) : n);
    }
    case 'duration':
      return durationKey(value);
    case 'hexBinary':
      return HEX.test(value) ? value.toLowerCase() : undefined;
    case 'base64Binary': {
      const bytes = value.replace(/ /g, '');
      return BASE64.test(bytes) ? Buffer.from(bytes, 'base64').toString('hex') : undefined;
    }
    default:
      return value;
  }
}

/** A decimal's value as text: sign, digits without leading or trailing zeros ("0" for zero). */
function decimalKey(text: string): string | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const whole = match[2].replace(/^0+/, '');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  if (whole === '' && fraction === '') return '0';
  return `${match[1] === '-' ? '-' : ''}${whole || '0'}.${fraction}`;
}

const DATE_PARTS = /^(?:(-?\d{4,})|-)?(?:-(\d{2}))?(?:-(\d{2})|--(\d{2}))?(?:T?(\d{2}):(\d{2}):(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A date or time value: its fields, a time zone moved to UTC (minutes, then the fraction of a second kept exactly). */
function dateKey(text: string): string | undefined {
  const match = DATE_PARTS.exec(text);
  if (!match) return undefined;
  const [, year, month, day, onlyDay, hour, minute, second, fraction, zone] = match;
  const seconds = `${second ?? ''}${(fraction ?? '').replace(/\.?0+$/, '')}`;
  const fields = `${year === undefined ? '' : 'Y'}${month === undefined ? '' : 'M'}${(day ?? onlyDay) === undefined ? '' : 'D'}`;
  if (!zone) return `${fields} ${year ?? ''}-${month ?? ''}-${day ?? onlyDay ?? ''}T${hour ?? ''}:${minute ?? ''}:${seconds}`;
  const offset = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (hour === undefined) return `${fields}Z ${year ?? ''}-${month ?? ''}-${day ?? onlyDay ?? ''}${offset}`;
  const minutes =
    Date.UTC(
      year === undefined ? 2000 : Number(year),
      month === undefined ? 0 : Number(month) - 1,
      Number(day ?? onlyDay ?? 1),
      Number(hour),
      Number(minute),
    ) /
      60000 -
    offset;
  return `${fields}Z ${minutes}:${seconds}`;
}

/** A duration's value: its months and its seconds, each with the sign. */
function durationKey(text: string): string | undefined {
  const match = /^(-?)P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d*)?)S)?)?$/.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [, sign, y, mo, d, h, mi, s] = match;
  const months = BigInt(y ?? 0) * 12n + BigInt(mo ?? 0);
  const [whole, fraction = ''] = (s ?? '0').split('.');
  const seconds = ((BigInt(d ?? 0) * 24n + BigInt(h ?? 0)) * 60n + BigInt(mi ?? 0)) * 60n + BigInt(whole);
  const digits = fraction.replace(/0+$/, '');
  const zero = months === 0n && seconds === 0n && digits === '';
  return `${zero ? '' : sign}${months}|${seconds}.${digits}`;
}

/**
 * A QName (or NOTATION) value read where it is written: `{namespace}local`, its prefix resolved at `context`, or
 * `local` alone when it is in no namespace (an unprefixed name with no default namespace in scope).
 */
export function parseXsdQName(text: string, context: XmlElement): string {
  const value = normalizeSpace(text, 'collapse');
  const colon = value.indexOf(':');
  const prefix = colon < 0 ? '' : value.slice(0, colon);
  const namespace = context.namespaceForPrefix(prefix) ?? (prefix === '' ? '' : undefined);
  if (namespace === undefined) throw new DecodeError(`the QName ${value.slice(0, 40)} has a prefix that is not declared`);
  const local = value.slice(colon + 1);
  return namespace === '' ? local : `{${namespace}}${local}`;
}

const CLARK = /^\{([^}]*)\}(.+)$/;

/** The namespace declaration a QName value needs where it is written with `prefix` (none for a name in no namespace). */
export function xsdQNameDeclaration(value: string, prefix: string): string {
  const match = CLARK.exec(value);
  return match && match[1] !== '' ? ` xmlns:${prefix}="${escapeXmlAttribute(match[1])}"` : '';
}

/** A QName value as text, written with `prefix` (which xsdQNameDeclaration declares). */
export function formatXsdQName(value: string, prefix: string): string {
  const match = CLARK.exec(value);
  return match && match[1] !== '' ? `${prefix}:${match[2]}` : (match?.[2] ?? value);
}

/** The declarations a list of QNames needs: one prefix (`prefix` and a number) per namespace. */
export function xsdQNameListDeclarations(values: readonly string[], prefix: string): string {
  return [...qnamePrefixes(values, prefix)].map(([namespace, p]) => ` xmlns:${p}="${escapeXmlAttribute(namespace)}"`).join('');
}

export function formatXsdQNameList(values: readonly string[], prefix: string): string {
  const prefixes = qnamePrefixes(values, prefix);
  return values
    .map((value) => {
      const match = CLARK.exec(value);
      return match && match[1] !== '' ? `${prefixes.get(match[1])}:${match[2]}` : (match?.[2] ?? value);
    })
    .join(' ');
}

function qnamePrefixes(values: readonly string[], prefix: string): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const value of values) {
    const namespace = CLARK.exec(value)?.[1];
    if (namespace && !prefixes.has(namespace)) prefixes.set(namespace, `${prefix}${prefixes.size}`);
  }
  return prefixes;
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
