/**
 * The class of each complex type reached: its fields in wire order (an
 * extension's base first), attributes, simple content, mixed content and
 * content model. Made from a queue, so that a type reached while another is
 * made waits its turn, and a derivation that comes back to itself is refused.
 */
import type { XsdComplexType } from '../read/xsd';
import { complexByKey, type ModelContext, simpleByKey } from './context';
import { contentNameCounts, field, flatten, mixedParticle, needsOrderedContent, orderedField, renameParticles } from './content';
import type { AttributeModel, ComplexTypeModel, FieldModel, ParticleModel, TypeRef } from './model';
import { uniqueMembers } from './names';
import { complexRef, primitiveRef, useRef, XSD } from './type-refs';

/** Makes the classes of every complex type reached so far (which may reach others). */
export function drain(context: ModelContext): void {
  while (context.pending.length > 0) {
    const next = context.pending[0];
    if (context.types.has(next)) context.pending.shift();
    else buildNow(context, next, []);
  }
}

/** The class a complex TypeRef names, made first if it is still waiting. */
export function classOf(context: ModelContext, ref: TypeRef & { kind: 'complex' }): ComplexTypeModel {
  drain(context);
  const found = [...context.types.values(), ...context.synthesized].find((t) => t.name === ref.typeName);
  if (!found) throw new Error(`codegen: unknown type ${ref.typeName}`);
  return found;
}

function buildNow(context: ModelContext, type: XsdComplexType, chain: XsdComplexType[]): ComplexTypeModel {
  if (context.building.has(type)) {
    throw new Error(
      `codegen: ${type.at}: complex type ${type.name} derives from itself (${[...chain, type].map((t) => t.name).join(' → ')})`,
    );
  }
  context.building.add(type);
  try {
    const model = build(context, type);
    context.types.set(type, model);
    context.pending.splice(context.pending.indexOf(type), 1);
    return model;
  } finally {
    context.building.delete(type);
  }
}

/** The class of a complex derivation's base, made first: its fields come first in the derived class. */
function baseClass(context: ModelContext, type: XsdComplexType, where: string): ComplexTypeModel | undefined {
  if (!type.base || type.base.namespace === XSD) return undefined;
  const baseType = complexByKey(context, type.base);
  if (!baseType) {
    if (simpleByKey(context, type.base) || type.text) return undefined;
    throw new Error(`codegen: ${type.at}: ${where} derives from ${type.base.name}, which no schema declares`);
  }
  const ref = complexRef(context, baseType, where);
  if (ref.kind !== 'complex') throw new Error(`codegen: ${type.at}: ${where} derives from a simple type's complex type`);
  return context.types.get(baseType) ?? buildNow(context, baseType, [type]);
}

function build(context: ModelContext, type: XsdComplexType): ComplexTypeModel {
  const name = context.complexNames.get(type)!;
  const where = type.name ? `complex type ${type.name}` : `the type ${name}`;
  const baseModel = baseClass(context, type, where);
  const fields: FieldModel[] = [];
  const particles: ParticleModel[] = [];
  const inherit = baseModel && type.derivation === 'extension';
  if (inherit && baseModel) {
    fields.push(...baseModel.fields.map((f) => ({ ...f })));
    particles.push(baseModel.particle);
  }
  // An extension of a type with simple content has that content too.
  let text: TypeRef | undefined = inherit ? baseModel?.text : undefined;
  if (type.text) {
    text = useRef(context, type.text, `${where}: its text`);
    if (text.kind === 'complex') text = complexTextOf(context, text);
  }
  // An extension of a mixed type is mixed, whether it says so or not (BPMN's tExpression): its base's text stays.
  const mixed = type.mixed || (inherit === true && baseModel?.mixed === true);
  if (mixed) {
    // Mixed content is kept whole, as XML; it is required when its content model is. An extension of a mixed type
    // (HL7's ED of BIN) has one content, its base's and its own together: the base's field and particle give way.
    let required = type.particle !== undefined && type.particle.min > 0;
    if (inherit && baseModel?.mixed) {
      const inherited = fields.findIndex((f) => f.xmlName === '' && f.type.kind === 'any' && f.tsType.startsWith('XmlFragment'));
      if (inherited >= 0) {
        required ||= fields[inherited].minOccurs > 0;
        fields.splice(inherited, 1);
        particles.splice(particles.indexOf(baseModel.particle), 1);
      }
    }
    const content = field('content', '', '', { kind: 'any', tsType: 'XmlFragment' }, required ? 1 : 0, 1, false);
    fields.push(content);
    particles.push(type.particle ? mixedParticle(context, type.particle, content) : { kind: 'field', field: content.name });
  } else if (type.particle && needsOrderedContent(type.particle)) {
    particles.push(orderedField(context, type.particle, fields, name));
  } else if (type.particle) {
    particles.push(flatten(context, type.particle, fields, name, 1, 1, false, contentNameCounts(type.particle)));
  }
  // An all group's members may come in any order: a value read keeps the order it came in, and is written in it.
  const allOrder = type.particle?.kind === 'all' && type.particle.particles.length > 1 && !mixed;
  const attributes = attributesOf(context, type, name, baseModel);
  const anyAttribute = type.anyAttribute || baseModel?.anyAttribute === true;
  uniqueMembers(fields, attributes, text !== undefined, anyAttribute);
  const particle: ParticleModel = particles.length === 1 ? particles[0] : { kind: 'sequence', particles, minOccurs: 1 };
  renameParticles(context, particle);
  return {
    name,
    xmlName: type.name ?? name,
    namespace: type.namespace,
    anonymous: type.name === undefined,
    fieldsInterface: `${name}Fields`,
    ...(baseModel ? { base: baseModel.name } : {}),
    derived: [],
    abstract: type.abstract,
    fields,
    attributes,
    ...(text ? { text } : {}),
    ...(mixed ? { mixed: true } : {}),
    ...(allOrder ? { allOrder: true } : {}),
    ...(anyAttribute ? { anyAttribute: true } : {}),
    ...(type.soapArray ? { soapArray: type.soapArray } : {}),
    particle,
    arrayWrapper:
      fields.length === 1 &&
      fields[0].maxOccurs === 'unbounded' &&
      !fields[0].inline &&
      attributes.length === 0 &&
      !baseModel &&
      !text &&
      fields[0].type.kind !== 'any',
  } as ComplexTypeModel;
}

/** The base's attributes, then the type's own (one of the same name replaces the base's). */
function attributesOf(
  context: ModelContext,
  type: XsdComplexType,
  name: string,
  baseModel: ComplexTypeModel | undefined,
): AttributeModel[] {
  const attributes: AttributeModel[] = [...(baseModel?.attributes ?? []).map((a) => ({ ...a }))];
  for (const a of type.attributes) {
    const ref = useRef(context, a.type, `${name}/@${a.name}`);
    if (ref.kind === 'complex' || ref.kind === 'any') throw new Error(`codegen: ${a.at}: attribute ${a.name} must have a simple type`);
    const existing = attributes.findIndex((b) => b.xmlName === a.name && b.namespace === a.namespace);
    const model: AttributeModel = {
      name: a.name,
      xmlName: a.name,
      namespace: a.namespace,
      type: ref,
      required: a.required,
      ...(a.fixed !== undefined ? { fixed: a.fixed } : {}),
    };
    if (existing >= 0) attributes[existing] = model;
    else attributes.push(model);
  }
  return attributes;
}

/** A simpleContent extension of a complex type with simple content: the text of that type. */
function complexTextOf(context: ModelContext, ref: TypeRef & { kind: 'complex' }): TypeRef {
  const found = [...context.types.values()].find((t) => t.name === ref.typeName);
  return found?.text ?? primitiveRef('text');
}
