import { clientError } from '../errors';
import { safeParseOptions, xml, type XmlDocument } from '../xml/xml-engine';

/** libxml2's options for a request body: no network, no external DTD or entity, and its own depth and size limits (no "huge" mode). */
export const untrustedParseOptions = safeParseOptions;

/** A declaration naming no encoding, or UTF-8: the bytes were checked to be UTF-8, so any other name is refused, not re-decoded. */
export function isUtf8Declaration(declared: string | null): boolean {
  return declared === null || /^utf-?8$/i.test(declared);
}

/**
 * Parses untrusted XML from bytes already checked to be UTF-8. A document
 * with a DOCTYPE is refused outright, so no entity it declares is ever read,
 * and one whose declaration names another encoding is refused.
 * The caller disposes the document.
 */
export function parseUntrustedXml(bytes: Uint8Array): XmlDocument {
  let doc: XmlDocument;
  try {
    doc = xml().XmlDocument.fromBuffer(bytes, { option: untrustedParseOptions() });
  } catch {
    throw clientError('The request is not well-formed XML.');
  }
  try {
    if (doc.dtd !== null) throw clientError('A DOCTYPE is not allowed in a request.');
    if (!isUtf8Declaration(doc.encoding)) throw clientError('The request body must be UTF-8 (its XML declaration names another encoding).');
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
