import { readFileSync } from 'node:fs';
import {
  firstLibxmlMessage,
  safeParseOptions,
  xml,
  type XmlDocument,
  type XmlElement,
  type XmlEngine,
  xmlInternals,
} from 'contract-runtime/xml';

export type XmlNode = InstanceType<XmlEngine['XmlNode']>;

export const NS = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
  s: 'http://www.w3.org/2001/XMLSchema',
} as const;

/** XML's own namespace, of `xml:lang` and its kin (bound to the prefix xml in every document; not one of NS's). */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** The runtime's safe options; NOBLANKS drops white-space-only text between elements. */
function parseOptions(dropBlanks: boolean): number {
  return safeParseOptions() | (dropBlanks ? xml().ParseOption.XML_PARSE_NOBLANKS : 0);
}

/** The file each parsed document came from: libxml2-wasm hands out one wrapper per document, so it is the key. */
const FILES = new WeakMap<XmlDocument, string>();

/** Parses a WSDL or XSD file; the caller disposes the document. */
export function readXmlFile(path: string, unqualifiedRoot?: (line: string) => void): XmlDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`codegen: ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const doc = parseXmlText(schema1999As2001(text), path);
  return unqualifiedRoot ? qualifiedRoot(doc, text, path, unqualifiedRoot) : doc;
}

const ROOT_NAMESPACES: Record<string, { namespace: string; of: string; reader: string }> = {
  definitions: { namespace: NS.wsdl, of: "WSDL 1.1's", reader: "PHP's SoapClient" },
  schema: { namespace: NS.s, of: "XML Schema's", reader: 'Axis 1' },
};

/**
 * A WSDL or a schema document whose root (`definitions`, `schema`) is in no namespace because it declares no default
 * one (Daisycon's PHP WSDLs; a schema of Axis 1's import test, its children prefixed): read with the namespace as the
 * default one, as the toolkit that publishes it reads it, said in `warn`'s line; any other document as it is.
 */
function qualifiedRoot(doc: XmlDocument, text: string, path: string, warn: (line: string) => void): XmlDocument {
  const known = ROOT_NAMESPACES[doc.root.name];
  if (!known || doc.root.namespaceUri || doc.root.nsDeclarations[''] !== undefined) return doc;
  const start = new RegExp(`<${doc.root.name}(?=[\\s/>])`).exec(text);
  if (!start) return doc;
  const line = doc.root.line;
  doc.dispose();
  const at = start.index + start[0].length;
  warn(
    `codegen: warning: ${path}:${line}: <${start[0].slice(1)}> is in no namespace (the document declares no default one): read as ${known.of}, as ${known.reader} reads it`,
  );
  return parseXmlText(schema1999As2001(`${text.slice(0, at)} xmlns="${known.namespace}"${text.slice(at)}`), path);
}

/**
 * The schema namespace of the 1999 working draft, which SOAP-encoding-era toolkits wrote (Apache SOAP, early Axis 1,
 * SOAP::Lite), read as XML Schema's: its schemas are then read (and served) as XML Schema, its built-ins that the
 * Recommendation renamed (`timeInstant`, `ur-type`) as theirs (read/xsd/soap-arrays.ts). The instance namespace's
 * name is longer, and left as it is.
 */
export function schema1999As2001(text: string): string {
  return text.replace(/http:\/\/www\.w3\.org\/1999\/XMLSchema(?=["'])/g, NS.s);
}

/**
 * Parses XML text (a WSDL or XSD file, or a document serialised by libxml2);
 * the caller disposes the document. A DOCTYPE is read past, as standard
 * schemas published with one (W3C's xmldsig-core-schema.xsd) need: its DTD is
 * neither loaded nor applied, no entity is expanded and nothing is fetched. A
 * document that references an entity a DTD would define is refused, since
 * without the DTD its text is not what its author wrote.
 */
export function parseXmlText(text: string, source: string, options: { dropBlanks?: boolean } = {}): XmlDocument {
  let doc: XmlDocument;
  try {
    doc = xml().XmlDocument.fromString(text, { option: parseOptions(options.dropBlanks ?? false) });
  } catch (error) {
    const line = (error as { details?: { line?: number }[] }).details?.[0]?.line;
    throw new Error(`codegen: ${source}${line ? `:${line}` : ''}: not well-formed XML: ${firstLibxmlMessage(error)}`);
  }
  if (doc.dtd !== null) {
    // libxml2 keeps a reference it does not expand as such; written out, it is the one `&name;` it does not escape.
    const reference = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)([^;\s&]+);/.exec(doc.root.toString());
    if (reference) {
      doc.dispose();
      throw new Error(
        `codegen: ${source}:1: references the entity &${reference[1]}; that its DTD defines: codegen reads no DTD (no entity is expanded, nothing is fetched); publish the document with the entity's text in its place`,
      );
    }
  }
  FILES.set(doc, source);
  return doc;
}

/** `file:line` of a node of a parsed file. */
export function locationOf(node: XmlElement): string {
  return `${FILES.get(node.doc) ?? 'the contract'}:${node.line}`;
}

/** Throws the one-line error of a construct codegen does not take: `codegen: FILE:LINE: where: what`. */
export type Refuse = ((node: XmlElement, where: string, what: string) => never) & { file: string };

export function refuser(file: string): Refuse {
  const refuse = (node: XmlElement, where: string, what: string): never => {
    throw new Error(`codegen: ${file}:${node.line}: ${where}: ${what}`);
  };
  return Object.assign(refuse, { file });
}

/** Refuses at a node of a parsed file, its file found from its document. */
export function refuseAt(node: XmlElement, what: string): never {
  throw new Error(`codegen: ${locationOf(node)}: ${what}`);
}

/** A copy of a document, made by serialising it and parsing the text again; the caller disposes it. */
export function copyDocument(doc: XmlDocument, source: string, options: { dropBlanks?: boolean } = {}): XmlDocument {
  return parseXmlText(doc.toString(), source, options);
}

/** Runs `use` on a document and frees the document when it returns or throws. */
export function withDocument<T>(doc: XmlDocument, use: (doc: XmlDocument) => T): T {
  try {
    return use(doc);
  } finally {
    doc.dispose();
  }
}

export function attr(element: XmlElement, name: string): string {
  const value = element.attr(name)?.value;
  if (value === undefined) refuseAt(element, `<${element.name}> has no ${name} attribute`);
  return value;
}

export function optionalAttr(element: XmlElement, name: string): string | undefined {
  return element.attr(name)?.value;
}

export function findAll(node: XmlDocument | XmlElement, xpath: string): XmlElement[] {
  return node.find(xpath, NS).map((found) => {
    if (!(found instanceof xml().XmlElement)) throw new Error(`codegen: ${xpath} must select elements only`);
    return found;
  });
}

export function findOne(node: XmlDocument | XmlElement, xpath: string): XmlElement {
  const found = findAll(node, xpath);
  if (found.length !== 1) {
    const what = `expected one ${xpath}, found ${found.length}`;
    if (node instanceof xml().XmlElement) refuseAt(found[1] ?? node, what);
    throw new Error(`codegen: ${what}`);
  }
  return found[0];
}

/** `tns:Add` → `Add`: the contract has one target namespace, so local names identify. */
export function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

/** The namespace a QName written in an attribute of `element` is in (null when its prefix is not declared). */
export function namespaceOfQName(element: XmlElement, qname: string): string | null {
  if (!qname.includes(':')) return element.namespaceForPrefix('') ?? ''; // no default namespace: the name is in none
  return element.namespaceForPrefix(qname.slice(0, qname.indexOf(':')));
}

/**
 * Copies an element of another document, with its namespace declarations,
 * attributes and content, in front of `before`: libxml2-wasm has no call that
 * moves or imports a node from one document into another, so the copy is
 * built node by node with its tree API.
 */
export function copyElementBefore(source: XmlElement, before: XmlElement): XmlElement {
  const copy = before.prependElement(source.name);
  fillCopy(source, copy);
  return copy;
}

/**
 * Puts in place of `element` an element of the same namespace and prefix named `name`, with its namespace
 * declarations, attributes and content (libxml2-wasm cannot rename a node); returns it.
 */
export function replaceRenamed(element: XmlElement, name: string): XmlElement {
  const renamed = element.prependElement(name);
  fillCopy(element, renamed);
  element.remove();
  return renamed;
}

/**
 * A document whose root is a copy of `source` with every namespace in scope
 * declared on it: a schema inline in a WSDL uses prefixes its ancestors
 * declare. The caller disposes it.
 */
export function standaloneCopy(source: XmlElement): XmlDocument {
  const doc = xml().XmlDocument.create();
  const root = doc.createRoot(source.name);
  for (const [prefix, uri] of Object.entries(source.namespaces)) root.addNsDeclaration(uri, prefix || undefined);
  fillCopy(source, root);
  return doc;
}

/** Appends a copy of `source` to `parent`, declaring there what `source` inherits and `parent` does not. */
export function appendCopy(source: XmlElement, parent: XmlElement): XmlElement {
  const copy = parent.addElement(source.name);
  const inScope = parent.namespaces;
  for (const [prefix, uri] of Object.entries(source.namespaces)) {
    if (inScope[prefix] !== uri) copy.addNsDeclaration(uri, prefix || undefined);
  }
  fillCopy(source, copy);
  return copy;
}

function fillCopy(source: XmlElement, copy: XmlElement): void {
  const { XmlElement, XmlText, XmlCData, XmlComment } = xml();
  const declared = copy.nsDeclarations;
  for (const [prefix, uri] of Object.entries(source.nsDeclarations)) {
    if (declared[prefix] !== uri) copy.addNsDeclaration(uri, prefix || undefined);
  }
  if (source.prefix) copy.prefix = source.prefix;
  if (copy.namespaceUri !== source.namespaceUri) {
    throw new Error(
      `codegen: <${source.name}> would change namespace when copied (${source.namespaceUri || 'none'} → ${copy.namespaceUri || 'none'})`,
    );
  }
  for (const attribute of source.attrs) {
    if (attribute.prefix) copy.setAttr(attribute.name, attribute.value, attribute.prefix);
    else setPlainAttr(copy, attribute.name, attribute.value);
  }
  for (let child = source.firstChild; child; child = child.next) {
    if (child instanceof XmlElement) fillCopy(child, copy.addElement(child.name));
    else if (child instanceof XmlText) copy.addText(child.content);
    else if (child instanceof XmlCData) copy.addCData(child.content);
    else if (child instanceof XmlComment) copy.addComment(child.content);
    // Checked before reading `next`: libxml2-wasm's wrapper of a processing instruction has none.
    else throw new Error(`codegen: <${source.name}> holds a node codegen cannot copy (${child.constructor.name})`);
  }
}

/**
 * Sets an attribute in no namespace. libxml2-wasm's setAttr without a prefix
 * takes the in-scope default namespace (a WSDL or schema written with its
 * namespace as default would get a namespaced second attribute), so such an
 * attribute is made with libxml2's xmlSetNsProp and no namespace.
 */
export function setPlainAttr(element: XmlElement, name: string, value: string): void {
  const existing = element.attrs.find((a) => a.name === name && !a.namespaceUri);
  if (existing) {
    existing.value = value;
    return;
  }
  if (!element.namespaceForPrefix('')) {
    element.setAttr(name, value);
    return;
  }
  // The element's libxml2 node: libxml2-wasm keeps it on its wrapper.
  xmlInternals().xmlSetNsProp((element as unknown as { _nodePtr: number })._nodePtr, 0, name, value);
}
