import { readFileSync } from 'node:fs';
import { safeParseOptions, xml, type XmlDocument, type XmlElement, type XmlEngine } from '../../src/xml/xml-engine';
import { firstLibxmlMessage } from '../../src/xml/xml-schema';

export type XmlNode = InstanceType<XmlEngine['XmlNode']>;

export const NS = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
  s: 'http://www.w3.org/2001/XMLSchema',
} as const;

/** The runtime's safe options; NOBLANKS drops white-space-only text between elements. */
function parseOptions(dropBlanks: boolean): number {
  return safeParseOptions() | (dropBlanks ? xml().ParseOption.XML_PARSE_NOBLANKS : 0);
}

/** Parses a schema/ file; the caller disposes the document. */
export function readXmlFile(path: string): XmlDocument {
  return parseXmlText(readFileSync(path, 'utf8'), path);
}

/** Parses XML text (a schema/ file, or a document serialised by libxml2); the caller disposes the document. */
export function parseXmlText(text: string, source: string, options: { dropBlanks?: boolean } = {}): XmlDocument {
  try {
    return xml().XmlDocument.fromString(text, { option: parseOptions(options.dropBlanks ?? false) });
  } catch (error) {
    throw new Error(`codegen: ${source} is not well-formed XML: ${firstLibxmlMessage(error)}`);
  }
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
  if (value === undefined) throw new Error(`codegen: <${element.name}> has no ${name} attribute`);
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
  if (found.length !== 1) throw new Error(`codegen: expected one ${xpath}, found ${found.length}`);
  return found[0];
}

/** `tns:Pair` → `Pair`: the contract has one target namespace, so local names identify. */
export function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

/** The namespace a QName written in an attribute of `element` is in (null when its prefix is not declared). */
export function namespaceOfQName(element: XmlElement, qname: string): string | null {
  return element.namespaceForPrefix(qname.includes(':') ? qname.slice(0, qname.indexOf(':')) : '');
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

function fillCopy(source: XmlElement, copy: XmlElement): void {
  const { XmlElement, XmlText, XmlCData, XmlComment } = xml();
  for (const [prefix, uri] of Object.entries(source.nsDeclarations)) copy.addNsDeclaration(uri, prefix || undefined);
  if (source.prefix) copy.prefix = source.prefix;
  if (copy.namespaceUri !== source.namespaceUri) {
    throw new Error(
      `codegen: <${source.name}> would change namespace when copied (${source.namespaceUri || 'none'} → ${copy.namespaceUri || 'none'})`,
    );
  }
  for (const attribute of source.attrs) copy.setAttr(attribute.name, attribute.value, attribute.prefix || undefined);
  for (let child = source.firstChild; child; child = child.next) {
    if (child instanceof XmlElement) fillCopy(child, copy.addElement(child.name));
    else if (child instanceof XmlText) copy.addText(child.content);
    else if (child instanceof XmlCData) copy.addCData(child.content);
    else if (child instanceof XmlComment) copy.addComment(child.content);
    // Checked before reading `next`: libxml2-wasm's wrapper of a processing instruction has none.
    else throw new Error(`codegen: <${source.name}> holds a node codegen cannot copy (${child.constructor.name})`);
  }
}
