/**
 * The contract model: a plain, printable description of the service that
 * build-model.ts makes from what read/ found in schema/, and the emitters turn
 * into generated/. Every fact an emitter needs is here, derived once; nothing
 * in it depends on how schema/ was read or how generated/ is written.
 */

/** The XML Schema built-in types the contract uses, and how each maps to TypeScript. */
export const PRIMITIVES = {
  string: 'string',
  boolean: 'boolean',
} as const;
export type Primitive = keyof typeof PRIMITIVES;

/** A type named in the schema: a built-in one, or a complex type of the contract. */
export type SchemaTypeRef = { kind: 'primitive'; primitive: Primitive } | { kind: 'complex'; typeName: string };

/** A schema type with the TypeScript type that holds its values. */
export type TypeRef = SchemaTypeRef & { tsType: string };

/** Stands for the service address in the served WSDL's text; generated/ fills it in at run time. */
export const ADDRESS_MARKER = 'urn:codegen:address';

/** Text with holes for the values that are settings at run time, never generated. */
export type Segment = { text: string } | { hole: 'namespace' | 'address' };

/** One child element of a complex type (a sequence member). */
export interface FieldModel {
  name: string;
  type: TypeRef;
  minOccurs: number;
  maxOccurs: number;
}

/** A complex type; an anonymous one is named after the global element that holds it. */
export interface ComplexTypeModel {
  /** The schema's name, which is the generated class's name too. */
  name: string;
  anonymous: boolean;
  /** The generated interface of the class's constructor argument. */
  fieldsInterface: string;
  fields: FieldModel[];
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
  /** The port type's `wsdl:documentation`, white space collapsed ('' when none). */
  documentation: string;
  /** The SOAPAction is the run-time namespace followed by this suffix. */
  soapActionSuffix: string;
  /** The SOAP body element of the request and its complex type. */
  request: { element: string; type: ComplexTypeModel };
  /** The SOAP body element of the answer and its complex type, which holds the result alone. */
  response: { element: string; type: ComplexTypeModel };
  result: ResultModel;
  http: {
    /** `http:operation location`, e.g. `/Pair`. */
    location: string;
    /** Input message parts, in order: the query or form field names, each a string field of the request. */
    fields: string[];
    answer: HttpAnswerModel;
  };
}

export interface ContractModel {
  service: string;
  /** The namespace written in schema/, and so in the texts below; generated/ takes it at run time. */
  authoredNamespace: string;
  elements: ElementModel[];
  /** Sorted by name: generated/ lists its classes in this order. */
  types: ComplexTypeModel[];
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
