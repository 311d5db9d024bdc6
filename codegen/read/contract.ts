import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { loadXmlEngine, type XmlDocument } from 'contract-runtime/xml';
import { attr, findAll, NS, optionalAttr, readXmlFile, refuseAt } from './documents';
import { type Catalog, standardCatalog } from './catalog';
import {
  checkLocationlessImports,
  createSchemaLoader,
  display,
  dropForeignAttributes,
  nillableSelfMembers,
  relaxSchema10,
} from './schemas';
import { readWsdl, type WsdlFacts } from './wsdl';
import { type LoadedSchema, readXsd, type XsdFacts } from './xsd';
import { apacheSoapTypes } from './xsd/apache-soap';

/** Everything codegen takes from a contract: the facts of the WSDL and of its schemas, and the documents as parsed. */
export interface ContractFacts {
  wsdl: WsdlFacts;
  xsd: XsdFacts;
  /** The documents read, still parsed: the documents stage (codegen/documents/) serialises the served ones from them. */
  documents: ContractDocuments;
}

/** The documents of a contract as read/ parsed them; `dispose` frees them (the documents stage does, once it has served them). */
export interface ContractDocuments {
  /** The WSDL and those it imports, the main one first (with a service added when it declared none), each imported one with the location it was named by. */
  wsdls: { doc: XmlDocument; location?: string }[];
  /** Every schema: inline in a WSDL, then loaded from a file. */
  schemas: LoadedSchema[];
  dispose(): void;
}

export interface ReadOptions {
  /** The service to serve when the WSDL declares several (default: the first). */
  service?: string;
  /** Where the schemas a WSDL names by URL are (default: the WSDL's folder): matched by namespace, never fetched. */
  schemas?: string;
  /** Says, in one line, what was read past. */
  warn?: (line: string) => void;
  /** Maps the URLs documents are named by to local files (`--catalog`). */
  catalog?: Catalog;
}

/** The WSDL file of a folder whose targetNamespace is `namespace` (one not read yet), for an import named by URL. */
function wsdlBeside(folder: string, namespace: string, read: string[]): string | undefined {
  for (const name of readdirSync(folder)
    .filter((n) => /\.wsdl$/i.test(n))
    .sort()) {
    const path = join(folder, name);
    if (read.includes(path)) continue;
    const doc = readXmlFile(display(path));
    try {
      if (
        doc.root.namespaceUri === NS.wsdl &&
        doc.root.name === 'definitions' &&
        (optionalAttr(doc.root, 'targetNamespace') ?? '') === namespace
      )
        return path;
    } finally {
      doc.dispose();
    }
  }
  return undefined;
}

/**
 * Reads a WSDL, the WSDLs it imports, and the schemas they hold inline or
 * reach by schemaLocation (import and include, relative to the file that
 * names them, never over the network). A schema named by URL, as a WSDL
 * saved from a live WCF service names its `?xsd=xsd0`, is the file beside it
 * that declares the namespace.
 */
export async function readContract(wsdlPath: string, options: ReadOptions = {}): Promise<ContractFacts> {
  await loadXmlEngine(); // codegen/main.ts has loaded it already; the tests call this function directly
  const folder = dirname(resolve(wsdlPath));
  const loader = createSchemaLoader({ folder, schemas: options.schemas, warn: options.warn, catalog: options.catalog, lenient: true });
  const { opened, load, followLocations, locate } = loader;
  const dispose = () => {
    for (const doc of new Set(opened)) doc.dispose();
  };
  try {
    // The WSDL and those it imports (wsdl:import), each once.
    const wsdlDocuments: { doc: XmlDocument; file: string; location?: string }[] = [];
    const loadWsdl = (path: string, location?: string) => {
      if (wsdlDocuments.some((d) => d.file === path)) return;
      const doc = readXmlFile(display(path), options.warn ?? (() => {}));
      opened.push(doc);
      // A wsdl:import may name a schema document (WSDL 1.1, 2.1.1; outside WS-I BP, R2001): it is read as an xsd:import.
      if (location !== undefined && doc.root.namespaceUri === NS.s && doc.root.name === 'schema') {
        load(path, undefined);
        return;
      }
      if (doc.root.namespaceUri !== NS.wsdl || doc.root.name !== 'definitions') {
        refuseAt(doc.root, `<${doc.root.name}> is not a WSDL 1.1 definitions element`);
      }
      wsdlDocuments.push({ doc, file: path, ...(location ? { location } : {}) });
      for (const imported of findAll(doc.root, 'wsdl:import')) {
        const where = attr(imported, 'location');
        // A URL, or a WCF service's relative one (`Service.svc?wsdl=wsdl0`) that names no file beside.
        const byUrl =
          /^[a-z][a-z0-9+.-]*:/i.test(where) || isAbsolute(where) || (where.includes('?') && !existsSync(resolve(dirname(path), where)));
        if (byUrl) {
          const namespace = optionalAttr(imported, 'namespace') ?? '';
          // A WSDL read already, importing by URL one that imports it (WCF's `?wsdl=wsdl0` importing its `?wsdl`): a cycle, read once.
          const cycle =
            !options.catalog?.resolve(where) &&
            wsdlDocuments.some(({ doc }) => (optionalAttr(doc.root, 'targetNamespace') ?? '') === namespace);
          if (cycle) continue;
          const found =
            options.catalog?.resolve(where) ??
            wsdlBeside(
              dirname(path),
              namespace,
              wsdlDocuments.map((d) => d.file),
            ) ??
            standardCatalog().resolve(where);
          if (!found) {
            refuseAt(
              imported,
              `wsdl:import location ${where}: codegen never fetches a WSDL; map the URL to a file with --catalog FILE (an OASIS XML Catalog), or save the WSDL beside this one (any file name: it is found by its targetNamespace ${namespace || '(none)'})`,
            );
          }
          if (!existsSync(found))
            refuseAt(imported, `wsdl:import location ${where}: the catalog maps it to ${display(found)}, which is not there`);
          loadWsdl(found, where);
          continue;
        }
        const target = resolve(dirname(path), where);
        if (!existsSync(target)) refuseAt(imported, `wsdl:import location ${where}: ${display(target)} is not there`);
        loadWsdl(target, where);
      }
    };
    loadWsdl(resolve(wsdlPath));
    const wsdl = readWsdl(
      wsdlDocuments.map((d) => d.doc),
      { service: options.service, warn: options.warn },
    );
    const inline = wsdlDocuments.flatMap(({ doc, file }) =>
      findAll(doc.root, 'wsdl:types/s:schema').map((schema) => {
        const loaded: LoadedSchema = { schema, file: display(file), locations: [], inline: true };
        followLocations(loaded);
        return loaded;
      }),
    );
    inWsdlNamespace(inline, wsdl, options.warn);
    // An xsd:import directly under wsdl:types (outside WS-I BP, R2003) is read as a schema's import.
    for (const { doc, file } of wsdlDocuments) {
      for (const element of findAll(doc.root, 'wsdl:types/s:import')) {
        const location = optionalAttr(element, 'schemaLocation');
        if (location !== undefined) load(locate(element, file, location), undefined);
      }
    }
    // A standard namespace a message part names without any schema importing it (gSOAP's wsse:Security header) is
    // read from codegen/standard/'s copy, as an import without schemaLocation is.
    const named = wsdl.operations.flatMap((op) => [
      ...[op.input, op.output].flatMap((m) =>
        [...(m?.body ?? []), ...(m?.headers ?? [])].flatMap((p) => (p.element ? [p.element.namespace] : [])),
      ),
      ...op.faults.map((f) => f.element.namespace),
    ]);
    loader.loadImplied(inline, named);
    const schemas = [...inline, ...loader.loaded()];
    // A contract that SOAP encoding speaks reads soapenc's arrays and simple types as encoding has them, and Apache
    // SOAP's Map and Vector where it names them without declaring them.
    const soapEncoding = wsdl.operations.some((op) => op.input?.encoded || op.output?.encoded);
    const apache = soapEncoding
      ? apacheSoapTypes(
          schemas,
          wsdl.operations.flatMap((op) => [...(op.input?.body ?? []), ...(op.output?.body ?? [])].map((p) => p.type?.namespace ?? '')),
        )
      : undefined;
    if (apache) {
      opened.push(apache.schema.doc);
      schemas.push(apache);
    }
    checkLocationlessImports(schemas, options.warn);
    dropForeignAttributes(schemas, options.warn);
    relaxSchema10(schemas, options.warn);
    if (soapEncoding) nillableSelfMembers(schemas, options.warn);
    for (const { schema } of schemas) {
      const [redefine] = findAll(schema, 's:redefine');
      if (redefine)
        refuseAt(
          redefine,
          "a redefine in a WSDL's schemas: the WSDL is served with its schemas inline, where a redefinition has no document to redefine; publish the redefined schema (codegen --xsd reads redefine)",
        );
    }
    const xsd = readXsd(schemas, { soapEncoding });
    return {
      wsdl,
      xsd,
      documents: { wsdls: wsdlDocuments.map(({ doc, location }) => ({ doc, ...(location ? { location } : {}) })), schemas, dispose },
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * An inline schema of no targetNamespace whose declarations the messages name in the WSDL's namespace, which no
 * schema of that namespace declares (Axis C++'s HiddenMessageParts test: `element="tns:PruebaDatosCabecera"`): read
 * as a schema of the WSDL's namespace (as a chameleon include takes its includer's), said in one line.
 */
function inWsdlNamespace(inline: LoadedSchema[], wsdl: WsdlFacts, warn: (line: string) => void = () => {}): void {
  const tns = wsdl.targetNamespace;
  const names = new Set(
    wsdl.operations.flatMap((op) => [
      ...[op.input, op.output].flatMap((m) =>
        [...(m?.body ?? []), ...(m?.headers ?? [])].flatMap((p) =>
          [p.element, p.type].filter((q) => q?.namespace === tns).map((q) => q!.name),
        ),
      ),
      ...op.faults.filter((f) => f.element.namespace === tns).map((f) => f.element.name),
    ]),
  );
  if (tns === '' || names.size === 0) return;
  const DECLARATIONS = 's:element[@name] | s:complexType[@name] | s:simpleType[@name]';
  const declaredInTns = new Set(
    inline
      .filter((s) => optionalAttr(s.schema, 'targetNamespace') === tns)
      .flatMap((s) => findAll(s.schema, DECLARATIONS).map((d) => attr(d, 'name'))),
  );
  for (const loaded of inline) {
    if (optionalAttr(loaded.schema, 'targetNamespace') !== undefined || loaded.chameleon) continue;
    const taken = findAll(loaded.schema, DECLARATIONS)
      .map((d) => attr(d, 'name'))
      .filter((name) => names.has(name) && !declaredInTns.has(name));
    if (taken.length === 0) continue;
    loaded.chameleon = tns;
    warn(
      `codegen: warning: ${loaded.file}:${loaded.schema.line}: a schema of no targetNamespace whose declarations the messages name in the WSDL's namespace (${taken.join(', ')}) is read as a schema of ${tns}`,
    );
  }
}
