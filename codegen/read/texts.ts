import type { XmlDocument, XmlElement } from '../../src/runtime/xml/xml-engine';
import { xml } from '../../src/runtime/xml/xml-engine';
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
  parseXmlText,
  setPlainAttr,
  standaloneCopy,
  withDocument,
} from './documents';
import type { LoadedSchema } from './xsd';

/** The texts generated/ serves, as read from the contract: comments dropped, the authored namespace still in them. */
export interface ContractTexts {
  /** The WSDL with every schema inline and every address ADDRESS_MARKER. */
  wsdl: string;
  /** The WSDLs it imports, served beside it (`?wsdl=wsdlN`). */
  importedWsdls: string[];
  /** Each namespace's schemas merged into one document, its imports naming the others `N.xsd` (N their place here). */
  schemas: { namespace: string; text: string }[];
  /** Per global element of a one-namespace contract, a schema holding only that element and the types it needs. */
  elementSchemas: Record<string, string>;
}

/** The WS-Policy namespaces: a policy the service does not enforce is not served (WS-Addressing actions are read past). */
const POLICY = ['http://schemas.xmlsoap.org/ws/2004/09/policy', 'http://www.w3.org/ns/ws-policy'];

/** An rpc operation's wrapper element, which no schema declares: its accessors are the message parts. */
export interface RpcWrapper {
  name: string;
  namespace: string;
  parts: { name: string; element?: { namespace: string; name: string }; type?: { namespace: string; name: string } }[];
}

/**
 * Serialises the served texts; the schemas have been read (and so checked) by
 * read/xsd.ts first.
 */
export function readTexts(
  wsdls: XmlDocument[],
  importLocations: string[],
  inline: LoadedSchema[],
  schemas: LoadedSchema[],
  targetNamespace: string,
  rpcWrappers: RpcWrapper[] = [],
): ContractTexts {
  const merged = mergedSchemas(schemas, targetNamespace, rpcWrappers);
  try {
    const single = merged.length === 1 && rpcWrappers.length === 0;
    return {
      wsdl: selfContainedWsdl(wsdls[0], inline, schemas, importLocations),
      importedWsdls: wsdls.slice(1).map((doc, i) => importedWsdl(doc, importLocations, i)),
      schemas: merged.map(({ namespace, doc }) => ({ namespace, text: serialize(doc) })),
      elementSchemas: single
        ? Object.fromEntries(findAll(merged[0].doc.root, 's:element').map((e) => [attr(e, 'name'), schemaFor(merged[0].doc, attr(e, 'name'))]))
        : {},
    };
  } finally {
    for (const { doc } of merged) doc.dispose();
  }
}

/** The WSDL with each schema it reaches inline (in place of its import), the addresses replaced by the marker. */
function selfContainedWsdl(wsdl: XmlDocument, inline: LoadedSchema[], schemas: LoadedSchema[], importLocations: string[]): string {
  return withDocument(copyDocument(wsdl, 'the WSDL'), (copy) => {
    let types = findAll(copy, '/wsdl:definitions/wsdl:types')[0];
    if (!types) {
      const first = findAll(copy.root, '*').find((e) => !(e.namespaceUri === NS.wsdl && ['documentation', 'import'].includes(e.name)));
      types = first ? first.prependElement('types') : copy.root.addElement('types');
      if (types.namespaceUri !== NS.wsdl) types.prefix = findOne(copy, '/wsdl:definitions').prefix;
    }
    const ownInline = findAll(copy, '/wsdl:definitions/wsdl:types/s:schema');
    const anchor = ownInline[0];
    // Every schema of every document, once: the main document's own in place, the others' appended.
    const others = schemas.filter((s) => !(s.inline && s.schema.doc === wsdl));
    for (const schema of others) {
      const placed = anchor ? copyElementBefore(schema.schema, anchor) : appendCopy(schema.schema, types);
      if (schema.chameleon && optionalAttr(placed, 'targetNamespace') === undefined) setPlainAttr(placed, 'targetNamespace', schema.chameleon);
    }
    for (const schema of findAll(types, 's:schema')) {
      for (const reference of findAll(schema, 's:include')) reference.remove();
      for (const location of schema.find('s:import/@schemaLocation', NS)) location.remove();
    }
    for (const stray of findAll(types, 's:import')) stray.remove();
    // A schema that only imported others (their files are inline now) is left out.
    for (const schema of findAll(types, 's:schema')) {
      const children = findAll(schema, '*');
      if (optionalAttr(schema, 'targetNamespace') === undefined && children.every((c) => c.namespaceUri === NS.s && c.name === 'import')) {
        schema.remove();
      }
    }
    void inline;
    for (const [i, imported] of findAll(copy, '/wsdl:definitions/wsdl:import').entries()) {
      setLocation(imported, `${ADDRESS_MARKER}?wsdl=wsdl${importLocations.indexOf(attr(imported, 'location')) >= 0 ? importLocations.indexOf(attr(imported, 'location')) : i}`);
    }
    stripPolicy(copy);
    for (const address of findAll(copy, '//soap:address | //soap12:address | //http:address')) setLocation(address, ADDRESS_MARKER);
    return serialize(copy);
  });
}

/** A WSDL another imports: its schemas are inline in the first, its addresses the marker. */
function importedWsdl(wsdl: XmlDocument, importLocations: string[], index: number): string {
  void index;
  return withDocument(copyDocument(wsdl, 'an imported WSDL'), (copy) => {
    for (const types of findAll(copy, '/wsdl:definitions/wsdl:types')) types.remove();
    for (const imported of findAll(copy, '/wsdl:definitions/wsdl:import')) {
      setLocation(imported, `${ADDRESS_MARKER}?wsdl=wsdl${Math.max(0, importLocations.indexOf(attr(imported, 'location')))}`);
    }
    stripPolicy(copy);
    for (const address of findAll(copy, '//soap:address | //soap12:address | //http:address')) setLocation(address, ADDRESS_MARKER);
    return serialize(copy);
  });
}

function stripPolicy(doc: XmlDocument): void {
  for (const node of doc.find('//*', NS)) {
    if (!(node instanceof xml().XmlElement)) continue;
    if (POLICY.includes(node.namespaceUri)) node.remove();
    else if (node.name === 'UsingAddressing') node.remove();
  }
}

function setLocation(element: XmlElement, value: string): void {
  setPlainAttr(element, 'location', value);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Each namespace's schemas as one document (libxml2 compiles one document a
 * namespace): the first one, the others' declarations appended, includes
 * dropped, imports naming the set's other documents by their place (`N.xsd`),
 * and rpc wrappers declared in their namespace. The caller disposes them.
 */
function mergedSchemas(schemas: LoadedSchema[], targetNamespace: string, rpcWrappers: RpcWrapper[]): { namespace: string; doc: XmlDocument }[] {
  const namespaceOf = (s: LoadedSchema) => optionalAttr(s.schema, 'targetNamespace') ?? s.chameleon ?? '';
  const namespaces: string[] = [];
  for (const s of schemas) {
    const ns = namespaceOf(s);
    if (!namespaces.includes(ns) && findAll(s.schema, 's:element | s:complexType | s:simpleType | s:attribute | s:group | s:attributeGroup').length > 0)
      namespaces.push(ns);
  }
  for (const w of rpcWrappers) if (!namespaces.includes(w.namespace)) namespaces.push(w.namespace);
  // The target namespace's first.
  namespaces.sort((a, b) => (a === targetNamespace ? -1 : b === targetNamespace ? 1 : 0));
  const out: { namespace: string; doc: XmlDocument }[] = [];
  for (const namespace of namespaces) {
    const members = schemas.filter((s) => namespaceOf(s) === namespace);
    const wrappers = rpcWrappers.filter((w) => w.namespace === namespace);
    const doc = members.length
      ? standaloneCopy(members[0].schema)
      : parseXmlText(`<xs:schema xmlns:xs="${NS.s}" targetNamespace="${escapeAttribute(namespace)}"/>`, 'an rpc schema');
    const root = doc.root;
    if (members[0]?.chameleon && optionalAttr(root, 'targetNamespace') === undefined) setPlainAttr(root, 'targetNamespace', namespace);
    for (const other of members.slice(1)) {
      for (const child of findAll(other.schema, 's:element | s:complexType | s:simpleType | s:attribute | s:group | s:attributeGroup')) {
        appendCopy(child, root);
      }
    }
    for (const reference of findAll(root, 's:include | s:import')) reference.remove();
    for (const wrapper of wrappers) {
      const text = wrapperSchema(wrapper);
      const holder = parseXmlText(text, 'an rpc wrapper');
      try {
        for (const child of findAll(holder.root, 's:element')) appendCopy(child, root);
      } finally {
        holder.dispose();
      }
    }
    // Every other namespace a declaration here names is imported from its document of the set.
    const named = new Set<string>();
    for (const user of findAll(root, '//*[@type or @base or @ref or @itemType or @memberTypes]')) {
      for (const attribute of ['type', 'base', 'ref', 'itemType', 'memberTypes']) {
        const value = optionalAttr(user, attribute);
        if (value === undefined) continue;
        for (const qname of value.split(/\s+/).filter(Boolean)) {
          const ns = namespaceOfQName(user, qname);
          if (ns !== null && ns !== namespace && ns !== NS.s && ns !== 'http://www.w3.org/XML/1998/namespace') named.add(ns);
        }
      }
    }
    const before = findAll(root, '*')[0];
    for (const ns of named) {
      const index = namespaces.indexOf(ns);
      if (index < 0) continue; // build-model.ts refuses the reference, naming its user
      const imported = before ? before.prependElement('import') : root.addElement('import');
      if (root.prefix) imported.prefix = root.prefix;
      if (ns) setPlainAttr(imported, 'namespace', ns);
      setPlainAttr(imported, 'schemaLocation', `${index}.xsd`);
    }
    out.push({ namespace, doc });
  }
  return out;
}

/** An rpc wrapper's declaration: a sequence of its parts, unqualified accessors of their types (or the elements they name). */
function wrapperSchema(wrapper: RpcWrapper): string {
  const prefixes = new Map<string, string>();
  const prefixOf = (ns: string) => {
    if (ns === NS.s) return 'xs';
    if (!prefixes.has(ns)) prefixes.set(ns, `p${prefixes.size}`);
    return prefixes.get(ns)!;
  };
  const members = wrapper.parts
    .map((part) =>
      part.element
        ? `<xs:element ref="${prefixOf(part.element.namespace)}:${part.element.name}"/>`
        : `<xs:element name="${escapeAttribute(part.name)}" form="unqualified" type="${prefixOf(part.type!.namespace)}:${part.type!.name}"/>`,
    )
    .join('');
  const declarations = [...prefixes].map(([ns, p]) => ` xmlns:${p}="${escapeAttribute(ns)}"`).join('');
  return `<xs:schema xmlns:xs="${NS.s}"${declarations} targetNamespace="${escapeAttribute(wrapper.namespace)}"><xs:element name="${escapeAttribute(wrapper.name)}"><xs:complexType><xs:sequence>${members}</xs:sequence></xs:complexType></xs:element></xs:schema>`;
}

/** A schema holding one global element and the named types it needs, serialised. */
function schemaFor(xsd: XmlDocument, elementName: string): string {
  return withDocument(copyDocument(xsd, 'the schema'), (copy) => {
    const root = copy.root;
    const targetNamespace = optionalAttr(root, 'targetNamespace') ?? '';
    const needed = new Set<string>();
    const visit = (node: XmlElement) => {
      // The element itself too: a global element may name its type.
      for (const ref of findAll(node, 'descendant-or-self::*[@type or @base or @ref or @itemType]')) {
        for (const name of ['type', 'base', 'ref', 'itemType']) {
          const value = optionalAttr(ref, name);
          if (value === undefined || namespaceOfQName(ref, value) !== targetNamespace || needed.has(`${name}:${localName(value)}`)) continue;
          needed.add(`${name}:${localName(value)}`);
          needed.add(localName(value));
          const kinds = name === 'ref' ? ['element', 'group', 'attribute', 'attributeGroup'] : ['complexType', 'simpleType'];
          // None found: build-model.ts refuses the reference, naming its user.
          for (const named of findAll(root, kinds.map((k) => `s:${k}[@name='${localName(value)}']`).join(' | '))) visit(named);
        }
      }
    };
    visit(findOne(root, `s:element[@name='${elementName}']`));
    for (const child of findAll(root, 's:element | s:complexType | s:simpleType | s:group | s:attributeGroup | s:attribute')) {
      const name = attr(child, 'name');
      const keep = child.name === 'element' ? name === elementName || needed.has(`ref:${name}`) : needed.has(name);
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
