import { Document, parseXml } from 'libxmljs2';
import { clientError } from '../errors';

/**
 * Parses untrusted XML: no entity substitution, no DTD loading, no network,
 * no "huge" mode (libxml2's own depth and size limits stay on). A document
 * with a DOCTYPE is refused outright, so no entity it declares is ever used.
 */
export function parseUntrustedXml(text: string): Document {
  let doc: Document;
  try {
    // nodict: names are not interned in this document's dictionary, so the SOAP binding can move the
    // body element into a document of its own for validation without libxml2 freeing them twice.
    doc = parseXml(text, { noent: false, dtdload: false, dtdvalid: false, nonet: true, huge: false, nocdata: false, nodict: true });
  } catch {
    throw clientError('The request is not well-formed XML.');
  }
  if (doc.getDtd() !== null) throw clientError('A DOCTYPE is not allowed in a request.');
  return doc;
}

/** Parses a document we wrote ourselves (a schema), once at start-up. */
export function parseTrustedXml(text: string): Document {
  return parseXml(text, { nonet: true, dtdload: false, noent: false });
}
