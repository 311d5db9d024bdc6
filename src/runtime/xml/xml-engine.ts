/**
 * The XML engine: libxml2 compiled to WebAssembly (libxml2-wasm). It is an ES
 * module with top-level await, so this CommonJS project loads it once, with a
 * real dynamic import(), before anything parses XML; afterwards every use is
 * synchronous through xml().
 */
type LibXml2Wasm = typeof import('libxml2-wasm', { with: { 'resolution-mode': 'import' }});
export type XmlEngine = LibXml2Wasm;
export type XmlDocument = InstanceType<LibXml2Wasm['XmlDocument']>;
export type XmlElement = InstanceType<LibXml2Wasm['XmlElement']>;
export type XmlAttribute = InstanceType<LibXml2Wasm['XmlAttribute']>;
export type XmlXPath = InstanceType<LibXml2Wasm['XmlXPath']>;
export type XsdValidator = InstanceType<LibXml2Wasm['XsdValidator']>;

/**
 * libxml2-wasm's internal module (its WebAssembly exports and struct readers), which the SOAP binding's
 * tree reader (bindings/xml-tree.ts) uses; addFunction (a WebAssembly table entry for a JavaScript
 * callback) is exported but not declared.
 */
export type XmlEngineInternals = typeof import('libxml2-wasm/lib/libxml2.mjs', { with: { 'resolution-mode': 'import' }}) & {
  addFunction(callback: (...args: number[]) => void, signature: string): number;
};

/**
 * The libxml2-wasm release whose internal module bindings/xml-tree.ts was
 * checked against: package.json pins it, and test/runtime/xml/xml-engine-internals.test.ts
 * fails on any other until the steps of docs/runtime.md, *Taking a
 * libxml2 fix*, have been followed and this is set to the new release.
 */
export const INTERNALS_CHECKED_FOR = '0.7.2';

let engine: XmlEngine | undefined;
let internals: XmlEngineInternals | undefined;

/** Loads libxml2-wasm (instantiates its WebAssembly module); the same engine on every later call. */
export async function loadXmlEngine(): Promise<XmlEngine> {
  engine ??= await import('libxml2-wasm');
  // The same module instance as the one libxml2-wasm itself imported.
  internals ??= (await import('libxml2-wasm/lib/libxml2.mjs')) as XmlEngineInternals;
  return engine;
}

/** The loaded engine; throws when loadXmlEngine() has not been awaited yet (a programming error). */
export function xml(): XmlEngine {
  if (!engine) throw new Error('The XML engine is not loaded: await loadXmlEngine() first.');
  return engine;
}

/** The engine's internal module; throws when loadXmlEngine() has not been awaited yet. */
export function xmlInternals(): XmlEngineInternals {
  if (!internals) throw new Error('The XML engine is not loaded: await loadXmlEngine() first.');
  return internals;
}

/** No network, no external DTD or entity; entities are left unexpanded (no NOENT), DTDs neither loaded nor validated. */
export function safeParseOptions(): number {
  const { ParseOption } = xml();
  return ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;
}
