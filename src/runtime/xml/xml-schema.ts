import { safeParseOptions, xml, type XmlDocument, type XsdValidator } from './xml-engine';
import { escapeXmlAttribute } from './xml-escape';

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

/** The schema sets compiled so far: each one's documents are read by libxml2 from memory, under a folder name of its own. */
let sets = 0;
let provider: InstanceType<ReturnType<typeof xml>['XmlBufferInputProvider']> | undefined;
const SET_SCHEME = 'contract-schema-set';

/**
 * Compiles schema documents of several namespaces as one schema: each
 * document imports the others as `N.xsd` (N its place in `texts`), which
 * libxml2 reads from memory (never from a file or the network). The first
 * is the root; every global element of every document is validated against.
 */
export function compileSchemaSet(texts: readonly string[]): XsdValidator {
  if (texts.length === 1) return compileSchema(texts[0]);
  const { XmlDocument, XsdValidator, XmlBufferInputProvider, xmlRegisterInputProvider } = xml();
  if (!provider) {
    provider = new XmlBufferInputProvider({});
    xmlRegisterInputProvider(provider);
  }
  const folder = `${SET_SCHEME}:/${++sets}`;
  const encoder = new TextEncoder();
  for (const [i, text] of texts.entries()) provider.addBuffer(`${folder}/${i}.xsd`, encoder.encode(text));
  // The root imports every namespace, so that each document's global elements are known.
  // The root has no namespace: a document of no namespace is included in it, not imported.
  const imports = texts
    .map((text, i) => {
      const ns = targetNamespaceOf(text);
      return ns ? `<xs:import namespace="${ns}" schemaLocation="${i}.xsd"/>` : `<xs:include schemaLocation="${i}.xsd"/>`;
    })
    .join('');
  let doc: XmlDocument | undefined;
  try {
    doc = XmlDocument.fromString(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">${imports}</xs:schema>`, {
      option: safeParseOptions(),
      url: `${folder}/root.xsd`,
    });
    return XsdValidator.fromDoc(doc);
  } catch (error) {
    throw new Error(firstLibxmlMessage(error) || 'libxml2 could not compile the schema.');
  } finally {
    doc?.dispose();
    // Compiled: libxml2 keeps what it read.
    for (const i of texts.keys()) provider.removeBuffer(`${folder}/${i}.xsd`);
  }
}

/** The targetNamespace attribute of a schema we wrote, escaped for an attribute; '' when it has none. */
function targetNamespaceOf(text: string): string {
  const { XmlDocument } = xml();
  const doc = XmlDocument.fromString(text, { option: safeParseOptions() });
  try {
    const ns = doc.root.attr('targetNamespace')?.value ?? '';
    return escapeXmlAttribute(ns);
  } finally {
    doc.dispose();
  }
}
