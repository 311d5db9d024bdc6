/**
 * SOAP encoding (SOAP 1.1 section 5, SOAP 1.2 Part 2 section 3) of rpc/encoded operations, read into the literal
 * form the generated classes read and the served schemas validate, and written from it.
 *
 * Reading: the operation element's accessors (its parts, unqualified) in message order; a value's `href="#id"`
 * (SOAP 1.2: `enc:ref`) replaced by the element of that `id` (`enc:id`) wherever in the Body it stands (a
 * multi-reference value, as Axis 1 sends them); an array's items (any names) as the contract's item elements, its
 * `soapenc:arrayType` (`enc:itemType`, `enc:arraySize`) checked against the contract's array and its items,
 * partially transmitted arrays (`offset`, `position`) filled with nil items, a multidimensional array as nested
 * arrays of its rows; a struct's members in the contract's order; `xsi:type` checked against the type the contract
 * declares, soapenc's simple types and the 1999 schema namespace's read as XML Schema's. What is wrong (a
 * reference to no id, a cycle of references, an arrayType its items disagree with, a wrong xsi:type) is the
 * caller's mistake, said in one line; the literal form is then validated against the schema as any call is.
 *
 * Writing: each value with its xsi:type, each array as soapenc:Array with its arrayType (written inline, never as
 * multi-references), nil as xsi:nil, on the operation's answer element with the encodingStyle.
 *
 * XML syntax is libxml2's: the literal form is text written here with escaping, then parsed by libxml2.
 */
import type { SoapEncodedType, SoapEncodedTypes, SoapEncoding } from '../definition';
import { clientError } from '../errors';
import { childElements, isXsiNil, XSD_NAMESPACE, XSI_NAMESPACE, xmlFragmentOf } from '../xml/xml-codec';
import { safeParseOptions, type XmlElement, xml } from '../xml/xml-engine';
import { escapeXmlAttribute, escapeXmlText } from '../xml/xml-escape';

export const SOAP11_ENCODING = 'http://schemas.xmlsoap.org/soap/encoding/';
export const SOAP12_ENCODING = 'http://www.w3.org/2003/05/soap-encoding';
const XSD_1999 = 'http://www.w3.org/1999/XMLSchema';
const XSI_1999 = 'http://www.w3.org/1999/XMLSchema-instance';
const ANY = `{${XSD_NAMESPACE}}anyType`;

/** How many elements references may expand a call into: a chain of shared references cannot blow up a call. */
export const MAX_EXPANDED_ELEMENTS = 100_000;

/** The built-in each XML Schema built-in derives from (enough to take a derived value where its base is declared). */
const BASE_OF: Record<string, string> = {
  integer: 'decimal',
  long: 'integer',
  int: 'long',
  short: 'int',
  byte: 'short',
  nonNegativeInteger: 'integer',
  positiveInteger: 'nonNegativeInteger',
  unsignedLong: 'nonNegativeInteger',
  unsignedInt: 'unsignedLong',
  unsignedShort: 'unsignedInt',
  unsignedByte: 'unsignedShort',
  nonPositiveInteger: 'integer',
  negativeInteger: 'nonPositiveInteger',
  normalizedString: 'string',
  token: 'normalizedString',
  language: 'token',
  Name: 'token',
  NMTOKEN: 'token',
  NCName: 'Name',
  ID: 'NCName',
  IDREF: 'NCName',
  ENTITY: 'NCName',
};

/** Each contract's types by the xsi:type that names them (`{namespace}name` to key), made once per contract. */
const BY_XSI_TYPE = new WeakMap<SoapEncodedTypes, ReadonlyMap<string, string>>();

function byXsiType(types: SoapEncodedTypes): ReadonlyMap<string, string> {
  let index = BY_XSI_TYPE.get(types);
  if (!index) {
    index = new Map(Object.entries(types).flatMap(([key, t]) => (t.xsiType ? [[t.xsiType, key] as const] : [])));
    BY_XSI_TYPE.set(types, index);
  }
  return index;
}

/** The contract's type an xsi:type names; undefined for any other. */
function namedType(types: SoapEncodedTypes, xsiType: string): SoapEncodedType | undefined {
  const key = byXsiType(types).get(xsiType);
  return key === undefined ? undefined : types[key];
}

/** A built-in of soapenc's, of 1999's or of XML Schema's namespace as XML Schema's `{namespace}name`; undefined for others. */
function builtinKey(namespace: string, name: string): string | undefined {
  if (namespace === XSD_NAMESPACE) return `{${XSD_NAMESPACE}}${name}`;
  if (namespace !== SOAP11_ENCODING && namespace !== SOAP12_ENCODING && namespace !== XSD_1999) return undefined;
  const local = name === 'base64' ? 'base64Binary' : name === 'ur-type' ? 'anyType' : name === 'timeInstant' ? 'dateTime' : name;
  return name === 'Array' || name === 'Struct' ? undefined : `{${XSD_NAMESPACE}}${local}`;
}

/** `local` of a `{namespace}local` key. */
const localOf = (key: string) => key.slice(key.indexOf('}') + 1);
const namespaceOf = (key: string) => key.slice(1, key.indexOf('}'));

/** A built-in is the declared one, or derives from it (or the declared one takes anything). */
function builtinFits(given: string, declared: string): boolean {
  if (declared === ANY || declared === `{${XSD_NAMESPACE}}anySimpleType`) return true;
  for (let name: string | undefined = localOf(given); name !== undefined; name = BASE_OF[name]) {
    if (`{${XSD_NAMESPACE}}${name}` === declared) return true;
  }
  return false;
}

/**
 * A number's built-in: a number typed by another number type (suds types a Python int as xsd:long where xsd:int is
 * declared) is taken, its value left to the schema, which checks it against the declared type's range and form.
 */
const isNumber = (key: string) =>
  key === `{${XSD_NAMESPACE}}float` || key === `{${XSD_NAMESPACE}}double` || builtinFits(key, `{${XSD_NAMESPACE}}decimal`);

/** An xsi:type (of 2001's or 1999's instance namespace) resolved on its element: `{namespace}local`. */
function xsiTypeKey(element: XmlElement): string | undefined {
  const attribute = element.attrs.find((a) => a.name === 'type' && (a.namespaceUri === XSI_NAMESPACE || a.namespaceUri === XSI_1999));
  if (!attribute) return undefined;
  return qnameKey(element, attribute.value.trim(), 'xsi:type');
}

/**
 * Whether an accessor can be a value of the type `key` by the xsi:type it is sent with (one sent without can):
 * what tells overloaded operations of the same parts' names apart. Strict: a built-in fits its own type and those
 * it derives from, a contract's type its own name (an array soapenc:Array too).
 */
export function sentAsType(element: XmlElement, key: string, types: SoapEncodedTypes): boolean {
  let given: string | undefined;
  try {
    given = xsiTypeKey(element);
  } catch {
    return false;
  }
  if (given === undefined) return true;
  const builtin = builtinKey(namespaceOf(given), localOf(given));
  if (key.startsWith(`{${XSD_NAMESPACE}}`)) return builtin !== undefined && builtinFits(builtin, key);
  const declared = types[key];
  if (!declared?.xsiType) return true;
  if (declared.array && localOf(given) === 'Array' && (namespaceOf(given) === SOAP11_ENCODING || namespaceOf(given) === SOAP12_ENCODING))
    return true;
  return given === declared.xsiType;
}

function qnameKey(element: XmlElement, value: string, what: string): string {
  const colon = value.indexOf(':');
  const prefix = colon < 0 ? '' : value.slice(0, colon);
  const ns = element.namespaceForPrefix(prefix) ?? (prefix === '' ? '' : null);
  if (ns === null) throw clientError(`The ${what} ${value} of ${element.name} has a prefix that is not declared.`);
  return `{${ns}}${value.slice(colon + 1)}`;
}

const encodingAttribute = (element: XmlElement, name: string, encoding: string) =>
  element.attrs.find((a) => a.name === name && a.namespaceUri === encoding)?.value;

/** An arrayType value (`ns:T[2,3]`, `ns:T[][3]`): the item type and the last bracket's sizes (undefined: not given). */
function parseArrayType(value: string): { item: string; inner: string; sizes?: number[]; rank: number } | undefined {
  const match = /^\s*([^\s[\]]+)((?:\[[\d\s,]*\])*)\[([\d\s,]*)\]\s*$/.exec(value);
  if (!match) return undefined;
  const dims = match[3].replace(/\s/g, '').split(',');
  const sizes = dims.every((d) => /^\d+$/.test(d)) ? dims.map(Number) : undefined;
  return { item: match[1], inner: match[2], rank: dims.length, ...(sizes ? { sizes } : {}) };
}

/** `[2]` or `[1,2]`: the indices of an offset or a position. */
function indices(value: string, what: string, element: XmlElement): number[] {
  const match = /^\s*\[([\d\s,]+)\]\s*$/.exec(value);
  if (!match) throw clientError(`The ${what} "${value}" of ${element.name} is not a list of indices such as [2].`);
  return match[1].replace(/\s/g, '').split(',').map(Number);
}

/** What a call is read with: the contract's types, the encoding's namespace, the Body's ids, the references being followed. */
interface Reading {
  encoding: SoapEncoding;
  encodingNamespace: string;
  ids: Map<string, XmlElement>;
  following: Set<string>;
  expanded: number;
  /** The xsi:type prefixes the literal form declares, by namespace. */
  prefixes: Map<string, string>;
}

/**
 * The literal form of an encoded call's operation element (`wrapper`, a child of `body`): its text, of the same
 * name and namespace, declaring the namespaces its xsi:types name.
 */
export function literalCall(wrapper: XmlElement, body: XmlElement, encoding: SoapEncoding): string {
  return literalBody(wrapper, body, encoding, encoding.input, encoding.literalNames?.input);
}

/** The literal form of an encoded answer's element (a client reads it, as literalCall reads a call). */
export function literalAnswer(wrapper: XmlElement, body: XmlElement, encoding: SoapEncoding): string {
  return literalBody(wrapper, body, encoding, encoding.output, encoding.literalNames?.output);
}

function literalBody(
  wrapper: XmlElement,
  body: XmlElement,
  encoding: SoapEncoding,
  parts: SoapEncoding['input'],
  name = wrapper.name,
): string {
  const reading = readingOf(encoding, body);
  const accessors = new Map<string, XmlElement>();
  for (const child of childElements(wrapper)) {
    if (accessors.has(child.name)) throw clientError(`The accessor ${child.name} of ${wrapper.name} is sent twice.`);
    accessors.set(child.name, child);
  }
  let content = '';
  for (const [name, key, namespace] of parts) {
    const accessor = accessors.get(name);
    // A part naming an element of a namespace (Axis C++'s HiddenMessageParts) is that element in the literal form.
    if (accessor) content += value(reading, accessor, namespace ? `${prefixFor(reading, namespace)}:${name}` : name, key);
    accessors.delete(name);
  }
  // An accessor of no part: the schema refuses it, by name.
  for (const [name, accessor] of accessors) content += value(reading, accessor, name, undefined);
  const { tag, open } = wrapperTag(name, wrapper.namespaceUri ?? '');
  return `${open} xmlns:xsi="${XSI_NAMESPACE}"${prefixDeclarations(reading.prefixes)}>${content}</${tag}>`;
}

/**
 * Runs `use` on the root element of a literal form read by this file (literalCall, literalHeader: text it wrote
 * itself), then frees it.
 */
export function withLiteralForm<T>(text: string, use: (element: XmlElement) => T): T {
  const doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  try {
    return use(doc.root);
  } finally {
    doc.dispose();
  }
}

/**
 * The start of an element of `name` in `namespace` written by this file, and its tag name for the end tag: prefixed
 * `w:`, or in no namespace (Axis 1's `soap:body namespace=""`) unprefixed with the default namespace undeclared,
 * so its unqualified accessors stay in none.
 */
function wrapperTag(name: string, namespace: string): { tag: string; open: string } {
  if (namespace === '') return { tag: name, open: `<${name} xmlns=""` };
  return { tag: `w:${name}`, open: `<w:${name} xmlns:w="${escapeXmlAttribute(namespace)}"` };
}

/** What a call's values are read with: references found within `scope` (the Body; a header block's envelope). */
function readingOf(encoding: SoapEncoding, scope: XmlElement): Reading {
  const encodingNamespace = encodingNamespaceOf(encoding);
  return { encoding, encodingNamespace, ids: idsOf(scope, encodingNamespace), following: new Set(), expanded: 0, prefixes: new Map() };
}

const encodingNamespaceOf = (encoding: SoapEncoding) => (encoding.version === 'soap12' ? SOAP12_ENCODING : SOAP11_ENCODING);

/** The namespace declarations of the prefixes a reading or a writing used, for its element's start tag. */
const prefixDeclarations = (prefixes: ReadonlyMap<string, string>) =>
  [...prefixes].map(([ns, prefix]) => ` xmlns:${prefix}="${escapeXmlAttribute(ns)}"`).join('');

/**
 * The literal form of a header block the operation binds encoded (undefined: one it binds literal, or does not
 * read): the block's value read as literalCall reads an accessor (references resolved within `envelope`, its
 * xsi:type checked), as an element of the block's name and namespace declaring the namespaces its xsi:types name.
 */
export function literalHeader(block: XmlElement, envelope: XmlElement, encoding: SoapEncoding): string | undefined {
  const key = encoding.headers?.find(([element]) => element === `{${block.namespaceUri ?? ''}}${block.name}`)?.[1];
  if (key === undefined) return undefined;
  const reading = readingOf(encoding, envelope);
  // Read under its own name (errors name it so), then qualified: the block's first tag and its last.
  const written = value(reading, block, block.name, key);
  const open = `<${block.name}`;
  const close = `</${block.name}>`;
  const qualified = wrapperTag(block.name, block.namespaceUri ?? '');
  const inner = written.endsWith(close) ? `${written.slice(open.length, -close.length)}</${qualified.tag}>` : written.slice(open.length);
  return `${qualified.open} xmlns:xsi="${XSI_NAMESPACE}"${prefixDeclarations(reading.prefixes)}${inner}`;
}

/** Every element of the Body with an id (SOAP 1.1: `id`; SOAP 1.2: `enc:id`), by id; one id twice is refused. */
function idsOf(body: XmlElement, encodingNamespace: string): Map<string, XmlElement> {
  const ids = new Map<string, XmlElement>();
  const path = encodingNamespace === SOAP11_ENCODING ? './/*[@id]' : `.//*[@*[local-name()='id' and namespace-uri()='${SOAP12_ENCODING}']]`;
  for (const element of body.find(path) as XmlElement[]) {
    const id = (
      encodingNamespace === SOAP11_ENCODING
        ? element.attrs.find((a) => a.name === 'id' && !a.namespaceUri)
        : element.attrs.find((a) => a.name === 'id' && a.namespaceUri === SOAP12_ENCODING)
    )!.value.trim();
    if (ids.has(id)) throw clientError(`The id ${id} is given to two elements of the Body.`);
    ids.set(id, element);
  }
  return ids;
}

/** The element a reference names (`href="#id"`, SOAP 1.2's `enc:ref="id"`), or the element itself; undefined: no reference. */
function referenceOf(reading: Reading, element: XmlElement): string | undefined {
  if (reading.encodingNamespace === SOAP11_ENCODING) {
    const href = element.attrs.find((a) => a.name === 'href' && !a.namespaceUri)?.value.trim();
    if (href === undefined) return undefined;
    if (!href.startsWith('#'))
      throw clientError(`The href ${href.slice(0, 60)} of ${element.name} is not a reference within the message (#id).`);
    return href.slice(1);
  }
  return encodingAttribute(element, 'ref', SOAP12_ENCODING)?.trim();
}

/** One value: `element` (or what it references) as the literal element `name`, of the type `key` (undefined: unknown). */
function value(reading: Reading, element: XmlElement, name: string, key: string | undefined): string {
  const id = referenceOf(reading, element);
  if (id !== undefined) {
    const target = reading.ids.get(id);
    if (!target) throw clientError(`The reference #${id} of ${element.name} names no element of the Body.`);
    if (reading.following.has(id)) throw clientError(`The reference #${id} of ${element.name} is part of a cycle of references.`);
    reading.following.add(id);
    try {
      return value(reading, target, name, key);
    } finally {
      reading.following.delete(id);
    }
  }
  if (++reading.expanded > MAX_EXPANDED_ELEMENTS) {
    throw clientError(`The call's references expand to more than ${MAX_EXPANDED_ELEMENTS} values.`);
  }
  if (isXsiNil(element)) return `<${name} xsi:nil="true"/>`;
  const types = reading.encoding.types;
  let type: SoapEncodedType | undefined = key === undefined ? undefined : types[key];

  const given = xsiTypeKey(element);
  const isArray = isEncodedArray(element, given);
  if (type?.array || (isArray && key !== ANY)) {
    if (!type?.array) throw clientError(`The ${name} element is an array where the contract declares ${describe(key)}.`);
    if (given !== undefined && !isArray && given !== type.xsiType) {
      throw clientError(`The xsi:type ${localOf(given)} of ${name} is not the contract's array type ${describe(key)}.`);
    }
    return arrayValue(reading, element, name, type);
  }
  let xsiType = '';
  if (type?.members) {
    // A derived type of the declared one (xsi:type) is read as that type, and said in the literal form.
    if (given !== undefined && given !== type.xsiType) {
      const derived = namedType(types, given);
      if (!derived?.members) throw clientError(`The xsi:type ${localOf(given)} of ${name} is not the contract's type ${describe(key)}.`);
      type = derived;
      xsiType = ` xsi:type="${prefixFor(reading, namespaceOf(given))}:${localOf(given)}"`;
    }
    return `<${name}${xsiType}>${members(reading, element, type)}</${name}>`;
  }
  if (key === undefined || key === ANY) {
    // Any content: kept as XML, simple content with its xsi:type as XML Schema names it.
    if (childElements(element).length > 0)
      return `<${name}>${childElements(element)
        .map((child) => xmlFragmentOf(child))
        .join('')}</${name}>`;
    const builtin = given === undefined ? undefined : builtinKey(namespaceOf(given), localOf(given));
    if (builtin) xsiType = ` xsi:type="${prefixFor(reading, XSD_NAMESPACE)}:${localOf(builtin)}"`;
    return `<${name}${xsiType}>${escapeXmlText(element.content)}</${name}>`;
  }
  if (given !== undefined) {
    const builtin = builtinKey(namespaceOf(given), localOf(given));
    // A built-in that is not the declared one nor derives from it is wrong, but where a string is declared: any
    // simple value's text is a string (SOAP::Lite types "42" as xsd:int). A type of the contract's own (an
    // enumeration's name) is left to the schema, which checks the value.
    if (
      builtin !== undefined &&
      key.startsWith(`{${XSD_NAMESPACE}}`) &&
      !builtinFits(builtin, key) &&
      !builtinFits(key, `{${XSD_NAMESPACE}}string`) &&
      !(isNumber(builtin) && isNumber(key))
    ) {
      throw clientError(`The xsi:type ${localOf(given)} of ${name} is not the contract's type ${describe(key)}.`);
    }
    const named = builtin === undefined ? namedType(types, given) : undefined;
    if (named?.members || named?.array) {
      throw clientError(`The xsi:type ${localOf(given)} of ${name} is not the contract's type ${describe(key)}.`);
    }
  }
  if (childElements(element).length > 0)
    throw clientError(`The ${name} element holds elements where the contract declares ${describe(key)}.`);
  return `<${name}>${escapeXmlText(element.content)}</${name}>`;
}

const describe = (key: string | undefined) => (key === undefined ? 'no such accessor' : key.startsWith('{') ? localOf(key) : key);

function prefixFor(reading: Reading, namespace: string): string {
  let prefix = reading.prefixes.get(namespace);
  if (!prefix) {
    prefix = `t${reading.prefixes.size}`;
    reading.prefixes.set(namespace, prefix);
  }
  return prefix;
}

/** An element written as an array: xsi:type soapenc:Array, or an arrayType (itemType) of the encoding. */
function isEncodedArray(element: XmlElement, given: string | undefined): boolean {
  if (given === `{${SOAP11_ENCODING}}Array` || given === `{${SOAP12_ENCODING}}Array`) return true;
  return (
    encodingAttribute(element, 'arrayType', SOAP11_ENCODING) !== undefined ||
    encodingAttribute(element, 'itemType', SOAP12_ENCODING) !== undefined ||
    encodingAttribute(element, 'arraySize', SOAP12_ENCODING) !== undefined
  );
}

/** A struct's members in the contract's order (those of no member after them: the schema refuses them by name). */
function members(reading: Reading, element: XmlElement, type: SoapEncodedType): string {
  const children = childElements(element);
  let content = '';
  const used = new Set<XmlElement>();
  for (const [member, key, namespace] of type.members!) {
    // A member the schema qualifies is read by its local name (encoded clients write accessors unqualified, or
    // qualified as the schema says), and written qualified in the literal form.
    const name = namespace ? `${prefixFor(reading, namespace)}:${member}` : member;
    for (const child of children) {
      if (child.name !== member || used.has(child)) continue;
      used.add(child);
      content += value(reading, child, name, key);
    }
  }
  for (const child of children) if (!used.has(child)) content += value(reading, child, child.name, undefined);
  return content;
}

/** The innermost item type of an array type (its rows' items, for arrays of arrays), and how many array levels lead to it. */
function innermost(types: SoapEncoding['types'], type: SoapEncodedType): { item: string; levels: number } {
  let levels = 1;
  let item = type.array!.item;
  for (let inner = types[item]; inner?.array; inner = types[item]) {
    item = inner.array.item;
    levels += 1;
  }
  return { item, levels };
}

/** An encoded array as the literal sequence of the contract's item elements (rows of rows for several dimensions). */
function arrayValue(reading: Reading, element: XmlElement, name: string, type: SoapEncodedType): string {
  const { array } = type;
  const types = reading.encoding.types;
  const items = childElements(element);
  const soap11 = reading.encodingNamespace === SOAP11_ENCODING;
  let declared: { item: string; inner: string; sizes?: number[]; rank: number } | undefined;
  if (soap11) {
    const written = encodingAttribute(element, 'arrayType', SOAP11_ENCODING);
    if (written !== undefined) {
      declared = parseArrayType(written);
      if (!declared) throw clientError(`The arrayType "${written.slice(0, 60)}" of ${name} is not an array type such as xsd:string[2].`);
    }
  } else {
    const itemType = encodingAttribute(element, 'itemType', SOAP12_ENCODING);
    const size = encodingAttribute(element, 'arraySize', SOAP12_ENCODING)?.trim();
    if (size !== undefined && !/^(\*|\d+)(\s+\d+)*$/.test(size))
      throw clientError(`The arraySize "${size.slice(0, 60)}" of ${name} is not a list of sizes.`);
    const dims = size?.split(/\s+/);
    declared = {
      item: itemType ?? 'anyType',
      inner: '',
      rank: dims?.length ?? 1,
      ...(dims?.every((d) => d !== '*') ? { sizes: dims!.map(Number) } : {}),
    };
    if (itemType === undefined) declared.item = '';
  }
  // The declared item type, where it is given, is the contract's (or derives from it), or any type.
  if (declared?.item) {
    const key = qnameKey(element, declared.item, 'arrayType');
    const given = builtinKey(namespaceOf(key), localOf(key)) ?? key;
    const direct = array!.item;
    const base = innermost(types, type).item;
    // `T[3]` names the items' own type; `T[][3]` and `T[2,3]` the innermost items' (gSOAP writes the innermost
    // type where the items are arrays: refused, as PHP's SoapServer refuses it).
    const nested = declared.inner !== '' || declared.rank > 1;
    const fits =
      given === ANY ||
      (nested ? [base] : [direct]).some(
        (item) =>
          given === item ||
          item === ANY ||
          types[item]?.xsiType === given ||
          (given.startsWith(`{${XSD_NAMESPACE}}`) && item.startsWith(`{${XSD_NAMESPACE}}`) && builtinFits(given, item)) ||
          (types[item]?.members !== undefined && namedType(types, given)?.members !== undefined),
      ) ||
      (types[direct]?.array !== undefined && (given === `{${SOAP11_ENCODING}}Array` || given === `{${SOAP12_ENCODING}}Array`));
    if (!fits)
      throw clientError(`The arrayType of ${name} says its items are ${localOf(given)}; the contract's array holds ${describe(base)}.`);
  }
  const rank = declared?.rank ?? 1;
  if (rank > 1 && rank !== array!.rank)
    throw clientError(`The arrayType of ${name} has ${rank} dimensions; the contract's array has ${array!.rank}.`);
  const total = declared?.sizes?.reduce((a, b) => a * b, 1);
  // Each item's place: from the offset on, or at its position (a partially transmitted or sparse array).
  const offsetText = encodingAttribute(element, 'offset', SOAP11_ENCODING);
  const sizes = declared?.sizes;
  const flatIndex = (at: number[], what: string) => {
    if (at.length !== (sizes?.length ?? 1))
      throw clientError(`The ${what} of an item of ${name} has ${at.length} indices; the array has ${sizes?.length ?? 1} dimensions.`);
    let index = 0;
    at.forEach((i, d) => {
      index = index * (sizes ? sizes[d] : Number.POSITIVE_INFINITY) + i;
    });
    return sizes ? index : at[0];
  };
  let next = offsetText === undefined ? 0 : flatIndex(indices(offsetText, 'offset', element), 'offset');
  const slots: (XmlElement | undefined)[] = [];
  for (const item of items) {
    const position = soap11 ? encodingAttribute(item, 'position', SOAP11_ENCODING) : undefined;
    const at = position === undefined ? next : flatIndex(indices(position, 'position', item), 'position');
    if (total !== undefined && at >= total) {
      throw clientError(`The array ${name} holds more items than its arrayType declares (${sizes!.join(',')}).`);
    }
    if (slots[at] !== undefined) throw clientError(`Two items of the array ${name} stand at the same position.`);
    slots[at] = item;
    next = at + 1;
  }
  const partial =
    offsetText !== undefined || items.some((item) => soap11 && encodingAttribute(item, 'position', SOAP11_ENCODING) !== undefined);
  if (total !== undefined && !partial && items.length !== total) {
    throw clientError(`The arrayType of ${name} declares ${total} items; ${items.length} are sent.`);
  }
  const length = total ?? slots.length;
  const itemOf = (index: number, element: string, key: string) => {
    const slot = slots[index];
    return slot === undefined ? `<${element} xsi:nil="true"/>` : value(reading, slot, element, key);
  };
  // Several dimensions: the rows, each an array of the next dimension's items.
  const write = (from: number, dims: number[], elementName: string, arrayType: SoapEncodedType): string => {
    const [count, ...rest] = dims;
    const span = rest.reduce((a, b) => a * b, 1);
    let out = '';
    for (let i = 0; i < count; i++) {
      if (rest.length === 0) out += itemOf(from + i, elementName, arrayType.array!.item);
      else {
        const row = types[arrayType.array!.item];
        if (!row?.array) throw clientError(`The array ${name} has more dimensions than the contract's.`);
        out += `<${elementName}>${write(from + i * span, rest, row.array.element, row)}</${elementName}>`;
      }
    }
    return out;
  };
  const dims = rank > 1 && sizes ? sizes : [length];
  return `<${name}>${write(0, dims, array!.element, type)}</${name}>`;
}

/** What an answer is written with: the contract's types, its encoding, and the prefixes declared on its element. */
interface Writing {
  encoding: SoapEncoding;
  encodingNamespace: string;
  prefixes: Map<string, string>;
}

/**
 * An answer's body element written SOAP-encoded: `literal` is the element as the generated class writes it
 * (generated by this service, so trusted to be well-formed); `envelopeNamespace` names encodingStyle's namespace.
 */
export function encodedAnswer(literal: string, encoding: SoapEncoding, envelopeNamespace: string): string {
  return encodedBody(literal, encoding, encoding.output, envelopeNamespace, encoding.wireNames?.output);
}

/** A call's operation element written SOAP-encoded (a client's, as encodedAnswer writes an answer). */
export function encodedCall(literal: string, encoding: SoapEncoding, envelopeNamespace: string): string {
  return encodedBody(literal, encoding, encoding.input, envelopeNamespace, encoding.wireNames?.input);
}

function encodedBody(
  literal: string,
  encoding: SoapEncoding,
  parts: SoapEncoding['input'],
  envelopeNamespace: string,
  wire?: string,
): string {
  return withWriting(literal, encoding, (writing, root) => {
    const name = wire ?? root.name;
    const partTypes = new Map(parts.map(([accessor, key]) => [accessor, key]));
    let content = '';
    for (const child of childElements(root)) content += encodedValue(writing, child, child.name, partTypes.get(child.name));
    const { tag, open } = wrapperTag(name, root.namespaceUri ?? '');
    return (
      `${open} xmlns:e="${escapeXmlAttribute(envelopeNamespace)}"` +
      ` e:encodingStyle="${writing.encodingNamespace}" xmlns:xsi="${XSI_NAMESPACE}"${declarationsOf(writing)}>${content}</${tag}>`
    );
  });
}

/** A declared fault's detail element (as the generated class writes it) written SOAP-encoded, its xsi:types declared on it. */
export function encodedFaultDetail(literal: string, encoding: SoapEncoding): string {
  return withWriting(literal, encoding, (writing, root) => {
    const key = new Map(encoding.faults ?? []).get(root.name);
    const { tag, open } = wrapperTag(root.name, root.namespaceUri ?? '');
    const written = encodedValue(writing, root, tag, key);
    return `${open} xmlns:xsi="${XSI_NAMESPACE}"${declarationsOf(writing)}${written.slice(`<${tag}`.length)}`;
  });
}

/**
 * Header blocks (`literal`: the blocks as the generated classes write them, one after another) with those the
 * operation binds encoded written SOAP-encoded, each with its encodingStyle; the others as they are.
 */
export function encodedHeaders(literal: string, encoding: SoapEncoding, envelopeNamespace: string): string {
  if (!encoding.headers?.length) return literal;
  const keys = new Map(encoding.headers);
  return withWriting(`<h>${literal}</h>`, encoding, (writing, root) =>
    childElements(root)
      .map((block) => {
        const key = keys.get(`{${block.namespaceUri ?? ''}}${block.name}`);
        if (key === undefined) return xmlFragmentOf(block);
        // Each block declares the prefixes it uses.
        writing.prefixes = writingPrefixes(writing.encodingNamespace);
        const { tag, open } = wrapperTag(block.name, block.namespaceUri ?? '');
        const written = encodedValue(writing, block, tag, key);
        return (
          `${open} xmlns:e="${escapeXmlAttribute(envelopeNamespace)}"` +
          ` e:encodingStyle="${writing.encodingNamespace}" xmlns:xsi="${XSI_NAMESPACE}"${declarationsOf(writing)}${written.slice(`<${tag}`.length)}`
        );
      })
      .join(''),
  );
}

/** Writes the root element of `literal` (this service's own text, trusted to be well-formed) by `write`, then frees it. */
function withWriting(literal: string, encoding: SoapEncoding, write: (writing: Writing, root: XmlElement) => string): string {
  const doc = xml().XmlDocument.fromString(literal);
  try {
    const encodingNamespace = encodingNamespaceOf(encoding);
    return write({ encoding, encodingNamespace, prefixes: writingPrefixes(encodingNamespace) }, doc.root);
  } finally {
    doc.dispose();
  }
}

/** The prefixes a writing starts with: XML Schema's and the encoding's. */
const writingPrefixes = (encodingNamespace: string) =>
  new Map([
    [XSD_NAMESPACE, 'xsd'],
    [encodingNamespace, 'enc'],
  ]);

/** The namespace declarations of the prefixes a writing used, for its element's start tag. */
const declarationsOf = (writing: Writing) => prefixDeclarations(writing.prefixes);

function prefixOf(writing: Writing, namespace: string): string {
  let prefix = writing.prefixes.get(namespace);
  if (!prefix) {
    prefix = `ns${writing.prefixes.size - 1}`;
    writing.prefixes.set(namespace, prefix);
  }
  return prefix;
}

/** `p:local` of a `{namespace}local` key, its prefix declared on the answer element. */
const qnameOf = (writing: Writing, key: string) => `${prefixOf(writing, namespaceOf(key))}:${localOf(key)}`;

/** The type name an array's items are written with in its arrayType: `xsd:int`, `ns1:Issue`, `xsd:int[]` (an array of arrays). */
function itemTypeName(writing: Writing, key: string): string {
  const type = writing.encoding.types[key];
  // A named type by its name (an array of ArrayOf_int is `ns1:ArrayOf_int[3]`, as PHP writes it); an anonymous
  // array by its items' (`xsd:int[][3]`).
  if (type?.xsiType) return qnameOf(writing, type.xsiType);
  if (type?.array) return `${itemTypeName(writing, type.array.item)}[${','.repeat(type.array.rank - 1)}]`;
  if (type) return qnameOf(writing, ANY);
  return qnameOf(writing, key.startsWith('{') ? key : ANY);
}

/** One literal element of the answer written encoded, as the type `key` (undefined: as it is). */
function encodedValue(writing: Writing, element: XmlElement, name: string, key: string | undefined): string {
  if (isXsiNil(element)) return `<${name} xsi:nil="true"/>`;
  const derived = xsiTypeKey(element);
  const typeKey = (derived && byXsiType(writing.encoding.types).get(derived)) ?? key;
  const type = typeKey === undefined ? undefined : writing.encoding.types[typeKey];
  if (type?.array) {
    // Several dimensions: the rows' items, row by row, under one arrayType of every dimension's size.
    const sizes: number[] = [];
    let rows = [element];
    let level = type;
    for (let d = 0; d < type.array.rank; d++) {
      const counts = rows.map((row) => childElements(row).length);
      if (counts.some((c) => c !== counts[0])) throw new Error(`The array ${name} is not rectangular: its rows differ in length.`);
      sizes.push(counts[0] ?? 0);
      if (d < type.array.rank - 1) {
        rows = rows.flatMap((row) => childElements(row));
        level = writing.encoding.types[level.array!.item];
      }
    }
    const items = rows.flatMap((row) => childElements(row));
    const itemKey = level.array!.item;
    const typeAttributes =
      writing.encodingNamespace === SOAP11_ENCODING
        ? ` xsi:type="${type.xsiType ? qnameOf(writing, type.xsiType) : 'enc:Array'}" enc:arrayType="${itemTypeName(writing, itemKey)}[${sizes.join(',')}]"`
        : ` enc:itemType="${itemTypeName(writing, itemKey)}" enc:arraySize="${sizes.join(' ')}"`;
    return `<${name}${typeAttributes}>${items.map((item) => encodedValue(writing, item, 'item', itemKey)).join('')}</${name}>`;
  }
  if (type?.members) {
    const memberTypes = new Map(type.members.map(([member, key]) => [member, key]));
    const xsiType = type.xsiType ? ` xsi:type="${qnameOf(writing, type.xsiType)}"` : '';
    // A member the schema qualifies is written qualified, as the literal form has it.
    const content = childElements(element)
      .map((child) =>
        encodedValue(
          writing,
          child,
          child.namespaceUri ? qnameOf(writing, `{${child.namespaceUri}}${child.name}`) : child.name,
          memberTypes.get(child.name),
        ),
      )
      .join('');
    return `<${name}${xsiType}>${content}</${name}>`;
  }
  if (childElements(element).length > 0 || typeKey === undefined || typeKey === ANY) {
    // Any content: as it is, its simple content said as a string.
    const children = childElements(element);
    if (children.length > 0) return `<${name}>${children.map((child) => xmlFragmentOf(child)).join('')}</${name}>`;
    // Any content: its built-in type where the value says it (read with an xsi:type), else a string.
    const builtin = derived?.startsWith(`{${XSD_NAMESPACE}}`) ? derived : `{${XSD_NAMESPACE}}string`;
    return `<${name} xsi:type="${qnameOf(writing, builtin)}">${escapeXmlText(element.content)}</${name}>`;
  }
  return `<${name} xsi:type="${qnameOf(writing, typeKey)}">${escapeXmlText(element.content)}</${name}>`;
}
