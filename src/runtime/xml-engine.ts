/**
 * The XML engine: libxml2 compiled to WebAssembly (libxml2-wasm). It is an ES
 * module with top-level await, so this CommonJS project loads it once, with a
 * real dynamic import(), before anything parses XML; afterwards every use is
 * synchronous through xml().
 */
import { loadXmlTree } from './xml-tree';

type LibXml2Wasm = typeof import('libxml2-wasm', { with: { 'resolution-mode': 'import' }});
export type XmlEngine = LibXml2Wasm;
export type XmlDocument = InstanceType<LibXml2Wasm['XmlDocument']>;
export type XmlElement = InstanceType<LibXml2Wasm['XmlElement']>;
export type XmlAttribute = InstanceType<LibXml2Wasm['XmlAttribute']>;
export type XmlXPath = InstanceType<LibXml2Wasm['XmlXPath']>;
export type XsdValidator = InstanceType<LibXml2Wasm['XsdValidator']>;

let engine: XmlEngine | undefined;

/** Loads libxml2-wasm (instantiates its WebAssembly module); the same engine on every later call. */
export async function loadXmlEngine(): Promise<XmlEngine> {
  engine ??= await import('libxml2-wasm');
  await loadXmlTree();
  return engine;
}

/** The loaded engine; throws when loadXmlEngine() has not been awaited yet (a programming error). */
export function xml(): XmlEngine {
  if (!engine) throw new Error('The XML engine is not loaded: await loadXmlEngine() first.');
  return engine;
}

/** No network, no external DTD or entity; entities are left unexpanded (no NOENT), DTDs neither loaded nor validated. */
export function safeParseOptions(): number {
  const { ParseOption } = xml();
  return ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;
}
