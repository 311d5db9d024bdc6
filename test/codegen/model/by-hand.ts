/**
 * What the model passes' tests build by hand: read/'s facts as plain objects (schemas' declarations, operations)
 * and the model's classes and operations, each with only what a test sets and plain defaults for the rest.
 */
import { qnameKey, type XsdComplexType, type XsdElement, type XsdFacts, type XsdParticle } from '../../../codegen/read/xsd';
import type { WsdlOperationFacts } from '../../../codegen/read/wsdl';
import type { ComplexTypeModel, FieldModel, OperationModel, TypeRef } from '../../../codegen/model/model';

export const TNS = 'urn:by-hand';
const at = 'by-hand.xsd:1';

/** Schema facts of these global complex types and elements, all in TNS. */
export function facts(types: XsdComplexType[], elements: XsdElement[] = []): XsdFacts {
  return {
    complexTypes: new Map(types.map((t) => [qnameKey({ namespace: t.namespace, name: t.name! }), t])),
    simpleTypes: new Map(),
    elements: new Map(elements.map((e) => [qnameKey(e), e])),
    namespaces: [TNS],
  };
}

export function complexType(name: string | undefined, more: Partial<XsdComplexType> = {}): XsdComplexType {
  return { name, namespace: TNS, attributes: [], anyAttribute: false, mixed: false, abstract: false, at, ...more };
}

/** A sequence of local elements, each `name: builtin type` (or of a named type of TNS when it starts with a capital). */
export function sequence(members: Record<string, string>): XsdParticle {
  return {
    kind: 'sequence',
    min: 1,
    max: 1,
    particles: Object.entries(members).map(([name, type]) => ({
      kind: 'element',
      element: {
        name,
        namespace: TNS,
        type: /^[A-Z]/.test(type) ? { kind: 'named', qname: { namespace: TNS, name: type } } : { kind: 'builtin', name: type },
        nillable: false,
        at,
      },
      min: 1,
      max: 1,
    })),
  };
}

export function element(name: string, type: string | XsdComplexType, more: Partial<XsdElement> = {}): XsdElement {
  return {
    name,
    namespace: TNS,
    type:
      typeof type !== 'string'
        ? { kind: 'complex', type }
        : /^[A-Z]/.test(type)
          ? { kind: 'named', qname: { namespace: TNS, name: type } }
          : { kind: 'builtin', name: type },
    nillable: false,
    abstract: false,
    at,
    ...more,
  };
}

/** A document/literal operation whose input and output are one element each. */
export function operation(name: string, input: string, output?: string): WsdlOperationFacts {
  const body = (element: string) => ({
    message: element,
    body: [{ name: 'parameters', element: { namespace: TNS, name: element } }],
    headers: [],
  });
  return {
    name,
    documentation: '',
    style: 'document',
    soapActions: { soap11: `${TNS}/${name}` },
    input: body(input),
    ...(output ? { output: body(output) } : {}),
    faults: [],
  };
}

export const stringRef: TypeRef = { kind: 'primitive', primitive: 'string', tsType: 'string' };
export const classRef = (name: string): TypeRef => ({ kind: 'complex', typeName: name, tsType: name });

export function field(name: string, type: TypeRef = stringRef, more: Partial<FieldModel> = {}): FieldModel {
  return { name, xmlName: name, namespace: TNS, type, minOccurs: 1, maxOccurs: 1, nillable: false, tsType: type.tsType, ...more };
}

/** A class of the model. */
export function classModel(name: string, more: Partial<ComplexTypeModel> = {}): ComplexTypeModel {
  return {
    name,
    xmlName: name,
    namespace: TNS,
    anonymous: false,
    fieldsInterface: `${name}Fields`,
    derived: [],
    abstract: false,
    fields: [],
    attributes: [],
    particle: { kind: 'sequence', particles: [], minOccurs: 1 },
    arrayWrapper: false,
    ...more,
  };
}

/** An operation of the model whose SOAP request is `request`'s element (of TNS unless said). */
export function operationModel(name: string, request: ComplexTypeModel, namespace = TNS): OperationModel {
  return {
    name,
    void: true,
    oneWay: false,
    documentation: '',
    request: { type: request },
    result: undefined,
    soap: {
      style: 'document',
      actions: {},
      input: { style: 'element', element: { name: request.xmlName, namespace }, type: request },
      headers: [],
      faults: [],
    },
    http: undefined,
  };
}
