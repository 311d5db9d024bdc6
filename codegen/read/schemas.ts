/**
 * Loads the schema documents a contract reaches: each file named by an
 * import's or include's schemaLocation (relative to the file that names it),
 * once, from the local file system only. A location that is a URL is the
 * schema file of the folder (or of `--schemas`) that declares the imported
 * namespace: nothing is ever fetched.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { loadXmlEngine, type XmlDocument, type XmlElement } from 'contract-runtime/xml';
import {
  appendCopy,
  attr,
  copyElementBefore,
  findAll,
  localName,
  NS,
  namespaceOfQName,
  optionalAttr,
  readXmlFile,
  refuseAt,
  replaceRenamed,
  setPlainAttr,
  XML_NAMESPACE,
} from './documents';
import { type Catalog, standardCatalog } from './catalog';
import { type LoadedSchema, readXsd, type XsdFacts } from './xsd';

export interface SchemaLoaderOptions {
  /** The folder whose schema files are matched by namespace for a location that is a URL. */
  folder: string;
  /** Where the schemas named by URL are instead (`--schemas`). */
  schemas?: string;
  /** Says, in one line, what was read past (an import whose file is missing). */
  warn?: (line: string) => void;
  /** Maps the URLs documents are named by to local files (`--catalog`). */
  catalog?: Catalog;
  /** A WSDL's schemas: a schema document in no namespace for want of a default one is read as XML Schema (readXmlFile). */
  lenient?: boolean;
}

export interface SchemaLoader {
  /** A schema file, loaded once (a chameleon include once per namespace it takes), with what it imports and includes. */
  load(path: string, chameleon: string | undefined): LoadedSchema;
  /** Loads what a schema imports or includes by schemaLocation. */
  followLocations(schema: LoadedSchema): void;
  /** The file a schemaLocation names. */
  locate(element: XmlElement, from: string, location: string): string;
  /** Every schema file loaded, in the order first loaded. */
  loaded(): LoadedSchema[];
  /**
   * Loads the standard schemas (codegen/standard/) of the namespaces the loaded schemas (and `inline`, a WSDL's own)
   * use but none declares: one imported without schemaLocation, the XML namespace where its attributes are
   * referenced without an import (libxml2 compiles no reference to a namespace that is not imported), and those
   * `named` (the namespaces of the elements a WSDL's message parts name). The user's catalog may map the namespace first.
   */
  loadImplied(inline?: LoadedSchema[], named?: Iterable<string>): void;
  /** Every document parsed: the caller disposes them once the facts are read. */
  readonly opened: XmlDocument[];
}

/** How codegen names a file in its messages: relative to the working folder. */
export const display = (path: string) => relative(process.cwd(), path) || path;

export function createSchemaLoader(options: SchemaLoaderOptions): SchemaLoader {
  const opened: XmlDocument[] = [];
  const files = new Map<string, LoadedSchema>();
  let schemaFilesByNamespace: Map<string, string> | undefined;
  /** The schema files of the folder by their target namespace, for locations given as URLs. */
  const byNamespace = (): Map<string, string> => {
    if (schemaFilesByNamespace) return schemaFilesByNamespace;
    schemaFilesByNamespace = new Map();
    const dir = options.schemas ? resolve(options.schemas) : options.folder;
    for (const name of existsSync(dir) ? readdirSync(dir).filter((n) => /\.xsd$/i.test(n)) : []) {
      const doc = readXmlFile(display(join(dir, name)));
      opened.push(doc);
      const ns = doc.root.name === 'schema' ? (optionalAttr(doc.root, 'targetNamespace') ?? '') : undefined;
      if (ns !== undefined && !schemaFilesByNamespace.has(ns)) schemaFilesByNamespace.set(ns, join(dir, name));
    }
    return schemaFilesByNamespace;
  };

  const load = (path: string, chameleon: string | undefined): LoadedSchema => {
    const key = `${path}\u0000${chameleon ?? ''}`;
    const known = files.get(key);
    if (known) return known;
    const doc = readXmlFile(display(path), options.lenient ? (options.warn ?? (() => {})) : undefined);
    opened.push(doc);
    const loaded: LoadedSchema = {
      schema: doc.root,
      file: display(path),
      locations: [],
      inline: false,
      ...(chameleon ? { chameleon } : {}),
    };
    files.set(key, loaded);
    followLocations(loaded);
    return loaded;
  };

  const locate = (element: XmlElement, from: string, location: string): string => {
    // A URL, or a WCF service's relative one (`Service.svc?xsd=xsd0`) that names no file beside the WSDL.
    const byUrl =
      /^[a-z][a-z0-9+.-]*:/i.test(location) ||
      isAbsolute(location) ||
      (location.includes('?') && !existsSync(resolve(dirname(from), location)));
    if (byUrl) {
      // A catalog's mapping first; else the schema beside that declares the imported namespace.
      const mapped = options.catalog?.resolve(location);
      if (mapped !== undefined) {
        if (!existsSync(mapped))
          refuseAt(element, `schemaLocation ${location}: the catalog maps it to ${display(mapped)}, which is not there`);
        return mapped;
      }
      const namespace = element.name === 'import' ? (optionalAttr(element, 'namespace') ?? '') : undefined;
      // Last, the copies of W3C, OASIS and xmlsoap.org documents codegen carries.
      const found = (namespace === undefined ? undefined : byNamespace().get(namespace)) ?? standardCatalog().resolve(location);
      if (!found) {
        refuseAt(
          element,
          `schemaLocation ${location}: codegen never fetches a schema; map the URL to a file with --catalog FILE (an OASIS XML Catalog), or save the schema beside the WSDL (any file name: it is found by its targetNamespace${namespace ? ` ${namespace}` : ''}), or name its folder with --schemas DIR`,
        );
      }
      return found;
    }
    const path = resolve(dirname(from), location);
    return path;
  };

  const followLocations = (schema: LoadedSchema) => {
    if (schema.schema.namespaceUri !== NS.s || schema.schema.name !== 'schema') {
      refuseAt(schema.schema, `<${schema.schema.name}> is not an XML Schema`);
    }
    const own = optionalAttr(schema.schema, 'targetNamespace') ?? schema.chameleon;
    // A redefine includes its schema (whose components it then redefines): it is followed as an include is.
    for (const element of findAll(schema.schema, 's:import | s:include | s:redefine')) {
      const location = optionalAttr(element, 'schemaLocation');
      if (location === undefined) {
        if (element.name !== 'import') refuseAt(element, `an ${element.name} must name its schemaLocation`);
        continue;
      }
      const path = locate(element, resolve(schema.file), location);
      // An import's location is a hint (XML Schema 1.0, 4.2.3): a file that is not there is said, and read past.
      if (element.name === 'import' && !existsSync(path)) {
        options.warn?.(
          `codegen: warning: ${display(schema.file)}:${element.line}: schemaLocation ${location} is not there; the components of ${optionalAttr(element, 'namespace') || '(no namespace)'} it would declare are missing`,
        );
        continue;
      }
      const declared = (file: string) => {
        const doc = readXmlFile(display(file));
        opened.push(doc);
        return doc.root.name === 'schema' ? optionalAttr(doc.root, 'targetNamespace') : undefined;
      };
      if (element.name !== 'import') {
        const included = declared(path);
        if (included !== undefined && included !== own) {
          refuseAt(element, `the included schema ${location} must have the including schema's targetNamespace`);
        }
        // A schema without targetNamespace takes its includer's (a chameleon include).
        schema.locations.push({ element, loaded: load(path, included === undefined ? own : undefined) });
        continue;
      }
      const loaded = load(path, undefined);
      if ((optionalAttr(loaded.schema, 'targetNamespace') ?? '') !== (optionalAttr(element, 'namespace') ?? '')) {
        refuseAt(element, `the imported schema ${location} does not have the namespace ${attr(element, 'namespace')}`);
      }
      schema.locations.push({ element, loaded });
    }
  };

  const loaded = () => [...new Set(files.values())];

  const loadImplied = (inline: LoadedSchema[] = [], named: Iterable<string> = []): void => {
    // Until a round loads nothing new (a standard schema may import another).
    for (let known = -1; files.size !== known; ) {
      known = files.size;
      const all = [...inline, ...loaded()];
      const declared = new Set(all.map((s) => optionalAttr(s.schema, 'targetNamespace') ?? s.chameleon ?? ''));
      const wanted = new Set<string>(named);
      for (const { schema } of all) {
        for (const imported of findAll(schema, 's:import[not(@schemaLocation)]')) wanted.add(optionalAttr(imported, 'namespace') ?? '');
        for (const user of findAll(schema, '//s:attribute[@ref] | //s:attributeGroup[@ref]')) {
          if (namespaceOfQName(user, attr(user, 'ref')) === XML_NAMESPACE) wanted.add(XML_NAMESPACE);
        }
      }
      for (const namespace of wanted) {
        if (namespace === '' || declared.has(namespace)) continue;
        const path = options.catalog?.resolve(namespace) ?? standardCatalog().resolve(namespace);
        if (path !== undefined && existsSync(path)) load(path, undefined);
      }
    }
  };

  return { load, followLocations, locate, loaded, loadImplied, opened };
}

/**
 * An import without schemaLocation names a namespace some schema of the set should declare: one that none does is
 * said in a line (its components are missing; a reference to one is refused where it is made).
 */
export function checkLocationlessImports(schemas: LoadedSchema[], warn: (line: string) => void = () => {}): void {
  const declared = new Set(schemas.map((s) => optionalAttr(s.schema, 'targetNamespace') ?? s.chameleon ?? ''));
  for (const { schema, file } of schemas) {
    for (const imported of findAll(schema, 's:import[not(@schemaLocation)]')) {
      const namespace = optionalAttr(imported, 'namespace') ?? '';
      // The xml: and xsi: namespaces are XML's and XML Schema's own: their attributes need no schema.
      if (!declared.has(namespace) && namespace !== XML_NAMESPACE && namespace !== 'http://www.w3.org/2001/XMLSchema-instance')
        warn(
          `codegen: warning: ${file}:${imported.line}: imports namespace ${namespace || '(none)'}, which no schema of the contract declares`,
        );
    }
  }
}

/** Every attribute name XML Schema (1.0 and 1.1) gives its elements, unqualified. */
const XSD_ATTRIBUTES = new Set(
  (
    'abstract appliesToEmpty attributeFormDefault base block blockDefault default defaultAttributes defaultAttributesApply ' +
    'elementFormDefault final finalDefault fixed form id inheritable itemType maxOccurs memberTypes minOccurs mixed mode ' +
    'name namespace nillable notNamespace notQName processContents public ref refer schemaLocation source ' +
    'substitutionGroup system targetNamespace test type use value version xpath xpathDefaultNamespace'
  ).split(' '),
);

/**
 * A published contract's schema may give its components an unqualified attribute XML Schema does not have (a
 * `label` on each enumeration, as ReformaGKH's PHP service writes them): no processor reads it, libxml2 refuses the
 * schema for it. In a WSDL's schemas each such attribute is taken out, said in one line per schema document (a bare
 * schema set, `--xsd`, is held to XML Schema: such a schema is refused).
 */
export function dropForeignAttributes(schemas: LoadedSchema[], warn: (line: string) => void = () => {}): void {
  for (const { schema, file } of schemas) {
    const dropped = new Map<string, number>();
    let first: number | undefined;
    for (const element of [schema, ...findAll(schema, './/s:*')]) {
      for (const attribute of element.attrs) {
        if (attribute.namespaceUri || XSD_ATTRIBUTES.has(attribute.name)) continue;
        dropped.set(attribute.name, (dropped.get(attribute.name) ?? 0) + 1);
        first ??= element.line;
        attribute.remove();
      }
    }
    if (dropped.size === 0) continue;
    const names = [...dropped].map(([name, count]) => `${name} (${count}×)`).join(', ');
    warn(`codegen: warning: ${file}:${first}: attributes XML Schema does not have are ignored: ${names}`);
  }
}

/**
 * Axis 1's, Axis C++'s and White Mesa's published schemas break rules of XML Schema 1.0 that libxml2 holds them to.
 * In a WSDL's schemas each is read as the toolkits that publish them read it, said in one line per schema document
 * (a bare schema set, `--xsd`, is held to XML Schema 1.0):
 * - `minOccurs`/`maxOccurs` on a global element (ComprehensiveTypes): ignored;
 * - a content model directly in `complexContent` (White Mesa's echoResolvedRef_t): the type's content;
 * - a content model after the attributes (ComprehensiveTypes): read before them;
 * - several content models in one type (RPCAllTest: a sequence, an all, a sequence): one sequence of them;
 * - an `all` group where a derivation by extension adds content to it or to its base (MArrayTest, MultiRefTest),
 *   or of a member that repeats (XML Schema 1.1's `all`): a sequence of its members in the order declared, as
 *   those toolkits write them.
 */
export function relaxSchema10(schemas: LoadedSchema[], warn: (line: string) => void = () => {}): void {
  const PARTICLE = 's:sequence | s:choice | s:all | s:group';
  const IS_PARTICLE = 'self::s:sequence or self::s:choice or self::s:all or self::s:group';
  const said = new Map<string, { first: number; counts: Map<string, number> }>();
  const note = (file: string, line: number, what: string) => {
    const entry = said.get(file) ?? { first: line, counts: new Map<string, number>() };
    entry.first = Math.min(entry.first, line);
    entry.counts.set(what, (entry.counts.get(what) ?? 0) + 1);
    said.set(file, entry);
  };
  const fileOf = new Map<XmlDocument, string>(schemas.map(({ schema, file }) => [schema.doc, file]));
  for (const { schema, file } of schemas) {
    for (const element of findAll(schema, 's:element[@minOccurs or @maxOccurs]')) {
      note(file, element.line, 'occurrence attributes on a global element are ignored');
      for (const attribute of element.attrs) {
        if (!attribute.namespaceUri && (attribute.name === 'minOccurs' || attribute.name === 'maxOccurs')) attribute.remove();
      }
    }
    for (const content of findAll(schema, `.//s:complexContent[*[${IS_PARTICLE}]]`)) {
      note(file, content.line, "a content model directly in complexContent is read as the type's content");
      for (const child of findAll(content, '*')) copyElementBefore(child, content);
      content.remove();
    }
    const late = `.//s:complexType[(s:attribute | s:attributeGroup | s:anyAttribute)/following-sibling::*[${IS_PARTICLE}]]`;
    for (const type of findAll(schema, late)) {
      note(file, type.line, 'a content model after the attributes is read before them');
      const [firstAttribute] = findAll(type, 's:attribute | s:attributeGroup | s:anyAttribute');
      for (const particle of findAll(type, PARTICLE)) {
        copyElementBefore(particle, firstAttribute);
        particle.remove();
      }
    }
    const holders = `.//s:complexType[count(${PARTICLE}) > 1] | .//s:complexContent/*[count(${PARTICLE}) > 1]`;
    for (const holder of findAll(schema, holders)) {
      note(file, holder.line, 'several content models of one type are read as one sequence of them');
      const particles = findAll(holder, PARTICLE);
      const sequence = particles[0].prependElement('sequence');
      sequence.prefix = particles[0].prefix;
      for (const particle of particles) {
        // A sequence or an all that occurs once gives its members; any other particle is a member itself.
        const once = optionalAttr(particle, 'minOccurs') === undefined && optionalAttr(particle, 'maxOccurs') === undefined;
        if (once && (particle.name === 'sequence' || particle.name === 'all'))
          for (const member of findAll(particle, '*')) appendCopy(member, sequence);
        else appendCopy(particle, sequence);
        particle.remove();
      }
    }
  }
  // The all groups to read as sequences, found once every schema is restructured (a base may be in another document).
  const types = new Map<string, XmlElement>();
  for (const { schema, chameleon } of schemas) {
    const ns = optionalAttr(schema, 'targetNamespace') ?? chameleon ?? '';
    for (const type of findAll(schema, 's:complexType[@name]')) types.set(`{${ns}}${attr(type, 'name')}`, type);
  }
  const baseOf = (extension: XmlElement) => {
    const base = attr(extension, 'base');
    return types.get(`{${namespaceOfQName(extension, base) ?? ''}}${localName(base)}`);
  };
  const MEMBERS = './s:sequence/* | ./s:choice/* | ./s:all/* | ./s:group';
  // A type's chain of bases by extension, the type first (a cycle, which XML Schema forbids, ends it).
  const chainOf = (type: XmlElement | undefined): XmlElement[] => {
    const chain: XmlElement[] = [];
    for (let at = type; at && chain.length < 32 && !chain.some((t) => t.isSameNode(at!)); ) {
      chain.push(at);
      const [extension] = findAll(at, './s:complexContent/s:extension');
      at = extension ? baseOf(extension) : undefined;
    }
    return chain;
  };
  const alls: XmlElement[] = [];
  const add = (all: XmlElement) => {
    if (!alls.some((known) => known.isSameNode(all))) alls.push(all);
  };
  for (const { schema } of schemas) {
    for (const extension of findAll(schema, './/s:complexContent/s:extension')) {
      const bases = chainOf(baseOf(extension));
      const baseContent = bases.some((b) => findAll(b, `${MEMBERS} | ./s:complexContent/s:extension/*[${IS_PARTICLE}]/*`).length > 0);
      if (!baseContent || findAll(extension, MEMBERS).length === 0) continue;
      for (const all of findAll(extension, 's:all')) add(all);
      for (const base of bases) for (const all of findAll(base, './s:all | ./s:complexContent/s:extension/s:all')) add(all);
    }
    for (const all of findAll(schema, './/s:all')) {
      if (findAll(all, './s:element').some((member) => !['0', '1', undefined].includes(optionalAttr(member, 'maxOccurs')))) add(all);
    }
  }
  for (const all of alls) {
    note(fileOf.get(all.doc) ?? '', all.line, 'an all group extended with content or of a member that repeats is read as a sequence');
    replaceRenamed(all, 'sequence');
  }
  for (const [file, { first, counts }] of said) {
    const what = [...counts].map(([text, count]) => `${text} (${count}×)`).join('; ');
    warn(`codegen: warning: ${file}:${first}: what XML Schema 1.0 forbids: ${what}`);
  }
}

/**
 * A struct of SOAP encoding whose required member is of the struct's own type (soap4r's person and its `link`) has no
 * finite value unless that member may be nil, as SOAP encoding lets any accessor be (SOAP 1.1 §5.4): in a contract
 * that SOAP encoding speaks, such a member is read as nillable, said in one line per schema document.
 */
export function nillableSelfMembers(schemas: LoadedSchema[], warn: (line: string) => void = () => {}): void {
  for (const { schema, file, chameleon } of schemas) {
    const ns = optionalAttr(schema, 'targetNamespace') ?? chameleon ?? '';
    const members: XmlElement[] = [];
    let line = 0;
    for (const type of findAll(schema, 's:complexType[@name]')) {
      const name = attr(type, 'name');
      for (const member of findAll(type, './/s:element[@type][not(@nillable)]')) {
        const [owner] = findAll(member, 'ancestor::s:complexType[1]');
        const type_ = attr(member, 'type');
        const once = (optionalAttr(member, 'minOccurs') ?? '1') !== '0' && (optionalAttr(member, 'maxOccurs') ?? '1') === '1';
        if (owner?.isSameNode(type) && once && localName(type_) === name && namespaceOfQName(member, type_) === ns) {
          members.push(member);
          line ||= type.line;
        }
      }
    }
    if (members.length === 0) continue;
    for (const member of members) setPlainAttr(member, 'nillable', 'true');
    const names = members.map((m) => attr(m, 'name')).join(', ');
    warn(
      `codegen: warning: ${file}:${line}: a struct's required member of its own type is read as nillable (SOAP encoding's nil), else no value is finite: ${names}`,
    );
  }
}

/** What codegen takes from a bare schema set (`--xsd`): the facts of its schemas and the namespace of the first. */
export interface SchemaSetFacts {
  xsd: XsdFacts;
  /** The first schema's targetNamespace ('' for none). */
  targetNamespace: string;
}

/**
 * Reads schema files and every schema they import, include or redefine, from
 * the local file system (a location may lead anywhere on it), as `--xsd`
 * does: the union of their declarations.
 */
export async function readSchemaSet(
  paths: readonly string[],
  { warn, catalog }: { warn?: (line: string) => void; catalog?: Catalog } = {},
): Promise<SchemaSetFacts> {
  await loadXmlEngine();
  if (paths.length === 0) throw new Error('codegen: --xsd needs a schema file');
  const loader = createSchemaLoader({ folder: dirname(resolve(paths[0])), warn, catalog });
  try {
    const roots = paths.map((path) => loader.load(resolve(path), undefined));
    loader.loadImplied();
    const schemas = loader.loaded();
    checkLocationlessImports(schemas, warn);
    return { xsd: readXsd(schemas), targetNamespace: optionalAttr(roots[0].schema, 'targetNamespace') ?? '' };
  } finally {
    for (const doc of new Set(loader.opened)) doc.dispose();
  }
}
