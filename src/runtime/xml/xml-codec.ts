/**
 * The small run-time the generated classes and routes encode and decode with:
 * XML escaping for writing, XML Schema value spaces for reading. Parsing
 * itself is libxml2's (libxml2-wasm); nothing here reads XML syntax.
 */
import { escapeEach, type Escapes } from '../escape';
import { xml, type XmlElement, type XmlXPath } from './xml-engine';

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';

/** `&` first, so that the entities written by the others stay as they are. */
const TEXT_ESCAPES: Escapes = [
  ['&', /&/g, '&amp;'],
  ['<', /</g, '&lt;'],
  ['>', />/g, '&gt;'],
  ['\r', /\r/g, '&#xD;'],
];
const ATTRIBUTE_ESCAPES: Escapes = [
  ...TEXT_ESCAPES,
  ['"', /"/g, '&quot;'],
  ["'", /'/g, '&apos;'],
  ['\n', /\n/g, '&#xA;'],
  ['\t', /\t/g, '&#x9;'],
];

/** Escapes character data; `\r` too, so that it survives end-of-line normalisation. */
export function escapeXmlText(value: string): string {
  return escapeEach(value, TEXT_ESCAPES);
}

export function escapeXmlAttribute(value: string): string {
  return escapeEach(value, ATTRIBUTE_ESCAPES);
}

/** XML Schema boolean: `true`/`1` and `false`/`0`, surrounding white space collapsed. */
export function parseXsdBoolean(text: string): boolean {
  switch (text.trim()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw new DecodeError('a boolean must be true, false, 1 or 0');
  }
}

export function formatXsdBoolean(value: boolean): string {
  return value ? 'true' : 'false';
}

let childElementsPath: XmlXPath | undefined;

/**
 * The element children of an element, in document order. An XPath compiled
 * once, not a walk over siblings: libxml2-wasm's wrapper of a processing
 * instruction has no `next`, so a walk would stop (or fail) at one.
 */
export function childElements(element: XmlElement): XmlElement[] {
  childElementsPath ??= xml().XmlXPath.compile('*');
  return element.find(childElementsPath) as XmlElement[];
}

/** xsi:nil="true" (or "1") on an element: a nillable value that is null. */
export function isXsiNil(element: XmlElement): boolean {
  const nil = element.attrs.find((a) => a.name === 'nil' && a.namespaceUri === XSI_NAMESPACE);
  return nil !== undefined && ['true', '1'].includes(nil.value.trim());
}

/** A value that does not fit the generated type (only possible for input not validated first). */
export class DecodeError extends Error {
  override name = 'DecodeError';
}

/**
 * XML kept as it came (xs:any, anyType, mixed content): the text of one or
 * more elements, each with the namespace declarations it needs, written back
 * as it is.
 */
export type XmlFragment = string;

/** An element and its content as self-contained XML text (exclusive canonical form: the namespaces it uses declared on it). */
export function xmlFragmentOf(element: XmlElement): XmlFragment {
  return element.canonicalizeToString({ mode: xml().XmlC14NMode.XML_C14N_EXCLUSIVE_1_0 });
}

/** The whole content of an element of mixed content: its text escaped, its elements self-contained. */
export function mixedContentOf(element: XmlElement): XmlFragment {
  const { XmlElement: Element, XmlText, XmlCData } = xml();
  let out = '';
  for (let child = element.firstChild; child; child = child.next) {
    if (child instanceof Element) out += xmlFragmentOf(child);
    else if (child instanceof XmlText || child instanceof XmlCData) out += escapeXmlText(child.content);
    else break; // a processing instruction's wrapper has no `next`; comments and the rest are not content
  }
  return out;
}

/**
 * The attributes of an element that `anyAttribute` admits: every one but the declared ones (named `{namespace}local`)
 * and xsi's, by name (`{namespace}local` when qualified, `local` when not); undefined when there are none.
 */
export function otherAttributesOf(element: XmlElement, declared: readonly string[]): Record<string, string> | undefined {
  const other: Record<string, string> = {};
  let found = false;
  for (const a of element.attrs) {
    const namespace = a.namespaceUri ?? '';
    if (namespace === XSI_NAMESPACE || declared.includes(`{${namespace}}${a.name}`)) continue;
    other[namespace ? `{${namespace}}${a.name}` : a.name] = a.value;
    found = true;
  }
  return found ? other : undefined;
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const NC_NAME = /^[\p{L}_][\p{L}\p{N}\p{Mn}\p{Mc}._\-\u00B7]*$/u;

/** Writes the attributes otherAttributesOf read, each with a space before it; a qualified one declares its own prefix. */
export function writeOtherAttributes(other: Readonly<Record<string, string>> | undefined): string {
  if (other === undefined) return '';
  let out = '';
  let prefixes = 0;
  for (const [name, value] of Object.entries(other)) {
    const qualified = /^\{([^}]*)\}(.+)$/.exec(name);
    // A name a handler made up is written only when it is an XML name (no markup can ride in on it).
    if (!NC_NAME.test(qualified ? qualified[2] : name))
      throw new Error(`otherAttributes: ${JSON.stringify(name)} is not an attribute name`);
    if (!qualified || qualified[1] === '') out += ` ${qualified ? qualified[2] : name}="${escapeXmlAttribute(value)}"`;
    else if (qualified[1] === XML_NAMESPACE) out += ` xml:${qualified[2]}="${escapeXmlAttribute(value)}"`;
    else {
      const prefix = `any${prefixes++}`;
      out += ` ${prefix}:${qualified[2]}="${escapeXmlAttribute(value)}" xmlns:${prefix}="${escapeXmlAttribute(qualified[1])}"`;
    }
  }
  return out;
}

/** The local name an element's xsi:type names (its prefix's namespace is the contract's); undefined without one. */
export function xsiTypeOf(element: XmlElement): string | undefined {
  const type = element.attrs.find((a) => a.name === 'type' && a.namespaceUri === XSI_NAMESPACE)?.value.trim();
  return type === undefined ? undefined : type.slice(type.indexOf(':') + 1);
}
