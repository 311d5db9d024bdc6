import type { XmlDocument, XmlElement } from '../../src/runtime/xml/xml-engine';
import { ADDRESS_MARKER } from '../model/model';
import {
  attr,
  copyDocument,
  findAll,
  findOne,
  localName,
  NS,
  namespaceOfQName,
  optionalAttr,
  parseXmlText,
  setPlainAttr,
  withDocument,
  XML_NAMESPACE,
} from './documents';
import { type LoadedSchema, STRAY_TYPE_ATTRIBUTES } from './xsd';
import { pathOf } from './wsdl';

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
 * read/xsd.ts first. Elements are copied as text (their canonical form holds
 * every namespace in scope), never node by node: a copy keeps its meaning
 * whatever prefixes and default namespaces the documents use.
 */
export function readTexts(
  wsdls: XmlDocument[],
  importLocations: string[],
  _inline: LoadedSchema[],
  schemas: LoadedSchema[],
  targetNamespace: string,
  rpcWrappers: RpcWrapper[] = [],
  requestElements: readonly string[] = [],
  endpointPath = '',
): ContractTexts {
  const merged = mergedSchemas(schemas, targetNamespace, rpcWrappers);
  const single = merged.length === 1 && rpcWrappers.length === 0;
  return {
    // A client reads an imported WSDL (its messages) before the importer's types: the schemas go inline in the first
    // imported WSDL that imports none, so that every message names an element already read.
    wsdl: selfContainedWsdl(wsdls[0], wsdls.length > 1 ? [] : schemas, importLocations, endpointPath),
    importedWsdls: wsdls
      .slice(1)
      .map((doc, i, imported) => importedWsdl(doc, i === imported.findIndex(importsNone) ? schemas : [], importLocations, endpointPath)),
    schemas: merged.map(({ namespace, text }) => ({ namespace, text: serializeText(text) })),
    elementSchemas: single
      ? withDocument(parseXmlText(merged[0].text, 'a schema'), (doc) =>
          elementSchemasOf(
            doc,
            findAll(doc.root, 's:element')
              .map((e) => attr(e, 'name'))
              .filter((name) => requestElements.includes(name)),
          ),
        )
      : {},
  };
}

/**
 * An element and its content as text, every namespace in scope declared on
 * it: libxml2's serialisation of the element, with the declarations it
 * inherits from its ancestors added to its start tag.
 */
function standaloneText(element: XmlElement, inScope: Record<string, string> = {}): string {
  const text = element.toString({ format: false });
  const own = element.nsDeclarations;
  const inherited = Object.entries(element.namespaces).filter(
    ([prefix, uri]) => !Object.hasOwn(own, prefix) && prefix !== 'xml' && inScope[prefix] !== uri,
  );
  if (inherited.length === 0) return text;
  const tag = `<${element.prefix ? `${element.prefix}:` : ''}${element.name}`;
  if (!text.startsWith(tag)) throw new Error(`codegen: <${element.name}> serialised unexpectedly`);
  const declarations = inherited.map(([prefix, uri]) => ` xmlns${prefix ? `:${prefix}` : ''}="${escapeAttribute(uri)}"`).join('');
  return tag + declarations + text.slice(tag.length);
}

/** Edits a copy of an element (parsed from its text) and answers the copy's text. */
function editedText(element: XmlElement, edit: (copy: XmlElement) => void): string {
  return withDocument(parseXmlText(standaloneText(element), 'a copy'), (doc) => {
    edit(doc.root);
    return standaloneText(doc.root);
  });
}

/** Drops the attributes some generators write on a complex type that XML Schema does not allow there (libxml2 refuses them). */
function dropStrayAttributes(schema: XmlElement): void {
  for (const type of findAll(schema, '//s:complexType')) {
    for (const attribute of type.attrs) if (!attribute.namespaceUri && STRAY_TYPE_ATTRIBUTES.includes(attribute.name)) attribute.remove();
  }
}

/** A schema as served inline: its includes dropped, its imports without locations, a chameleon one in its includer's namespace. */
function inlineSchemaText(schema: LoadedSchema): string {
  return editedText(schema.schema, (copy) => {
    dropStrayAttributes(copy);
    for (const reference of findAll(copy, 's:include')) reference.remove();
    for (const location of copy.find('s:import/@schemaLocation', NS)) location.remove();
    // An import of the XML namespace without a location is one zeep fetches from the W3C, which a service's clients
    // may not reach: the WSDL holds that namespace's schema inline, found by its namespace as every other one is.
    for (const imported of findAll(copy, 's:import')) if (optionalAttr(imported, 'namespace') === XML_NAMESPACE) imported.remove();
    if (schema.chameleon && optionalAttr(copy, 'targetNamespace') === undefined) setPlainAttr(copy, 'targetNamespace', schema.chameleon);
  });
}

const MARKER = 'codegenSchemasGoHere';

/** The WSDL with every schema it reaches inline (in place of its imports), the addresses replaced by the marker. */
function selfContainedWsdl(wsdl: XmlDocument, schemas: LoadedSchema[], importLocations: string[], endpointPath: string): string {
  const texts = schemas
    .filter((s) => !(optionalAttr(s.schema, 'targetNamespace') === undefined && !s.chameleon && onlyImports(s.schema)))
    .map(inlineSchemaText);
  return withDocument(copyDocument(wsdl, 'the WSDL'), (copy) => {
    const definitions = findOne(copy, '/wsdl:definitions');
    let [types] = findAll(definitions, 'wsdl:types');
    if (!types) {
      const first = findAll(definitions, '*').find((e) => !(e.namespaceUri === NS.wsdl && ['documentation', 'import'].includes(e.name)));
      types = first ? first.prependElement('types') : definitions.addElement('types');
      if (definitions.prefix) types.prefix = definitions.prefix;
    }
    for (const schema of findAll(types, 's:schema | s:import')) schema.remove();
    types.addElement(MARKER);
    pointImportsHere(definitions, importLocations, endpointPath);
    stripPolicy(copy);
    addressesAtMarker(copy);
    const text = copy.root.toString({ format: false });
    const at = text.search(new RegExp(`<[^<>]*${MARKER}[^<>]*/>`));
    const end = text.indexOf('>', at) + 1;
    return serializeText(text.slice(0, at) + texts.join('') + text.slice(end));
  });
}

/**
 * A WSDL's wsdl:imports, as served: each imported WSDL at the service's `?wsdl=wsdlN`; an import of a schema document
 * left out (its schema is served inline, as every other one).
 */
function pointImportsHere(definitions: XmlElement, importLocations: string[], endpointPath: string): void {
  for (const imported of findAll(definitions, 'wsdl:import')) {
    const index = importLocations.indexOf(attr(imported, 'location'));
    if (index < 0) imported.remove();
    else setPlainAttr(imported, 'location', `${ADDRESS_MARKER}${endpointPath}?wsdl=wsdl${index}`);
  }
}

function onlyImports(schema: XmlElement): boolean {
  return findAll(schema, '*').every((c) => c.namespaceUri === NS.s && ['import', 'annotation'].includes(c.name));
}

function importsNone(wsdl: XmlDocument): boolean {
  return findAll(wsdl, '/wsdl:definitions/wsdl:import').length === 0;
}

/** A WSDL another imports, its addresses the marker: the schemas given inline (every schema, or none). */
function importedWsdl(wsdl: XmlDocument, schemas: LoadedSchema[], importLocations: string[], endpointPath: string): string {
  if (schemas.length > 0) return selfContainedWsdl(wsdl, schemas, importLocations, endpointPath);
  return withDocument(copyDocument(wsdl, 'an imported WSDL'), (copy) => {
    for (const types of findAll(copy, '/wsdl:definitions/wsdl:types')) types.remove();
    pointImportsHere(findOne(copy, '/wsdl:definitions'), importLocations, endpointPath);
    stripPolicy(copy);
    addressesAtMarker(copy);
    return serialize(copy);
  });
}

/** Each port's address: the marker (the service's base URL, filled at run time) followed by the port's own path. */
function addressesAtMarker(doc: XmlDocument): void {
  for (const port of findAll(doc, '//wsdl:port')) {
    let path: string;
    try {
      path = pathOf(port);
    } catch {
      // A port codegen does not serve: prunedWsdl takes it out.
      continue;
    }
    for (const address of findAll(port, 'soap:address | soap12:address | http:address'))
      setPlainAttr(address, 'location', ADDRESS_MARKER + path);
  }
}

function stripPolicy(doc: XmlDocument): void {
  const policy = (path: string) => POLICY.map((ns) => `${path}namespace-uri() = '${ns}'`).join(' or ');
  // The outermost ones only: removing an element frees its descendants.
  const outermost = `//*[(${policy('')} or local-name() = 'UsingAddressing') and not(ancestor::*[${policy('')}])]`;
  for (const node of findAll(doc.root, outermost)) node.remove();
}

/**
 * ASMX's DataSet names the schema for schemas' own element (`<s:element ref="s:schema"/>`, then `<s:any/>`), which
 * libxml2 does not declare: in the served schema it is a wildcard of the XML Schema namespace, so the result is
 * still an xs:schema element followed by any element, that one checked laxly (the WSDL keeps both as published).
 */
function dataSetSchemaAsWildcard(root: XmlElement): void {
  for (const ref of findAll(root, '//s:element[@ref]')) {
    const value = attr(ref, 'ref');
    if (namespaceOfQName(ref, value) !== NS.s || localName(value) !== 'schema') continue;
    const wildcard = ref.prependElement('any', ref.prefix || undefined);
    setPlainAttr(wildcard, 'namespace', NS.s);
    setPlainAttr(wildcard, 'processContents', 'skip');
    for (const occurs of ['minOccurs', 'maxOccurs']) {
      const given = optionalAttr(ref, occurs);
      if (given !== undefined) setPlainAttr(wildcard, occurs, given);
    }
    // The DataSet's content (a diffgram) is what its inline schema describes, which no validator knows beforehand.
    const [next] = findAll(ref, 'following-sibling::*[1][self::s:any]');
    if (next) setPlainAttr(next, 'processContents', 'lax');
    ref.remove();
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Each namespace's schemas as one document (libxml2 compiles one document a
 * namespace): the first one, the others' declarations appended, includes
 * dropped, imports naming the set's other documents by their place (`N.xsd`),
 * and rpc wrappers declared in their namespace.
 */
function mergedSchemas(schemas: LoadedSchema[], targetNamespace: string, rpcWrappers: RpcWrapper[]): { namespace: string; text: string }[] {
  const namespaceOf = (s: LoadedSchema) => optionalAttr(s.schema, 'targetNamespace') ?? s.chameleon ?? '';
  const DECLARATIONS = 's:element | s:complexType | s:simpleType | s:attribute | s:group | s:attributeGroup';
  const namespaces: string[] = [];
  for (const s of schemas) {
    const ns = namespaceOf(s);
    if (!namespaces.includes(ns) && findAll(s.schema, DECLARATIONS).length > 0) namespaces.push(ns);
  }
  for (const w of rpcWrappers) if (!namespaces.includes(w.namespace)) namespaces.push(w.namespace);
  // The target namespace's first.
  namespaces.sort((a, b) => (a === targetNamespace ? -1 : b === targetNamespace ? 1 : 0));
  return namespaces.map((namespace) => {
    const members = schemas.filter((s) => namespaceOf(s) === namespace && findAll(s.schema, DECLARATIONS).length > 0);
    const rootScope = members[0]?.schema.namespaces ?? {};
    const declarations = [
      ...members.slice(1).flatMap((m) => findAll(m.schema, DECLARATIONS).map((d) => standaloneText(d, rootScope))),
      ...rpcWrappers.filter((w) => w.namespace === namespace).map(wrapperDeclaration),
    ];
    // The first member whole (its own declarations in place), the others' declarations after them.
    const shell = members.length
      ? editedText(members[0].schema, (copy) => {
          for (const child of findAll(copy, 's:include | s:import')) child.remove();
          if (namespace !== '') setPlainAttr(copy, 'targetNamespace', namespace);
        })
      : `<xs:schema xmlns:xs="${NS.s}" targetNamespace="${escapeAttribute(namespace)}"></xs:schema>`;
    const close = shell.lastIndexOf('</');
    const joined = shell.slice(0, close) + declarations.join('') + shell.slice(close);
    // Every other namespace a declaration here names is imported from its document of the set.
    const text = withDocument(parseXmlText(joined, 'a merged schema'), (doc) => {
      dropStrayAttributes(doc.root);
      dataSetSchemaAsWildcard(doc.root);
      const named = new Set<string>();
      for (const user of findAll(doc.root, '//*[@type or @base or @ref or @itemType or @memberTypes or @substitutionGroup]')) {
        for (const attribute of ['type', 'base', 'ref', 'itemType', 'memberTypes']) {
          const value = optionalAttr(user, attribute);
          if (value === undefined) continue;
          for (const qname of value.split(/\s+/).filter(Boolean)) {
            const ns = namespaceOfQName(user, qname);
            if (ns !== null && ns !== namespace && ns !== NS.s) named.add(ns);
          }
        }
      }
      const imports = [...named]
        .filter((ns) => namespaces.includes(ns))
        .map(
          (ns) =>
            `<xs:import xmlns:xs="${NS.s}"${ns ? ` namespace="${escapeAttribute(ns)}"` : ''} schemaLocation="${namespaces.indexOf(ns)}.xsd"/>`,
        )
        .join('');
      const whole = standaloneText(doc.root);
      const open = whole.indexOf('>') + 1;
      return whole.slice(0, open) + imports + whole.slice(open);
    });
    return { namespace, text };
  });
}

/** An rpc wrapper's declaration: a sequence of its parts, unqualified accessors of their types (or the elements they name). */
function wrapperDeclaration(wrapper: RpcWrapper): string {
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
  return `<xs:element xmlns:xs="${NS.s}"${declarations} name="${escapeAttribute(wrapper.name)}"><xs:complexType><xs:sequence>${members}</xs:sequence></xs:complexType></xs:element>`;
}

const DECLARATIONS = ['element', 'complexType', 'simpleType', 'group', 'attributeGroup', 'attribute'];

/**
 * Per global element, a schema holding that element and the declarations it
 * needs, serialised: the schema's start tag, its other children (imports,
 * annotations) and the needed declarations in document order. Each
 * declaration's references are read once, so a contract of a thousand
 * operations does not copy its schema a thousand times.
 */
function elementSchemasOf(xsd: XmlDocument, elementNames: string[]): Record<string, string> {
  const root = xsd.root;
  const targetNamespace = optionalAttr(root, 'targetNamespace') ?? '';
  // Each child of the schema: its kind and name when it is a declaration, and its text (read when first kept).
  const children = findAll(root, '*').map((node) => {
    const declaration = node.namespaceUri === NS.s && DECLARATIONS.includes(node.name);
    return {
      node,
      kind: declaration ? node.name : undefined,
      name: declaration ? attr(node, 'name') : '',
      text: undefined as string | undefined,
    };
  });
  const byKindAndName = new Map<string, XmlElement[]>();
  for (const { node, kind, name } of children) {
    if (kind === undefined) continue;
    const key = `${kind}:${name}`;
    byKindAndName.set(key, [...(byKindAndName.get(key) ?? []), node]);
  }
  // Each declaration's references to the target namespace: [attribute, local name].
  const references = new Map<XmlElement, [string, string][]>();
  const referencesOf = (node: XmlElement): [string, string][] => {
    let found = references.get(node);
    if (!found) {
      found = [];
      // The element itself too: a global element may name its type.
      for (const ref of findAll(node, 'descendant-or-self::*[@type or @base or @ref or @itemType or @memberTypes]')) {
        for (const name of ['type', 'base', 'ref', 'itemType', 'memberTypes']) {
          // A union's memberTypes is a list of names; each of the others names one.
          for (const value of (optionalAttr(ref, name) ?? '').split(/\s+/).filter(Boolean)) {
            if (namespaceOfQName(ref, value) === targetNamespace) found.push([name, localName(value)]);
          }
        }
      }
      references.set(node, found);
    }
    return found;
  };
  const full = root.toString({ format: false });
  const open = full.slice(0, full.indexOf('>') + 1);
  const close = `</${root.prefix ? `${root.prefix}:` : ''}${root.name}>`;
  const out: Record<string, string> = {};
  for (const elementName of elementNames) {
    const needed = new Set<string>();
    const visit = (node: XmlElement) => {
      for (const [name, local] of referencesOf(node)) {
        if (needed.has(`${name}:${local}`)) continue;
        needed.add(`${name}:${local}`);
        needed.add(local);
        const kinds = name === 'ref' ? ['element', 'group', 'attribute', 'attributeGroup'] : ['complexType', 'simpleType'];
        // None found: the model (model/type-refs.ts) refuses the reference, naming its user.
        for (const kind of kinds) for (const named of byKindAndName.get(`${kind}:${local}`) ?? []) visit(named);
      }
    };
    const [element] = byKindAndName.get(`element:${elementName}`) ?? [];
    if (!element) throw new Error(`codegen: expected one s:element[@name='${elementName}'], found 0`);
    visit(element);
    const kept = children.filter(({ kind, name }) =>
      kind === undefined ? true : kind === 'element' ? name === elementName || needed.has(`ref:${name}`) : needed.has(name),
    );
    for (const child of kept) child.text ??= child.node.toString({ format: false });
    out[elementName] = serializeText(open + kept.map((child) => child.text).join('') + close);
  }
  return out;
}

/** Text we assembled, indented, without comments and blank-only text. */
function serializeText(text: string): string {
  return withDocument(parseXmlText(text, 'a generated document', { dropBlanks: true }), serialize);
}

/** The root element, indented, without comments and without blank-only text left behind by removals. */
function serialize(doc: XmlDocument): string {
  return withDocument(copyDocument(doc, 'a generated document', { dropBlanks: true }), (copy) => {
    for (const comment of copy.find('//comment()')) comment.remove();
    return copy.root.toString({ format: true });
  });
}

/**
 * A served WSDL without what is not served: the ports of `service` not in `ports`, and the operations not in
 * `operations` (from every port type and binding), so that a client made from it calls only what answers.
 */
export function prunedWsdl(text: string, service: string, ports: readonly string[], operations: readonly string[]): string {
  return withDocument(parseXmlText(text, 'a generated WSDL'), (doc) => {
    for (const port of findAll(doc, `/wsdl:definitions/wsdl:service[@name='${service}']/wsdl:port`)) {
      if (!ports.includes(attr(port, 'name'))) port.remove();
    }
    for (const operation of findAll(
      doc,
      '/wsdl:definitions/wsdl:portType/wsdl:operation | /wsdl:definitions/wsdl:binding/wsdl:operation',
    )) {
      if (!operations.includes(attr(operation, 'name'))) operation.remove();
    }
    return serialize(doc);
  });
}
