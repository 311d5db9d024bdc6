import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { loadXmlEngine, type XmlDocument } from '../../src/runtime/xml/xml-engine';
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

/**
 * Reads a WSDL and the schemas it holds inline or reaches by schemaLocation
 * (import and include, relative to the file that names them, never over the
 * network).
 */
export async function readContract(wsdlPath: string): Promise<ContractFacts> {
  await loadXmlEngine(); // codegen/main.ts has loaded it already; the tests call this function directly
  const opened: XmlDocument[] = [];
  const files = new Map<string, LoadedSchema>();
  const load = (path: string, inline: false): LoadedSchema => {
    const known = files.get(path);
    if (known) return known;
    const doc = readXmlFile(path);
    opened.push(doc);
    const loaded: LoadedSchema = { schema: doc.root, file: path, locations: [], inline };
    files.set(path, loaded);
    followLocations(loaded);
    return loaded;
  };
  const followLocations = (schema: LoadedSchema) => {
    if (schema.schema.namespaceUri !== NS.s || schema.schema.name !== 'schema') {
      refuseAt(schema.schema, `<${schema.schema.name}> is not an XML Schema`);
    }
    for (const element of findAll(schema.schema, 's:import | s:include')) {
      const location = optionalAttr(element, 'schemaLocation');
      if (location === undefined) {
        if (element.name === 'include') refuseAt(element, 'an include must name its schemaLocation');
        continue;
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(location) || isAbsolute(location)) {
        refuseAt(
          element,
          `schemaLocation ${location}: codegen reads schemas from files beside the WSDL only; download it and name it by a relative path`,
        );
      }
      const path = resolve(dirname(schema.file), location);
      if (relative(dirname(resolve(wsdlPath)), path).startsWith('..')) {
        refuseAt(element, `schemaLocation ${location} leaves the WSDL's folder; keep the contract's files together`);
      }
      const loaded = load(relative(process.cwd(), path) || path, false);
      if (element.name === 'include' && optionalAttr(loaded.schema, 'targetNamespace') !== optionalAttr(schema.schema, 'targetNamespace')) {
        refuseAt(element, `the included schema ${location} must have the including schema's targetNamespace`);
      }
      if (element.name === 'import' && optionalAttr(loaded.schema, 'targetNamespace') !== attr(element, 'namespace')) {
        refuseAt(element, `the imported schema ${location} does not have the namespace ${attr(element, 'namespace')}`);
      }
      schema.locations.push({ element, loaded });
    }
  };
  try {
    const wsdlDocument = readXmlFile(wsdlPath);
    opened.push(wsdlDocument);
    const wsdl = readWsdl(wsdlDocument);
    const inline = findAll(wsdlDocument.root, 'wsdl:types/s:schema').map((schema) => {
      const loaded: LoadedSchema = { schema, file: wsdlPath, locations: [], inline: true };
      followLocations(loaded);
      return loaded;
    });
    const schemas = [...inline, ...files.values()];
    const declared = new Set(schemas.map((s) => optionalAttr(s.schema, 'targetNamespace') ?? ''));
    for (const { schema } of schemas) {
      for (const imported of findAll(schema, 's:import[not(@schemaLocation)]')) {
        const namespace = optionalAttr(imported, 'namespace') ?? '';
        if (!declared.has(namespace))
          refuseAt(imported, `imports namespace ${namespace || '(none)'}, which no schema of the WSDL declares`);
      }
    }
    // The target namespace's schemas first: readXsd takes its own from the WSDL.
    const ordered = [
      ...schemas.filter((s) => optionalAttr(s.schema, 'targetNamespace') === wsdl.targetNamespace),
      ...schemas.filter((s) => optionalAttr(s.schema, 'targetNamespace') !== wsdl.targetNamespace),
    ];
    const xsd = readXsd(ordered, wsdl.targetNamespace);
    const texts = readTexts(wsdlDocument, inline, ordered, xsd);
    return { wsdl, xsd, texts };
  } finally {
    for (const doc of opened) doc.dispose();
  }
}
