/**
 * Samples of simple types that keep to their facets: a pattern (matched by
 * a text made from it, of a length the length facets allow), length,
 * minLength and maxLength (of strings, binary values and lists), bounds and
 * digits of numbers, bounds of dates and times, an enumeration's first
 * value, a union's first member that has a sample. Each is the lexical form
 * (an element's text in XML samples) and the value generated code holds (a
 * Sample, sample-tree.ts); a type without facets keeps its usual
 * placeholder (USUAL).
 */
import type { Facets, Primitive, SchemaModel, TypeRef } from '../model';
import type { Sample, SimpleValueRef } from './sample-tree';
import { generateXsdRegex, matchesXsdRegex, parseXsdRegex, type RegexNode } from './xsd-regex';

const zero: Sample = { kind: 'number', value: 0 };
const bigZero: Sample = { kind: 'bigint', value: 0n };
const text = (value: string): Sample => ({ kind: 'string', value });

/** The placeholder of each built-in, as its value: a type without facets has it as its sample. */
const USUAL: Record<Primitive, Sample> = {
  string: text('string'),
  boolean: { kind: 'boolean', value: true },
  int: zero,
  short: zero,
  byte: zero,
  unsignedInt: zero,
  unsignedShort: zero,
  unsignedByte: zero,
  long: bigZero,
  unsignedLong: bigZero,
  integer: bigZero,
  nonNegativeInteger: bigZero,
  positiveInteger: { kind: 'bigint', value: 1n },
  nonPositiveInteger: bigZero,
  negativeInteger: { kind: 'bigint', value: -1n },
  float: zero,
  double: zero,
  decimal: text('0'),
  dateTime: text('1970-01-01T00:00:00Z'),
  date: text('1970-01-01'),
  time: text('00:00:00'),
  duration: text('PT0S'),
  gYear: text('1970'),
  gYearMonth: text('1970-01'),
  gMonth: text('--01'),
  gMonthDay: text('--01-01'),
  gDay: text('---01'),
  text: text('string'),
  guid: text('00000000-0000-0000-0000-000000000000'),
  base64Binary: { kind: 'bytes', length: 0 },
  hexBinary: { kind: 'bytes', length: 0 },
};

/** A built-in's placeholder as its lexical form (a number's digits). */
function usualText(primitive: Primitive): string {
  const usual = USUAL[primitive];
  return usual.kind === 'string' || usual.kind === 'number' || usual.kind === 'bigint' || usual.kind === 'boolean'
    ? String(usual.value)
    : '';
}

/** A simple type's sample, as the value generated code holds. */
export function simpleSample(model: SchemaModel, ref: SimpleValueRef): Sample {
  if (ref.kind === 'enum')
    return { kind: 'string', value: model.enums.find((e) => e.name === ref.typeName)?.values[0] ?? '', enumeration: ref.typeName };
  if (ref.kind === 'list' && ref.facets?.sample !== undefined && ref.item.kind === 'primitive' && ref.item.tsType === 'string')
    return { kind: 'array', items: ref.facets.sample.split(/\s+/).filter(Boolean).map(text) };
  if (ref.kind === 'list') return { kind: 'array', items: Array<Sample>(listCount(ref.facets)).fill(simpleSample(model, ref.item)) };
  if (!ref.facets && !ref.members) return USUAL[ref.primitive];
  // A patterned number's, boolean's or byte array's: read from a text the pattern matches.
  if (ref.patterns) return { kind: 'lexical', type: ref, text: primitiveText(model, ref) };
  if (ref.tsType === 'Uint8Array') return { kind: 'bytes', length: octets(ref.facets) };
  const lexical = primitiveText(model, ref);
  switch (ref.tsType) {
    case 'number':
      return { kind: 'number', value: Number(lexical) };
    case 'bigint':
      return { kind: 'bigint', value: BigInt(lexical) };
    case 'boolean':
      return { kind: 'boolean', value: lexical === 'true' || lexical === '1' };
    default:
      return text(lexical);
  }
}

/** The lexical form of a simple type's sample; undefined for a QName's (its prefix would need declaring). */
export function sampleText(model: SchemaModel, ref: TypeRef): string | undefined {
  if (ref.kind === 'complex' || ref.kind === 'any') return undefined;
  if (ref.kind === 'enum') {
    const enumeration = model.enums.find((e) => e.name === ref.typeName);
    const base = enumeration?.base.kind === 'primitive' ? enumeration.base.builtin : undefined;
    return base === 'QName' || base === 'NOTATION' ? undefined : enumeration?.values[0];
  }
  if (ref.kind === 'list' && ref.facets?.sample !== undefined) return ref.facets.sample;
  if (ref.kind === 'list') {
    const item = sampleText(model, ref.item);
    return item === undefined ? undefined : Array(listCount(ref.facets)).fill(item).join(' ');
  }
  if (ref.builtin === 'QName' || ref.builtin === 'NOTATION') return undefined;
  if (ref.tsType === 'Uint8Array' && !ref.facets?.pattern) {
    const bytes = new Uint8Array(octets(ref.facets));
    return ref.primitive === 'hexBinary' ? '00'.repeat(bytes.length) : Buffer.from(bytes).toString('base64');
  }
  return primitiveText(model, ref);
}

/** How many items a list sample holds: one, or what its length facets ask. */
function listCount(facets: Facets | undefined): number {
  if (facets?.length !== undefined) return Number(facets.length);
  const least = Math.max(1, Number(facets?.minLength ?? 1));
  return Math.min(least, Number(facets?.maxLength ?? least));
}

/** How many octets a binary sample holds: none, or what its length facets ask. */
function octets(facets: Facets | undefined): number {
  return Number(facets?.length ?? facets?.minLength ?? 0);
}

const INTEGER_BOUNDS: Record<string, [bigint | undefined, bigint | undefined]> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  long: [-9223372036854775808n, 9223372036854775807n],
  unsignedByte: [0n, 255n],
  unsignedShort: [0n, 65535n],
  unsignedInt: [0n, 4294967295n],
  unsignedLong: [0n, 18446744073709551615n],
  integer: [undefined, undefined],
  nonNegativeInteger: [0n, undefined],
  positiveInteger: [1n, undefined],
  nonPositiveInteger: [undefined, 0n],
  negativeInteger: [undefined, -1n],
};
const DATES = ['dateTime', 'date', 'time', 'gYear', 'gYearMonth', 'gMonth', 'gMonthDay', 'gDay'];

/** The lexical sample of a built-in type (or a `text` one kept for its pattern), under its facets. */
function primitiveText(model: SchemaModel, ref: Extract<TypeRef, { kind: 'primitive' }>): string {
  if (ref.members) {
    // A union's value is valid when it is one of a member's: the first member that has a sample.
    for (const member of ref.members) {
      const text = sampleText(model, member);
      if (text !== undefined) return text;
    }
  }
  const facets = ref.facets ?? {};
  // A type kept as its text for its pattern (an int with a pattern) has its built-in's values.
  const space = ref.primitive === 'text' && ref.builtin !== undefined ? ref.builtin : ref.primitive;
  const usual = usualText(ref.primitive);
  const pattern = patternOf(facets);
  if (space in INTEGER_BOUNDS || space === 'decimal' || space === 'float' || space === 'double')
    return numberText(space, facets, pattern) ?? usual;
  if (DATES.includes(space)) return keepTo(pattern, dateText(space, facets) ?? usualText(space as Primitive));
  if (space === 'duration') return keepTo(pattern, durationText(facets));
  if (space === 'boolean') return ['true', 'false', '1', '0'].find((b) => !pattern || matchesXsdRegex(pattern, b)) ?? 'true';
  return stringText(facets, pattern, space === 'guid' ? '00000000-0000-0000-0000-000000000000' : 'string');
}

/** The pattern of a facet set, parsed; undefined when there is none or it cannot be read (its sample is then unchecked). */
function patternOf(facets: Facets): RegexNode | undefined {
  if (facets.pattern === undefined) return undefined;
  try {
    return parseXsdRegex(facets.pattern);
  } catch {
    return undefined;
  }
}

/** A text that matches the pattern: the one given when it does, else one made from the pattern. */
function keepTo(pattern: RegexNode | undefined, text: string): string {
  if (!pattern || matchesXsdRegex(pattern, text)) return text;
  return generateXsdRegex(pattern) ?? text;
}

/** A string of the lengths allowed: made from the pattern when there is one, else the usual text cut or lengthened. */
function stringText(facets: Facets, pattern: RegexNode | undefined, usual: string): string {
  const min = Number(facets.length ?? facets.minLength ?? 0);
  const max = Number(facets.length ?? facets.maxLength ?? Number.POSITIVE_INFINITY);
  if (pattern) {
    const made =
      matchesXsdRegex(pattern, usual) && usual.length >= min && usual.length <= max ? usual : generateXsdRegex(pattern, min, max);
    if (made !== undefined) return made;
  }
  let text = usual.slice(0, max);
  while (text.length < min) text += 's';
  return text;
}

/** A decimal number: n / 10^scale. */
interface Decimal {
  n: bigint;
  scale: number;
}

function parseDecimal(text: string): Decimal | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const fraction = m[3] ?? '';
  let n = BigInt(`${m[2] || '0'}${fraction}`) * (m[1] === '-' ? -1n : 1n);
  let scale = fraction.length - Number(m[4] ?? 0);
  if (scale < 0) {
    n *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { n, scale };
}

const atScale = (d: Decimal, scale: number) => d.n * 10n ** BigInt(scale - d.scale);
const compare = (a: Decimal, b: Decimal) => {
  const scale = Math.max(a.scale, b.scale);
  const x = atScale(a, scale);
  const y = atScale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
};

function formatDecimal(d: Decimal): string {
  const negative = d.n < 0n;
  const digits = (negative ? -d.n : d.n).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

/** Its digits, as totalDigits and fractionDigits count them. */
function digitsOf(text: string): { total: number; fraction: number } {
  const [whole, fraction = ''] = text.replace(/^[+-]/, '').split('.');
  const significant = whole.replace(/^0+/, '');
  const fractional = fraction.replace(/0+$/, '');
  return { total: Math.max(1, significant.length + fractional.length), fraction: fractional.length };
}

/**
 * A number within the bounds (the type's and the facets'), of the digits allowed, matching the pattern: the
 * usual one when it is, else the integer nearest to it, else the shortest fraction; undefined when none is found.
 */
function numberText(space: string, facets: Facets, pattern: RegexNode | undefined): string | undefined {
  const integerOnly = space in INTEGER_BOUNDS || facets.fractionDigits === '0';
  const [typeMin, typeMax] = INTEGER_BOUNDS[space] ?? [undefined, undefined];
  type Bound = { at: Decimal; exclusive: boolean };
  const tighter = (a: Bound | undefined, b: Bound | undefined, sign: 1 | -1): Bound | undefined => {
    if (!a || !b) return a ?? b;
    const c = compare(a.at, b.at) * sign;
    return c > 0 ? a : c < 0 ? b : { at: a.at, exclusive: a.exclusive || b.exclusive };
  };
  const bound = (text: string | undefined, exclusive: boolean): Bound | undefined => {
    const at = text === undefined ? undefined : parseDecimal(text);
    return at ? { at, exclusive } : undefined;
  };
  const facetLower = tighter(bound(facets.minInclusive, false), bound(facets.minExclusive, true), 1);
  const facetUpper = tighter(bound(facets.maxInclusive, false), bound(facets.maxExclusive, true), -1);
  const lower = tighter(bound(typeMin?.toString(), false), facetLower, 1);
  const upper = tighter(bound(typeMax?.toString(), false), facetUpper, -1);
  const lexical = integerOnly
    ? /^[+-]?\d+$/
    : space === 'decimal'
      ? /^[+-]?(\d+(\.\d*)?|\.\d+)$/
      : /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
  const fits = (text: string): boolean => {
    const d = parseDecimal(text);
    if (!d || !lexical.test(text)) return false;
    if (lower && (compare(d, lower.at) < 0 || (lower.exclusive && compare(d, lower.at) === 0))) return false;
    if (upper && (compare(d, upper.at) > 0 || (upper.exclusive && compare(d, upper.at) === 0))) return false;
    const digits = digitsOf(text);
    if (facets.totalDigits !== undefined && digits.total > Number(facets.totalDigits)) return false;
    if (facets.fractionDigits !== undefined && digits.fraction > Number(facets.fractionDigits)) return false;
    return !pattern || matchesXsdRegex(pattern, text);
  };
  /** The smallest multiple of 10^-scale within a lower bound. */
  const above = (b: Bound, scale: number): Decimal => {
    const at = Math.max(scale, b.at.scale);
    const value = atScale(b.at, at);
    const unit = 10n ** BigInt(at - scale);
    let units = value / unit;
    if (units * unit > value) units -= 1n;
    return { n: units * unit === value && !b.exclusive ? units : units + 1n, scale };
  };
  /** The largest multiple of 10^-scale within an upper bound. */
  const below = (b: Bound, scale: number): Decimal => {
    const negated = above({ at: { n: -b.at.n, scale: b.at.scale }, exclusive: b.exclusive }, scale);
    return { n: -negated.n, scale };
  };
  const usual = space === 'positiveInteger' ? '1' : space === 'negativeInteger' ? '-1' : '0';
  const candidates = [usual];
  const scales = integerOnly ? [0] : [0, ...Array.from({ length: Math.min(18, Number(facets.fractionDigits ?? 18)) }, (_, k) => k + 1)];
  // The facets' bounds first, then the type's (a short's -32768 is a poor sample of "below -5").
  for (const [low, high] of [
    [facetLower, facetUpper],
    [lower, upper],
  ])
    for (const scale of scales) {
      if (low) candidates.push(formatDecimal(above(low, scale)));
      if (high) candidates.push(formatDecimal(below(high, scale)));
    }
  // A pattern may want another form of the same number: fraction zeros, leading zeros, a sign.
  const forms = (text: string) => [
    text,
    ...(integerOnly || text.includes('.') ? [] : ['.0', '.00', '.000', '.0000'].map((z) => text + z)),
    ...(text.includes('.') ? ['0', '00', '000'].map((z) => text + z) : []),
    ...['0', '00', '000', '0000'].map((z) => (text.startsWith('-') ? `-${z}${text.slice(1)}` : z + text)),
    ...(text.startsWith('-') ? [] : [`+${text}`]),
  ];
  for (const candidate of candidates) for (const form of pattern ? forms(candidate) : [candidate]) if (fits(form)) return form;
  if (pattern) {
    // The texts the pattern makes, shortest first, that are numbers within the bounds.
    for (let length = 1; length <= 40; length++) {
      const made = generateXsdRegex(pattern, length, length);
      if (made !== undefined && fits(made)) return made;
    }
  }
  return undefined;
}

const TIMEZONE = '(Z|[+-]\\d\\d:\\d\\d)?';
/** A date or time type's parts, and how each moves by one of its smallest unit. */
const DATE_FORMS: Record<string, RegExp> = {
  dateTime: new RegExp(`^(\\d{4})-(\\d\\d)-(\\d\\d)T(\\d\\d):(\\d\\d):(\\d\\d)(\\.\\d+)?${TIMEZONE}$`),
  date: new RegExp(`^(\\d{4})-(\\d\\d)-(\\d\\d)${TIMEZONE}$`),
  time: new RegExp(`^(\\d\\d):(\\d\\d):(\\d\\d)(\\.\\d+)?${TIMEZONE}$`),
  gYear: new RegExp(`^(\\d{4})${TIMEZONE}$`),
  gYearMonth: new RegExp(`^(\\d{4})-(\\d\\d)${TIMEZONE}$`),
  gMonth: new RegExp(`^--(\\d\\d)${TIMEZONE}$`),
  gMonthDay: new RegExp(`^--(\\d\\d)-(\\d\\d)${TIMEZONE}$`),
  gDay: new RegExp(`^---(\\d\\d)${TIMEZONE}$`),
};

/** A date or time one unit (a second, a day, a month, a year) after or before the one given, its time zone kept. */
function moved(space: string, text: string, by: 1 | -1): string | undefined {
  const m = DATE_FORMS[space]?.exec(text.trim());
  if (!m) return undefined;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const zone = m[m.length - 1] ?? '';
  const [a, b, c, d, e, f] = m.slice(1).map(Number);
  switch (space) {
    case 'dateTime': {
      const t = new Date(Date.UTC(a, b - 1, c, d, e, f) + by * 1000);
      if (t.getUTCFullYear() < 1 || t.getUTCFullYear() > 9999) return undefined;
      const fraction = m[7] ?? '';
      return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}${fraction}${zone}`;
    }
    case 'date': {
      const t = new Date(Date.UTC(a, b - 1, c + by));
      if (t.getUTCFullYear() < 1 || t.getUTCFullYear() > 9999) return undefined;
      return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}${zone}`;
    }
    case 'time': {
      const seconds = a * 3600 + b * 60 + c + by;
      if (seconds < 0 || seconds >= 86400) return undefined;
      const fraction = m[4] ?? '';
      return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}${fraction}${zone}`;
    }
    case 'gYear':
      return a + by < 1 || a + by > 9999 ? undefined : `${pad(a + by, 4)}${zone}`;
    case 'gYearMonth': {
      const months = a * 12 + (b - 1) + by;
      return `${pad(Math.floor(months / 12), 4)}-${pad((months % 12) + 1)}${zone}`;
    }
    case 'gMonth':
      return a + by < 1 || a + by > 12 ? undefined : `--${pad(a + by)}${zone}`;
    case 'gMonthDay': {
      const t = new Date(Date.UTC(2000, a - 1, b + by));
      return t.getUTCFullYear() !== 2000 ? undefined : `--${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}${zone}`;
    }
    case 'gDay':
      return a + by < 1 || a + by > 31 ? undefined : `---${pad(a + by)}${zone}`;
  }
  return undefined;
}

/** A time a fraction of a second after the one given (between it and the next second): an exclusive bound's neighbour. */
function justAfter(space: string, text: string): string | undefined {
  if (space !== 'dateTime' && space !== 'time') return moved(space, text, 1);
  const m = /^(.*:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?$/.exec(text.trim());
  return m ? `${m[1]}${m[2] ? `${m[2]}5` : '.5'}${m[3] ?? ''}` : undefined;
}

/** A date or time within its bounds: the lower one (or just after it), else the upper one (or just before it). */
function dateText(space: string, facets: Facets): string | undefined {
  if (facets.minInclusive !== undefined) return facets.minInclusive.trim();
  if (facets.minExclusive !== undefined) return justAfter(space, facets.minExclusive);
  if (facets.maxInclusive !== undefined) return facets.maxInclusive.trim();
  if (facets.maxExclusive !== undefined) {
    const before = moved(space, facets.maxExclusive, -1);
    return before === undefined ? undefined : space === 'dateTime' || space === 'time' ? justAfter(space, before) : before;
  }
  return undefined;
}

/** A duration within its bounds: an inclusive one, or a second more than an exclusive lower one. */
function durationText(facets: Facets): string {
  const inclusive = facets.minInclusive ?? facets.maxInclusive;
  if (inclusive !== undefined) return inclusive.trim();
  const min = facets.minExclusive?.trim();
  if (min === undefined) return 'PT0S';
  if (!min.includes('T')) return `${min}T1S`;
  if (/\d+(\.\d+)?S$/.test(min))
    return min.replace(/(\d+)((\.\d+)?)S$/, (_, whole: string, fraction: string) => `${Number(whole) + 1}${fraction}S`);
  return `${min}1S`;
}
