import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ComplexTypeModel, ElementModel, FieldModel, PRIMITIVES, Primitive, TypeRef } from '../model';
import { serveDirectory } from './serve-directory';

/* cxsd ships typings that need old third-party declarations; these are the few members we read. */
interface CxsdType {
  name?: string;
  namespace?: { isPrimitiveSpace?: boolean };
  childList?: CxsdMemberRef[];
  primitiveType?: CxsdType;
}
interface CxsdMemberRef {
  member: { name: string; typeList: CxsdType[] };
  min: number;
  max: number;
}

export interface XsdTypes {
  elements: Omit<ElementModel, 'nillable'>[];
  types: ComplexTypeModel[];
}

/**
 * Reads the global elements and complex types of an XSD with cxsd. cxsd
 * fetches over HTTP only, so the schema directory is served on loopback for
 * the duration, and cxsd's download cache goes to a temporary folder.
 */
export async function readXsdTypes(schemaDir: string, file: string): Promise<XsdTypes> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Cache } = require('cget');
  const { Context: XsdContext } = require('cxsd/dist/xsd/Context');
  const { Loader } = require('cxsd/dist/xsd/Loader');
  const { exportNamespace } = require('cxsd/dist/xsd/Exporter');
  const schema = require('cxsd/dist/schema');
  const cacheDir = mkdtempSync(join(tmpdir(), 'cxsd-'));
  Loader.cache = new Cache(cacheDir, '_index.xsd');
  const served = await serveDirectory(schemaDir);
  try {
    const schemaContext = new schema.Context();
    const xsdContext = new XsdContext(schemaContext);
    const namespace = await new Loader(xsdContext, {}).import(served.baseUrl + file);
    exportNamespace(xsdContext.primitiveSpace, schemaContext);
    exportNamespace(xsdContext.xmlSpace, schemaContext);
    const documentType: CxsdType = exportNamespace(namespace, schemaContext);
    return toModel(documentType);
  } finally {
    await served.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

function toModel(documentType: CxsdType): XsdTypes {
  const types = new Map<string, ComplexTypeModel>();

  const typeRef = (type: CxsdType, ownerElement: string): TypeRef => {
    if (type.namespace?.isPrimitiveSpace) return { kind: 'primitive', primitive: primitive(type.name) };
    if (!type.childList?.length && type.primitiveType) {
      return { kind: 'primitive', primitive: primitive(type.primitiveType.name) };
    }
    const anonymous = !type.name;
    const name = type.name ?? ownerElement;
    if (!types.has(name)) {
      const model: ComplexTypeModel = { name, anonymous, fields: [] };
      types.set(name, model);
      model.fields = (type.childList ?? []).map((ref): FieldModel => ({
        name: ref.member.name,
        type: typeRef(single(ref.member.typeList, ref.member.name), ref.member.name),
        minOccurs: ref.min,
        maxOccurs: ref.max,
      }));
    }
    return { kind: 'complex', typeName: name };
  };

  const elements = (documentType.childList ?? []).map((ref) => ({
    name: ref.member.name,
    type: typeRef(single(ref.member.typeList, ref.member.name), ref.member.name),
  }));
  return { elements: sortByName(elements), types: sortByName([...types.values()]) };
}

function primitive(name: string | undefined): Primitive {
  if (name && name in PRIMITIVES) return name as Primitive;
  throw new Error(`codegen: XML Schema type ${name} is not supported (supported: ${Object.keys(PRIMITIVES).join(', ')})`);
}

function single<T>(list: T[], owner: string): T {
  if (list.length !== 1) throw new Error(`codegen: ${owner} must have exactly one type, found ${list.length}`);
  return list[0];
}

function sortByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
