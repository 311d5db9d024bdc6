/**
 * The codec door: exactly what generated code imports (generated/types.ts,
 * routes.ts, json.ts, documents.ts, openapi.ts, contract.ts, elements.ts;
 * the typed client its codecs too): the types a contract is written against,
 * and the helpers its classes read and write XML and JSON with. Nothing of a
 * host or of the handler seam. A team's project imports it by name
 * (`contract-runtime/codec`, the runtime package's `exports`).
 */

// A contract as codegen writes it (generated/contract.ts, routes.ts, json.ts).
export type { ContractDefinition, Handlers, JsonOperation, Port, Route, Variant } from './definition';
// What a route's WS-Policy asks (Route.policies) and its WS-Addressing actions, as routes.ts writes them.
export type { AddressingActions, SoapPolicy } from './definition';
// An rpc/encoded contract's types as SOAP encoding writes them (routes.ts's ENCODED_TYPES).
export type { SoapEncodedTypes } from './definition';

// A declared fault's class (generated/types.ts) extends it.
export { DeclaredFault } from './errors';

// The generated classes' reading and writing of XML, and their JSON.
export {
  childElements,
  DecodeError,
  decodeErrorAt,
  type ElementCodec,
  formatXsdBoolean,
  isXsiNil,
  mixedContentOf,
  otherAttributesOf,
  parseXsdBoolean,
  readDocument,
  withXmlOrder,
  writeOtherAttributes,
  XML_DECLARATION,
  type XmlFragment,
  xmlFragmentOf,
  xmlOrderOf,
  XSD_NAMESPACE,
  XSI_NAMESPACE,
  xsiTypeOf,
  XsiTyped,
  xsiTyped,
  readTypedRoot,
  type RootType,
  type TypedRoot,
  writeTypedRoot,
  xsiTypeAttribute,
  xsiTypedValue,
} from './xml/xml-codec';
export { formatXsdUnion, parseXsdUnion, type XsdUnionMember } from './xml/xsd-unions';
export {
  type AnyAttribute,
  type AnyContent,
  AnyType,
  anyTypeContent,
  type DeclaredElement,
  type GlobalElements,
  type KeptElement,
  keepWildcardElement,
  readAnyType,
  readWildcardElement,
  type WildcardElement,
  wildcardElementXml,
} from './xml/any-type';
export type { XmlElement } from './xml/xml-engine';
export { escapeXmlAttribute, escapeXmlText } from './xml/xml-escape';
export {
  formatXsdBase64Binary,
  formatXsdBigInteger,
  formatXsdFloat,
  formatXsdHexBinary,
  formatXsdInteger,
  formatXsdLexical,
  formatXsdQName,
  formatXsdQNameList,
  parseXsdBase64Binary,
  parseXsdBigInteger,
  parseXsdEnumeration,
  parseXsdFloat,
  parseXsdHexBinary,
  parseXsdInteger,
  parseXsdLexical,
  parseXsdQName,
  parseXsdText,
  xsdQNameDeclaration,
  xsdQNameListDeclarations,
} from './xml/xsd-values';
export { checkXsdPatterns, formatXsdPatterned, formatXsdPatternedList } from './xml/xsd-patterns';
export { toJsonBytes, toJsonDate, toJsonDecimal, toJsonEnum, toJsonFloat } from './xml/xsd-json';
export { jsonString } from './wire/json-text';

/**
 * The names above, for codegen (codegen/emit/ts.ts): what a generated file may import from this door, each type as
 * a type, and what no contract class may be named. test/codegen/emit/doors.test.ts holds it to the exports.
 */
export const CODEC_EXPORTS = {
  values: [
    'DeclaredFault',
    'childElements',
    'DecodeError',
    'decodeErrorAt',
    'formatXsdBoolean',
    'isXsiNil',
    'mixedContentOf',
    'otherAttributesOf',
    'parseXsdBoolean',
    'readDocument',
    'withXmlOrder',
    'writeOtherAttributes',
    'XML_DECLARATION',
    'xmlFragmentOf',
    'xmlOrderOf',
    'XSD_NAMESPACE',
    'XSI_NAMESPACE',
    'xsiTypeOf',
    'XsiTyped',
    'readTypedRoot',
    'writeTypedRoot',
    'xsiTyped',
    'xsiTypeAttribute',
    'xsiTypedValue',
    'escapeXmlAttribute',
    'escapeXmlText',
    'formatXsdBase64Binary',
    'formatXsdBigInteger',
    'formatXsdFloat',
    'formatXsdHexBinary',
    'formatXsdInteger',
    'formatXsdLexical',
    'formatXsdQName',
    'formatXsdQNameList',
    'parseXsdBase64Binary',
    'parseXsdBigInteger',
    'parseXsdEnumeration',
    'parseXsdFloat',
    'parseXsdHexBinary',
    'parseXsdInteger',
    'parseXsdLexical',
    'parseXsdQName',
    'parseXsdText',
    'xsdQNameDeclaration',
    'xsdQNameListDeclarations',
    'checkXsdPatterns',
    'formatXsdPatterned',
    'formatXsdPatternedList',
    'toJsonBytes',
    'toJsonDate',
    'toJsonDecimal',
    'toJsonEnum',
    'toJsonFloat',
    'jsonString',
    'AnyType',
    'anyTypeContent',
    'readAnyType',
    'parseXsdUnion',
    'formatXsdUnion',
    'keepWildcardElement',
    'readWildcardElement',
    'wildcardElementXml',
  ],
  types: [
    'ContractDefinition',
    'Handlers',
    'JsonOperation',
    'Port',
    'Route',
    'Variant',
    'AddressingActions',
    'SoapPolicy',
    'SoapEncodedTypes',
    'ElementCodec',
    'RootType',
    'TypedRoot',
    'XmlFragment',
    'XmlElement',
    'AnyAttribute',
    'AnyContent',
    'DeclaredElement',
    'GlobalElements',
    'KeptElement',
    'XsdUnionMember',
    'WildcardElement',
  ],
} as const;
