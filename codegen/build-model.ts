import {
  type ActionModel,
  type AttributeModel,
  type BodyModel,
  type ComplexTypeModel,
  type ContractModel,
  type ElementModel,
  type EnumModel,
  type FaultModel,
  type FieldModel,
  type HeaderModel,
  type HttpAnswerModel,
  LIST_BUILTINS,
  OTHER_ATTRIBUTES,
  type OperationModel,
  type ParticleModel,
  PRIMITIVES,
  type Primitive,
  type ResultModel,
  type SimpleTypeRef,
  TEXT_BUILTINS,
  type TypeRef,
} from './model';
import type { ContractFacts } from './read/contract';
import type { WsdlOperationFacts, WsdlPart } from './read/wsdl';
import {
  type QName,
  qnameKey,
  type XsdComplexType,
  type XsdElement,
  type XsdLocalElement,
  type XsdParticle,
  type XsdSimpleType,
  type XsdTypeUse,
} from './read/xsd';

const XSD = 'http://www.w3.org/2001/XMLSchema';
/** ASMX's guid type, and WCF's Serialization namespace (guid, char, duration). */
const ASMX_TYPES = 'http://microsoft.com/wsdl/types/';
const WCF_SERIALIZATION = 'http://schemas.microsoft.com/2003/10/Serialization/';

/** Names generated code uses beside the contract's classes: a contract type of one of these names is renamed. */
const RESERVED_TYPE_NAMES = new Set(
  (
    'Error TypeError RangeError Date Uint8Array Partial Promise Object Array String Number Boolean Map Set Record JSON Math Symbol ' +
    'BigInt RegExp Function Buffer URL Response Request Headers AbortSignal XmlElement DecodeError XmlFragment Readonly Required ' +
    'Exclude Extract Pick Omit Iterable Infinity NaN undefined'
  ).split(' '),
);
/** Methods and the like of the generated classes: a member of one of these names is renamed. */
const RESERVED_MEMBER_NAMES = new Set([
  'toXml',
  'fromXml',
  'fromFields',
  'xmlAttributes',
  'xsiType',
  'constructor',
  '__proto__',
  'prototype',
]);
const JS_RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface ' +
    'package private protected public await arguments eval'
  ).split(' '),
);

/**
 * Combines what read/ found into the contract model, deriving each fact the
 * emitters need once: the types the operations reach (their messages,
 * headers, faults and HTTP answers, and the types derived from those), named
 * as TypeScript allows; and refuses a contract whose parts disagree.
 */
export function buildContractModel({ wsdl, xsd, texts }: ContractFacts): ContractModel {
  const tns = wsdl.targetNamespace;
  const takenTypeNames = new Set<string>();
  const claim = (wanted: string): string => {
    let name = identifier(wanted);
    if (RESERVED_TYPE_NAMES.has(name) || JS_RESERVED.has(name)) name = `${name}_`;
    let candidate = name;
    for (
      let i = 2;
      takenTypeNames.has(candidate) || takenTypeNames.has(`${candidate}Fields`) || takenTypeNames.has(`${candidate}Values`);
      i++
    ) {
      candidate = `${name}${i}`;
    }
    takenTypeNames.add(candidate);
    takenTypeNames.add(`${candidate}Fields`);
    takenTypeNames.add(`${candidate}Values`);
    return candidate;
  };

  // Named types first, in document order, so that they keep their names; anonymous ones take what is left.
  const complexNames = new Map<XsdComplexType, string>();
  for (const type of xsd.complexTypes.values()) complexNames.set(type, claim(type.name!));
  const enumNames = new Map<XsdSimpleType, string>();

  const types = new Map<XsdComplexType, ComplexTypeModel>();
  const synthesized: ComplexTypeModel[] = [];
  const enums = new Map<string, EnumModel>();
  const pending: XsdComplexType[] = [];

  const complexByKey = (q: QName) => xsd.complexTypes.get(qnameKey(q));
  const simpleByKey = (q: QName) => xsd.simpleTypes.get(qnameKey(q));
  const elementByKey = (q: QName, user: string): XsdElement => {
    const found = xsd.elements.get(qnameKey(q));
    if (!found)
      throw new Error(`codegen: ${user} names element ${q.name}${q.namespace ? ` of ${q.namespace}` : ''}, which no schema declares`);
    return found;
  };

  const primitiveRef = (primitive: Primitive, facets?: Record<string, string>): TypeRef => ({
    kind: 'primitive',
    primitive,
    tsType: PRIMITIVES[primitive],
    ...(facets && Object.keys(facets).length ? { facets } : {}),
  });
  const builtinRef = (name: string, user: string): TypeRef => {
    if (name === 'anyType') return { kind: 'any', tsType: 'XmlFragment' };
    if (Object.hasOwn(PRIMITIVES, name) && name !== 'guid' && name !== 'text') return primitiveRef(name as Primitive);
    if (TEXT_BUILTINS.includes(name)) return primitiveRef('text');
    if (LIST_BUILTINS.includes(name)) return { kind: 'list', item: primitiveRef('text') as SimpleTypeRef, tsType: 'string[]' };
    throw new Error(`codegen: ${user}: XML Schema type ${name} is not an XML Schema built-in type`);
  };

  /** A simple type's TypeRef: an enumeration, a list, or the built-in it restricts (with its facets). */
  const simpleRef = (type: XsdSimpleType, user: string, depth = 0): TypeRef => {
    if (depth > 32) throw new Error(`codegen: ${type.at}: simple type ${type.name ?? '(anonymous)'} derives from itself`);
    if (type.namespace === ASMX_TYPES && type.name === 'guid') return primitiveRef('guid');
    if (type.namespace === WCF_SERIALIZATION && type.name === 'guid') return primitiveRef('guid');
    if (type.namespace === WCF_SERIALIZATION && type.name === 'char') return primitiveRef('int');
    if (type.variety === 'union') return primitiveRef('text');
    if (type.variety === 'list') {
      const item = useRef(type.base!, user, depth + 1);
      if (item.kind !== 'primitive' && item.kind !== 'enum')
        throw new Error(`codegen: ${type.at}: a list's items must be of a simple type`);
      return { kind: 'list', item, tsType: `${item.tsType.includes('|') ? `(${item.tsType})` : item.tsType}[]` };
    }
    if (type.enumeration.length > 0) {
      let name = enumNames.get(type);
      if (!name) {
        name = claim(type.name ?? `${user.split(/[/@ ]/).filter(Boolean).pop()}Type`);
        enumNames.set(type, name);
        enums.set(name, { name, values: type.enumeration });
      }
      return { kind: 'enum', typeName: name, tsType: name };
    }
    const base = useRef(type.base!, user, depth + 1);
    if (base.kind === 'primitive') return primitiveRef(base.primitive, { ...(base.facets ?? {}), ...type.facets });
    if (base.kind === 'list') return { ...base, facets: { ...(base.facets ?? {}), ...type.facets } };
    if (base.kind === 'enum') return base;
    throw new Error(`codegen: ${type.at}: a simple type must restrict a simple type`);
  };

  const useRef = (use: XsdTypeUse, user: string, depth = 0): TypeRef => {
    switch (use.kind) {
      case 'builtin':
        return builtinRef(use.name, user);
      case 'simple':
        return simpleRef(use.type, user, depth);
      case 'complex':
        return complexRef(use.type, user);
      case 'named': {
        const { qname } = use;
        if (qname.namespace === XSD) return builtinRef(qname.name, user);
        const simple = simpleByKey(qname);
        if (simple) return simpleRef(simple, user, depth);
        const complex = complexByKey(qname);
        if (complex) return complexRef(complex, user);
        if (qname.namespace === ASMX_TYPES && qname.name === 'guid') return primitiveRef('guid');
        throw new Error(
          `codegen: ${user} names type ${qname.name}${qname.namespace ? ` of ${qname.namespace}` : ''}, which no schema declares`,
        );
      }
    }
  };

  /** A complex type reached by the operations: its class is made (once) when the queue gets to it. */
  const complexRef = (type: XsdComplexType, user: string): TypeRef => {
    // A complex type with simple content and no attributes is its text's type, as .NET reads it.
    if (type.text && type.attributes.length === 0 && !type.base) return useRef(type.text, user);
    let name = complexNames.get(type);
    if (!name) {
      name = claim(user.split(/[/@ ]/).filter(Boolean).pop() ?? 'Anonymous');
      complexNames.set(type, name);
    }
    if (!types.has(type) && !pending.includes(type)) pending.push(type);
    return { kind: 'complex', typeName: name, tsType: name };
  };

  const elementType = (element: XsdElement): TypeRef => useRef(element.type, element.name);

  // --- the operations, which reach the types ---

  const bodyOf = (op: WsdlOperationFacts, direction: 'input' | 'output'): { body: BodyModel; headers: HeaderModel[] } | undefined => {
    const message = op[direction];
    if (!message) return undefined;
    const headers: HeaderModel[] = message.headers.map((part) => {
      const element = elementByKey(part.element!, `header ${part.name} of ${op.name}`);
      return {
        name: part.name,
        element: { name: element.name, namespace: element.namespace },
        type: elementType(element),
        direction: direction === 'input' ? 'in' : 'out',
      };
    });
    const wrapperName = direction === 'input' ? op.name : `${op.name}Response`;
    if (op.style === 'rpc') {
      const type = messageType(`${wrapperName}`, message.body, op.name, false);
      return { body: { style: 'element', element: { name: wrapperName, namespace: message.namespace ?? tns }, type }, headers };
    }
    if (message.body.length === 1) {
      const element = elementByKey(message.body[0].element!, `part ${message.body[0].name} of ${op.name}`);
      const type = elementType(element);
      if (type.kind === 'complex') {
        return { body: { style: 'element', element: { name: element.name, namespace: element.namespace }, type: classOf(type) }, headers };
      }
    }
    const type = messageType(`${op.name}${direction === 'input' ? 'Input' : 'Output'}`, message.body, op.name, true);
    return { body: { style: 'parts', type }, headers };
  };

  /** A class of its own for a message's parts (several, a simple or wildcard body element, none, or an rpc wrapper). */
  const messageType = (wanted: string, parts: WsdlPart[], operation: string, topLevel: boolean): ComplexTypeModel => {
    const name = claim(wanted);
    const fields: FieldModel[] = parts.map((part) => {
      if (part.element) {
        const element = elementByKey(part.element, `part ${part.name} of ${operation}`);
        const type = elementType(element);
        return field(part.name, element.name, element.namespace, type, 1, 1, element.nillable);
      }
      const type =
        part.type!.namespace === XSD
          ? builtinRef(part.type!.name, `part ${part.name}`)
          : useRef({ kind: 'named', qname: part.type! }, `part ${part.name} of ${operation}`);
      return field(part.name, part.name, '', type, 1, 1, false);
    });
    uniqueMembers(fields, []);
    const model: ComplexTypeModel = {
      name,
      xmlName: wanted,
      namespace: tns,
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
    synthesized.push(model);
    return model;
  };

  const classOf = (ref: TypeRef & { kind: 'complex' }): ComplexTypeModel => {
    drain();
    const found = [...types.values(), ...synthesized].find((t) => t.name === ref.typeName);
    if (!found) throw new Error(`codegen: unknown type ${ref.typeName}`);
    return found;
  };

  // --- the classes ---

  const field = (
    wanted: string,
    xmlName: string,
    namespace: string,
    type: TypeRef,
    minOccurs: number,
    maxOccurs: number | 'unbounded',
    nillable: boolean,
  ): FieldModel => {
    const repeated = maxOccurs === 'unbounded' || maxOccurs > 1;
    const item = nillable ? `${type.tsType} | null` : type.tsType;
    const tsType = repeated ? (nillable || type.tsType.includes('|') ? `(${item})[]` : `${item}[]`) : item;
    return { name: wanted, xmlName, namespace, type, minOccurs, maxOccurs, nillable, tsType };
  };

  const build = (type: XsdComplexType): ComplexTypeModel => {
    const name = complexNames.get(type)!;
    const where = type.name ? `complex type ${type.name}` : `the type ${name}`;
    let baseModel: ComplexTypeModel | undefined;
    let baseType: XsdComplexType | undefined;
    if (type.base && !(type.base.namespace === XSD)) {
      baseType = complexByKey(type.base);
      if (!baseType) {
        if (simpleByKey(type.base) || type.text) baseType = undefined;
        else throw new Error(`codegen: ${type.at}: ${where} derives from ${type.base.name}, which no schema declares`);
      } else {
        const ref = complexRef(baseType, where);
        if (ref.kind !== 'complex') throw new Error(`codegen: ${type.at}: ${where} derives from a simple type's complex type`);
        baseModel = types.get(baseType) ?? buildNow(baseType, [type]);
      }
    }
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
      text = useRef(type.text, `${where}: its text`);
      if (text.kind === 'complex') text = complexTextOf(text);
    }
    if (type.mixed) {
      // Mixed content is kept whole, as XML; it is required when its content model is.
      const content = field(
        'content',
        '',
        '',
        { kind: 'any', tsType: 'XmlFragment' },
        type.particle && type.particle.min > 0 ? 1 : 0,
        1,
        false,
      );
      fields.push(content);
      particles.push({ kind: 'field', field: content.name });
    } else if (type.particle) {
      particles.push(flatten(type.particle, fields, name, 1, 1, false, elementNameCounts(type.particle)));
    }
    const attributes: AttributeModel[] = [...(baseModel?.attributes ?? []).map((a) => ({ ...a }))];
    for (const a of type.attributes) {
      const ref = useRef(a.type, `${name}/@${a.name}`);
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
    const anyAttribute = type.anyAttribute || baseModel?.anyAttribute === true;
    uniqueMembers(fields, attributes, text !== undefined, anyAttribute);
    const particle: ParticleModel = particles.length === 1 ? particles[0] : { kind: 'sequence', particles, minOccurs: 1 };
    renameParticles(particle);
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
      ...(type.mixed ? { mixed: true } : {}),
      ...(anyAttribute ? { anyAttribute: true } : {}),
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
  };
  /** A simpleContent extension of a complex type with simple content: the text of that type. */
  const complexTextOf = (ref: TypeRef & { kind: 'complex' }): TypeRef => {
    const found = [...types.values()].find((t) => t.name === ref.typeName);
    return found?.text ?? primitiveRef('text');
  };
  const building = new Set<XsdComplexType>();
  const buildNow = (type: XsdComplexType, chain: XsdComplexType[]): ComplexTypeModel => {
    if (building.has(type)) {
      throw new Error(
        `codegen: ${type.at}: complex type ${type.name} derives from itself (${[...chain, type].map((t) => t.name).join(' → ')})`,
      );
    }
    building.add(type);
    try {
      const model = build(type);
      types.set(type, model);
      pending.splice(pending.indexOf(type), 1);
      return model;
    } finally {
      building.delete(type);
    }
  };

  // A particle names its field; the field's name may change (uniqueMembers), so the particle keeps the field too.
  const particleFields = new Map<ParticleModel, FieldModel>();
  const fieldParticle = (f: FieldModel): ParticleModel => {
    const made: ParticleModel = { kind: 'field', field: f.name };
    particleFields.set(made, f);
    return made;
  };
  const renameParticles = (particle: ParticleModel): void => {
    if (particle.kind === 'field') particle.field = particleFields.get(particle)?.name ?? particle.field;
    else for (const p of particle.particles) renameParticles(p);
  };

  /**
   * A particle's fields, appended to `fields`: a choice's members optional. A repeated sequence or choice of several
   * elements is a group (`groups`: the element names of the whole content model, by count): one array field of a
   * class of its own whose members are written in place, so that the order between them is kept. One inside
   * another, one holding a wildcard, or one whose element names occur elsewhere in the type is read as repeated fields.
   */
  const flatten = (
    particle: XsdParticle,
    fields: FieldModel[],
    owner: string,
    min: number,
    max: number | 'unbounded',
    inChoice: boolean,
    groups?: Map<string, number>,
  ): ParticleModel => {
    const times = (a: number | 'unbounded', b: number | 'unbounded') => (a === 'unbounded' || b === 'unbounded' ? 'unbounded' : a * b);
    const pmin = min * particle.min;
    const pmax = times(max, particle.max);
    if ((particle.kind === 'sequence' || particle.kind === 'choice') && groups && particle.max !== 1 && particle.max !== 0) {
      const own = elementNameCounts(particle);
      const alone =
        own !== undefined &&
        [...own].every(([n, count]) => groups.get(n) === count && !fields.some((f) => f.xmlName === n)) &&
        [...own.values()].reduce((a, b) => a + b, 0) >= 2;
      if (alone) {
        const members: FieldModel[] = [];
        const inner = flatten({ ...particle, min: 1, max: 1 }, members, owner, 1, 1, false);
        uniqueMembers(members, []);
        renameParticles(inner);
        const name = claim(`${owner}Group`);
        const group: ComplexTypeModel = {
          name,
          xmlName: name,
          namespace: members[0].namespace || tns,
          anonymous: true,
          group: true,
          fieldsInterface: `${name}Fields`,
          derived: [],
          abstract: false,
          fields: members,
          attributes: [],
          particle: inner,
          arrayWrapper: false,
        };
        synthesized.push(group);
        const made = field('group', name, '', { kind: 'complex', typeName: name, tsType: name }, inChoice ? 0 : pmin, pmax, false);
        made.inline = true;
        fields.push(made);
        return fieldParticle(made);
      }
    }
    if (particle.kind === 'element') {
      const local = particle.element;
      let xmlName = local.name;
      let namespace = local.namespace;
      let type: TypeRef;
      let nillable = local.nillable;
      let fixed = local.fixed;
      if (local.ref) {
        if (local.ref.namespace === XSD) {
          // ASMX's DataSet: a ref to xs:schema, then any: both kept as XML.
          type = { kind: 'any', tsType: 'XmlFragment' };
          xmlName = '';
          namespace = '';
        } else {
          const global = elementByKey(local.ref, `${owner}/${local.ref.name}`);
          type = elementType(global);
          nillable = global.nillable || local.nillable;
          fixed ??= global.fixed;
          xmlName = global.name;
          namespace = global.namespace;
        }
      } else type = useRef(local.type!, `${owner}/${local.name}`);
      const existing = fields.find((f) => f.xmlName === xmlName && f.namespace === namespace && f.type.kind !== 'any');
      if (existing) {
        // The same element twice in one content model: one repeated field (the order between them is not kept).
        existing.maxOccurs = 'unbounded';
        existing.minOccurs = Math.min(existing.minOccurs, inChoice ? 0 : pmin);
        Object.assign(
          existing,
          field(existing.name, existing.xmlName, existing.namespace, existing.type, existing.minOccurs, 'unbounded', existing.nillable),
        );
        return fieldParticle(existing);
      }
      const made =
        xmlName === ''
          ? field('any', '', '', type, inChoice ? 0 : pmin, pmax, false)
          : field(xmlName, xmlName, namespace, type, inChoice ? 0 : pmin, pmax, nillable);
      if (fixed !== undefined) made.fixed = fixed;
      fields.push(made);
      return fieldParticle(made);
    }
    if (particle.kind === 'any') {
      const existing = fields.find((f) => f.type.kind === 'any' && f.xmlName === '');
      if (existing) return fieldParticle(existing);
      const made = field('any', '', '', { kind: 'any', tsType: 'XmlFragment' }, inChoice ? 0 : pmin, 1, false);
      fields.push(made);
      return fieldParticle(made);
    }
    const choice = particle.kind === 'choice' && particle.particles.length > 1;
    return {
      kind: particle.kind,
      minOccurs: particle.min,
      particles: particle.particles.map((p) => flatten(p, fields, owner, choice ? 0 : pmin, pmax, inChoice || choice, groups)),
    };
  };

  /** Works the queue: each complex type reached gets its class, which may reach others. */
  const drain = () => {
    while (pending.length > 0) {
      const next = pending[0];
      if (types.has(next)) pending.shift();
      else buildNow(next, []);
    }
  };

  // The operations' messages, headers, faults and HTTP answers reach the types.
  const faultClasses = new Map<string, FaultModel>();
  const operations: OperationModel[] = [];
  for (const op of wsdl.operations) {
    const input = bodyOf(op, 'input');
    const output = bodyOf(op, 'output');
    const faults = op.faults.map((fault): FaultModel => {
      const key = qnameKey(fault.element);
      const known = faultClasses.get(key);
      if (known) return known;
      const element = elementByKey(fault.element, `fault ${fault.name} of ${op.name}`);
      const model: FaultModel = {
        name: fault.name,
        className: claim(`${element.name.endsWith('Fault') ? element.name : `${element.name}Fault`}`),
        element: { name: element.name, namespace: element.namespace },
        type: elementType(element),
      };
      faultClasses.set(key, model);
      return model;
    });
    drain();
    let request: ComplexTypeModel;
    let result: ResultModel | undefined;
    if (input) {
      request = input.body.type;
      result = output ? resultOf(output.body.type) : undefined;
    } else {
      // No SOAP port: the request is the HTTP input parts, the result the HTTP answer's element.
      request = messageType(`${op.name}Input`, op.http?.inputParts ?? [], op.name, true);
      const answer = op.http?.outputElement ? elementByKey(op.http.outputElement, `the HTTP answer of ${op.name}`) : undefined;
      result = answer
        ? {
            type: elementType(answer),
            mayBeAbsent: answer.nillable,
            tsType: elementType(answer).tsType + (answer.nillable ? ' | undefined' : ''),
          }
        : undefined;
    }
    drain();
    operations.push({
      name: op.name,
      void: result === undefined,
      oneWay: input !== undefined && output === undefined,
      documentation: op.documentation,
      request: { type: request },
      result,
      soap: input
        ? {
            style: op.style,
            actions: Object.fromEntries(Object.entries(op.soapActions).map(([v, action]) => [v, actionOf(action!, tns)])),
            input: input.body,
            ...(output ? { output: output.body } : {}),
            headers: [...input.headers, ...(output?.headers ?? [])],
            faults,
          }
        : undefined,
      http: undefined,
    });
    const model = operations.at(-1)!;
    if (op.http) {
      model.http = {
        location: op.http.location,
        fields: httpFields(
          op,
          op.http.inputParts.map((p) => p.name),
          request,
        ),
        answer: httpAnswer(op, op.http.outputElement ? toElementModel(elementByKey(op.http.outputElement, op.name)) : undefined, result),
      };
    }
  }
  function toElementModel(element: XsdElement): ElementModel {
    return { name: element.name, namespace: element.namespace, type: elementType(element), nillable: element.nillable };
  }
  function resultOf(output: ComplexTypeModel): ResultModel | undefined {
    if (output.fields.length === 0 && output.attributes.length === 0 && !output.text) return undefined;
    const [only] = output.fields;
    if (output.fields.length === 1 && output.attributes.length === 0 && !output.text && only.xmlName !== '') {
      const mayBeAbsent = only.minOccurs === 0 && only.maxOccurs === 1;
      return { field: only.name, type: only.type, mayBeAbsent, tsType: only.tsType + (mayBeAbsent ? ' | undefined' : '') };
    }
    return { type: { kind: 'complex', typeName: output.name, tsType: output.name }, mayBeAbsent: false, tsType: output.name };
  }

  // The types derived from a reached type stand in for it (xsi:type): they are reached too.
  for (let grew = true; grew; ) {
    grew = false;
    drain();
    const reached = new Set(types.keys());
    for (const candidate of xsd.complexTypes.values()) {
      if (types.has(candidate) || !candidate.base) continue;
      const base = complexByKey(candidate.base);
      if (base && reached.has(base)) {
        complexRef(candidate, candidate.name!);
        grew = true;
      }
    }
  }
  drain();
  const all = [...types.values(), ...synthesized];
  const byName = new Map(all.map((t) => [t.name, t]));
  for (const type of all) {
    for (let base = type.base; base; base = byName.get(base)?.base) byName.get(base)?.derived.push(type.name);
  }
  for (const type of all) {
    for (const name of [...type.fields.map((f) => f.name), ...type.attributes.map((a) => a.name)]) identifierCheck(name, type.name);
  }

  const namespaces = [tns, ...xsd.namespaces.filter((ns) => ns !== tns && ns !== '')];
  const usesOtherForms =
    all.some(
      (t) =>
        t.fields.some((f) => f.namespace !== tns || f.type.kind === 'any') ||
        t.attributes.some((a) => a.namespace !== '') ||
        (!t.anonymous && t.namespace !== tns && t.derived.length + (t.base ? 1 : 0) > 0),
    ) ||
    operations.some(
      (op) =>
        (op.soap && [op.soap.input, op.soap.output].some((b) => b && (b.style === 'parts' || b.element!.namespace !== tns))) ||
        op.soap?.headers.some((h) => h.element.namespace !== tns) ||
        op.soap?.faults.some((f) => f.element.namespace !== tns) ||
        (op.http?.answer && op.http.answer.namespace !== tns),
    );
  for (const op of operations)
    for (const part of [op.soap?.input, op.soap?.output])
      if (part?.style === 'parts')
        for (const f of part.type.fields) if (f.namespace && !namespaces.includes(f.namespace)) namespaces.push(f.namespace);
  const prefixes = usesOtherForms ? Object.fromEntries(namespaces.map((ns, i) => [ns, i === 0 ? 'tns' : `ns${i}`])) : undefined;

  // The small schema of a request holds what its element names; a wildcard or a derived type (xsi:type) may name anything.
  const selfContained = (type: ComplexTypeModel, seen = new Set<string>()): boolean => {
    if (seen.has(type.name)) return true;
    seen.add(type.name);
    if (type.derived.length > 0 || type.base) return false;
    return type.fields.every(
      (f) => f.type.kind !== 'any' && (f.type.kind !== 'complex' || selfContained(byName.get(f.type.typeName)!, seen)),
    );
  };
  const requestSchemas: Record<string, string> = {};
  for (const op of operations) {
    const input = op.soap?.input;
    if (
      input?.style === 'element' &&
      input.element!.namespace === tns &&
      texts.elementSchemas[input.element!.name] &&
      selfContained(input.type)
    ) {
      requestSchemas[op.name] = texts.elementSchemas[input.element!.name];
    }
  }
  const ports = wsdl.ports;
  const paths = [...new Set(ports.map((p) => p.path))];
  return {
    service: identifier(wsdl.service),
    authoredNamespace: tns,
    endpointPath: paths[0],
    endpointPaths: paths,
    prefixes,
    elements: [...xsd.elements.values()]
      .flatMap((e) => {
        try {
          return [toElementModel(e)];
        } catch {
          return [];
        }
      })
      .filter((e) => e.type.kind !== 'complex' || byName.has(e.type.typeName)),
    types: sortByName(all),
    enums: sortByName([...enums.values()]),
    operations,
    ports,
    wsdl: texts.wsdl,
    importedWsdls: texts.importedWsdls,
    schema: texts.schemas[0]?.text ?? '',
    schemas: texts.schemas,
    requestSchemas,
    ...(wsdl.choice ? { choice: wsdl.choice } : {}),
  };
}

/** How often each element name occurs in a content model; undefined when it holds a wildcard. */
function elementNameCounts(particle: XsdParticle, into = new Map<string, number>()): Map<string, number> | undefined {
  if (particle.kind === 'any') return undefined;
  if (particle.kind === 'element') {
    into.set(particle.element.name, (into.get(particle.element.name) ?? 0) + 1);
    return into;
  }
  for (const p of particle.particles) if (!elementNameCounts(p, into)) return undefined;
  return into;
}

/** The SOAPAction as the model keeps it: after the target namespace when it starts with it, else as written. */
function actionOf(action: string, namespace: string): ActionModel {
  return action.startsWith(namespace) && action.length > namespace.length && namespace !== ''
    ? { suffix: action.slice(namespace.length) }
    : { literal: action };
}

/**
 * HTTP GET and POST carry every parameter as text: each field must be a simple member of the request that occurs
 * once at most, and each member a field. So any variant's values decode alike (decodeFields).
 */
function httpFields(op: WsdlOperationFacts, parts: string[], request: ComplexTypeModel): string[] {
  for (const name of parts) {
    const member = request.fields.find((f) => f.name === name || f.xmlName === name);
    if (!member || member.type.kind === 'complex' || member.type.kind === 'any' || member.maxOccurs !== 1 || member.nillable) {
      throw new Error(`codegen: HTTP field ${name} of ${op.name} must be a simple field of ${request.name} that occurs once at most`);
    }
  }
  const missing = request.fields.filter((f) => !parts.includes(f.xmlName)).map((f) => f.name);
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
      `codegen: ${op.name}: the HTTP answer (${element.name}, ${element.type.tsType}) and the SOAP result (${result.field ?? 'the response'}, ${result.type.tsType}) must have the same type`,
    );
  }
  if (element.nillable !== result.mayBeAbsent) {
    const why = result.mayBeAbsent
      ? 'may be absent (minOccurs="0"), so the HTTP answer must be nillable'
      : 'is always there, so the HTTP answer must not be nillable';
    throw new Error(`codegen: ${op.name}: the SOAP result ${result.field} ${why} (element ${element.name})`);
  }
  return {
    element: element.name,
    namespace: element.namespace,
    type: element.type,
    nillable: element.nillable,
    complex: element.type.kind === 'complex',
  };
}

/** Members named as TypeScript allows, each once in its class (a second of one name gets a number). */
function uniqueMembers(fields: FieldModel[], attributes: AttributeModel[], hasText = false, anyAttribute = false): void {
  const taken = new Set<string>([...(hasText ? ['value'] : []), ...(anyAttribute ? [OTHER_ATTRIBUTES] : [])]);
  for (const member of [...fields, ...attributes]) {
    let name = identifier(member.name);
    if (RESERVED_MEMBER_NAMES.has(name)) name = `${name}_`;
    let candidate = name;
    for (let i = 2; taken.has(candidate); i++) candidate = `${name}${i}`;
    taken.add(candidate);
    member.name = candidate;
  }
}

/**
 * An XML name as a TypeScript identifier: XmlSerializer's escapes (`_x0020_`)
 * read back, then every character an identifier cannot hold replaced by `_`
 * (a dot in `Ver1.0`); letters of any script are kept.
 */
export function identifier(xmlName: string): string {
  const decoded = xmlName.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  let name = [...decoded]
    .map((c, i) =>
      (i === 0 ? /[\p{ID_Start}$_]/u : /[\p{ID_Continue}$\u200C\u200D]/u).test(c) ? c : /[\p{ID_Continue}]/u.test(c) ? `_${c}` : '_',
    )
    .join('');
  if (name === '') name = '_';
  return name;
}

function identifierCheck(name: string, owner: string): void {
  if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name))
    throw new Error(`codegen: ${owner}: ${name} is not a JavaScript identifier`);
}

function sortByName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export type { XsdLocalElement };
