import {
  type ComplexTypeModel,
  type ContractModel,
  type ElementModel,
  type HttpAnswerModel,
  type OperationModel,
  PRIMITIVES,
  type ResultModel,
  type SchemaTypeRef,
  type TypeRef,
} from './model';
import type { ContractFacts } from './read/contract';
import type { WsdlFacts } from './read/wsdl';

type OperationFacts = WsdlFacts['operations'][number];

/**
 * Combines what read/ found into the contract model, deriving each fact the
 * emitters need once, and refuses a contract whose parts disagree.
 */
export function buildContractModel({ wsdl, xsd, texts }: ContractFacts): ContractModel {
  const namespace = wsdl.targetNamespace;
  if (xsd.targetNamespace !== namespace || wsdl.schemaImport.namespace !== namespace) {
    throw new Error('codegen: the WSDL and its schema must share one target namespace');
  }

  const typeNames = new Set<string>();
  for (const type of xsd.types) {
    if (typeNames.has(type.name))
      throw new Error(`codegen: two complex types are named ${type.name} (an anonymous one takes its element's name)`);
    typeNames.add(type.name);
  }
  const namedTypes = new Set(xsd.types.filter((t) => !t.anonymous).map((t) => t.name));
  /** `element` is the global element whose anonymous type, named after it, the reference may be. */
  const typeRef = (ref: SchemaTypeRef, user: string, element?: string): TypeRef => {
    if (ref.kind === 'primitive') return { ...ref, tsType: PRIMITIVES[ref.primitive] };
    // An anonymous type has a name in generated/ only: the schema cannot refer to it.
    const declared = ref.typeName === element ? typeNames.has(ref.typeName) : namedTypes.has(ref.typeName);
    if (!declared) throw new Error(`codegen: ${user} names type ${ref.typeName}, which the schema does not declare`);
    return { ...ref, tsType: ref.typeName };
  };

  const types: ComplexTypeModel[] = sortByName(
    xsd.types.map((type) => {
      const memberNames = new Set(type.members.map((m) => m.name));
      if (memberNames.size !== type.members.length) throw new Error(`codegen: type ${type.name} has two members of one name`);
      for (const name of [type.name, ...memberNames]) identifier(name);
      return {
        name: type.name,
        anonymous: type.anonymous,
        fieldsInterface: `${type.name}Fields`,
        fields: type.members.map((m) => ({ ...m, type: typeRef(m.type, `${type.name}/${m.name}`) })),
      };
    }),
  );
  if (new Set(xsd.elements.map((e) => e.name)).size !== xsd.elements.length) throw new Error('codegen: two global elements have one name');
  const elements: ElementModel[] = xsd.elements.map((e) => ({ ...e, type: typeRef(e.type, `element ${e.name}`, e.name) }));
  const element = (name: string): ElementModel => {
    const found = elements.find((e) => e.name === name);
    if (!found) throw new Error(`codegen: the WSDL names element ${name}, which the schema does not declare`);
    return found;
  };
  const complexElement = (name: string, operation: string) => {
    const { type } = element(name);
    if (type.kind !== 'complex') throw new Error(`codegen: ${operation}: element ${name} must have a complex type`);
    return { element: name, type: types.find((t) => t.name === type.typeName)! };
  };

  const operations = wsdl.operations.map((op): OperationModel => {
    if (!op.soapAction.startsWith(namespace)) {
      throw new Error(`codegen: SOAPAction of ${op.name} must be the namespace followed by the operation`);
    }
    const request = complexElement(op.soapInputElement, op.name);
    const response = complexElement(op.soapOutputElement, op.name);
    if (response.type.fields.length !== 1) throw new Error(`codegen: ${op.soapOutputElement} must hold exactly one result element`);
    const result = resultOf(response.type.fields[0]);
    return {
      name: op.name,
      documentation: op.documentation,
      soapActionSuffix: op.soapAction.slice(namespace.length),
      request,
      response,
      result,
      http: {
        location: op.httpLocation,
        fields: httpFields(op, request.type),
        answer: httpAnswer(op, element(op.httpOutputElement), result),
      },
    };
  });

  return {
    service: wsdl.service,
    authoredNamespace: namespace,
    elements,
    types,
    operations,
    ports: wsdl.ports,
    wsdl: texts.wsdl,
    schema: texts.schema,
    requestSchemas: Object.fromEntries(operations.map((op) => [op.name, texts.elementSchemas[op.request.element]])),
  };
}

function resultOf(field: ComplexTypeModel['fields'][number]): ResultModel {
  const mayBeAbsent = field.minOccurs === 0;
  return { field: field.name, type: field.type, mayBeAbsent, tsType: field.type.tsType + (mayBeAbsent ? ' | undefined' : '') };
}

/**
 * HTTP GET and POST carry every parameter, as strings: each field must be a string member of the request, and
 * each member a field. So every member of a request is text, and any variant's values decode alike (decodeFields).
 */
function httpFields(op: OperationFacts, request: ComplexTypeModel): string[] {
  for (const name of op.httpInputParts) {
    const member = request.fields.find((f) => f.name === name);
    if (member?.type.kind !== 'primitive' || member.type.primitive !== 'string') {
      throw new Error(`codegen: HTTP field ${name} of ${op.name} must be a string field of ${request.name}`);
    }
  }
  const missing = request.fields.filter((f) => !op.httpInputParts.includes(f.name)).map((f) => f.name);
  if (missing.length > 0)
    throw new Error(`codegen: the HTTP fields of ${op.name} must be every member of ${request.name} (not: ${missing.join(', ')})`);
  return op.httpInputParts;
}

/** The HTTP answer carries the SOAP result: the same type, and xsi:nil exactly when the result may be absent. */
function httpAnswer(op: OperationFacts, element: ElementModel, result: ResultModel): HttpAnswerModel {
  if (element.type.tsType !== result.type.tsType || element.type.kind !== result.type.kind) {
    throw new Error(
      `codegen: ${op.name}: the HTTP answer (${element.name}, ${element.type.tsType}) and the SOAP result (${result.field}, ${result.type.tsType}) must have the same type`,
    );
  }
  if (element.nillable !== result.mayBeAbsent) {
    const why = result.mayBeAbsent
      ? 'may be absent (minOccurs="0"), so the HTTP answer must be nillable'
      : 'is always there, so the HTTP answer must not be nillable';
    throw new Error(`codegen: ${op.name}: the SOAP result ${result.field} ${why} (element ${element.name})`);
  }
  return { element: element.name, type: element.type, nillable: element.nillable, complex: element.type.kind === 'complex' };
}

/** Type and member names become class and property names in generated/. */
function identifier(name: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`codegen: ${name} is not a JavaScript identifier`);
}

function sortByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
