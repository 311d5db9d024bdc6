/**
 * The schemas served: each namespace's schemas merged into one document (libxml2 compiles one document a
 * namespace), and per request element of a one-namespace contract a small schema holding only what it needs.
 */
import { escapeXmlAttribute, type XmlDocument, type XmlElement } from 'contract-runtime/xml';
import { attr, findAll, localName, NS, namespaceOfQName, optionalAttr, parseXmlText, setPlainAttr, withDocument } from '../read/documents';
import { STRAY_TYPE_ATTRIBUTES } from '../read/xsd/complex-type';
import type { LoadedSchema } from '../read/xsd';
import { editedText, serializeText, standaloneText } from './text';
import { literalSoapEncoding } from './soap-encoding';
import { ARRAY_ITEM, encodedBuiltin, isSoapArray, isSoapStruct } from '../read/xsd/soap-arrays';

/** An rpc operation's wrapper element, which no schema declares: its accessors are the message parts. */
export interface RpcWrapper {
  name: string;
  namespace: string;
  parts: { name: string; element?: { namespace: string; name: string }; type?: { namespace: string; name: string } }[];
  /**
   * An element of this type, not a wrapper of parts: the detail of a fault whose part names a type (Axis 1's
   * rpc/literal faults), an encoded header block whose part names one.
   */
  type?: { namespace: string; name: string };
}

/** Drops the attributes some generators write on a complex type that XML Schema does not allow there (libxml2 refuses them). */
export function dropStrayAttributes(schema: XmlElement): void {
  for (const type of findAll(schema, '//s:complexType')) {
    for (const attribute of type.attrs) if (!attribute.namespaceUri && STRAY_TYPE_ATTRIBUTES.includes(attribute.name)) attribute.remove();
  }
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

/**
 * Each namespace's schemas as one document (libxml2 compiles one document a
 * namespace): the first one, the others' declarations appended, includes
 * dropped, imports naming the set's other documents by their place (`N.xsd`),
 * and rpc wrappers declared in their namespace.
 */
export function mergedSchemas(
  schemas: LoadedSchema[],
  targetNamespace: string,
  rpcWrappers: RpcWrapper[],
  soapEncoding = false,
): { namespace: string; text: string }[] {
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
      : `<xs:schema xmlns:xs="${NS.s}"${namespace ? ` targetNamespace="${escapeXmlAttribute(namespace)}"` : ''}></xs:schema>`;
    const close = shell.lastIndexOf('</');
    const joined = shell.slice(0, close) + declarations.join('') + shell.slice(close);
    // Every other namespace a declaration here names is imported from its document of the set.
    const text = withDocument(parseXmlText(joined, 'a merged schema'), (doc) => {
      dropStrayAttributes(doc.root);
      dataSetSchemaAsWildcard(doc.root);
      if (soapEncoding) literalSoapEncoding(doc.root);
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
            `<xs:import xmlns:xs="${NS.s}"${ns ? ` namespace="${escapeXmlAttribute(ns)}"` : ''} schemaLocation="${namespaces.indexOf(ns)}.xsd"/>`,
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
  let unqualified = false;
  // A name in no namespace is written unprefixed, the default namespace undeclared around it (`xmlns=""`).
  const qname = (ns: string, name: string) => {
    if (ns === NS.s) return `xs:${name}`;
    if (ns === '') {
      unqualified = true;
      return name;
    }
    if (!prefixes.has(ns)) prefixes.set(ns, `p${prefixes.size}`);
    return `${prefixes.get(ns)!}:${name}`;
  };
  const declarations = () =>
    (unqualified ? ' xmlns=""' : '') + [...prefixes].map(([ns, p]) => ` xmlns:${p}="${escapeXmlAttribute(ns)}"`).join('');
  if (wrapper.type) {
    const type = partType(wrapper.type, qname);
    return `<xs:element xmlns:xs="${NS.s}"${declarations()} name="${escapeXmlAttribute(wrapper.name)}" type="${type}"/>`;
  }
  const members = wrapper.parts
    .map((part) =>
      part.element
        ? `<xs:element ref="${qname(part.element.namespace, part.element.name)}"/>`
        : isSoapArray(part.type!)
          ? `<xs:element name="${escapeXmlAttribute(part.name)}" form="unqualified"><xs:complexType><xs:sequence><xs:element name="${ARRAY_ITEM}" form="unqualified" minOccurs="0" maxOccurs="unbounded" nillable="true"/></xs:sequence></xs:complexType></xs:element>`
          : `<xs:element name="${escapeXmlAttribute(part.name)}" form="unqualified" type="${partType(part.type!, qname)}"/>`,
    )
    .join('');
  return `<xs:element xmlns:xs="${NS.s}"${declarations()} name="${escapeXmlAttribute(wrapper.name)}"><xs:complexType><xs:sequence>${members}</xs:sequence></xs:complexType></xs:element>`;
}

/** A part's type as the served schema names it: soapenc's simple types (and soapenc:Struct) as XML Schema's. */
function partType(type: { namespace: string; name: string }, qname: (ns: string, name: string) => string): string {
  const builtin = encodedBuiltin(type) ?? (isSoapStruct(type) ? 'anyType' : undefined);
  return builtin ? `xs:${builtin}` : qname(type.namespace, type.name);
}

const DECLARATIONS = ['element', 'complexType', 'simpleType', 'group', 'attributeGroup', 'attribute'];

/**
 * Per global element, a schema holding that element and the declarations it
 * needs, serialised: the schema's start tag, its other children (imports,
 * annotations) and the needed declarations in document order. Each
 * declaration's references are read once, so a contract of a thousand
 * operations does not copy its schema a thousand times.
 */
export function elementSchemasOf(xsd: XmlDocument, elementNames: string[]): Record<string, string> {
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

/** What the served schemas are made of. */
export interface SchemaSources {
  /** Every schema of the contract, inline in a WSDL or loaded from a file. */
  schemas: LoadedSchema[];
  /** The contract's target namespace: its schema document is the first. */
  targetNamespace: string;
  /** The rpc operations' wrapper elements, declared in their namespace's document. */
  rpcWrappers: RpcWrapper[];
  /** The request elements that get a schema of their own, by operation (a one-namespace contract's only). */
  requestElements: Record<string, string>;
  /** The contract speaks SOAP encoding: its arrays and simple types are served as their literal form (soap-encoding.ts). */
  soapEncoding?: boolean;
}

/** Each namespace's schema document, and per operation of `requestElements` the small schema of its request element. */
export function servedSchemas(sources: SchemaSources): {
  schemas: { namespace: string; text: string }[];
  requestSchemas: Record<string, string>;
} {
  const merged = mergedSchemas(sources.schemas, sources.targetNamespace, sources.rpcWrappers, sources.soapEncoding);
  const schemas = merged.map(({ namespace, text }) => ({ namespace, text: serializeText(text) }));
  if (merged.length !== 1 || sources.rpcWrappers.length > 0) return { schemas, requestSchemas: {} };
  const wanted = Object.values(sources.requestElements);
  const elementSchemas = withDocument(parseXmlText(merged[0].text, 'a schema'), (doc) =>
    elementSchemasOf(
      doc,
      findAll(doc.root, 's:element')
        .map((e) => attr(e, 'name'))
        .filter((name) => wanted.includes(name)),
    ),
  );
  const requestSchemas: Record<string, string> = {};
  for (const [operation, element] of Object.entries(sources.requestElements)) {
    if (elementSchemas[element]) requestSchemas[operation] = elementSchemas[element];
  }
  return { schemas, requestSchemas };
}
