/**
 * SOAP encoding's types in a contract that SOAP encoding speaks (an rpc/encoded binding): an array type (a
 * derivation of `soapenc:Array`, its item type named by `wsdl:arrayType`, or by the one element its content model
 * holds) is read as a sequence of items, the form the runtime reads encoded arrays into and writes them from
 * (src/runtime/wire/soap-encoding.ts); SOAP encoding's simple types (`soapenc:string`, …) and the 1999 schema
 * namespace's built-ins are XML Schema's built-ins. A literal contract's schemas are read as written.
 */
import type { XmlElement } from 'contract-runtime/xml';
import { findAll, localName, NS, namespaceOfQName } from '../documents';
import type { QName, XsdComplexType, XsdParticle, XsdTypeUse } from './facts';

export const SOAP_ENCODING = {
  soap11: 'http://schemas.xmlsoap.org/soap/encoding/',
  soap12: 'http://www.w3.org/2003/05/soap-encoding',
} as const;
/** The schema namespace of 1999 some SOAP 1.1 toolkits still write (SOAP::Lite, Apache SOAP). */
export const XSD_1999 = 'http://www.w3.org/1999/XMLSchema';
/** The item element of an array read as a sequence (the name SOAP toolkits write items with). */
export const ARRAY_ITEM = 'item';

/** The built-ins soapenc's simple types stand for (each soapenc:X of a built-in X is X; base64 is base64Binary). */
const BUILTIN_NAMES = new Set([
  'string',
  'boolean',
  'float',
  'double',
  'decimal',
  'duration',
  'dateTime',
  'time',
  'date',
  'gYearMonth',
  'gYear',
  'gMonthDay',
  'gDay',
  'gMonth',
  'hexBinary',
  'base64Binary',
  'anyURI',
  'QName',
  'NOTATION',
  'normalizedString',
  'token',
  'language',
  'NMTOKEN',
  'NMTOKENS',
  'Name',
  'NCName',
  'ID',
  'IDREF',
  'IDREFS',
  'ENTITY',
  'ENTITIES',
  'integer',
  'nonPositiveInteger',
  'negativeInteger',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'positiveInteger',
  'anyType',
  'anySimpleType',
]);

/** The 1999 draft's built-ins the Recommendation renamed (its namespace is read as XML Schema's: read/documents.ts). */
export const DRAFT_NAMES: Readonly<Record<string, string>> = { timeInstant: 'dateTime', 'ur-type': 'anyType', binary: 'base64Binary' };

/** The built-ins whose values name what only a DTD declares, as the names an encoded message can carry. */
const UNDECLARABLE: Readonly<Record<string, string>> = { NOTATION: 'QName', ENTITY: 'NCName', ENTITIES: 'NMTOKENS' };

/**
 * The XML Schema built-in a name of SOAP encoding's (or of the 1999 schema namespace) stands for; undefined for any
 * other name (soapenc:Array and soapenc:Struct among them).
 */
export function encodedBuiltin(q: QName): string | undefined {
  // The 1999 draft's built-ins the Recommendation renamed, its namespace read as XML Schema's (read/documents.ts).
  // A NOTATION, an ENTITY name a notation or unparsed entity a DTD declares, which an encoded message never has:
  // their values are read as the names they are written as (SOAPBuilders' round 5 echoes them).
  if (q.namespace === NS.s) return UNDECLARABLE[q.name] ?? DRAFT_NAMES[q.name];
  if (q.namespace !== SOAP_ENCODING.soap11 && q.namespace !== SOAP_ENCODING.soap12 && q.namespace !== XSD_1999) return undefined;
  if (q.name === 'base64') return 'base64Binary';
  if (q.name === 'ur-type' || q.name === 'anyType') return 'anyType';
  if (q.name === 'timeInstant') return 'dateTime';
  return BUILTIN_NAMES.has(q.name) ? q.name : undefined;
}

/** soapenc:Array of either version's encoding. */
export const isSoapArray = (q: QName) =>
  q.name === 'Array' && (q.namespace === SOAP_ENCODING.soap11 || q.namespace === SOAP_ENCODING.soap12);

/** soapenc:Struct: a struct of any members, read as any content. */
export const isSoapStruct = (q: QName) =>
  q.name === 'Struct' && (q.namespace === SOAP_ENCODING.soap11 || q.namespace === SOAP_ENCODING.soap12);

/** A `wsdl:arrayType` (or soapenc:arrayType) value: the item type's QName and the brackets, e.g. `tns:Issue[][,]`. */
export interface ArrayTypeValue {
  item: string;
  /** Each bracket's rank, outermost (the array's own, the last written) first: `T[][,]` is [2, 1]. */
  ranks: number[];
  /** The last bracket's sizes when given (`T[2,3]`); undefined for `T[]`, `T[,]`. */
  sizes?: number[];
}

/** Reads an arrayType value; undefined when it is not one. */
export function parseArrayType(value: string): ArrayTypeValue | undefined {
  const match = /^\s*([^\s[\]]+)((?:\[[\d\s,]*\])+)\s*$/.exec(value);
  if (!match) return undefined;
  const brackets = [...match[2].matchAll(/\[([\d\s,]*)\]/g)].map((m) => m[1].replace(/\s/g, ''));
  const last = brackets[brackets.length - 1];
  const dims = last.split(',');
  const sizes = dims.every((d) => /^\d+$/.test(d)) ? dims.map(Number) : undefined;
  return { item: match[1], ranks: [...brackets].reverse().map((b) => b.split(',').length), ...(sizes ? { sizes } : {}) };
}

/** The type an item QName of an arrayType names: a built-in (XML Schema's, or soapenc's), soapenc:Array, or a named type. */
function itemTypeOf(q: QName, at: string): XsdTypeUse {
  const builtin = encodedBuiltin(q) ?? (q.namespace === NS.s ? q.name : undefined);
  if (builtin) return { kind: 'builtin', name: builtin };
  if (isSoapArray(q)) return { kind: 'complex', type: arrayType(undefined, '', { kind: 'builtin', name: 'anyType' }, 1, at) };
  if (isSoapStruct(q)) return { kind: 'builtin', name: 'anyType' };
  return { kind: 'named', qname: q };
}

/**
 * The items of an array of `rank` dimensions of `item`: a two-dimensional array's items are its rows (arrays of
 * `item`), and so on; `own`: these are the array's own items (its outer dimension is the array itself), else an
 * array of those is made.
 */
function nested(item: XsdTypeUse, rank: number, at: string, own = false): XsdTypeUse {
  let rows = item;
  for (let i = 1; i < rank; i++) rows = { kind: 'complex', type: arrayType(undefined, '', rows, 1, at) };
  return own ? rows : { kind: 'complex', type: arrayType(undefined, '', rows, rank, at) };
}

/** An array type as a sequence of items of `item`, nillable (SOAP encoding's items may be nil). */
export function arrayType(
  name: string | undefined,
  namespace: string,
  item: XsdTypeUse,
  rank: number,
  at: string,
  element = ARRAY_ITEM,
): XsdComplexType {
  const particle: XsdParticle = {
    kind: 'sequence',
    min: 1,
    max: 1,
    particles: [{ kind: 'element', element: { name: element, namespace: '', type: item, nillable: true, at }, min: 0, max: 'unbounded' }],
  };
  return { name, namespace, particle, attributes: [], anyAttribute: false, mixed: false, abstract: false, at, soapArray: { rank } };
}

/**
 * The `wsdl:arrayType` a derivation of soapenc:Array writes on its `soapenc:arrayType` attribute use: read, with its
 * item type's name resolved; undefined when it writes none (or one that is no array type, or of an undeclared prefix).
 */
export function declaredArrayType(derivation: XmlElement): { parsed: ArrayTypeValue; item: QName } | undefined {
  for (const attribute of findAll(derivation, 's:attribute[@ref]')) {
    const ref = attribute.attrs.find((a) => a.name === 'ref' && !a.namespaceUri)!.value;
    const ns = namespaceOfQName(attribute, ref);
    if (localName(ref) !== 'arrayType' || (ns !== SOAP_ENCODING.soap11 && ns !== SOAP_ENCODING.soap12)) continue;
    const written = attribute.attrs.find((a) => a.name === 'arrayType' && a.namespaceUri === NS.wsdl)?.value;
    const parsed = written === undefined ? undefined : parseArrayType(written);
    const itemNs = parsed ? namespaceOfQName(attribute, parsed.item) : null;
    if (!parsed || itemNs === null) continue;
    return { parsed, item: { namespace: itemNs, name: localName(parsed.item) } };
  }
  return undefined;
}

/**
 * The item type and rank of a derivation of soapenc:Array: by its `wsdl:arrayType` (an array of arrays for each
 * bracket before the last), else the one element its content model declares (`element`: its name and type), else
 * any type.
 */
export function soapArrayOf(
  derivation: XmlElement,
  declared: { name: string; type: XsdTypeUse } | undefined,
  at: string,
): { item: XsdTypeUse; rank: number; element?: string } {
  const written = declaredArrayType(derivation);
  if (written) {
    const { parsed, item: itemName } = written;
    let item = itemTypeOf(itemName, at);
    // T[][,]: the outermost rank is this array's; each inner bracket an array of its own.
    for (const rank of parsed.ranks.slice(1).reverse()) item = nested(item, rank, at);
    return { item: nested(item, parsed.ranks[0], at, true), rank: parsed.ranks[0], ...(declared ? { element: declared.name } : {}) };
  }
  if (declared) return { item: declared.type, rank: 1, element: declared.name };
  return { item: { kind: 'builtin', name: 'anyType' }, rank: 1 };
}
