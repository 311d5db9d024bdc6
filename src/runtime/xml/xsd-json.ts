/**
 * The XML Schema types of xsd-values.ts as ASP.NET AJAX script services
 * write them in JSON (JavaScriptSerializer): numbers as numbers, a dateTime
 * as "\/Date(ms)\/", a base64Binary (byte[]) as an array of numbers, an
 * enumeration as its number (.NET's default numbering: the declaration order).
 * Writers return JSON text; readers take a value JSON.parse made and throw
 * DecodeError when it does not fit.
 */
import { DecodeError } from './xml-codec';
import {
  formatXsdDateTime,
  formatXsdLexical,
  parseXsdBigInteger,
  parseXsdDateTime,
  parseXsdInteger,
  parseXsdLexical,
  type XsdBigIntegerType,
  type XsdIntegerType,
  type XsdLexicalType,
} from './xsd-values';

/** A non-finite number has no JSON form: written null, as JSON.stringify does. */
export function toJsonFloat(value: number): string {
  return JSON.stringify(value);
}

/** A decimal as a JSON number: `1.` and `.5` are XML Schema decimals but not JSON numbers. */
export function toJsonDecimal(value: string): string {
  const [whole, fraction = ''] = formatXsdLexical(value, 'decimal').replace(/^\+/, '').split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = whole.replace('-', '').replace(/^0+(?=\d)/, '') || '0';
  return `${sign}${digits}${fraction ? `.${fraction}` : ''}`;
}

/** "\/Date(ms)\/": the escaped slashes tell a date from a string that looks like one. */
/** A dateTime's text (a time without an offset read as UTC) as ASP.NET AJAX writes a date. */
export function toJsonDate(value: string): string {
  const date = parseXsdDateTime(value);
  return `"\\/Date(${date.getTime()})\\/"`;
}

export function toJsonBytes(value: Uint8Array): string {
  return `[${Array.from(value).join(',')}]`;
}

export function toJsonEnum(value: string, values: readonly string[]): string {
  const index = values.indexOf(value);
  if (index < 0) throw new RangeError(`"${value}" is not one of ${values.join(', ')}`);
  return String(index);
}

export function fromJsonString(d: unknown): string {
  if (typeof d !== 'string') throw new DecodeError('expected a JSON string');
  return d;
}

export function fromJsonBoolean(d: unknown): boolean {
  if (typeof d !== 'boolean') throw new DecodeError('expected a JSON boolean');
  return d;
}

export function fromJsonInteger(d: unknown, type: XsdIntegerType): number {
  if (typeof d !== 'number') throw new DecodeError(`expected a JSON number (${type})`);
  return parseXsdInteger(String(d), type);
}

export function fromJsonBigInteger(d: unknown, type: XsdBigIntegerType): bigint {
  if (typeof d !== 'number' && typeof d !== 'string') throw new DecodeError(`expected a JSON number (${type})`);
  if (typeof d === 'number' && !Number.isSafeInteger(d)) throw new DecodeError(`a ${type} beyond 2^53 must come as a string to stay exact`);
  return parseXsdBigInteger(String(d), type);
}

/** null is a non-finite float (JSON has none). */
export function fromJsonFloat(d: unknown): number {
  if (d === null) return Number.NaN;
  if (typeof d !== 'number') throw new DecodeError('expected a JSON number');
  return d;
}

export function fromJsonDecimal(d: unknown): string {
  if (typeof d !== 'number' && typeof d !== 'string') throw new DecodeError('expected a JSON number (decimal)');
  return parseXsdLexical(String(d), 'decimal');
}

export function fromJsonLexical(d: unknown, type: XsdLexicalType): string {
  if (typeof d !== 'string') throw new DecodeError(`expected a JSON string (${type})`);
  return parseXsdLexical(d, type);
}

const JSON_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;

/** JSON.parse has already turned "\/" into "/"; the offset .NET may add is the writer's zone, not part of the instant. */
/** A date as ASP.NET AJAX writes it, as a dateTime's text in UTC. */
export function fromJsonDate(d: unknown): string {
  const match = typeof d === 'string' ? JSON_DATE.exec(d) : null;
  const date = match ? new Date(Number(match[1])) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new DecodeError('expected a date written "\\/Date(ms)\\/"');
  return formatXsdDateTime(date);
}

export function fromJsonBytes(d: unknown): Uint8Array {
  if (!Array.isArray(d) || !d.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new DecodeError('expected an array of bytes');
  }
  return Uint8Array.from(d as number[]);
}

/** An enumeration by its number, or by its name (which JavaScriptSerializer also accepts). */
export function fromJsonEnum<T extends string>(d: unknown, values: readonly T[], type: string): T {
  if (typeof d === 'number' && Number.isInteger(d) && d >= 0 && d < values.length) return values[d];
  if (typeof d === 'string' && (values as readonly string[]).includes(d)) return d as T;
  throw new DecodeError(`expected a value of ${type}`);
}

export function fromJsonArray<T>(d: unknown, item: (value: unknown) => T): T[] {
  if (!Array.isArray(d)) throw new DecodeError('expected a JSON array');
  return d.map(item);
}

/** An object's members; its `__type`, when present, must name `type`. */
export function fromJsonObject(d: unknown, type: string): Record<string, unknown> {
  if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new DecodeError(`expected a JSON object (${type})`);
  const members = d as Record<string, unknown>;
  if (members.__type !== undefined && members.__type !== type) throw new DecodeError(`expected ${type}, not ${String(members.__type)}`);
  return members;
}
