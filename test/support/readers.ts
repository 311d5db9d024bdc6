/**
 * How the tests read markup, never with patterns: XML through the service's
 * own engine, libxml2-wasm (XPath with namespace maps; every document
 * disposed when its reader returns), and HTML — which libxml2-wasm cannot
 * parse — through htmlparser2 and its DomUtils. Both are ES modules, loaded
 * once with a real dynamic import: a test file that reads markup awaits
 * loadReaders() in test.before.
 */
import { loadXmlEngine, xml, type XmlDocument, type XmlElement, type XmlEngine } from '../../src/runtime/xml/xml-engine';

type Htmlparser2 = typeof import('htmlparser2', { with: { 'resolution-mode': 'import' }});
export type HtmlDocument = ReturnType<Htmlparser2['parseDocument']>;
export type HtmlElement = ReturnType<Htmlparser2['DomUtils']['findAll']>[number];
type HtmlNode = Parameters<Htmlparser2['DomUtils']['textContent']>[0];
export type XmlNode = InstanceType<XmlEngine['XmlNode']>;
export type { XmlDocument, XmlElement };

let htmlparser2: Htmlparser2 | undefined;

/** Loads libxml2-wasm and htmlparser2; the readers below throw until this has been awaited. */
export async function loadReaders(): Promise<void> {
  await loadXmlEngine();
  htmlparser2 ??= await import('htmlparser2');
}

// --- XML ------------------------------------------------------------------------------------------

/**
 * Parses `text` as a careful client would (no entity substitution, no DTD or
 * external entity loading, no network), runs `use` on the document and frees
 * it when `use` returns or throws. Throws libxml2's error when `text` is not
 * well-formed. `use` must be synchronous: nothing read may outlive the document.
 */
export function readXml<T>(text: string, use: (doc: XmlDocument) => T): T {
  const { XmlDocument, ParseOption } = xml();
  const doc = XmlDocument.fromString(text, { option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE });
  try {
    const result = use(doc);
    if (typeof (result as { then?: unknown } | undefined)?.then === 'function')
      throw new Error('readXml: the reader must be synchronous (the document is freed when it returns)');
    return result;
  } finally {
    doc.dispose();
  }
}

/** Whether `text` parses as XML the way readXml parses it. */
export function isWellFormedXml(text: string): boolean {
  try {
    return readXml(text, () => true);
  } catch {
    return false;
  }
}

function asElement(node: XmlNode, xpath: string): XmlElement {
  if (!(node instanceof xml().XmlElement)) throw new Error(`${xpath} selected a ${node.constructor.name}, not an element`);
  return node;
}

/** The first element `xpath` selects from `context`, or null; throws when it selects another kind of node. */
export function elementAt(context: XmlDocument | XmlElement, xpath: string, namespaces: Record<string, string> = {}): XmlElement | null {
  const node = context.get(xpath, namespaces);
  return node === null ? null : asElement(node, xpath);
}

/** Every element `xpath` selects from `context`, in document order; throws when it selects another kind of node. */
export function elementsAt(context: XmlDocument | XmlElement, xpath: string, namespaces: Record<string, string> = {}): XmlElement[] {
  return context.find(xpath, namespaces).map((node) => asElement(node, xpath));
}

/** An element's element children, in document order (by XPath: libxml2-wasm's processing-instruction wrapper has no next sibling to walk). */
export function childElements(element: XmlElement): XmlElement[] {
  return elementsAt(element, '*');
}

/** The text inside an element, its descendants' included. */
export const textOf = (element: XmlElement): string => element.content;

/** The value of an attribute in no namespace, or undefined when the element has none. */
export const attributeOf = (element: XmlElement | null | undefined, name: string): string | undefined => element?.attr(name)?.value;

/** The namespace URI of an element, or undefined when it has none. */
export const namespaceOf = (element: XmlElement): string | undefined => element.namespaceUri || undefined;

/** The prefix an element is written with, or undefined when it has none. */
export const prefixOf = (element: XmlElement): string | undefined => element.prefix || undefined;

/** The namespace `prefix` is bound to where `element` is (null or '': the default namespace), or undefined. */
export const namespaceInScope = (element: XmlElement, prefix: string | null): string | undefined => element.namespaces[prefix ?? ''];

/**
 * An element as a document of its own: inclusive canonical XML of its subtree,
 * so that the namespaces declared on its ancestors come along.
 */
export const standaloneXml = (element: XmlElement): string => element.canonicalizeToString();

// --- HTML -----------------------------------------------------------------------------------------

function html(): Htmlparser2 {
  if (!htmlparser2) throw new Error('The HTML parser is not loaded: await loadReaders() first.');
  return htmlparser2;
}

/** Parses an HTML page or fragment (element and attribute names lower-cased, character references decoded). */
export function readHtml(text: string): HtmlDocument {
  return html().parseDocument(text);
}

/** A test for elements named `name`, and optionally with `attributes` (a value, or true for present with any value). */
export function htmlTag(name: string, attributes: Record<string, string | true> = {}): (element: HtmlElement) => boolean {
  return (element) =>
    element.name === name &&
    Object.entries(attributes).every(([attribute, value]) =>
      value === true ? element.attribs[attribute] !== undefined : element.attribs[attribute] === value,
    );
}

/** Every element under `root` (not `root` itself) that passes `test`, in document order. */
export const htmlElements = (root: HtmlDocument | HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement[] =>
  html().DomUtils.findAll(test, root.children);

/** The first element under `root` that passes `test`, or null. */
export const htmlElement = (root: HtmlDocument | HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement | null =>
  html().DomUtils.findOne(test, root.children, true);

/** The nearest ancestor of `element` that passes `test`, or null. */
export function htmlAncestor(element: HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement | null {
  for (let node = element.parent; node; node = node.parent) {
    if ('attribs' in node && test(node)) return node;
  }
  return null;
}

/** The first sibling after `element` that is an element passing `test`, or null. */
export function htmlFollowingSibling(element: HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement | null {
  for (let node = element.next; node; node = node.next) {
    if ('attribs' in node && test(node)) return node;
  }
  return null;
}

/** The first sibling before `element` (nearest first) that is an element passing `test`, or null. */
export function htmlPrecedingSibling(element: HtmlElement, test: (element: HtmlElement) => boolean): HtmlElement | null {
  for (let node = element.prev; node; node = node.prev) {
    if ('attribs' in node && test(node)) return node;
  }
  return null;
}

/** The text inside a node, its descendants' included. */
export const htmlText = (node: HtmlNode | null | undefined): string => (node ? html().DomUtils.textContent(node) : '');

/** The value of an attribute, or undefined when the element has none. */
export const htmlAttribute = (element: HtmlElement | null | undefined, name: string): string | undefined => element?.attribs[name];
