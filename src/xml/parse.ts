import { clientError } from '../errors';
import { xml, type XmlDocument, type XsdValidator } from './engine';

/** No network, no external DTD or entity; entities are left unexpanded (no NOENT), DTDs neither loaded nor validated. */
const parseOptions = () => xml().ParseOption.XML_PARSE_NONET | xml().ParseOption.XML_PARSE_NO_XXE;

/**
 * Parses untrusted XML from bytes already checked to be UTF-8. libxml2's own
 * depth and size limits stay on (no "huge" mode). A document with a DOCTYPE
 * is refused outright, so no entity it declares is ever read, and one whose
 * declaration names another encoding is refused rather than re-decoded.
 * The caller disposes the document.
 */
export function parseUntrustedXml(bytes: Uint8Array): XmlDocument {
  let doc: XmlDocument;
  try {
    doc = xml().XmlDocument.fromBuffer(bytes, { option: parseOptions() });
  } catch {
    throw clientError('The request is not well-formed XML.');
  }
  try {
    if (doc.dtd !== null) throw clientError('A DOCTYPE is not allowed in a request.');
    const declared = doc.encoding;
    if (declared !== null && !/^utf-?8$/i.test(declared)) throw clientError('The request body must be UTF-8 (its XML declaration names another encoding).');
  } catch (error) {
    doc.dispose();
    throw error;
  }
  return doc;
}

/** Runs `use` on a parsed untrusted document and frees the document when it returns or throws. */
export function withUntrustedXml<T>(bytes: Uint8Array, use: (doc: XmlDocument) => T): T {
  const doc = parseUntrustedXml(bytes);
  try {
    return use(doc);
  } finally {
    doc.dispose();
  }
}

/** Compiles a schema we wrote ourselves, once at start-up; throws libxml2's first message, in one line. */
export function compileSchema(text: string): XsdValidator {
  const { XmlDocument, XsdValidator } = xml();
  let doc: XmlDocument | undefined;
  try {
    doc = XmlDocument.fromString(text, { option: parseOptions() });
    return XsdValidator.fromDoc(doc);
  } catch (error) {
    throw new Error(firstLibxmlMessage(error) || 'libxml2 could not compile the schema.');
  } finally {
    doc?.dispose();
  }
}

/** The first of libxml2's messages attached to an error, on one line. */
export function firstLibxmlMessage(error: unknown): string {
  const details = (error as { details?: { message?: string }[] }).details;
  const message = details?.[0]?.message ?? (error as Error)?.message ?? '';
  return message.replace(/\s+/g, ' ').trim();
}
