/**
 * XML checks shared by the tests: schema validation against the contract,
 * SOAP envelope rules, SOAP fault reading, and reading the Pair `Html`
 * fragment. Schema validation is the service's own engine, libxml2 2.15 in
 * WebAssembly (libxml2-wasm; loaded by then: every caller has started a
 * service); everything else is read through libxmljs2's DOM and XPath, whose
 * HTML parser libxml2-wasm lacks. The only string comparison is of the fixed
 * XML declaration, whose exact spelling (quotes, case) the DOM does not keep.
 */
import type { ExecutionContext } from 'ava';
import { Document, parseHtmlFragment, parseXml, type Element, type Node } from 'libxmljs2';
import { renderSchema } from '../../generated/documents';
import { xml as xmlEngine, type XsdValidator } from '../../src/xml/engine';
import { compileSchema, firstLibxmlMessage } from '../../src/xml/parse';

export const DEFAULT_NAMESPACE = 'http://authenticatorapi.com/';
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

export type SoapVersionName = '1.1' | '1.2';

export const SOAP_ENVELOPE_NAMESPACES: Readonly<Record<SoapVersionName, string>> = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
};

export const SOAP_CONTENT_TYPES: Readonly<Record<SoapVersionName, string>> = {
  '1.1': 'text/xml; charset=utf-8',
  '1.2': 'application/soap+xml; charset=utf-8',
};

export interface ValidationResult {
  valid: boolean;
  errors: string[];
}

/** Parses a document the way a careful client would: no entities, no DTD loading, no network. */
export function parseStrict(xml: string): Document {
  // nodict: names are not interned in a dictionary of the document, so elements can be copied
  // into documents of their own (libxml2 frees interned names wrongly after such a move).
  return parseXml(xml, { noent: false, dtdload: false, dtdvalid: false, nonet: true, nodict: true });
}

const validators = new Map<string, XsdValidator>();

/** The contract schema (generated/documents.ts) in `namespace`, compiled by libxml2-wasm once per namespace. */
export function contractValidator(namespace: string = DEFAULT_NAMESPACE): XsdValidator {
  let validator = validators.get(namespace);
  if (!validator) {
    validator = compileSchema(renderSchema(namespace));
    validators.set(namespace, validator);
  }
  return validator;
}

/** Parses `text` with libxml2-wasm (no entities, no DTD loading, no network) and validates the whole document. */
function validateText(text: string, validator: XsdValidator): ValidationResult {
  const { XmlDocument, ParseOption } = xmlEngine();
  let doc: InstanceType<typeof XmlDocument>;
  try {
    doc = XmlDocument.fromString(text, { option: ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE });
  } catch (error) {
    return { valid: false, errors: [`not well-formed: ${firstLibxmlMessage(error)}`] };
  }
  try {
    validator.validate(doc);
    return { valid: true, errors: [] };
  } catch (error) {
    const details = (error as { details?: { message: string }[] }).details ?? [];
    return { valid: false, errors: details.length ? details.map((d) => d.message.trim()) : [firstLibxmlMessage(error)] };
  } finally {
    doc.dispose();
  }
}

/** Validates the whole document `xml` against the contract schema in `namespace`. */
export function validateAgainstContract(xml: string, namespace: string = DEFAULT_NAMESPACE): ValidationResult {
  return validateText(xml, contractValidator(namespace));
}

const compiledSchemas = new WeakMap<Document, XsdValidator>();

/**
 * Copies `element` (a deep clone, so namespaces declared on its ancestors come
 * along and the original document is left alone) into a document of its own
 * and validates it against `schema` (a schema document, e.g. the WSDL's inline
 * one; default: the contract schema in `namespace`).
 */
export function validateElement(element: Element, namespace: string = DEFAULT_NAMESPACE, schema?: Document): ValidationResult {
  const single = new Document();
  single.root(element.clone());
  let validator = schema ? compiledSchemas.get(schema) : contractValidator(namespace);
  if (!validator) {
    validator = compileSchema(schema!.toString(false));
    compiledSchemas.set(schema!, validator);
  }
  return validateText(single.toString(false), validator);
}

/** An element's element children, in document order. */
export function childElements(node: Element): Element[] {
  return node.childNodes().filter((n): n is Element => n.type() === 'element');
}

/** The namespace URI of a node, or undefined when it has none. */
export function namespaceOf(node: Element): string | undefined {
  return node.namespace()?.href() ?? undefined;
}

/**
 * The XML declaration is exactly `<?xml version="1.0" encoding="utf-8"?>`, at
 * the very start (no BOM, nothing before), and libxml2 read it as such.
 */
export function assertXmlDeclaration(t: ExecutionContext, xml: string, doc: Document = parseStrict(xml)): void {
  t.true(xml.startsWith(XML_DECLARATION), 'the document starts with <?xml version="1.0" encoding="utf-8"?>');
  t.is(doc.version(), '1.0', 'XML version');
  t.is(doc.encoding(), 'utf-8', 'declared encoding');
}

/** Fails the test and stops it: for structure without which the remaining checks make no sense. */
function must(t: ExecutionContext, condition: boolean, message: string): asserts condition {
  t.true(condition, message);
  if (!condition) throw new Error(message);
}

/**
 * Checks the SOAP envelope rules of `xml` for `version` and returns the single
 * child element of Body (the operation response, or a Fault).
 */
export function assertSoapEnvelope(t: ExecutionContext, xml: string, version: SoapVersionName): Element {
  const envelopeNs = SOAP_ENVELOPE_NAMESPACES[version];
  let doc: Document;
  try {
    doc = parseStrict(xml);
  } catch (error) {
    must(t, false, `the answer is well-formed XML (${(error as Error).message.trim()})`);
  }
  assertXmlDeclaration(t, xml, doc);
  t.is(doc.getDtd() as unknown, null, 'no DTD');
  t.is(doc.find('//processing-instruction()').length, 0, 'no processing instruction after the declaration');

  const envelope = doc.root();
  must(t, envelope !== null, 'the document has a root element');
  must(t, envelope.name() === 'Envelope', `the root element is Envelope (found ${envelope.name()})`);
  t.is(namespaceOf(envelope), envelopeNs, `Envelope is in the SOAP ${version} envelope namespace`);
  t.is(envelope.namespace()?.prefix(), 'soap', 'Envelope has the prefix soap');

  const stray = envelope.childNodes().filter((n) => n.type() === 'text' && (n as Node & { text(): string }).text().trim() !== '');
  t.is(stray.length, 0, 'no character data directly in Envelope');

  const children = childElements(envelope);
  const names = children.map((c) => `{${namespaceOf(c) ?? ''}}${c.name()}`);
  const isEnv = (c: Element, name: string) => c.name() === name && namespaceOf(c) === envelopeNs;
  const expected =
    children.length === 2 ? isEnv(children[0], 'Header') && isEnv(children[1], 'Body') : children.length === 1 && isEnv(children[0], 'Body');
  must(t, expected, `Envelope holds an optional Header then exactly one Body (found ${names.join(', ') || 'nothing'})`);

  const body = children[children.length - 1];
  const content = childElements(body);
  must(t, content.length === 1, `Body holds exactly one element (found ${content.length})`);
  return content[0];
}

export interface SoapFault {
  /** The fault code as written, e.g. `soap:Client` (1.1) or `soap:Sender` (1.2). */
  code: string;
  /** The namespace the code's prefix is bound to where it is written. */
  codeNamespace: string | undefined;
  /** The local part of the code, e.g. `Client`. */
  codeLocalName: string;
  /** faultstring (1.1) or the Reason Text (1.2). */
  reason: string;
}

/** Reads the Fault of a SOAP answer; throws when there is none. */
export function readFault(xml: string, version: SoapVersionName): SoapFault {
  const doc = parseStrict(xml);
  const ns = { env: SOAP_ENVELOPE_NAMESPACES[version] };
  const fault = doc.get<Element>('/env:Envelope/env:Body/env:Fault', ns);
  if (!fault) throw new Error(`no SOAP ${version} Fault in the answer`);
  // SOAP 1.1: faultcode and faultstring are unqualified; SOAP 1.2: Code/Value and Reason/Text are qualified.
  const codeElement =
    version === '1.1' ? fault.get<Element>('faultcode') : fault.get<Element>('env:Code/env:Value', ns);
  const reasonElement =
    version === '1.1' ? fault.get<Element>('faultstring') : fault.get<Element>('env:Reason/env:Text', ns);
  if (!codeElement || !reasonElement) throw new Error(`the SOAP ${version} Fault lacks its code or reason`);
  const code = codeElement.text().trim();
  const colon = code.indexOf(':');
  const prefix = colon >= 0 ? code.slice(0, colon) : null;
  const codeNamespace = codeElement
    .namespaces()
    .find((n) => (n.prefix() ?? null) === prefix)
    ?.href();
  return { code, codeNamespace, codeLocalName: code.slice(colon + 1), reason: reasonElement.text() };
}

export interface PairingHtml {
  /** Name of the fragment's first element (libxml2 nests anything after it inside it). */
  root: string | undefined;
  /** How many a elements the fragment holds. */
  links: number;
  /** Names of the child elements of the link. */
  linkChildren: string[];
  /** Text directly or indirectly inside the link, white space trimmed. */
  linkText: string;
  title: string | undefined;
  /** The link target: the otpauth URI. */
  href: string | undefined;
  /** The image source. */
  imgSrc: string | undefined;
  border: string | undefined;
  /** How many img elements the fragment holds. */
  images: number;
}

/** Reads the Pair `Html` fragment with libxml2's HTML parser (parseHtmlFragment), not with patterns. */
export function readPairingHtml(html: string): PairingHtml {
  const doc = parseHtmlFragment(html);
  const links = doc.find<Element>('//a');
  const images = doc.find<Element>('//img');
  const link = links[0];
  const img = images[0];
  return {
    root: doc.root()?.name(),
    links: links.length,
    linkChildren: link ? childElements(link).map((e) => e.name()) : [],
    linkText: link ? link.text().trim() : '',
    title: link?.attr('title')?.value(),
    href: link?.attr('href')?.value(),
    imgSrc: img?.attr('src')?.value(),
    border: img?.attr('border')?.value(),
    images: images.length,
  };
}
