/**
 * The SOAP bodies of an operation's messages: one element whose type is a
 * class, or a class of its own for the parts (several, a simple or wildcard
 * body element, none, or an rpc wrapper); and the header blocks.
 */
import type { WsdlOperationFacts, WsdlPart } from '../read/wsdl';
import { classOf } from './classes';
import { elementByKey, type ModelContext } from './context';
import { field } from './content';
import type { BodyModel, ComplexTypeModel, FieldModel, HeaderModel } from './model';
import { identifier, uniqueMembers } from './names';
import { builtinRef, elementType, useRef, XSD } from './type-refs';
import { arrayType, encodedBuiltin, isSoapArray, isSoapStruct } from '../read/xsd/soap-arrays';
import { type QName, qnameKey, type XsdElement, type XsdTypeUse } from '../read/xsd';

/** The type a part names: soapenc:Array (an array of any) and soapenc:Struct (any content) as SOAP encoding has them. */
function partTypeUse(q: QName): XsdTypeUse {
  if (isSoapArray(q)) return { kind: 'complex', type: arrayType(undefined, '', { kind: 'builtin', name: 'anyType' }, 1, '') };
  if (isSoapStruct(q)) return { kind: 'builtin', name: 'anyType' };
  return { kind: 'named', qname: q };
}

/**
 * A header part's block: the element it names, or (an encoded header whose part names a type) the accessor named
 * by the part, of that type, which the served schemas declare unless a schema declares it already.
 */
function headerElement(context: ModelContext, part: WsdlPart, operation: string): XsdElement {
  const user = `header ${part.name} of ${operation}`;
  if (!part.type || context.xsd.elements.has(qnameKey(part.element!))) return elementByKey(context, part.element!, user);
  return { ...part.element!, type: partTypeUse(part.type), nillable: false, abstract: false, at: user };
}

export function bodyOf(
  context: ModelContext,
  op: WsdlOperationFacts,
  direction: 'input' | 'output',
): { body: BodyModel; headers: HeaderModel[] } | undefined {
  const message = op[direction];
  if (!message) return undefined;
  // Each header block once (two messages may bind the same part: EWS's RequestVersion), each under a name of its own.
  const headers: HeaderModel[] = [];
  const names = new Set<string>();
  for (const part of message.headers) {
    const element = headerElement(context, part, op.name);
    if (headers.some((h) => h.element.name === element.name && h.element.namespace === element.namespace)) continue;
    const wanted = identifier(part.name);
    let name = wanted;
    for (let i = 2; names.has(name); i++) name = `${wanted}${i}`;
    names.add(name);
    headers.push({
      name,
      element: { name: element.name, namespace: element.namespace },
      type: elementType(context, element),
      direction: direction === 'input' ? 'in' : 'out',
      ...(part.encoded ? { encoded: true as const } : {}),
    });
  }
  if (op.style === 'rpc') {
    // The wrapper is named by the WSDL's operation name; an overloaded operation's class by its own name.
    const wire = op.overload?.wsdlName ?? op.name;
    const wrapperName = direction === 'input' ? wire : `${wire}Response`;
    const type = messageType(context, direction === 'input' ? op.name : `${op.name}Response`, message.body, op.name, false);
    return { body: { style: 'element', element: { name: wrapperName, namespace: message.namespace ?? context.tns }, type }, headers };
  }
  if (message.body.length === 1) {
    const element = elementByKey(context, message.body[0].element!, `part ${message.body[0].name} of ${op.name}`);
    const type = elementType(context, element);
    if (type.kind === 'complex') {
      return {
        body: { style: 'element', element: { name: element.name, namespace: element.namespace }, type: classOf(context, type) },
        headers,
      };
    }
  }
  const type = messageType(context, `${op.name}${direction === 'input' ? 'Input' : 'Output'}`, message.body, op.name, true);
  return { body: { style: 'parts', type }, headers };
}

/** A class of its own for a message's parts (several, a simple or wildcard body element, none, or an rpc wrapper). */
export function messageType(
  context: ModelContext,
  wanted: string,
  parts: WsdlPart[],
  operation: string,
  topLevel: boolean,
): ComplexTypeModel {
  const name = context.names.claim(wanted);
  const fields: FieldModel[] = parts.map((part) => {
    if (part.element) {
      const element = elementByKey(context, part.element, `part ${part.name} of ${operation}`);
      const type = elementType(context, element);
      return field(part.name, element.name, element.namespace, type, 1, 1, element.nillable);
    }
    const encoded = encodedBuiltin(part.type!);
    const type =
      part.type!.namespace === XSD || encoded
        ? builtinRef(encoded ?? part.type!.name, `part ${part.name}`)
        : useRef(context, partTypeUse(part.type!), `part ${part.name} of ${operation}`);
    return field(part.name, part.name, '', type, 1, 1, false);
  });
  uniqueMembers(fields, []);
  const model: ComplexTypeModel = {
    name,
    xmlName: wanted,
    namespace: context.tns,
    anonymous: true,
    ...(topLevel ? { message: true as const } : {}),
    fieldsInterface: `${name}Fields`,
    derived: [],
    abstract: false,
    fields,
    attributes: [],
    particle: { kind: 'sequence', particles: fields.map((f) => ({ kind: 'field', field: f.name })), minOccurs: 1 },
    arrayWrapper: false,
  };
  context.synthesized.push(model);
  return model;
}
