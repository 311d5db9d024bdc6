/**
 * The contract model: a plain, printable description of the service that the
 * readers build from schema/ and the emitters turn into generated/. Nothing in
 * it depends on where it came from (cxsd, libxml2-wasm) or where it goes.
 */

/** The XML Schema built-in types the contract uses, and how each maps to TypeScript. */
export const PRIMITIVES = {
  string: 'string',
  boolean: 'boolean',
} as const;
export type Primitive = keyof typeof PRIMITIVES;

export type TypeRef =
  | { kind: 'primitive'; primitive: Primitive }
  | { kind: 'complex'; typeName: string };

/** One child element of a complex type (a sequence member). */
export interface FieldModel {
  name: string;
  type: TypeRef;
  minOccurs: number;
  maxOccurs: number;
}

/** A complex type; an anonymous one is named after the global element that holds it. */
export interface ComplexTypeModel {
  name: string;
  anonymous: boolean;
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

export interface OperationModel {
  name: string;
  /** The port type's `wsdl:documentation`, white space collapsed ('' when none). */
  documentation: string;
  /** The SOAPAction is the run-time namespace followed by this suffix. */
  soapActionSuffix: string;
  soap: {
    requestElement: string;
    responseElement: string;
    /** The one child of the response element that carries the result. */
    result: FieldModel;
  };
  http: {
    /** `http:operation location`, e.g. `/Pair`. */
    location: string;
    /** Input message parts, in order: the query or form field names. */
    fields: string[];
    /** Root element of the HTTP GET/POST answer (`mime:mimeXml part="Body"`). */
    responseElement: string;
  };
}

/** Text with holes for the values that are settings at run time, never generated. */
export type Segment = { text: string } | { hole: 'namespace' | 'address' };

export interface ContractModel {
  service: string;
  /** The namespace written in schema/: replaced by a hole wherever it occurs. */
  authoredNamespace: string;
  elements: ElementModel[];
  types: ComplexTypeModel[];
  operations: OperationModel[];
  ports: PortModel[];
  /** The self-contained WSDL (schema inline). */
  wsdl: Segment[];
  /** The whole schema document. */
  schema: Segment[];
  /** Per operation, a schema holding only its request element: small, so fast to validate against. */
  requestSchemas: Record<string, Segment[]>;
}
