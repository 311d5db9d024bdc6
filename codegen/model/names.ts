/**
 * Names as TypeScript allows them: a class or enumeration per schema type,
 * each claimed once with its companions (`XFields`, `XValues`), and members
 * made identifiers, unique in their class.
 */
import { type AttributeModel, type FieldModel, OTHER_ATTRIBUTES } from './model';

/** Names generated code uses beside the contract's classes: a contract type of one of these names is renamed. */
const RESERVED_TYPE_NAMES = new Set(
  (
    'Error TypeError RangeError Date Uint8Array Partial Promise Object Array String Number Boolean Map Set Record JSON Math Symbol ' +
    'BigInt RegExp Function Buffer URL Response Request Headers AbortSignal XmlElement DecodeError XmlFragment Readonly Required ' +
    'Exclude Extract Pick Omit Iterable Infinity NaN undefined any unknown never object string number boolean bigint symbol void'
  ).split(' '),
);
/** The parameters and local variables of the generated functions: a class of one of these names would hide itself. */
const LOCAL_NAMES = new Set('element fields field child xml item derived other value root text namespace detail message kind v'.split(' '));
const NUMBERED_LOCALS = /^(attribute|group)\d+(Items|At|Last)?$/;

/** Methods and the like of the generated classes: a member of one of these names is renamed. */
const RESERVED_MEMBER_NAMES = new Set([
  'toXml',
  'fromXml',
  'fromFields',
  'xmlAttributes',
  'xsiType',
  'constructor',
  '__proto__',
  'prototype',
]);
const JS_RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface ' +
    'package private protected public await arguments eval'
  ).split(' '),
);

/** The type names taken so far: each claim takes a name and its companions (`Fields`, `Values`). */
export class NameRegistry {
  private readonly taken = new Set<string>();

  /** A free identifier for a class or enumeration named `wanted` (a number appended when it is taken). */
  claim(wanted: string): string {
    let name = identifier(wanted);
    if (RESERVED_TYPE_NAMES.has(name) || JS_RESERVED.has(name) || LOCAL_NAMES.has(name) || NUMBERED_LOCALS.test(name)) name = `${name}_`;
    let candidate = name;
    for (
      let i = 2;
      this.taken.has(candidate) ||
      this.taken.has(`${candidate}Fields`) ||
      this.taken.has(`${candidate}Values`) ||
      NUMBERED_LOCALS.test(candidate);
      i++
    ) {
      candidate = `${name}${i}`;
    }
    this.taken.add(candidate);
    this.taken.add(`${candidate}Fields`);
    this.taken.add(`${candidate}Values`);
    return candidate;
  }
}

/** Members named as TypeScript allows, each once in its class (a second of one name gets a number). */
export function uniqueMembers(fields: FieldModel[], attributes: AttributeModel[], hasText = false, anyAttribute = false): void {
  const taken = new Set<string>([...(hasText ? ['value'] : []), ...(anyAttribute ? [OTHER_ATTRIBUTES] : [])]);
  for (const member of [...fields, ...attributes]) {
    let name = identifier(member.name);
    if (RESERVED_MEMBER_NAMES.has(name) || /^xmlAttributes\d+$/.test(name)) name = `${name}_`;
    let candidate = name;
    for (let i = 2; taken.has(candidate); i++) candidate = `${name}${i}`;
    taken.add(candidate);
    member.name = candidate;
  }
}

/**
 * An XML name as a TypeScript identifier: XmlSerializer's escapes (`_x0020_`)
 * read back, then every character an identifier cannot hold replaced by `_`
 * (a dot in `Ver1.0`); letters of any script are kept.
 */
export function identifier(xmlName: string): string {
  const decoded = xmlName.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  let name = [...decoded]
    .map((c, i) =>
      (i === 0 ? /[\p{ID_Start}$_]/u : /[\p{ID_Continue}$\u200C\u200D]/u).test(c) ? c : /[\p{ID_Continue}]/u.test(c) ? `_${c}` : '_',
    )
    .join('');
  if (name === '') name = '_';
  return name;
}

/** A member name that is no identifier would be a codegen bug: the model checks every one. */
export function identifierCheck(name: string, owner: string): void {
  if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name))
    throw new Error(`codegen: ${owner}: ${name} is not a JavaScript identifier`);
}

export function sortByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
