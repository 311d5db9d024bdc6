/**
 * Equality in XML Schema's value spaces, for the suite's comparison: two
 * lexical forms of one simple type are equal when they denote the same value
 * (`+01` and `1` as integers, `1.0E0` and `1` as doubles, white space as the
 * type's facet treats it). QNames are compared by namespace and local name,
 * each resolved where it was written.
 */
import type { XmlElement } from '../../src/runtime/xml/xml-engine';
import type { EnumModel, TypeRef } from '../model/model';

export type WhiteSpace = 'preserve' | 'replace' | 'collapse';

export function normalizeSpace(text: string, whiteSpace: WhiteSpace): string {
  if (whiteSpace === 'preserve') return text;
  const replaced = text.replace(/[\t\n\r]/g, ' ');
  return whiteSpace === 'replace' ? replaced : replaced.replace(/ +/g, ' ').trim();
}

/** Where a value was written: its element resolves the prefixes of a QName. */
export interface ValueContext {
  element: XmlElement;
}

export function whiteSpaceOf(ref: TypeRef): WhiteSpace {
  if (ref.kind === 'list') return 'collapse';
  if (ref.kind !== 'primitive') return 'preserve';
  const facet = ref.facets?.whiteSpace as WhiteSpace | undefined;
  if (ref.primitive === 'string' || ref.primitive === 'guid') return facet ?? 'preserve';
  if (ref.primitive === 'text') {
    if (ref.builtin === 'anySimpleType' || ref.builtin === 'union') return facet ?? 'preserve';
    if (ref.builtin === 'normalizedString') return facet ?? 'replace';
  }
  return 'collapse';
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
  if (a === b && !isQName(ref)) return true;
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
  const space = whiteSpaceOf(ref);
  const [x, y] = [normalizeSpace(a, space), normalizeSpace(b, space)];
  if (isQName(ref)) return qnameKey(x, contextA) === qnameKey(y, contextB);
  if (x === y) return true;
  switch (ref.primitive) {
    case 'boolean':
      return booleanOf(x) !== undefined && booleanOf(x) === booleanOf(y);
    case 'int':
    case 'short':
    case 'byte':
    case 'unsignedInt':
    case 'unsignedShort':
    case 'unsignedByte':
    case 'long':
    case 'unsignedLong':
    case 'integer':
    case 'nonNegativeInteger':
    case 'positiveInteger':
    case 'nonPositiveInteger':
    case 'negativeInteger':
      return /^[+-]?\d+$/.test(x) && /^[+-]?\d+$/.test(y) && BigInt(x) === BigInt(y);
    case 'decimal':
      return decimalKey(x) !== undefined && decimalKey(x) === decimalKey(y);
    case 'float':
    case 'double': {
      const [p, q] = [floatOf(x, ref.primitive), floatOf(y, ref.primitive)];
      return (Number.isNaN(p) && Number.isNaN(q)) || p === q;
    }
    case 'base64Binary':
      return bytesEqual(Buffer.from(x.replace(/\s+/g, ''), 'base64'), Buffer.from(y.replace(/\s+/g, ''), 'base64'));
    case 'hexBinary':
      return x.toLowerCase() === y.toLowerCase();
    case 'dateTime':
    case 'date':
    case 'time':
    case 'gYear':
    case 'gYearMonth':
    case 'gMonth':
    case 'gMonthDay':
    case 'gDay':
      return dateKey(x) !== undefined && dateKey(x) === dateKey(y);
    case 'duration':
      return durationKey(x) !== undefined && durationKey(x) === durationKey(y);
    default:
      return false;
  }
}

const isQName = (ref: TypeRef) => ref.kind === 'primitive' && (ref.builtin === 'QName' || ref.builtin === 'NOTATION');

/** `{namespace}local` of a QName's lexical form, its prefix resolved at its element; undefined when it cannot be. */
export function qnameKey(text: string, context: ValueContext): string | undefined {
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? '' : text.slice(0, colon);
  const namespace = context.element.namespaceForPrefix(prefix) ?? (prefix === '' ? '' : undefined);
  return namespace === undefined ? undefined : `{${namespace}}${text.slice(colon + 1)}`;
}

const booleanOf = (text: string) => (text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : undefined);

function floatOf(text: string, type: 'float' | 'double'): number {
  if (text === 'INF') return Number.POSITIVE_INFINITY;
  if (text === '-INF') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  const n = Number(text);
  return type === 'float' ? Math.fround(n) : n;
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

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * A date or time value as one comparable text: its fields, with a time zone normalized to UTC (a value without
 * one stays apart from every value with one, as XML Schema 1.0 orders them only partially).
 */
function dateKey(text: string): string | undefined {
  const match = /^(?:(-?\d{4,})|--)?(?:-?(\d{2}))?(?:-(\d{2})|---(\d{2}))?(?:T?(\d{2}):(\d{2}):(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(
    text,
  );
  if (!match) return undefined;
  const [, year, month, day, onlyDay, hour, minute, second, fraction, zone] = match;
  const seconds = `${second ?? ''}${(fraction ?? '').replace(/\.?0+$/, '')}`;
  if (!zone) return `local ${year ?? ''}|${month ?? ''}|${day ?? onlyDay ?? ''}|${hour ?? ''}:${minute ?? ''}:${seconds}`;
  const offset = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (hour === undefined) return `zoned ${year ?? ''}|${month ?? ''}|${day ?? onlyDay ?? ''}|${offset}`;
  // A date-time moved to UTC: through Date.UTC, which keeps years outside 0–9999 apart only by their value.
  const y = year === undefined ? 2000 : Number(year);
  const utc = Date.UTC(
    y,
    month === undefined ? 0 : Number(month) - 1,
    Number(day ?? onlyDay ?? 1),
    Number(hour),
    Number(minute) - offset,
    0,
  );
  return `zoned ${year === undefined ? '' : 'y'}${month === undefined ? '' : 'm'}${(day ?? onlyDay) ? 'd' : ''} ${utc}:${seconds}`;
}

/** A duration's value: its months and its seconds (a decimal), each with the sign. */
function durationKey(text: string): string | undefined {
  const match = /^(-?)P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d*)?)S)?)?$/.exec(text);
  if (!match) return undefined;
  const [, sign, y, mo, d, h, mi, s] = match;
  const months = BigInt(y ?? 0) * 12n + BigInt(mo ?? 0);
  const [whole, fraction = ''] = (s ?? '0').split('.');
  const seconds = ((BigInt(d ?? 0) * 24n + BigInt(h ?? 0)) * 60n + BigInt(mi ?? 0)) * 60n + BigInt(whole);
  const zero = months === 0n && seconds === 0n && /^0*$/.test(fraction);
  return `${zero ? '' : sign}${months}|${seconds}.${fraction.replace(/0+$/, '')}`;
}
