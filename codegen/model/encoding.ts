/**
 * SOAP encoding's view of the contract (rpc/encoded operations): each encoded operation's parts by type, and each
 * type as encoding writes it (its xsi:type, its members, or its items). The runtime reads an encoded call into the
 * literal form the classes read and the schemas validate, and writes an answer's literal form encoded, by this
 * table (src/runtime/wire/soap-encoding.ts).
 */
import type { WsdlOperationFacts } from '../read/wsdl';
import type { ComplexTypeModel, EncodedTypeModel, EncodingModel, OperationModel, TypeRef } from './model';
import { XSD } from './type-refs';

/** A type's key in the table: a class's name, or `{XSD}builtin` for a simple type (an enumeration, its base's). */
export function encodedKey(type: TypeRef): string {
  switch (type.kind) {
    case 'complex':
      return type.typeName;
    case 'primitive':
      return `{${XSD}}${type.primitive === 'text' ? (type.builtin ?? 'string') : type.primitive === 'guid' ? 'string' : type.primitive}`;
    case 'enum':
      return `{${XSD}}string`;
    case 'list':
      return `{${XSD}}string`;
    case 'any':
      return `{${XSD}}anyType`;
  }
}

/** Each encoded operation's parts, by the facts' use: set on its SOAP side. */
export function attachEncodings(operations: OperationModel[], facts: readonly WsdlOperationFacts[]): void {
  for (const op of operations) {
    const read = facts.find((f) => f.name === op.name);
    const version = read?.input?.encoded ?? read?.output?.encoded;
    if (!op.soap || !version) continue;
    const parts = (body: { type: ComplexTypeModel } | undefined): EncodingModel['input'] =>
      (body?.type.fields ?? []).map((f) => (f.namespace ? [f.xmlName, encodedKey(f.type), f.namespace] : [f.xmlName, encodedKey(f.type)]));
    const faults = op.soap.faults.map((f): [string, string] => [f.element.name, encodedKey(f.type)]);
    const headers = op.soap.headers
      .filter((h) => h.encoded)
      .map((h): [string, string] => [`{${h.element.namespace}}${h.element.name}`, encodedKey(h.type)]);
    const encoding: EncodingModel = {
      version,
      input: parts(op.soap.input),
      output: parts(op.soap.output),
      faults,
      ...(headers.length ? { headers } : {}),
    };
    if (read?.overload) {
      encoding.literalNames = { input: op.name, output: `${op.name}Response` };
      encoding.wireNames = { input: read.overload.wsdlName, output: `${read.overload.wsdlName}Response` };
    }
    op.soap.encoding = encoding;
  }
}

/** The table of the types the encoded operations reach (every class, when some operation is encoded; none otherwise). */
export function encodedTypesOf(
  types: readonly ComplexTypeModel[],
  operations: readonly OperationModel[],
): Record<string, EncodedTypeModel> {
  if (!operations.some((op) => op.soap?.encoding)) return {};
  const table: Record<string, EncodedTypeModel> = {};
  for (const type of types) {
    if (type.message) continue;
    const xsiType = type.anonymous ? {} : { xsiType: `{${type.namespace}}${type.xmlName}` };
    if (type.soapArray && type.fields.length === 1) {
      const [items] = type.fields;
      table[type.name] = { ...xsiType, array: { item: encodedKey(items.type), element: items.xmlName, rank: type.soapArray.rank } };
      continue;
    }
    table[type.name] = {
      ...xsiType,
      members: type.fields
        .filter((f) => f.xmlName !== '')
        .map((f): [string, string] | [string, string, string] =>
          f.namespace ? [f.xmlName, encodedKey(f.type), f.namespace] : [f.xmlName, encodedKey(f.type)],
        ),
    };
  }
  return table;
}
