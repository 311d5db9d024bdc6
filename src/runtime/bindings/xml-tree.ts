/**
 * libxml2's parsed tree read through its own structs, without libxml2-wasm's
 * object wrappers: a document is a pointer the caller frees, and names,
 * namespaces and element children are read from the WebAssembly memory
 * without a call into libxml2 per node. One parser context is reused from
 * call to call, and one validation context per schema.
 *
 * For the document of every SOAP call (bindings/soap.ts), where the wrappers
 * (a FinalizationRegistry entry and a WeakRef per document, a parser and a
 * validation context created and freed per call) cost more than the parse.
 * It stands on libxml2-wasm's internal module (lib/libxml2.mjs, loaded by
 * xml/xml-engine.ts), so package.json pins that package's exact version; a
 * new one is taken as docs/runtime.md, *Taking a libxml2 fix*, says.
 */
import { xmlInternals as internals, type XsdValidator } from '../xml/xml-engine';

const ELEMENT = 1;

/** libxml2's error levels: 1 warning, 2 error, 3 fatal. */
const ERROR_LEVEL = 2;

/** Input parsed with one parser context before it is replaced: its dictionary keeps every name it has seen. */
const BYTES_PER_CONTEXT = 1 << 20;

/** Errors reported by libxml2 since the counter was last reset (warnings do not count, as in libxml2-wasm's parse). */
let errors = 0;
let collector: number | undefined;

function errorCollector(): number {
  const l = internals();
  collector ??= l.addFunction((_data: number, error: number) => {
    if (l.XmlErrorStruct.level(error) >= ERROR_LEVEL) errors++;
  }, 'vii');
  return collector as number;
}

let context = 0;
let contextBytes = 0;

/**
 * Parses `bytes` with `options`; the document's pointer, or 0 when libxml2
 * reports an error (the caller parses again through the API to say which).
 * A document must be freed with freeDocument.
 */
export function parseDocument(bytes: Uint8Array, options: number): number {
  const l = internals();
  if (context === 0 || contextBytes > BYTES_PER_CONTEXT) {
    if (context !== 0) l.xmlFreeParserCtxt(context);
    context = l.xmlNewParserCtxt();
    l.xmlCtxtSetErrorHandler(context, errorCollector(), 0);
    contextBytes = 0;
  }
  contextBytes += bytes.length;
  errors = 0;
  const doc = l.xmlReadMemory(context, bytes, null, null, options);
  if (doc !== 0 && errors > 0) {
    l.xmlFreeDoc(doc);
    return 0;
  }
  return doc;
}

export function freeDocument(doc: number): void {
  internals().xmlFreeDoc(doc);
}

export function hasDoctype(doc: number): boolean {
  return internals().xmlGetIntSubset(doc) !== 0;
}

/** The encoding the XML declaration names, or null. */
export function declaredEncoding(doc: number): string | null {
  return internals().XmlDocStruct.encoding(doc);
}

export function rootElement(doc: number): number {
  return internals().xmlDocGetRootElement(doc);
}

/** The element children of an element, in document order (text, comments and processing instructions are not elements). */
export function elementChildren(element: number): number[] {
  const { XmlTreeCommonStruct: node } = internals();
  const out: number[] = [];
  for (let child = node.children(element); child !== 0; child = node.next(child)) {
    if (node.type(child) === ELEMENT) out.push(child);
  }
  return out;
}

export function localName(element: number): string {
  return internals().XmlTreeCommonStruct.name_(element);
}

/** The element's namespace name; '' for none. */
export function namespaceUri(element: number): string {
  const l = internals();
  const ns = l.XmlNamedNodeStruct.namespace(element);
  return ns === 0 ? '' : l.XmlNsStruct.href(ns);
}

/** The text of an element and its descendants (XPath's string value). */
export function textContent(element: number): string {
  return internals().xmlNodeGetContent(element);
}

/** Whether an element is valid against a compiled schema; one validation context per schema, made on first use. */
export function isValidElement(schema: XsdValidator, element: number): boolean {
  const l = internals();
  let validation = validationContexts.get(schema);
  if (validation === undefined) {
    // The compiled schema's pointer: libxml2-wasm keeps it on the validator it wraps.
    validation = l.xmlSchemaNewValidCtxt((schema as unknown as { _ptr: number })._ptr);
    l.xmlSchemaSetValidStructuredErrors(validation, errorCollector(), 0);
    validationContexts.set(schema, validation);
    freeWithSchema.register(schema, validation);
  }
  errors = 0;
  return l.xmlSchemaValidateOneElement(validation, element) === 0 && errors === 0;
}

const validationContexts = new WeakMap<XsdValidator, number>();
/** A schema compiled for a contract lives as long as the contract; its validation context goes with it. */
const freeWithSchema = new FinalizationRegistry<number>((validation) => internals().xmlSchemaFreeValidCtxt(validation));
