/**
 * The contract model: a plain, printable description of the service that
 * build-model.ts makes from what read/ found in a WSDL and its schemas
 * (schema/, or any other), and the emitters turn into generated/. Every fact
 * an emitter needs is here, derived once; nothing in it depends on how the
 * contract was read or how generated/ is written.
 */

/**
 * The XML Schema built-in types of the XmlSerializer subset, and the
 * TypeScript type that holds each one's values (src/runtime/xml/xsd-values.ts reads
 * and writes them). `guid` is ASMX's: a string restricted by a pattern, in
 * the namespace http://microsoft.com/wsdl/types/.
 */
export const PRIMITIVES = {
  string: 'string',
  boolean: 'boolean',
  int: 'number',
  short: 'number',
  byte: 'number',
  unsignedInt: 'number',
  unsignedShort: 'number',
  unsignedByte: 'number',
  long: 'bigint',
  unsignedLong: 'bigint',
  float: 'number',
  double: 'number',
  decimal: 'string',
  dateTime: 'Date',
  date: 'string',
  time: 'string',
  duration: 'string',
  base64Binary: 'Uint8Array',
  guid: 'string',
} as const;
export type Primitive = keyof typeof PRIMITIVES;

/** A type as the schema reader found it: a built-in one, or one the schemas name (complex, or simple). */
export type SchemaTypeRef = { kind: 'primitive'; primitive: Primitive } | { kind: 'named'; typeName: string; namespace: string };

/** A schema type with the TypeScript type that holds its values: built-in, an enumeration, or a complex type. */
export type TypeRef =
  | { kind: 'primitive'; primitive: Primitive; tsType: string }
  | { kind: 'enum'; typeName: string; tsType: string }
  | { kind: 'complex'; typeName: string; tsType: string };

/** Stands for the service address in the served WSDL's text; generated/ fills it in at run time. */
export const ADDRESS_MARKER = 'urn:codegen:address';

/** Text with holes for the values that are settings at run time, never generated. */
export type Segment = { text: string } | { hole: 'namespace' | 'address' };

/** One child element of a complex type (a sequence member). */
export interface FieldModel {
  name: string;
  type: TypeRef;
  minOccurs: number;
  /** 'unbounded' makes the field an array (ASMX writes its arrays as ArrayOfX types of one such member). */
  maxOccurs: 1 | 'unbounded';
  /** xsi:nil allowed: the value may be null. */
  nillable: boolean;
  /** The property's TypeScript type: type.tsType, `| null` when nillable, `[]` when unbounded. */
  tsType: string;
}

/** An attribute of a complex type: of a built-in type or an enumeration. */
export interface AttributeModel {
  name: string;
  type: TypeRef;
  required: boolean;
}

/** A named simpleType restricting string to a list of values: a union of string literals in generated/. */
export interface EnumModel {
  name: string;
  values: string[];
}

/** A complex type; an anonymous one is named after the global element that holds it. */
export interface ComplexTypeModel {
  /** The schema's name, which is the generated class's name too. */
  name: string;
  anonymous: boolean;
  /** The generated interface of the class's constructor argument. */
  fieldsInterface: string;
  /** The complexContent extension's base: its fields come first in `fields`, as on the wire. */
  base?: string;
  fields: FieldModel[];
  attributes: AttributeModel[];
  /** ASMX's ArrayOfX: one unbounded member and nothing else; JSON writes it as an array. */
  arrayWrapper: boolean;
}

/** A global element of the schema. */
export interface ElementModel {
  name: string;
  type: TypeRef;
  nillable: boolean;
}

export type Variant = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';

export interface PortModel {
  name: string;
  binding: string;
  variant: Variant;
}

/** What an operation answers: the one child of the SOAP response element. */
export interface ResultModel {
  field: string;
  type: TypeRef;
  /** The one rule for every variant: the SOAP result's minOccurs is 0. */
  mayBeAbsent: boolean;
  /** The handler's return type: type.tsType, with `| undefined` when the result may be absent. */
  tsType: string;
}

/** The root element of an HTTP GET/POST answer (`mime:mimeXml part="Body"`). */
export interface HttpAnswerModel {
  element: string;
  /** Checked to be the result's type. */
  type: TypeRef;
  /** Checked to equal the result's mayBeAbsent: an absent result is written xsi:nil. */
  nillable: boolean;
  complex: boolean;
}

export interface OperationModel {
  name: string;
  /** The operation answers nothing (a .NET void method): its response element is empty. */
  void: boolean;
  /** The port type's `wsdl:documentation`, white space collapsed ('' when none). */
  documentation: string;
  /** The SOAPAction is the run-time namespace followed by this suffix. */
  soapActionSuffix: string;
  /** The SOAP body element of the request and its complex type. */
  request: { element: string; type: ComplexTypeModel };
  /** The SOAP body element of the answer and its complex type, which holds the result alone. */
  response: { element: string; type: ComplexTypeModel };
  /** Absent for a void operation. */
  result: ResultModel | undefined;
  /** Absent when no HTTP GET or POST binding has the operation (ASMX leaves out those with complex parameters). */
  http:
    | {
        /** `http:operation location`, e.g. `/Add`. */
        location: string;
        /** Input message parts, in order: the query or form field names, each a simple field of the request. */
        fields: string[];
        /** Absent for a void operation. */
        answer: HttpAnswerModel | undefined;
      }
    | undefined;
}

export interface ContractModel {
  service: string;
  /** The namespace written in the WSDL, and so in the texts below; generated/ takes it at run time. */
  authoredNamespace: string;
  /** The path of the ports' address, e.g. `/Service.asmx`: where every variant is served. */
  endpointPath: string;
  elements: ElementModel[];
  /** Sorted by name: generated/ lists its classes in this order. */
  types: ComplexTypeModel[];
  /** Sorted by name. */
  enums: EnumModel[];
  operations: OperationModel[];
  ports: PortModel[];
  /** The self-contained WSDL (schema inline), its addresses replaced by ADDRESS_MARKER. */
  wsdl: string;
  /** The whole schema document. */
  schema: string;
  /** Per operation, a schema holding only its request element: small, so fast to validate against. */
  requestSchemas: Record<string, string>;
}

/** The complex type a reference names; the model was checked to resolve every one. */
export function complexTypeOf(model: ContractModel, ref: TypeRef & { kind: 'complex' }): ComplexTypeModel {
  const type = model.types.find((t) => t.name === ref.typeName);
  if (!type) throw new Error(`codegen: unknown type ${ref.typeName}`);
  return type;
}
