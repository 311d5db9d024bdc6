import {
  type AttributeModel,
  type ComplexTypeModel,
  type ContractModel,
  type ElementModel,
  type EnumModel,
  type FieldModel,
  type HttpAnswerModel,
  type OperationModel,
  PRIMITIVES,
  type ResultModel,
  type SchemaTypeRef,
  type TypeRef,
} from './model';
import type { ContractFacts } from './read/contract';
import type { WsdlOperationFacts } from './read/wsdl';
import type { XsdComplexType, XsdSimpleType } from './read/xsd';

/**
 * Combines what read/ found into the contract model, deriving each fact the
 * emitters need once, and refuses a contract whose parts disagree.
 */
export function buildContractModel({ wsdl, xsd, texts }: ContractFacts): ContractModel {
  const namespace = wsdl.targetNamespace;
  if (xsd.targetNamespace !== namespace) {
    throw new Error('codegen: the WSDL and its schema must share one target namespace');
  }

  const typeNames = new Set<string>();
  for (const type of [...xsd.types, ...xsd.simpleTypes.filter((t) => t.namespace === namespace)]) {
    if (typeNames.has(type.name))
      throw new Error(`codegen: ${type.at}: two types are named ${type.name} (an anonymous complex type takes its element's name)`);
    typeNames.add(type.name);
  }
  const namedTypes = new Set(xsd.types.filter((t) => !t.anonymous).map((t) => t.name));
  const simpleTypes = new Map<string, XsdSimpleType>();
  for (const simple of xsd.simpleTypes) {
    const known = simpleTypes.get(simple.name);
    if (known && known.namespace !== simple.namespace) {
      throw new Error(
        `codegen: ${simple.at}: simple type ${simple.name} is declared in two namespaces; generated code names types without their namespace`,
      );
    }
    simpleTypes.set(simple.name, simple);
  }
  /** `element` is the global element whose anonymous type, named after it, the reference may be. */
  const typeRef = (ref: SchemaTypeRef, user: string, element?: string): TypeRef => {
    if (ref.kind === 'primitive') return { ...ref, tsType: PRIMITIVES[ref.primitive] };
    const simple = simpleTypes.get(ref.typeName);
    if (simple && simple.namespace === ref.namespace) {
      if (simple.enumeration.length > 0) return { kind: 'enum', typeName: simple.name, tsType: simple.name };
      return { kind: 'primitive', primitive: simple.base, tsType: PRIMITIVES[simple.base] };
    }
    // An anonymous type has a name in generated/ only: the schema cannot refer to it.
    const declared = ref.typeName === element ? typeNames.has(ref.typeName) : namedTypes.has(ref.typeName);
    if (ref.namespace !== namespace || !declared) {
      throw new Error(`codegen: ${user} names type ${ref.typeName}, which the schema does not declare`);
    }
    return { kind: 'complex', typeName: ref.typeName, tsType: ref.typeName };
  };
  const simpleOnly = (type: TypeRef, user: string): TypeRef => {
    if (type.kind === 'complex') throw new Error(`codegen: ${user}: an attribute must have a simple type, not ${type.typeName}`);
    return type;
  };

  const byName = new Map(xsd.types.map((t) => [t.name, t]));
  const ownFields = (type: XsdComplexType): FieldModel[] =>
    type.members.map((m) => {
      const ref = typeRef(m.type, `${type.name}/${m.name}`);
      const item = m.nillable ? `${ref.tsType} | null` : ref.tsType;
      return { ...m, type: ref, tsType: m.maxOccurs === 'unbounded' ? (m.nillable ? `(${item})[]` : `${item}[]`) : item };
    });
  /** The base's fields first, as on the wire; a cycle of extensions is refused. */
  const allFields = (type: XsdComplexType, seen: string[]): { fields: FieldModel[]; attributes: AttributeModel[] } => {
    const attributes = type.attributes.map((a) => ({
      ...a,
      type: simpleOnly(typeRef(a.type, `${type.name}/@${a.name}`), `${type.name}/@${a.name}`),
    }));
    if (!type.base) return { fields: ownFields(type), attributes };
    if (seen.includes(type.base))
      throw new Error(`codegen: ${type.at}: complex type ${type.name} extends itself (${[...seen, type.base].join(' → ')})`);
    const base = byName.get(type.base);
    if (!base || base.anonymous)
      throw new Error(`codegen: ${type.at}: complex type ${type.name} extends ${type.base}, which the schema does not declare`);
    const inherited = allFields(base, [...seen, type.base]);
    return { fields: [...inherited.fields, ...ownFields(type)], attributes: [...inherited.attributes, ...attributes] };
  };

  const types: ComplexTypeModel[] = sortByName(
    xsd.types.map((type) => {
      const { fields, attributes } = allFields(type, [type.name]);
      const names = [...fields.map((f) => f.name), ...attributes.map((a) => a.name)];
      if (new Set(names).size !== names.length)
        throw new Error(`codegen: ${type.at}: type ${type.name} has two members or attributes of one name`);
      for (const name of [type.name, ...names]) identifier(name, type.at);
      return {
        name: type.name,
        anonymous: type.anonymous,
        fieldsInterface: `${type.name}Fields`,
        ...(type.base ? { base: type.base } : {}),
        fields,
        attributes,
        arrayWrapper: fields.length === 1 && fields[0].maxOccurs === 'unbounded' && attributes.length === 0 && !type.base,
      };
    }),
  );
  const enums: EnumModel[] = sortByName(
    [...simpleTypes.values()].filter((t) => t.enumeration.length > 0).map((t) => ({ name: t.name, values: t.enumeration })),
  );
  for (const e of enums) identifier(e.name, simpleTypes.get(e.name)!.at);
  if (new Set(xsd.elements.map((e) => e.name)).size !== xsd.elements.length) throw new Error('codegen: two global elements have one name');
  const elements: ElementModel[] = xsd.elements.map((e) => ({ ...e, type: typeRef(e.type, `element ${e.name}`, e.name) }));
  checkPolymorphism(types, elements);
  checkNoCycles(types);
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
    if (response.type.fields.length > 1 || response.type.attributes.length > 0) {
      throw new Error(`codegen: ${op.soapOutputElement} must hold one result element, or none (a void operation)`);
    }
    const result = response.type.fields.length === 1 ? resultOf(response.type.fields[0], op.name) : undefined;
    return {
      name: op.name,
      void: result === undefined,
      documentation: op.documentation,
      soapActionSuffix: op.soapAction.slice(namespace.length),
      request,
      response,
      result,
      http: op.http
        ? {
            location: op.http.location,
            fields: httpFields(op, op.http.inputParts, request.type),
            answer: httpAnswer(op, op.http.outputElement === undefined ? undefined : element(op.http.outputElement), result),
          }
        : undefined,
    };
  });

  return {
    service: wsdl.service,
    authoredNamespace: namespace,
    endpointPath: wsdl.endpointPath,
    elements,
    types,
    enums,
    operations,
    ports: wsdl.ports,
    wsdl: texts.wsdl,
    schema: texts.schema,
    requestSchemas: Object.fromEntries(operations.map((op) => [op.name, texts.elementSchemas[op.request.element]])),
  };
}

function resultOf(field: FieldModel, operation: string): ResultModel {
  if (field.maxOccurs === 'unbounded' || field.nillable) {
    throw new Error(
      `codegen: ${operation}: the result ${field.name} must occur once at most and not be nillable (ASMX wraps arrays in ArrayOfX types)`,
    );
  }
  const mayBeAbsent = field.minOccurs === 0;
  return { field: field.name, type: field.type, mayBeAbsent, tsType: field.type.tsType + (mayBeAbsent ? ' | undefined' : '') };
}

/**
 * HTTP GET and POST carry every parameter as text: each field must be a simple member of the request that occurs
 * once at most, and each member a field. So any variant's values decode alike (decodeFields).
 */
function httpFields(op: WsdlOperationFacts, parts: string[], request: ComplexTypeModel): string[] {
  for (const name of parts) {
    const member = request.fields.find((f) => f.name === name);
    if (!member || member.type.kind === 'complex' || member.maxOccurs !== 1 || member.nillable) {
      throw new Error(`codegen: HTTP field ${name} of ${op.name} must be a simple field of ${request.name} that occurs once at most`);
    }
  }
  const missing = request.fields.filter((f) => !parts.includes(f.name)).map((f) => f.name);
  if (missing.length > 0)
    throw new Error(`codegen: the HTTP fields of ${op.name} must be every member of ${request.name} (not: ${missing.join(', ')})`);
  return parts;
}

/** The HTTP answer carries the SOAP result: the same type, and xsi:nil exactly when the result may be absent. */
function httpAnswer(
  op: WsdlOperationFacts,
  element: ElementModel | undefined,
  result: ResultModel | undefined,
): HttpAnswerModel | undefined {
  if (!element || !result) {
    if (element || result)
      throw new Error(`codegen: ${op.name}: the HTTP answer and the SOAP result must both be there, or neither (a void operation)`);
    return undefined;
  }
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

/**
 * A derived type in place of its base is written with xsi:type, which
 * generated code does not read or write yet: a base may not be used as a type.
 */
function checkPolymorphism(types: ComplexTypeModel[], elements: ElementModel[]): void {
  const bases = new Set(types.flatMap((t) => (t.base ? [t.base] : [])));
  const users = [
    ...types.flatMap((t) => t.fields.map((f) => ({ user: `${t.name}/${f.name}`, type: f.type }))),
    ...elements.map((e) => ({ user: `element ${e.name}`, type: e.type })),
  ];
  for (const { user, type } of users) {
    if (type.kind === 'complex' && bases.has(type.typeName)) {
      throw new Error(
        `codegen: ${user} has type ${type.typeName}, which other types extend: a derived value there needs xsi:type, which codegen does not support yet; name the derived type instead`,
      );
    }
  }
}

/** A type that holds itself has no finite sample value; refused until the samples know where to stop. */
function checkNoCycles(types: ComplexTypeModel[]): void {
  const byName = new Map(types.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visit = (type: ComplexTypeModel, path: string[]) => {
    if (done.has(type.name)) return;
    for (const field of type.fields) {
      if (field.type.kind !== 'complex') continue;
      if (path.includes(field.type.typeName)) {
        const cycle = [...path.slice(path.indexOf(field.type.typeName)), field.type.typeName].join(' → ');
        throw new Error(`codegen: complex type ${field.type.typeName} holds itself (${cycle}): recursive types are not supported yet`);
      }
      visit(byName.get(field.type.typeName)!, [...path, field.type.typeName]);
    }
    done.add(type.name);
  };
  for (const type of types) visit(type, [type.name]);
}

/** Type and member names become class and property names in generated/. */
function identifier(name: string, at: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`codegen: ${at}: ${name} is not a JavaScript identifier`);
}

function sortByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
