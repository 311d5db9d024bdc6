/**
 * The small run-time the generated classes and routes encode and decode with:
 * XML Schema value spaces for reading (XML escaping is xml-escape.ts's). Parsing
 * itself is libxml2's (libxml2-wasm); nothing here reads XML syntax.
 */
import { DecodeError, decodeErrorAt } from './decode-error';
import { safeParseOptions, xml, type XmlElement, type XmlXPath } from './xml-engine';
import { escapeXmlAttribute, escapeXmlText } from './xml-escape';
import { formatXsdQName, parseXsdQName, xsdQNameDeclaration } from './xsd-values';

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';

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

export { DecodeError, decodeErrorAt };

/**
 * XML kept as it came (xs:any, anyType, mixed content): the text of one or
 * more elements, each with the namespace declarations it needs, written back
 * as it is.
 */
export type XmlFragment = string;

/**
 * An element and its content as self-contained XML text: the namespaces its names use (its own and its
 * descendants') declared on it, as exclusive canonical XML declares them, so that it keeps its meaning wherever it
 * is written and reads back the same; below it, each element's own declarations as written; comments and
 * processing instructions left out. Written node by node: libxml2's canonical form refuses the relative
 * namespace URIs some schemas use.
 */
export function xmlFragmentOf(element: XmlElement): XmlFragment {
  const used = new Set<string>();
  collectPrefixes(element, used);
  let declarations = '';
  for (const prefix of [...used].sort()) {
    const uri = element.namespaceForPrefix(prefix);
    if (uri !== null && !(prefix === '' && uri === '')) declarations += namespaceDeclaration(prefix, uri);
  }
  // An element in no namespace stays in none where a default namespace is in scope.
  if (!element.namespaceUri && !element.prefix && element.namespaceForPrefix('')) declarations += ' xmlns=""';
  return writeElement(element, declarations, element.nsDeclarations);
}

/** The prefixes the names of an element and its descendants use ('' for the default namespace), and their xsi:type values. */
function collectPrefixes(element: XmlElement, into: Set<string>): void {
  into.add(element.prefix ?? '');
  for (const attribute of element.attrs) {
    if (attribute.prefix) into.add(attribute.prefix);
    // xsi:type's value is a QName: its prefix is used too.
    if (attribute.name === 'type' && attribute.namespaceUri === XSI_NAMESPACE) {
      const value = attribute.value.trim();
      into.add(value.includes(':') ? value.slice(0, value.indexOf(':')) : '');
    }
  }
  for (const child of childNodes(element)) if (child instanceof xml().XmlElement) collectPrefixes(child, into);
}

/** The whole content of an element of mixed content: its text escaped, its elements self-contained. */
export function mixedContentOf(element: XmlElement): XmlFragment {
  const { XmlElement: Element, XmlText, XmlCData } = xml();
  let out = '';
  for (const child of childNodes(element)) {
    if (child instanceof Element) out += xmlFragmentOf(child);
    else if (child instanceof XmlText || child instanceof XmlCData) out += escapeXmlText(child.content);
  }
  return out;
}

let childNodesPath: XmlXPath | undefined;

/**
 * Every child node of an element, in document order: an XPath compiled once, not a walk over siblings, since
 * libxml2-wasm's wrapper of a processing instruction has no `next` (the walk would stop at one).
 */
export function childNodes(element: XmlElement): ReturnType<XmlElement['find']> {
  childNodesPath ??= xml().XmlXPath.compile('node()');
  return element.find(childNodesPath);
}

function namespaceDeclaration(prefix: string, uri: string): string {
  return prefix ? ` xmlns:${prefix}="${escapeXmlAttribute(uri)}"` : ` xmlns="${escapeXmlAttribute(uri)}"`;
}

/** An element as text: `declarations` on its start tag, then its own (`own`) that those do not already make. */
function writeElement(element: XmlElement, declarations: string, own: Record<string, string> = {}): string {
  const { XmlElement: Element, XmlText, XmlCData } = xml();
  const name = element.prefix ? `${element.prefix}:${element.name}` : element.name;
  let out = `<${name}${declarations}`;
  for (const [prefix, uri] of Object.entries(own)) {
    const made = namespaceDeclaration(prefix, uri);
    if (!declarations.includes(prefix ? ` xmlns:${prefix}=` : ' xmlns=')) out += made;
  }
  for (const attribute of element.attrs) {
    out += ` ${attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name}="${escapeXmlAttribute(attribute.value)}"`;
  }
  let content = '';
  for (const child of childNodes(element)) {
    if (child instanceof Element) content += writeElement(child, '', child.nsDeclarations);
    else if (child instanceof XmlText || child instanceof XmlCData) content += escapeXmlText(child.content);
  }
  return `${out}>${content}</${name}>`;
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

/**
 * A simple value read from an element that names its type with xsi:type (a type derived from the declared one, or
 * any simple type where anySimpleType is declared): the value, of the declared type, and the type named, a QName in
 * James Clark's notation (`{namespace}local`, `local` in no namespace). Written back with that xsi:type.
 */
export class XsiTyped<T> {
  constructor(
    readonly xsiType: string,
    readonly value: T,
  ) {}
}

/** An element's simple value, kept with the type its xsi:type names when it names one. */
export function xsiTyped<T>(element: XmlElement, value: T): T | XsiTyped<T> {
  const named = element.attrs.find((a) => a.name === 'type' && a.namespaceUri === XSI_NAMESPACE)?.value;
  return named === undefined ? value : new XsiTyped(parseXsdQName(named, element), value);
}

/** The value itself, without the xsi:type it was read with. */
export function xsiTypedValue<T>(value: T | XsiTyped<T>): T {
  return value instanceof XsiTyped ? value.value : value;
}

/** The xsi:type attribute (and the declarations it needs) of a value read with one; '' for any other value. */
export function xsiTypeAttribute(value: unknown): string {
  if (!(value instanceof XsiTyped)) return '';
  return ` xsi:type="${escapeXmlAttribute(formatXsdQName(value.xsiType, 'xsit'))}" xmlns:xsi="${XSI_NAMESPACE}"${xsdQNameDeclaration(value.xsiType, 'xsit')}`;
}

/** A global element's reader and writer, as generated for each (elements.ts): its document in, its value out, and back. */
export interface ElementCodec<T> {
  readonly name: string;
  /** '' for an element in no namespace. */
  readonly namespace: string;
  /** Reads a document whose root is this element; a DecodeError says what does not fit. */
  read(text: string): T;
  /** Writes a value as a document whose root is this element (an XML declaration first). */
  write(value: T): string;
}

/**
 * Parses a document whose root element must be `{namespace}name` and decodes
 * that element. XML as the service takes it: no DTD (a DOCTYPE is refused),
 * no entity expanded, nothing fetched. The document is freed before it
 * returns; a parse error or another root is a DecodeError.
 */
export function readDocument<T>(text: string, name: string, namespace: string, decode: (root: XmlElement) => T): T {
  return withRoot(text, (root) => {
    if (root.name !== name || (root.namespaceUri ?? '') !== namespace) {
      throw new DecodeError(`the root element is {${root.namespaceUri ?? ''}}${root.name}, not {${namespace}}${name}`);
    }
    return decode(root);
  });
}

/** A global type a document's root names with xsi:type where no element declares the root (elements.ts's ROOT_TYPES). */
export interface RootType {
  read(root: XmlElement): unknown;
  /** The root's attributes (and the namespace declarations its content needs), and its content. */
  write(value: never): { attributes: string; content: string };
}

/** A document's root that no global element declares, read by the global type its xsi:type names (`{namespace}name`). */
export interface TypedRoot {
  readonly name: string;
  readonly namespace: string;
  readonly xsiType: string;
  readonly value: unknown;
}

/** Reads a document whose root no global element declares by the type its xsi:type names, one of `types`. */
export function readTypedRoot(text: string, types: Readonly<Record<string, RootType>>): TypedRoot {
  return withRoot(text, (root) => {
    const named = root.attrs.find((a) => a.name === 'type' && a.namespaceUri === XSI_NAMESPACE)?.value;
    const at = `{${root.namespaceUri ?? ''}}${root.name}`;
    if (named === undefined) throw new DecodeError(`the root element ${at} is no global element's, and names no type with xsi:type`);
    const qname = parseXsdQName(named, root);
    const xsiType = qname.startsWith('{') ? qname : `{}${qname}`;
    const type = types[xsiType];
    if (!type) throw new DecodeError(`the root element ${at} names type ${xsiType} with xsi:type, which is no global type of the schema`);
    return { name: root.name, namespace: root.namespaceUri ?? '', xsiType, value: type.read(root) };
  });
}

/** Writes a document read by readTypedRoot: its root, of the name and namespace it had, with its xsi:type. */
export function writeTypedRoot(root: TypedRoot, types: Readonly<Record<string, RootType>>): string {
  const type = types[root.xsiType];
  if (!type) throw new Error(`xsi:type ${root.xsiType} is no global type of the schema`);
  const { attributes, content } = (type.write as (value: unknown) => { attributes: string; content: string })(root.value);
  const tag = root.namespace === '' ? root.name : `xsir:${root.name}`;
  const own = root.namespace === '' ? '' : ` xmlns:xsir="${escapeXmlAttribute(root.namespace)}"`;
  const xsiType = formatXsdQName(root.xsiType.replace(/^\{\}/, ''), 'xsit');
  return `${XML_DECLARATION}<${tag}${own} xsi:type="${escapeXmlAttribute(xsiType)}" xmlns:xsi="${XSI_NAMESPACE}"${xsdQNameDeclaration(root.xsiType, 'xsit')}${attributes}>${content}</${tag}>`;
}

/** Parses a document as the service takes it (no DTD, nothing fetched) and decodes its root; freed before returning. */
function withRoot<T>(text: string, decode: (root: XmlElement) => T): T {
  const { XmlDocument } = xml();
  let doc: ReturnType<typeof XmlDocument.fromString>;
  try {
    doc = XmlDocument.fromString(text, { option: safeParseOptions() });
  } catch (error) {
    const details = (error as { details?: { message?: string; line?: number }[] }).details;
    const first = details?.[0];
    throw new DecodeError(`not well-formed XML${first?.line ? ` (line ${first.line})` : ''}: ${(first?.message ?? '').trim()}`);
  }
  try {
    if (doc.dtd !== null) throw new DecodeError('a document with a DOCTYPE is refused');
    return decode(doc.root);
  } finally {
    doc.dispose();
  }
}

/** Where a value read from XML keeps the order its elements came in, when the schema lets them come in any (an all group). */
const XML_ORDER = Symbol('the order its elements were read in');

/** Records on a value the order its members' elements were read in (not enumerable: no JSON or comparison sees it). */
export function withXmlOrder<T extends object>(value: T, order: readonly string[]): T {
  Object.defineProperty(value, XML_ORDER, { value: order });
  return value;
}

/** The order to write a value's members in: the one it was read in, then any others in the schema's order. */
export function xmlOrderOf(value: object, schemaOrder: readonly string[]): readonly string[] {
  const order = (value as { [XML_ORDER]?: readonly string[] })[XML_ORDER];
  return order === undefined ? schemaOrder : [...order, ...schemaOrder.filter((name) => !order.includes(name))];
}
