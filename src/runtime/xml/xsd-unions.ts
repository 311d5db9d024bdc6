/**
 * A value of a union type, discriminated as XML Schema resolves a union: the
 * first member type, in the union's order (a member that is a union itself
 * standing for its own members), whose lexical space holds the text and whose
 * facets admit the value it reads. Written as the first member whose values
 * the value is of (a number by a numeric member, a string by a string or
 * enumeration member).
 */
import { DecodeError } from './decode-error';
import { normalizeSpace, whiteSpaceOf } from './xsd-values';

/** One member type of a union, as generated code describes it. */
export interface XsdUnionMember {
  /** The member's value of a text; throws a DecodeError when the text is none of its (the generated reader's). */
  read(text: string): unknown;
  /** The lexical form of a value of this member's, unescaped; undefined when the value is of another type. */
  write(value: unknown): string | undefined;
  /** The built-in it derives from, when its reader takes any text (a date, a duration, a decimal): checked here. */
  lexical?: string;
  /** Its facets that the reader does not check: the bounds of a number, the length of a string. */
  facets?: Readonly<Record<string, string>>;
}

const ZONE = '(Z|[+-]\\d{2}:\\d{2})?';
/** The lexical spaces of the built-ins that generated code keeps as their text (XML Schema 1.0, part 2, section 3). */
const LEXICAL: Readonly<Record<string, RegExp>> = {
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  dateTime: new RegExp(`^-?\\d{4,}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?${ZONE}$`),
  date: new RegExp(`^-?\\d{4,}-\\d{2}-\\d{2}${ZONE}$`),
  time: new RegExp(`^\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?${ZONE}$`),
  gYearMonth: new RegExp(`^-?\\d{4,}-\\d{2}${ZONE}$`),
  gYear: new RegExp(`^-?\\d{4,}${ZONE}$`),
  gMonthDay: new RegExp(`^--\\d{2}-\\d{2}${ZONE}$`),
  gDay: new RegExp(`^---\\d{2}${ZONE}$`),
  gMonth: new RegExp(`^--\\d{2}${ZONE}$`),
  duration: /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
  language: /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/,
};

/** Whether a text is in the lexical space of a built-in kept as its text (any text, for one not listed). */
export function xsdLexicalMatches(builtin: string, text: string): boolean {
  const pattern = LEXICAL[builtin];
  return pattern === undefined || pattern.test(normalizeSpace(text, whiteSpaceOf(builtin)));
}

/** Reads a union's text as the value of the first member that holds it; a DecodeError when none does. */
export function parseXsdUnion(text: string, members: readonly XsdUnionMember[]): unknown {
  for (const member of members) {
    if (member.lexical !== undefined && !xsdLexicalMatches(member.lexical, text)) continue;
    let value: unknown;
    try {
      value = member.read(text);
    } catch (error) {
      if (error instanceof DecodeError) continue;
      throw error;
    }
    if (member.facets === undefined || facetsAdmit(member.facets, value)) return value;
  }
  throw new DecodeError(`${JSON.stringify(text.slice(0, 40))} is a value of none of the union's member types`);
}

/** A union's value as text (unescaped): written by the first member whose values it is of. */
export function formatXsdUnion(value: unknown, members: readonly XsdUnionMember[]): string {
  for (const member of members) {
    let text: string | undefined;
    try {
      text = member.write(value);
    } catch (error) {
      // A number outside a member's range, a string outside its lexical space: the next member's.
      if (error instanceof RangeError || error instanceof TypeError) continue;
      throw error;
    }
    if (text === undefined) continue;
    if (member.lexical !== undefined && !xsdLexicalMatches(member.lexical, text)) continue;
    if (member.facets === undefined || facetsAdmit(member.facets, value)) return text;
  }
  throw new RangeError(
    `${typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value)} is a value of none of the union's member types`,
  );
}

/** Whether the bounds and lengths a member restricts its values to admit a value. */
function facetsAdmit(facets: Readonly<Record<string, string>>, value: unknown): boolean {
  const compare = (bound: string): number | undefined => {
    if (typeof value === 'number') return value - Number(bound);
    if (typeof value === 'bigint') {
      try {
        const b = BigInt(bound.trim().replace(/^\+/, ''));
        return value < b ? -1 : value > b ? 1 : 0;
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  const checks: [string, (c: number) => boolean][] = [
    ['minInclusive', (c) => c >= 0],
    ['maxInclusive', (c) => c <= 0],
    ['minExclusive', (c) => c > 0],
    ['maxExclusive', (c) => c < 0],
  ];
  for (const [facet, admits] of checks) {
    const bound = facets[facet];
    if (bound === undefined) continue;
    const c = compare(bound);
    if (c !== undefined && !admits(c)) return false;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (facets.length !== undefined && length !== Number(facets.length)) return false;
    if (facets.minLength !== undefined && length < Number(facets.minLength)) return false;
    if (facets.maxLength !== undefined && length > Number(facets.maxLength)) return false;
  }
  return true;
}
