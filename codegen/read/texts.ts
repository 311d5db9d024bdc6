import type { XmlDocument, XmlElement } from '../../src/runtime/xml/xml-engine';
import { ADDRESS_MARKER } from '../model';
import {
  appendCopy,
  attr,
  copyDocument,
  copyElementBefore,
  findAll,
  findOne,
  localName,
  NS,
  namespaceOfQName,
  optionalAttr,
  standaloneCopy,
  withDocument,
} from './documents';
import type { LoadedSchema, XsdFacts } from './xsd';

/** The texts generated/ serves, as read from the contract: comments dropped, the authored namespace still in them. */
export interface ContractTexts {
  /** The WSDL with every schema inline and every address ADDRESS_MARKER. */
  wsdl: string;
  /** The target namespace's schema, its files and inline parts merged into one document. */
  schema: string;
  /** Per global element, a schema holding only that element and the types it needs. */
  elementSchemas: Record<string, string>;
}

/**
 * Serialises the served texts; the schemas have been read (and so checked) by
 * read/xsd.ts first. `schemas` lists the target namespace's first.
 */
export function readTexts(wsdl: XmlDocument, inline: LoadedSchema[], schemas: LoadedSchema[], xsd: XsdFacts): ContractTexts {
  return withDocument(mergedSchema(schemas, xsd), (merged) => ({
    wsdl: selfContainedWsdl(wsdl, inline),
    schema: serialize(merged),
    elementSchemas: Object.fromEntries(xsd.elements.map((e) => [e.name, schemaFor(merged, e.name)])),
  }));
}

/** The WSDL with each schema file it reaches inline (in place of its import), the addresses replaced by the marker. */
function selfContainedWsdl(wsdl: XmlDocument, inline: LoadedSchema[]): string {
  return withDocument(copyDocument(wsdl, 'the WSDL'), (copy) => {
    const copies = findAll(copy, '/wsdl:definitions/wsdl:types/s:schema');
    const inlined = new Set<LoadedSchema>();
    const inlineFiles = (from: LoadedSchema, before: XmlElement) => {
      for (const { loaded } of from.locations) {
        if (inlined.has(loaded)) continue;
        inlined.add(loaded);
        const schema = copyElementBefore(loaded.schema, before);
        inlineFiles(loaded, before);
        // Inline, a file's import finds its namespace in the WSDL; an include's content is a schema of its own there.
        for (const include of findAll(schema, 's:include')) include.remove();
        for (const location of schema.find('s:import/@schemaLocation', NS)) location.remove();
      }
    };
    for (const [i, schema] of copies.entries()) {
      inlineFiles(inline[i], schema);
      for (const reference of findAll(schema, 's:include | s:import[@schemaLocation]')) reference.remove();
      if (findAll(schema, '*').length === 0 && optionalAttr(schema, 'targetNamespace') === undefined) schema.remove();
    }
    for (const address of findAll(copy, '//soap:address | //soap12:address | //http:address')) {
      address.setAttr('location', ADDRESS_MARKER);
    }
    return serialize(copy);
  });
}

/**
 * The target namespace's schemas as one document (libxml2 compiles one
 * document): the first one, the others' declarations appended, imports and
 * includes dropped, and a reference to a simple type of another namespace
 * (ASMX's guid) replaced by its XML Schema base, which the generated decoder
 * checks. The caller disposes it.
 */
function mergedSchema(schemas: LoadedSchema[], xsd: XsdFacts): XmlDocument {
  const target = schemas.filter((s) => (optionalAttr(s.schema, 'targetNamespace') ?? '') === xsd.targetNamespace);
  const [first, ...rest] = target;
  const plain = target.length === 1 && !first.inline && findAll(first.schema, 's:import | s:include').length === 0;
  if (plain) return copyDocument(first.schema.doc, first.file);
  const doc = standaloneCopy(first.schema);
  const root = doc.root;
  for (const other of rest) for (const child of findAll(other.schema, 's:element | s:complexType | s:simpleType')) appendCopy(child, root);
  for (const reference of findAll(root, 's:import | s:include')) reference.remove();
  const xsdPrefix = root.prefix ? `${root.prefix}:` : '';
  for (const user of findAll(root, '//*[@type or @base]')) {
    for (const name of ['type', 'base']) {
      const qname = optionalAttr(user, name);
      if (qname === undefined) continue;
      const namespace = namespaceOfQName(user, qname);
      if (namespace === xsd.targetNamespace || namespace === NS.s) continue;
      const simple = xsd.simpleTypes.find((t) => t.namespace === namespace && t.name === localName(qname));
      if (simple) user.setAttr(name, `${xsdPrefix}${simple.base === 'guid' ? 'string' : simple.base}`);
    }
  }
  return doc;
}

/** A schema holding one global element and the named types it needs, serialised. */
function schemaFor(xsd: XmlDocument, elementName: string): string {
  return withDocument(copyDocument(xsd, 'the schema'), (copy) => {
    const root = copy.root;
    const targetNamespace = attr(root, 'targetNamespace');
    const needed = new Set<string>();
    const visit = (node: XmlElement) => {
      // The element itself too: a global element may name its type.
      for (const ref of findAll(node, 'descendant-or-self::*[@type or @base]')) {
        const type = optionalAttr(ref, 'type') ?? attr(ref, 'base');
        if (namespaceOfQName(ref, type) === targetNamespace && !needed.has(localName(type))) {
          needed.add(localName(type));
          // None found: build-model.ts refuses the reference, naming its user.
          for (const named of findAll(root, `s:complexType[@name='${localName(type)}'] | s:simpleType[@name='${localName(type)}']`))
            visit(named);
        }
      }
    };
    visit(findOne(root, `s:element[@name='${elementName}']`));
    for (const child of findAll(root, 's:element | s:complexType | s:simpleType')) {
      const name = attr(child, 'name');
      const keep = child.name === 'element' ? name === elementName : needed.has(name);
      if (!keep) child.remove();
    }
    return serialize(copy);
  });
}

/** The root element, indented, without comments and without blank-only text left behind by removals. */
function serialize(doc: XmlDocument): string {
  return withDocument(copyDocument(doc, 'a generated document', { dropBlanks: true }), (copy) => {
    for (const comment of copy.find('//comment()')) comment.remove();
    return copy.root.toString({ format: true });
  });
}
