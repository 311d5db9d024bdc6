/**
 * The contract model: a plain, printable description of the service that
 * model/build.ts makes, pass by pass, from what read/ found in a WSDL and its schemas
 * (schema/, or any other), and the emitters turn into generated/. Every fact
 * an emitter needs is here, derived once; nothing in it depends on how the
 * contract was read or how generated/ is written.
 */

/**
 * The XML Schema built-in types, and the TypeScript type that holds each
 * one's values (src/runtime/xml/xsd-values.ts reads and writes them). `guid`
 * is ASMX's and WCF's: a string restricted by a pattern, in the namespace
 * http://microsoft.com/wsdl/types/ (or WCF's Serialization namespace).
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
  integer: 'bigint',
  nonNegativeInteger: 'bigint',
  positiveInteger: 'bigint',
  nonPositiveInteger: 'bigint',
  negativeInteger: 'bigint',
  float: 'number',
  double: 'number',
  decimal: 'string',
  dateTime: 'string',
  date: 'string',
  time: 'string',
  duration: 'string',
  gYear: 'string',
  gYearMonth: 'string',
  gMonth: 'string',
  gMonthDay: 'string',
  gDay: 'string',
  base64Binary: 'Uint8Array',
  hexBinary: 'Uint8Array',
  guid: 'string',
  /** The string types whose values are their text: anyURI, token, NMTOKEN, QName (its text, as written), … */
  text: 'string',
} as const;
export type Primitive = keyof typeof PRIMITIVES;

/** The built-in types read as `text`: each a string whose lexical space the served schema checks. */
export const TEXT_BUILTINS = [
  'anySimpleType',
  'anyURI',
  'normalizedString',
  'token',
  'language',
  'Name',
  'NCName',
  'NMTOKEN',
  'ID',
  'IDREF',
  'ENTITY',
  'QName',
  'NOTATION',
];
/** Built-in list types: a list of `text`. */
export const LIST_BUILTINS = ['NMTOKENS', 'IDREFS', 'ENTITIES'];

/**
 * Facets other than enumeration: the served schema checks them; samples keep to them. An enumeration of lists keeps
 * its first value as `sample`.
 */
export type Facets = Record<string, string>;

/** A schema type with the TypeScript type that holds its values. */
export type TypeRef =
  /** `builtin`: which of the `text` built-ins (TEXT_BUILTINS), or `union` for a union's text, with its `members` (for samples). */
  /**
   * `patterns`: of a number, boolean or binary type, the patterns its text must match, one per derivation step
   * (a step's alternatives joined): checked on read, kept to on write (the runtime's xsd-patterns.ts).
   */
  /**
   * `discriminated` (XSD mode): a union whose value is its first matching member's (`members` flattened, in order;
   * `tsType` theirs joined), read and written through the runtime's xsd-unions.ts; without it a union is its text.
   */
  | {
      kind: 'primitive';
      primitive: Primitive;
      tsType: string;
      facets?: Facets;
      builtin?: string;
      members?: TypeRef[];
      patterns?: string[];
      discriminated?: true;
    }
  | { kind: 'enum'; typeName: string; tsType: string }
  /** `patterns`: of a list of numbers, booleans or binary values, the patterns the list's text must match (as a primitive's). */
  | { kind: 'list'; item: SimpleTypeRef; tsType: string; facets?: Facets; patterns?: string[] }
  | { kind: 'complex'; typeName: string; tsType: string }
  /**
   * Content kept as XML (xs:any, anyType, mixed content): the runtime's XmlFragment. `lax`: an element of anyType
   * in a bare schema set (XSD mode), read lax into the runtime's AnyType (model/build.ts's readLax).
   */
  /**
   * `wildcard` (XSD mode): a wildcard's field, an array of the runtime's WildcardElement: each element a strict or
   * lax wildcard matches read into its global declaration's type ('lax'), or every one kept as XML ('skip').
   */
  | { kind: 'any'; tsType: string; lax?: true; wildcard?: 'lax' | 'skip' };

export type SimpleTypeRef = Extract<TypeRef, { kind: 'primitive' | 'enum' }>;

/**
 * An element's simple type in a bare schema set's model (XSD mode): its value may come with an xsi:type naming
 * another simple type (a derived one, or any where anySimpleType is declared), kept on the value (the runtime's
 * XsiTyped) and written back. `tsType` is then the plain value's type, or XsiTyped of it.
 */
export type XsiTypedRef = Extract<TypeRef, { kind: 'primitive' | 'enum' | 'list' }> & { xsiTyped: true };

/** Text with holes for the values that are settings at run time, never generated. */
export type Segment = { text: string } | { hole: 'namespace' | 'address' };

/**
 * The property that keeps the attributes an `anyAttribute` admits: by name, `{namespace}local` for a qualified one
 * (James Clark's notation) and `local` for an unqualified one, each value its text.
 */
export const OTHER_ATTRIBUTES = 'otherAttributes';

/** One child element of a complex type (or the wildcard's elements, kind `any`). */
export interface FieldModel {
  /** The property's name in TypeScript (the XML name when it is an identifier). */
  name: string;
  /** The element's local name ('' for a wildcard). */
  xmlName: string;
  /** The element's namespace: '' when unqualified. */
  namespace: string;
  type: TypeRef;
  minOccurs: number;
  /** 'unbounded' or a number above 1 makes the field an array. */
  maxOccurs: number | 'unbounded';
  /** xsi:nil allowed: the value may be null. */
  nillable: boolean;
  /** The property's TypeScript type: type.tsType, `| null` when nillable, `[]` when repeated. */
  tsType: string;
  /** A fixed value (`fixed`): the one a sample holds. */
  fixed?: string;
  /** The value an empty element of a simple type holds (`default`, or `fixed`). */
  default?: string;
  /** A repeated compositor's items (its type a `group` class): each item's members written in place, no element of its own. */
  inline?: true;
}

/** An attribute of a complex type: of a built-in type, an enumeration or a list. */
export interface AttributeModel {
  name: string;
  xmlName: string;
  /** '' for an unqualified attribute (the usual case). */
  namespace: string;
  type: TypeRef;
  required: boolean;
  fixed?: string;
}

/** A simpleType restricting a type to a list of values: a union of string literals in generated/. */
export interface EnumModel {
  name: string;
  values: string[];
  /** The type the values are of (a primitive or a list; string when the schema's is not simple). */
  base: TypeRef;
}

/** A wildcard (xs:any) at its place in a content model: the namespaces of the elements it takes, and how they are validated. */
export interface WildcardModel {
  /** `only` these namespaces ('' for none), or all `but` these (`##any`: but none). */
  namespaces: { only: string[] } | { but: string[] };
  processContents: 'strict' | 'lax' | 'skip';
}

/** How the fields of a type are laid out on the wire: what a sample fills (one branch of a choice) and in what order. */
export type ParticleModel =
  | {
      kind: 'field';
      field: string;
      /** The occurrences at this place, where they are not the field's: a wildcard's place, an ordered content's member. */
      occurs?: { min: number; max: number | 'unbounded' };
      /** A wildcard's place (its field, of XML, may hold several wildcards' elements). */
      wildcard?: WildcardModel;
    }
  | { kind: 'sequence' | 'choice' | 'all'; particles: ParticleModel[]; minOccurs: number };

/** A complex type; an anonymous one is named after the element that holds it. */
export interface ComplexTypeModel {
  /** The generated class's name. */
  name: string;
  /** The schema's name (an anonymous type: its element's); the qualified name is `namespace` + this. */
  xmlName: string;
  namespace: string;
  anonymous: boolean;
  /** A synthesized type: the parts of a message, or an rpc wrapper; not in any schema. */
  message?: true;
  /** A synthesized type: one item of a repeated sequence or choice of several elements (an `inline` field's). */
  group?: true;
  /**
   * An ordered content's item class (an `items` field's): the content model the items follow, as the schema
   * writes it, each place a member with its occurrences there (a member may stand at several places).
   */
  order?: ParticleModel;
  /** The generated interface of the class's constructor argument. */
  fieldsInterface: string;
  /** The derivation's base (a class name): its fields come first in `fields`, as on the wire. */
  base?: string;
  /** The classes derived from this one (xsi:type), nearest first. */
  derived: string[];
  /** With derived classes: the union a reference to this type holds (its own class, unless abstract, and theirs). */
  union?: string;
  abstract: boolean;
  fields: FieldModel[];
  attributes: AttributeModel[];
  /** Mixed content: its one field, `content`, keeps the element's whole content as XML. */
  mixed?: true;
  /** An all group: a value read keeps the order its elements came in (any order is valid), and is written in it. */
  allOrder?: true;
  /** `anyAttribute`: the attributes no declaration names are kept in the property OTHER_ATTRIBUTES, by name. */
  anyAttribute?: true;
  /** simpleContent: the text's type; its property is `value`. */
  text?: TypeRef;
  /** The content model over `fields` (a choice's members are optional). */
  particle: ParticleModel;
  /** ASMX's ArrayOfX: one repeated member and nothing else; JSON writes it as an array. */
  arrayWrapper: boolean;
  /** SOAP encoding's array (read/xsd/soap-arrays.ts): its one field the items; `rank`: its dimensions' count. */
  soapArray?: { rank: number };
}

/** A global element of the schema. */
export interface ElementModel {
  name: string;
  namespace: string;
  type: TypeRef;
  nillable: boolean;
  /** Abstract: only the members of its substitution group stand in its place, never itself. */
  abstract?: true;
  /** The value it holds when empty (`default` or `fixed`), for a simple type. */
  default?: string;
}

import type { AddressingActions, SoapPolicy, Variant } from 'contract-runtime/codec';

export type { Variant };

export interface PortModel {
  name: string;
  binding: string;
  variant: Variant;
  /** The path of its address, where it is served. */
  path: string;
}

/** What an operation answers: one field of its output class, or the whole of it. */
export interface ResultModel {
  /** The field of the output class that is the result; absent when the result is the output class itself. */
  field?: string;
  type: TypeRef;
  /** The one rule for every variant: the SOAP result's minOccurs is 0. */
  mayBeAbsent: boolean;
  /** The handler's return type. */
  tsType: string;
}

/** The root element of an HTTP GET/POST answer (`mime:mimeXml part="Body"`). */
export interface HttpAnswerModel {
  element: string;
  namespace: string;
  /** Checked to be the result's type. */
  type: TypeRef;
  /** Checked to equal the result's mayBeAbsent: an absent result is written xsi:nil. */
  nillable: boolean;
  complex: boolean;
}

/** One SOAP body as the wire has it: one element whose content is the class, or the class's fields as the body's elements. */
export interface BodyModel {
  style: 'element' | 'parts';
  /** `element`: the body element (a global element, or an rpc wrapper). */
  element?: { name: string; namespace: string };
  type: ComplexTypeModel;
}

/**
 * An rpc/encoded operation's bodies as SOAP encoding writes them (src/runtime/wire/soap-encoding.ts): the
 * encoding's version, and each part's type by its key in the contract's encoded types (ContractModel.encodedTypes).
 */
export interface EncodingModel {
  version: 'soap11' | 'soap12';
  /** Each part's accessor and type key, and the namespace of a part that names an element of one. */
  input: ([string, string] | [string, string, string])[];
  output: ([string, string] | [string, string, string])[];
  /** The declared faults' detail elements and their types' keys. */
  faults: [string, string][];
  /** The header blocks bound encoded: each block's `{namespace}name` and its type's key. */
  headers?: [string, string][];
  /**
   * An overloaded operation's wrapper names in the literal form (its own, `find1` and `find1Response`, which the
   * served schemas declare with its parts), where the wire's (`find`) is another overload's too.
   */
  literalNames?: { input: string; output: string };
  /** With literalNames: the wire's wrapper names (`find`, `findResponse`), which the encoded bodies are written with. */
  wireNames?: { input: string; output: string };
}

/** A type as SOAP encoding writes it: the xsi:type it is written with, and its members or its items. */
export interface EncodedTypeModel {
  /** `{namespace}name` of the xsi:type; absent for an anonymous type (written without one). */
  xsiType?: string;
  /**
   * A struct: each member's accessor (its element's local name) and its type's key, and its namespace where the
   * schema qualifies it (elementFormDefault="qualified", as some PHP services publish their encoded types).
   */
  members?: ([string, string] | [string, string, string])[];
  /** An array: its items' type's key, the item element the literal form names, and the array's rank. */
  array?: { item: string; element: string; rank: number };
}

/** A SOAP header block an operation reads or writes. */
export interface HeaderModel {
  /** Its property in the operation's headers. */
  name: string;
  element: { name: string; namespace: string };
  type: TypeRef;
  direction: 'in' | 'out';
  /** Bound encoded (`soap:header use="encoded"`): read and written SOAP-encoded, as the operation's body. */
  encoded?: true;
}

/** A declared fault: a typed error with its detail element. */
export interface FaultModel {
  name: string;
  /** The generated error class. */
  className: string;
  element: { name: string; namespace: string };
  type: TypeRef;
}

/** The SOAPAction of a version: the run-time namespace followed by a suffix, or as written. */
export type ActionModel = { suffix: string } | { literal: string };

export interface OperationModel {
  name: string;
  /** The operation answers nothing (a .NET void method, or one-way). */
  void: boolean;
  /** One-way: no answer at all (HTTP 202). */
  oneWay: boolean;
  /** The port type's `wsdl:documentation`, white space collapsed ('' when none). */
  documentation: string;
  /** The handler's request class: the input body's type. */
  request: { type: ComplexTypeModel };
  /** Absent for a void operation. */
  result: ResultModel | undefined;
  /** Absent when the service has no SOAP port. */
  soap:
    | {
        style: 'document' | 'rpc';
        actions: Partial<Record<'soap11' | 'soap12', ActionModel>>;
        input: BodyModel;
        /** Absent for a one-way operation. */
        output?: BodyModel;
        headers: HeaderModel[];
        faults: FaultModel[];
        /** rpc/encoded: the SOAP encoding the bodies are written in, and each part's type (model/encoding.ts). */
        encoding?: EncodingModel;
      }
    | undefined;
  /** What each SOAP binding's WS-Policy asks of the operation's calls (model/policies.ts); absent: nothing. */
  policies?: Partial<Record<'soap11' | 'soap12', SoapPolicy>>;
  /** The operation's WS-Addressing actions, where a binding's policy asks for addressing. */
  addressingActions?: AddressingActions;
  /** Absent when no HTTP GET or POST binding has the operation (ASMX leaves out those with complex parameters). */
  http:
    | {
        /** `http:operation location`, e.g. `/Add`. */
        location: string;
        /** The path under the endpoint the operation is served at ({endpoint}/{segment}), without the slash. */
        segment: string;
        /** Input message parts, in order: the query or form field names, each a simple field of the request. */
        fields: string[];
        /** Absent for a void operation, and for an XML body (its answer is the SOAP body's element). */
        answer: HttpAnswerModel | undefined;
        /** POSTed as the SOAP request's element, answered with the SOAP answer's (Axis2's HTTP binding); the answer's media type. */
        xmlBody?: { mediaType: string };
      }
    | undefined;
}

/** One document of the schema set: a namespace's schema, its imports naming the others as `N.xsd`. */
export interface SchemaDocumentModel {
  namespace: string;
  text: string;
}

/**
 * The types of a schema set, as `--xsd` generates them: every global element (each with a reader and a writer)
 * and the classes and enumerations of their types. A WSDL's model is this, plus its operations.
 */
export interface SchemaModel {
  /** The namespace written in the schema (a WSDL's target namespace); generated/ of a WSDL takes it at run time. */
  authoredNamespace: string;
  /** Prefixes of the namespaces elements are written in, when some element is not qualified in the target namespace. */
  prefixes: Record<string, string> | undefined;
  elements: ElementModel[];
  /** Sorted by name: generated/ lists its classes in this order. */
  types: ComplexTypeModel[];
  /** Sorted by name. */
  enums: EnumModel[];
  /** A contract's operations (none for a bare schema set): their declared faults are classes of the types too. */
  operations: OperationModel[];
  /**
   * A bare schema set's global types a document's root may name with xsi:type where no global element declares the
   * root (a validation root assessed by its type): each class of a named complex type, and each named simple type.
   */
  rootTypes?: { name: string; namespace: string; type: TypeRef }[];
}

/** What model/ makes of a contract (build.ts): the service, its ports and operations, and the facts the documents stage needs. */
export interface ServiceModel extends SchemaModel {
  service: string;
  /** The path of the first port's address, e.g. `/Service.asmx`. */
  endpointPath: string;
  /** Every port's path, the first one first. */
  endpointPaths: string[];
  ports: PortModel[];
  /** Per operation whose request element names nothing beyond what it holds, that element's name: it gets a schema of its own. */
  requestElements: Record<string, string>;
  /** rpc/encoded contracts: every type as SOAP encoding writes it, by key (model/encoding.ts). */
  encodedTypes?: Record<string, EncodedTypeModel>;
  /** What codegen chose among several services or bindings, said to the user in one line. */
  choice?: string;
}

/** The texts served and validated against, as codegen/documents/ serialises them after the model. */
export interface ServedDocuments {
  /** The self-contained WSDL (schema inline), its addresses replaced by ADDRESS_MARKER (codegen/documents/wsdl.ts). */
  wsdl: string;
  /** The WSDLs the first imports (wsdl:import), served at `?wsdl=wsdlN`. */
  importedWsdls: string[];
  /** The target namespace's schema document. */
  schema: string;
  /** Every namespace's schema document, the target namespace's first. */
  schemas: SchemaDocumentModel[];
  /** Per operation, a schema holding only its request element (one-namespace contracts whose request is an element). */
  requestSchemas: Record<string, string>;
}

/** What the emitters take: the model of the contract and the documents it serves. */
export interface ContractModel extends ServiceModel, ServedDocuments {}

/** The complex type a reference names; the model was checked to resolve every one. */
export function complexTypeOf(model: SchemaModel, ref: TypeRef & { kind: 'complex' }): ComplexTypeModel {
  const type = model.types.find((t) => t.name === ref.typeName);
  if (!type) throw new Error(`codegen: unknown type ${ref.typeName}`);
  return type;
}

/** The member of the SOAP answer that is an operation's result (its occurrences, nillable), when the result is one member. */
export function resultFieldOf(op: OperationModel): FieldModel | undefined {
  const name = op.result?.field;
  return name === undefined ? undefined : op.soap?.output?.type.fields.find((f) => f.name === name);
}

/** A member that may occur more than once: an array. */
export const repeats = (field: FieldModel) => field.maxOccurs === 'unbounded' || field.maxOccurs > 1;
