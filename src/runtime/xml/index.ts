/**
 * The XML door: what a tool that reads and writes XML with the runtime's
 * engine imports (codegen/ reads WSDLs and schemas with it, and its harnesses
 * check what they generate). The engine (libxml2-wasm, loaded once before the
 * first document is parsed) and its document types, schema compilation, the
 * XSD built-in types' values, and XML escaping. A team's tool imports it by
 * name (`contract-runtime/xml`, the runtime package's `exports`).
 */

// The engine, loaded once, and its documents.
export {
  loadXmlEngine,
  safeParseOptions,
  type XmlDocument,
  type XmlElement,
  type XmlEngine,
  type XmlEngineInternals,
  type XsdValidator,
  xml,
  xmlInternals,
} from './xml-engine';

// Schemas compiled into a validator, and the first message of libxml2's error.
export { compileSchema, compileSchemaSet, firstLibxmlMessage } from './xml-schema';

// The XSD built-in types' values: the integer types' bounds, white space, a QName read, a value's canonical key.
export { INTEGER_BOUNDS, normalizeSpace, parseXsdQName, type WhiteSpace, whiteSpaceOf, type XsdBuiltin, xsdValueKey } from './xsd-values';

// Whether a text is in the lexical space of a built-in generated code keeps as its text (a union's member's).
export { xsdLexicalMatches } from './xsd-unions';

// Text and attribute values escaped for XML, and a text escaped for a regular expression's literal.
export { escapeXmlAttribute, escapeXmlText } from './xml-escape';
export { escapeRegExp } from '../escape';
