import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { loadXmlEngine, type XmlDocument, type XmlElement } from '../../src/runtime/xml/xml-engine';
import { attr, findAll, NS, optionalAttr, readXmlFile, refuseAt } from './documents';
import { type ContractTexts, readTexts } from './texts';
import { readWsdl, type WsdlFacts } from './wsdl';
import { type LoadedSchema, readXsd, type XsdFacts } from './xsd';

/** Everything codegen takes from a contract: the facts of the WSDL and of its schemas, and the texts to serve. */
export interface ContractFacts {
  wsdl: WsdlFacts;
  xsd: XsdFacts;
  texts: ContractTexts;
}

export interface ReadOptions {
  /** The service to serve when the WSDL declares several (default: the first). */
  service?: string;
  /** Where the schemas a WSDL names by URL are (default: the WSDL's folder): matched by namespace, never fetched. */
  schemas?: string;
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
  const opened: XmlDocument[] = [];
  const files = new Map<string, LoadedSchema>();
  const display = (path: string) => relative(process.cwd(), path) || path;
  const inside = (path: string) => !relative(folder, path).startsWith('..');
  let schemaFilesByNamespace: Map<string, string> | undefined;
  /** The schema files of the folder by their target namespace, for locations given as URLs. */
  const byNamespace = (): Map<string, string> => {
    if (schemaFilesByNamespace) return schemaFilesByNamespace;
    schemaFilesByNamespace = new Map();
    const dir = options.schemas ? resolve(options.schemas) : folder;
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
    const doc = readXmlFile(display(path));
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
  /** The file a schemaLocation names: relative to the file naming it, or (a URL) the folder's file declaring the namespace. */
  const locate = (element: XmlElement, from: string, location: string): string => {
    // A URL, or a WCF service's relative one (`Service.svc?xsd=xsd0`) that names no file beside the WSDL.
    const byUrl =
      /^[a-z][a-z0-9+.-]*:/i.test(location) ||
      isAbsolute(location) ||
      (location.includes('?') && !existsSync(resolve(dirname(from), location)));
    if (byUrl) {
      const namespace = element.name === 'import' ? (optionalAttr(element, 'namespace') ?? '') : undefined;
      const found = namespace === undefined ? undefined : byNamespace().get(namespace);
      if (!found) {
        refuseAt(
          element,
          `schemaLocation ${location}: codegen never fetches a schema; save it beside the WSDL (any file name: it is found by its targetNamespace${namespace ? ` ${namespace}` : ''}), or name its folder with --schemas DIR`,
        );
      }
      return found;
    }
    const path = resolve(dirname(from), location);
    if (!inside(path)) refuseAt(element, `schemaLocation ${location} leaves the WSDL's folder; keep the contract's files together`);
    return path;
  };
  const followLocations = (schema: LoadedSchema) => {
    if (schema.schema.namespaceUri !== NS.s || schema.schema.name !== 'schema') {
      refuseAt(schema.schema, `<${schema.schema.name}> is not an XML Schema`);
    }
    const own = optionalAttr(schema.schema, 'targetNamespace') ?? schema.chameleon;
    for (const element of findAll(schema.schema, 's:import | s:include')) {
      const location = optionalAttr(element, 'schemaLocation');
      if (location === undefined) {
        if (element.name === 'include') refuseAt(element, 'an include must name its schemaLocation');
        continue;
      }
      const path = locate(element, resolve(schema.file), location);
      const declared = (file: string) => {
        const doc = readXmlFile(display(file));
        opened.push(doc);
        return doc.root.name === 'schema' ? optionalAttr(doc.root, 'targetNamespace') : undefined;
      };
      if (element.name === 'include') {
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
  try {
    // The WSDL and those it imports (wsdl:import), each once.
    const wsdlDocuments: { doc: XmlDocument; file: string; location?: string }[] = [];
    const loadWsdl = (path: string, location?: string) => {
      if (wsdlDocuments.some((d) => d.file === path)) return;
      const doc = readXmlFile(display(path));
      opened.push(doc);
      if (doc.root.namespaceUri !== NS.wsdl || doc.root.name !== 'definitions') {
        refuseAt(doc.root, `<${doc.root.name}> is not a WSDL 1.1 definitions element`);
      }
      wsdlDocuments.push({ doc, file: path, ...(location ? { location } : {}) });
      for (const imported of findAll(doc.root, 'wsdl:import')) {
        const where = attr(imported, 'location');
        if (/^[a-z][a-z0-9+.-]*:/i.test(where) || isAbsolute(where)) {
          refuseAt(
            imported,
            `wsdl:import location ${where}: codegen never fetches a WSDL; save it beside this one and name it by a relative path`,
          );
        }
        const target = resolve(dirname(path), where);
        if (!inside(target))
          refuseAt(imported, `wsdl:import location ${where} leaves the WSDL's folder; keep the contract's files together`);
        loadWsdl(target, where);
      }
    };
    loadWsdl(resolve(wsdlPath));
    const wsdl = readWsdl(
      wsdlDocuments.map((d) => d.doc),
      options,
    );
    const inline = wsdlDocuments.flatMap(({ doc, file }) =>
      findAll(doc.root, 'wsdl:types/s:schema').map((schema) => {
        const loaded: LoadedSchema = { schema, file: display(file), locations: [], inline: true };
        followLocations(loaded);
        return loaded;
      }),
    );
    // An xsd:import directly under wsdl:types (outside WS-I BP, R2003) is read as a schema's import.
    for (const { doc, file } of wsdlDocuments) {
      for (const element of findAll(doc.root, 'wsdl:types/s:import')) {
        const location = optionalAttr(element, 'schemaLocation');
        if (location !== undefined) load(locate(element, file, location), undefined);
      }
    }
    const schemas = [...inline, ...new Set(files.values())];
    const declared = new Set(schemas.map((s) => optionalAttr(s.schema, 'targetNamespace') ?? s.chameleon ?? ''));
    for (const { schema } of schemas) {
      for (const imported of findAll(schema, 's:import[not(@schemaLocation)]')) {
        const namespace = optionalAttr(imported, 'namespace') ?? '';
        if (!declared.has(namespace) && namespace !== 'http://www.w3.org/XML/1998/namespace')
          refuseAt(imported, `imports namespace ${namespace || '(none)'}, which no schema of the WSDL declares`);
      }
    }
    const xsd = readXsd(schemas);
    const texts = readTexts(
      wsdlDocuments.map((d) => d.doc),
      wsdlDocuments.slice(1).map((d) => d.location!),
      inline,
      schemas,
      wsdl.targetNamespace,
      wsdl.operations.flatMap((op) =>
        op.style !== 'rpc'
          ? []
          : [
              { name: op.name, namespace: op.input!.namespace!, parts: op.input!.body },
              ...(op.output ? [{ name: `${op.name}Response`, namespace: op.output.namespace!, parts: op.output.body }] : []),
            ],
      ),
      wsdl.operations.flatMap((op) => (op.input?.body.length === 1 && op.input.body[0].element ? [op.input.body[0].element.name] : [])),
      wsdl.ports[0]?.path,
    );
    return { wsdl, xsd, texts };
  } finally {
    for (const doc of new Set(opened)) doc.dispose();
  }
}
