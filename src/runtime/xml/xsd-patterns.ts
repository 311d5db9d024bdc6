/**
 * Values of a number, boolean or binary type restricted by a pattern: read as their type's values (the pattern
 * checked on the text), and written in a lexical form the pattern admits. A number keeps no lexical form ("007"
 * and "7" are one int), so the writer tries the forms that value has (the canonical one first, then a sign, leading
 * zeros, an exponent's spellings, trailing zeros) and writes the first that every pattern matches.
 *
 * XML Schema's regular expressions are xspattern's (a complete implementation of the language, anchored as the
 * facet is); each pattern is compiled once.
 */
import { DecodeError } from './decode-error';
import {
  collapse,
  formatXsdBase64Binary,
  formatXsdBigInteger,
  formatXsdFloat,
  formatXsdHexBinary,
  formatXsdInteger,
  type XsdBigIntegerType,
  type XsdFloatType,
  type XsdIntegerType,
} from './xsd-values';

/** The types whose values are not their text: a pattern on them is checked on read and kept to on write. */
export type XsdPatternedType = XsdIntegerType | XsdBigIntegerType | XsdFloatType | 'boolean' | 'hexBinary' | 'base64Binary';

/**
 * xspattern's compiler. Its package names no declarations for a CommonJS caller (node16 resolution finds none beside
 * its .cjs file), so its signature, from its dist/xspattern.d.ts, is given here.
 */
const { compile } = require('xspattern') as {
  compile(pattern: string, options?: { language: 'xsd' | 'xpath' }): (text: string) => boolean;
};

/** The most leading zeros a number is tried with. */
const MOST_ZEROS = 32;

const compiled = new Map<string, (text: string) => boolean>();

function matcher(pattern: string): (text: string) => boolean {
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  const match = compile(pattern, { language: 'xsd' });
  compiled.set(pattern, match);
  return match;
}

const matchesAll = (text: string, patterns: readonly string[]) => patterns.every((pattern) => matcher(pattern)(text));

/**
 * The text of a value of a patterned type, white space collapsed, when every pattern (one per derivation step, its
 * alternatives joined) matches it; otherwise a DecodeError that names the type, never the value.
 */
export function checkXsdPatterns(text: string, patterns: readonly string[]): string {
  const value = collapse(text);
  if (!matchesAll(value, patterns)) throw new DecodeError('a value does not match the pattern of its type');
  return value;
}

/** A value of a patterned type as text the patterns admit; its canonical form when none of its forms is. */
export function formatXsdPatterned(
  value: number | bigint | boolean | Uint8Array,
  type: XsdPatternedType,
  patterns: readonly string[],
): string {
  let canonical: string | undefined;
  for (const form of lexicalForms(value, type)) {
    canonical ??= form;
    if (matchesAll(form, patterns)) return form;
  }
  return canonical!;
}

/** The lexical forms of a value, its canonical one first. */
function* lexicalForms(value: number | bigint | boolean | Uint8Array, type: XsdPatternedType): Generator<string> {
  if (typeof value === 'boolean') {
    yield value ? 'true' : 'false';
    yield value ? '1' : '0';
  } else if (value instanceof Uint8Array) {
    if (type === 'hexBinary') {
      const hex = formatXsdHexBinary(value);
      yield hex;
      yield hex.toLowerCase();
    } else yield formatXsdBase64Binary(value);
  } else if (typeof value === 'bigint') {
    yield* integerForms(formatXsdBigInteger(value, type as XsdBigIntegerType));
  } else if (type === 'float' || type === 'double') {
    yield* floatForms(value, type);
  } else {
    yield* integerForms(formatXsdInteger(value, type as XsdIntegerType));
  }
}

/** An integer's canonical text, with a plus sign, and with leading zeros. */
function* integerForms(canonical: string): Generator<string> {
  yield canonical;
  const negative = canonical.startsWith('-');
  const digits = negative ? canonical.slice(1) : canonical;
  const signs = negative ? ['-'] : digits === '0' ? ['', '+', '-'] : ['', '+'];
  for (let zeros = 0; zeros <= MOST_ZEROS; zeros++)
    for (const sign of signs) if (zeros > 0 || sign !== (negative ? '-' : '')) yield `${sign}${'0'.repeat(zeros)}${digits}`;
}

/**
 * A float's or double's canonical text, then its spellings with an exponent (its significant digits, trailing zeros
 * added, with the point after any of them: 42E-2, 4.2E-1, 0.42E0, .42E0) and in fixed point, that read back as it.
 */
function* floatForms(value: number, type: XsdFloatType): Generator<string> {
  yield formatXsdFloat(value, type);
  if (!Number.isFinite(value)) return;
  const same = (text: string) => (type === 'float' ? Math.fround(Number(text)) : Number(text)) === value;
  const signs = value < 0 || Object.is(value, -0) ? ['-'] : ['', '+'];
  const magnitude = Math.abs(value);
  for (let count = 1; count <= 21; count++) {
    const [mantissa, exponent] = magnitude.toExponential(count - 1).split('e');
    if (!same(`${mantissa}e${exponent}`)) continue;
    const digits = mantissa.replace('.', '');
    for (let whole = 1; whole <= digits.length + 2; whole++) {
      const number = `${digits.slice(0, whole).padEnd(whole, '0')}${whole < digits.length ? `.${digits.slice(whole)}` : ''}`;
      yield* exponentForms(signs, number, Number(exponent) - (whole - 1));
    }
    yield* exponentForms(signs, `0.${digits}`, Number(exponent) + 1);
    yield* exponentForms(signs, `.${digits}`, Number(exponent) + 1);
  }
  if (magnitude < 1e21)
    for (let count = 0; count <= 20; count++) {
      const fixed = magnitude.toFixed(count);
      if (!same(fixed)) continue;
      for (const sign of signs) {
        yield `${sign}${fixed}`;
        if (fixed.startsWith('0.')) yield `${sign}${fixed.slice(1)}`;
      }
    }
}

/** A number with an exponent, spelt every way: E or e, a plus sign or none, the exponent with leading zeros. */
function* exponentForms(signs: readonly string[], number: string, power: number): Generator<string> {
  const size = String(Math.abs(power));
  for (const sign of signs)
    for (const e of ['E', 'e'])
      for (const width of new Set([size.length, 2, 3]))
        for (const plus of power < 0 ? ['-'] : ['', '+'])
          if (width >= size.length) yield `${sign}${number}${e}${plus}${size.padStart(width, '0')}`;
}

/**
 * A list of values of a patterned type as text its own patterns admit (and each item its type's, `itemPatterns`).
 * A list's pattern is most often its items' patterns one after the other, a space between: where one splits so, into
 * as many as the list has items, each item is written in a form its part admits.
 */
export function formatXsdPatternedList(
  values: readonly (number | bigint | boolean | Uint8Array)[],
  type: XsdPatternedType,
  patterns: readonly string[],
  itemPatterns: readonly string[] = [],
): string {
  const canonical = values.map((value) => formatXsdPatterned(value, type, itemPatterns)).join(' ');
  if (matchesAll(canonical, patterns)) return canonical;
  const parts = patterns.map(itemParts).filter((split) => split?.length === values.length) as string[][];
  if (parts.length === 0) return canonical;
  const text = values.map((value, i) => formatXsdPatterned(value, type, [...itemPatterns, ...parts.map((p) => p[i])])).join(' ');
  return matchesAll(text, patterns) ? text : canonical;
}

/** A pattern's parts between its spaces outside brackets, parentheses and quantifiers; none when it has branches. */
function itemParts(pattern: string): string[] | undefined {
  const parts: string[] = [];
  let [start, depth, brackets, braces] = [0, 0, 0, false];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') brackets++;
    else if (c === ']' && brackets > 0) brackets--;
    else if (brackets > 0) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '{') braces = true;
    else if (c === '}') braces = false;
    else if (depth === 0 && !braces && c === '|') return undefined;
    else if (depth === 0 && !braces && c === ' ') {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts;
}
