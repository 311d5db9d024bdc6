import { safeParseOptions, xml, type XmlDocument, type XsdValidator } from './xml-engine';

/** Compiles a schema we wrote ourselves, once at start-up; throws libxml2's first message, in one line. */
export function compileSchema(text: string): XsdValidator {
  const { XmlDocument, XsdValidator } = xml();
  let doc: XmlDocument | undefined;
  try {
    doc = XmlDocument.fromString(text, { option: safeParseOptions() });
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
