/**
 * A value of xs:anyType (an element declared without a type, or of type
 * anyType) read lax, as XML Schema assesses such content: its attributes as
 * text, its content in document order as text, as elements the schema
 * declares globally (each read into its declaration's type, and refused as
 * that type refuses it) and as elements no declaration describes (kept as
 * XML). Written back as it was read: text escaped, a declared element by its
 * writer, a kept one as it came.
 */
import { childNodes, type XmlFragment, XSI_NAMESPACE, xmlFragmentOf } from './xml-codec';
import { xml, type XmlElement } from './xml-engine';
import { escapeXmlAttribute, escapeXmlText } from './xml-escape';
import { formatXsdQName, parseXsdQName, xsdQNameDeclaration } from './xsd-values';

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** An attribute of an anyType value: its local name, its namespace ('' for none) and its text. */
export interface AnyAttribute {
  readonly name: string;
  readonly namespace: string;
  /** Its text; xsi:type's value as the QName it names, `{namespace}local` (a local name alone in no namespace). */
  readonly value: string;
}

/** An element of an anyType value's content that a global declaration describes: its name and the value it was read into. */
export interface DeclaredElement {
  readonly name: string;
  readonly namespace: string;
  readonly value: unknown;
}

/** An element of an anyType value's content that no global declaration describes, kept as XML. */
export interface KeptElement {
  readonly xml: XmlFragment;
}

/** One part of an anyType value's content: text, a declared element's value, or an element kept as XML. */
export type AnyContent = string | DeclaredElement | KeptElement;

/** A global element's reader and writer, for content read lax: `write` gives the element itself, self-contained. */
export interface GlobalElementCodec {
  read(element: XmlElement): unknown;
  write(value: never): string;
}

/** The global elements of a schema set by `{namespace}name` (generated/types.ts's GLOBAL_ELEMENTS). */
export type GlobalElements = Readonly<Record<string, GlobalElementCodec>>;

export class AnyType {
  constructor(
    readonly content: readonly AnyContent[] = [],
    readonly attributes: readonly AnyAttribute[] = [],
  ) {}

  /** The text of its content: its text parts joined (an element of text only: all of it). */
  get text(): string {
    return this.content.filter((part): part is string => typeof part === 'string').join('');
  }

  /** The elements of its content that global declarations describe, in order. */
  get elements(): DeclaredElement[] {
    return this.content.filter((part): part is DeclaredElement => typeof part !== 'string' && 'value' in part);
  }

  /** Its attributes as XML, each namespace declared with a prefix of its own (`aN`), for the start tag. */
  xmlAttributes(): string {
    let out = '';
    this.attributes.forEach((a, i) => {
      const prefix = a.namespace === XML_NAMESPACE ? 'xml' : `a${i}`;
      const declaration =
        a.namespace === '' || a.namespace === XML_NAMESPACE ? '' : ` xmlns:${prefix}="${escapeXmlAttribute(a.namespace)}"`;
      const qualified = a.namespace === '' ? a.name : `${prefix}:${a.name}`;
      if (isXsiType(a)) {
        out += `${declaration} ${qualified}="${escapeXmlAttribute(formatXsdQName(a.value, `t${i}`))}"${xsdQNameDeclaration(a.value, `t${i}`)}`;
      } else out += `${declaration} ${qualified}="${escapeXmlAttribute(a.value)}"`;
    });
    return out;
  }
}

const isXsiType = (a: AnyAttribute) => a.name === 'type' && a.namespace === XSI_NAMESPACE;

/** Reads an element as anyType, lax: each child element that `elements` declares read by its reader, any other kept as XML. */
export function readAnyType(element: XmlElement, elements: GlobalElements): AnyType {
  const { XmlElement: Element, XmlText, XmlCData } = xml();
  const attributes = element.attrs.map((a): AnyAttribute => {
    const namespace = a.namespaceUri ?? '';
    const attribute = { name: a.name, namespace, value: a.value };
    return isXsiType(attribute) ? { ...attribute, value: parseXsdQName(a.value, element) } : attribute;
  });
  const content: AnyContent[] = [];
  for (const child of childNodes(element)) {
    if (child instanceof Element) {
      content.push(readWildcardElement(child, elements));
    } else if (child instanceof XmlText || child instanceof XmlCData) {
      // Adjacent text (a CDATA section beside text) is one text part.
      const last = content.length - 1;
      if (typeof content[last] === 'string') content[last] += child.content;
      else content.push(child.content);
    }
  }
  return new AnyType(content, attributes);
}

/** An anyType value's content as XML: text escaped, each declared element by its writer of `elements`, each kept one as it came. */
export function anyTypeContent(value: AnyType, elements: GlobalElements): string {
  let out = '';
  for (const part of value.content) {
    if (typeof part === 'string') out += escapeXmlText(part);
    else out += wildcardElementXml(part, elements);
  }
  return out;
}

/** An element a wildcard matched: read into its global declaration's type, or kept as XML. */
export type WildcardElement = DeclaredElement | KeptElement;

/**
 * Reads an element a strict or lax wildcard matched: into the type of the global declaration `elements` has for
 * it (refused as that type refuses it), else kept as XML. A skip wildcard's elements are kept (keepWildcardElement).
 */
export function readWildcardElement(element: XmlElement, elements: GlobalElements): WildcardElement {
  const namespace = element.namespaceUri ?? '';
  const codec = elements[`{${namespace}}${element.name}`];
  return codec ? { name: element.name, namespace, value: codec.read(element) } : { xml: xmlFragmentOf(element) };
}

/** A skip wildcard's element: kept as XML, declared or not. */
export function keepWildcardElement(element: XmlElement): KeptElement {
  return { xml: xmlFragmentOf(element) };
}

/** A wildcard's element as XML: a declared one by its writer of `elements`, a kept one as it came. */
export function wildcardElementXml(item: WildcardElement, elements: GlobalElements): string {
  if ('xml' in item) return item.xml;
  const codec = elements[`{${item.namespace}}${item.name}`];
  if (!codec) throw new Error(`{${item.namespace}}${item.name} is no global element of the schema`);
  return (codec.write as (value: unknown) => string)(item.value);
}
