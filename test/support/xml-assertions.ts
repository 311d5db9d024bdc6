/**
 * XML checks shared by the tests: schema validation against the contract,
 * SOAP envelope rules, and reading the Pair `Html` fragment (SOAP faults
 * are read by test/support/requests.ts). Everything is read through
 * test/support/readers.ts: XML with the service's own engine, libxml2 2.15
 * in WebAssembly (libxml2-wasm), HTML with htmlparser2. The only string comparison is of the fixed XML declaration,
 * whose exact spelling (quotes, case) the parsed document does not keep.
 */
import type { ExecutionContext } from 'ava';
import { renderSchema } from '../../generated/documents';
import type { XsdValidator } from '../../src/runtime/xml/xml-engine';
import { compileSchema, firstLibxmlMessage } from '../../src/runtime/xml/xml-schema';
import {
  childElements,
  elementAt,
  htmlElements,
  htmlText,
  htmlAttribute,
  htmlTag,
  namespaceOf,
  prefixOf,
  readHtml,
  readXml,
  standaloneXml,
  type HtmlElement,
  type XmlDocument,
  type XmlElement,
} from './readers';

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

/** Parses `text` as readXml does and validates the whole document. */
function validateText(text: string, validator: XsdValidator): ValidationResult {
  try {
    return readXml(text, (doc) => {
      try {
        validator.validate(doc);
        return { valid: true, errors: [] };
      } catch (error) {
        const details = (error as { details?: { message: string }[] }).details ?? [];
        return { valid: false, errors: details.length ? details.map((d) => d.message.trim()) : [firstLibxmlMessage(error)] };
      }
    });
  } catch (error) {
    return { valid: false, errors: [`not well-formed: ${firstLibxmlMessage(error)}`] };
  }
}

/** Validates the whole document `xml` against the contract schema in `namespace`. */
export function validateAgainstContract(xml: string, namespace: string = DEFAULT_NAMESPACE): ValidationResult {
  return validateText(xml, contractValidator(namespace));
}

const compiledSchemas = new Map<string, XsdValidator>();

/** A schema given as text (e.g. the WSDL's inline one), compiled by libxml2-wasm once per text. */
function schemaValidator(schemaXml: string): XsdValidator {
  let validator = compiledSchemas.get(schemaXml);
  if (!validator) {
    validator = compileSchema(schemaXml);
    compiledSchemas.set(schemaXml, validator);
  }
  return validator;
}

/** Validates the whole document `xml` against the schema document `schemaXml`. */
export function validateAgainstSchema(xml: string, schemaXml: string): ValidationResult {
  return validateText(xml, schemaValidator(schemaXml));
}

/**
 * Validates `element` as a document of its own (namespaces declared on its
 * ancestors come along) against `schemaXml` (a schema document, e.g. the
 * WSDL's inline one; default: the contract schema in `namespace`).
 */
export function validateElement(element: XmlElement, namespace: string = DEFAULT_NAMESPACE, schemaXml?: string): ValidationResult {
  return validateText(standaloneXml(element), schemaXml === undefined ? contractValidator(namespace) : schemaValidator(schemaXml));
}

/**
 * The XML declaration is exactly `<?xml version="1.0" encoding="utf-8"?>`, at
 * the very start (no BOM, nothing before), and libxml2 read it as such.
 */
export function assertXmlDeclaration(t: ExecutionContext, xml: string, doc?: XmlDocument): void {
  t.true(xml.startsWith(XML_DECLARATION), 'the document starts with <?xml version="1.0" encoding="utf-8"?>');
  const [version, encoding] = doc ? [doc.version, doc.encoding] : readXml(xml, (parsed) => [parsed.version, parsed.encoding]);
  t.is(version, '1.0', 'XML version');
  t.is(encoding, 'utf-8', 'declared encoding');
}

/** Fails the test and stops it: for structure without which the remaining checks make no sense. */
function must(t: ExecutionContext, condition: boolean, message: string): asserts condition {
  t.true(condition, message);
  if (!condition) throw new Error(message);
}

/**
 * Checks the SOAP envelope rules of `xml` for `version` and runs `use` on the
 * single child element of Body (the operation response, or a Fault) while the
 * document is alive; returns what `use` returns.
 */
export function assertSoapEnvelope<T>(t: ExecutionContext, xml: string, version: SoapVersionName, use: (content: XmlElement) => T): T {
  const envelopeNs = SOAP_ENVELOPE_NAMESPACES[version];
  let parsed = false;
  try {
    return readXml(xml, (doc) => {
      parsed = true;
      assertXmlDeclaration(t, xml, doc);
      t.is(doc.dtd, null, 'no DTD');
      t.is(doc.find('//processing-instruction()').length, 0, 'no processing instruction after the declaration');

      const envelope = doc.root;
      must(t, envelope.name === 'Envelope', `the root element is Envelope (found ${envelope.name})`);
      t.is(namespaceOf(envelope), envelopeNs, `Envelope is in the SOAP ${version} envelope namespace`);
      t.is(prefixOf(envelope), 'soap', 'Envelope has the prefix soap');

      const stray = envelope.find('text()').filter((n) => n.content.trim() !== '');
      t.is(stray.length, 0, 'no character data directly in Envelope');

      const children = childElements(envelope);
      const names = children.map((c) => `{${namespaceOf(c) ?? ''}}${c.name}`);
      const isEnv = (c: XmlElement, name: string) => c.name === name && namespaceOf(c) === envelopeNs;
      const expected =
        children.length === 2
          ? isEnv(children[0], 'Header') && isEnv(children[1], 'Body')
          : children.length === 1 && isEnv(children[0], 'Body');
      must(t, expected, `Envelope holds an optional Header then exactly one Body (found ${names.join(', ') || 'nothing'})`);

      const body = children[children.length - 1];
      const content = childElements(body);
      must(t, content.length === 1, `Body holds exactly one element (found ${content.length})`);
      return use(content[0]);
    });
  } catch (error) {
    if (!parsed) must(t, false, `the answer is well-formed XML (${firstLibxmlMessage(error)})`);
    throw error;
  }
}

export interface PairingHtml {
  /** The fragment's top-level nodes: element names, `#text` for text that is not white space, `#comment`, `#directive`. */
  fragment: string[];
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

/** Reads the Pair `Html` fragment with an HTML parser (htmlparser2), not with patterns. */
export function readPairingHtml(html: string): PairingHtml {
  const doc = readHtml(html);
  const links = htmlElements(doc, htmlTag('a'));
  const images = htmlElements(doc, htmlTag('img'));
  const link = links[0];
  const img = images[0];
  const fragment = doc.children
    .filter((node) => node.type !== 'text' || htmlText(node).trim() !== '')
    .map((node) => ('attribs' in node ? node.name : `#${node.type}`));
  return {
    fragment,
    links: links.length,
    linkChildren: link ? link.children.filter((node): node is HtmlElement => 'attribs' in node).map((e) => e.name) : [],
    linkText: htmlText(link).trim(),
    title: htmlAttribute(link, 'title'),
    href: htmlAttribute(link, 'href'),
    imgSrc: htmlAttribute(img, 'src'),
    border: htmlAttribute(img, 'border'),
    images: images.length,
  };
}

/** What a compiled schema says of an element, and of a SOAP envelope's body: libxml2's first message when invalid, [] when valid. */
export interface SchemaChecks {
  /** `element`: a SOAP body's child or an HTTP answer's root. */
  schemaErrors(element: XmlElement): string[];
  /** The first child of the Body of `envelope` (the envelope's text). */
  bodyErrors(envelope: string): string[];
}

export function schemaChecks(schema: XsdValidator): SchemaChecks {
  const schemaErrors = (element: XmlElement): string[] =>
    readXml(standaloneXml(element), (doc) => {
      try {
        schema.validate(doc);
        return [];
      } catch (error) {
        return [firstLibxmlMessage(error)];
      }
    });
  const bodyErrors = (envelope: string): string[] =>
    readXml(envelope, (doc) => {
      const body = elementAt(doc, '/*[local-name()="Envelope"]/*[local-name()="Body"]/*[1]');
      return body ? schemaErrors(body) : [`no SOAP body in ${envelope.slice(0, 200)}`];
    });
  return { schemaErrors, bodyErrors };
}
