/**
 * Text of the documents served: elements copied as text (their canonical form holds every namespace in scope),
 * never node by node, so that a copy keeps its meaning whatever prefixes and default namespaces the documents use;
 * and the one way a served text is written (indented, without comments).
 */
import { escapeXmlAttribute, type XmlDocument, type XmlElement } from 'contract-runtime/xml';
import { copyDocument, parseXmlText, withDocument } from '../read/documents';

/**
 * An element and its content as text, every namespace in scope declared on
 * it: libxml2's serialisation of the element, with the declarations it
 * inherits from its ancestors added to its start tag.
 */
export function standaloneText(element: XmlElement, inScope: Record<string, string> = {}): string {
  const text = element.toString({ format: false });
  const own = element.nsDeclarations;
  const inherited = Object.entries(element.namespaces).filter(
    ([prefix, uri]) => !Object.hasOwn(own, prefix) && prefix !== 'xml' && inScope[prefix] !== uri,
  );
  if (inherited.length === 0) return text;
  const tag = `<${element.prefix ? `${element.prefix}:` : ''}${element.name}`;
  if (!text.startsWith(tag)) throw new Error(`codegen: <${element.name}> serialised unexpectedly`);
  const declarations = inherited.map(([prefix, uri]) => ` xmlns${prefix ? `:${prefix}` : ''}="${escapeXmlAttribute(uri)}"`).join('');
  return tag + declarations + text.slice(tag.length);
}

/** Edits a copy of an element (parsed from its text) and answers the copy's text. */
export function editedText(element: XmlElement, edit: (copy: XmlElement) => void): string {
  return withDocument(parseXmlText(standaloneText(element), 'a copy'), (doc) => {
    edit(doc.root);
    return standaloneText(doc.root);
  });
}

/** Text we assembled, indented, without comments and blank-only text. */
export function serializeText(text: string): string {
  return withDocument(parseXmlText(text, 'a generated document', { dropBlanks: true }), serialize);
}

/** The root element, indented, without comments and without blank-only text left behind by removals. */
export function serialize(doc: XmlDocument): string {
  return withDocument(copyDocument(doc, 'a generated document', { dropBlanks: true }), (copy) => {
    for (const comment of copy.find('//comment()')) comment.remove();
    return copy.root.toString({ format: true });
  });
}
