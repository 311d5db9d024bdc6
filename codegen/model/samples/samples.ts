/**
 * Samples of the contract's types, as plain data (sample-tree.ts) that is
 * valid against the schema: the help pages' samples, the mock's answers and
 * the requests `npm run corpus` sends, which emit/samples.ts writes as
 * TypeScript. Every field filled in content-model order, a choice's first
 * branch that can be filled, an array holding the items its minOccurs asks
 * (one at least), an ordered content's items as its content model lays them
 * out, an abstract type its first concrete derived type, simple values that
 * keep to their facets (simple-values.ts), and a wildcard's elements
 * declared ones of a namespace it takes (a lax or skip one may take an
 * element of no declaration), none where minOccurs allows. A type that holds
 * itself stops where it may (an optional member is left out once the type is
 * already being filled).
 */
import {
  type ComplexTypeModel,
  complexTypeOf,
  type ElementModel,
  type FieldModel,
  type ParticleModel,
  type SchemaModel,
  type TypeRef,
} from '../model';
import { escapeXmlAttribute, escapeXmlText } from 'contract-runtime/xml';
import type { ObjectSample, Sample, XmlPiece } from './sample-tree';
import { sampleText, simpleSample } from './simple-values';

const text = (value: string): Sample => ({ kind: 'string', value });
const markup = (xml: string): XmlPiece => ({ kind: 'markup', xml });
const xmlOf = (pieces: XmlPiece[]): Sample => ({ kind: 'xml', pieces });

type FieldParticle = Extract<ParticleModel, { kind: 'field' }>;
type Compositor = Extract<ParticleModel, { particles: ParticleModel[] }>;

/** A namespace declaration of an element's own namespace ('' undeclares the default one). */
const declaration = (namespace: string) => ` xmlns="${escapeXmlAttribute(namespace)}"`;
/** The namespace a made-up element of a wildcard that takes any (or any other) is in. */
const MADE_UP_NAMESPACE = 'urn:example:any';

/** A sample of a type; `path`, the classes being filled around it. */
export function sampleOf(model: SchemaModel, type: TypeRef, path: string[] = []): Sample {
  switch (type.kind) {
    case 'complex':
      return objectSample(model, complexTypeOf(model, type), path);
    case 'any':
      return xmlOf([]);
    default:
      return simpleSample(model, type);
  }
}

/**
 * Set when a required member of the sample being made could not be filled (a required wildcard whose every
 * candidate is a type being filled): an optional member whose sample is so left incomplete is left out instead.
 */
let incomplete = false;

/** A sample made on its own, and whether it was filled whole; what is incomplete around it stays as it was. */
function attempt<T>(make: () => T): { sample: T; whole: boolean } {
  const before = incomplete;
  incomplete = false;
  const sample = make();
  const whole = !incomplete;
  incomplete = before;
  return { sample, whole };
}

/** IDs given to required ID attributes of a sample, so that no two are alike. */
let ids = 0;

/** Which of XML's identity types (ID, IDREF, ENTITY and their lists) a simple type is of, if any. */
function identityKind(type: TypeRef): string | undefined {
  const builtin =
    type.kind === 'primitive' ? type.builtin : type.kind === 'list' && type.item.kind === 'primitive' ? type.item.builtin : undefined;
  return builtin === 'ID' || builtin === 'IDREF' || builtin === 'ENTITY' ? builtin : undefined;
}

/** A sample of a class (of its first concrete derived one, when it is abstract); `path`, the classes being filled around it. */
export function objectSample(model: SchemaModel, declared: ComplexTypeModel, path: string[] = []): ObjectSample {
  if (path.length === 0) {
    ids = 0; // each sample numbers its own
    incomplete = false;
  }
  // An abstract type's sample is of a concrete derived type: the first that does not require the types being filled.
  const concrete = declared.derived.map((name) => model.types.find((t) => t.name === name)!).filter((t) => !t.abstract);
  const filling = [...path, declared.name];
  const holdsNone = (t: ComplexTypeModel) =>
    !t.fields.some(
      (f) => f.minOccurs > 0 && f.type.kind === 'complex' && (filling.includes(f.type.typeName) || f.type.typeName === t.name),
    );
  const type = declared.abstract ? (concrete.find(holdsNone) ?? concrete[0] ?? declared) : declared;
  // An abstract type no concrete type derives from has no valid value: whatever holds it is incomplete.
  if (type.abstract) incomplete = true;
  const inside = [...filling, type.name];
  const attributes = type.attributes.flatMap((a): Member[] => {
    if (a.fixed !== undefined) return [{ name: a.name, value: fixedSample(model, a.type, a.fixed) }];
    const identity = identityKind(a.type);
    // A document's IDs are unique and its IDREFs name one of them: optional ones are left out, a required ID numbered.
    if (identity && !a.required) return [];
    if (identity === 'ID') return [{ name: a.name, value: text(`id${++ids}`) }];
    return [{ name: a.name, value: sampleOf(model, a.type, inside) }];
  });
  const value: Member[] = type.text ? [{ name: 'value', value: sampleOf(model, type.text, inside) }] : [];
  const fields = type.mixed ? mixedFields(model, type, inside) : elementFields(model, type, inside);
  return { kind: 'object', class: type.name, members: [...value, ...fields, ...attributes] };
}

type Member = ObjectSample['members'][number];

/** Mixed content's sample, when it is required: text, and the elements of its wildcards (an element of its own has none). */
function mixedFields(model: SchemaModel, type: ComplexTypeModel, inside: string[]): Member[] {
  const content = type.fields.find((f) => f.type.kind === 'any' && f.xmlName === '');
  if (!content || content.minOccurs === 0) return [];
  const pieces = [markup('string')];
  layOut(model, type, type.particle, inside, (place) => {
    if (place.wildcard) pieces.push(...wildcardSample(model, place, inside));
  });
  return [{ name: content.name, value: xmlOf(pieces) }];
}

/** The members' samples, in content-model order: each filled once (as an array when it repeats), a choice's first branch that can be filled. */
function elementFields(model: SchemaModel, type: ComplexTypeModel, inside: string[]): Member[] {
  const values = new Map<string, Sample>();
  const xml = new Map<string, XmlPiece[]>();
  const fieldOf = (name: string) => type.fields.find((f) => f.name === name)!;
  // `branch`: within the branch a choice took, where what the particle requires is required (the fields of a choice's
  // members are optional in the model, as no one branch is required).
  const visit = (particle: ParticleModel, branch = false) => {
    const required = branch && (particle.kind === 'field' ? (particle.occurs?.min ?? 1) : particle.minOccurs) > 0;
    if (particle.kind === 'choice') {
      const taken = fillable(model, type, particle, inside);
      if (taken) visit(taken, true);
    } else if (particle.kind !== 'field') for (const p of particle.particles) visit(p, required);
    else {
      const declared = fieldOf(particle.field);
      const f = required && declared.minOccurs === 0 ? { ...declared, minOccurs: 1 } : declared;
      if (f.type.kind === 'any' && f.xmlName === '') {
        // A wildcard's place: several may share the field.
        const pieces = wildcardSample(model, particle, inside);
        if (pieces.length) xml.set(f.name, [...(xml.get(f.name) ?? []), ...pieces]);
        else if ((particle.occurs?.min ?? 1) > 0 && f.minOccurs > 0) incomplete = true;
      } else {
        const value = fieldSample(model, f, inside);
        if (value !== undefined) values.set(f.name, value);
        else if (f.minOccurs > 0 && f.maxOccurs !== 0) incomplete = true;
      }
    }
  };
  visit(type.particle);
  return type.fields.flatMap((f): Member[] => {
    const pieces = xml.get(f.name);
    if (pieces) {
      // One field's XML, or each piece an item of its array.
      const value: Sample = f.maxOccurs === 1 ? xmlOf(pieces) : { kind: 'array', items: pieces.map((piece) => xmlOf([piece])) };
      return [{ name: f.name, value }];
    }
    const value = values.get(f.name);
    return value === undefined ? [] : [{ name: f.name, value }];
  });
}

/**
 * A field's sample, undefined when it is left out: a type already being filled is left out there, and so is an
 * optional member deep down; a required one that would recur is an empty array when it repeats, nil when nillable
 * (a schema with no finite instance is rare).
 */
function fieldSample(model: SchemaModel, f: FieldModel, inside: string[]): Sample | undefined {
  if (f.maxOccurs === 0) return undefined;
  const recursive = f.type.kind === 'complex' && inside.includes(f.type.typeName);
  const repeated = f.maxOccurs === 'unbounded' || f.maxOccurs > 1;
  if (f.type.kind === 'complex' && f.minOccurs === 0 && (recursive || inside.length > 8)) return undefined;
  if (recursive) return repeated ? { kind: 'array', items: [] } : f.nillable ? { kind: 'nil' } : undefined;
  if (f.type.kind === 'complex' && f.inline) {
    const items = complexTypeOf(model, f.type);
    if (items.order) return { kind: 'array', items: orderedItems(model, items, items.order, inside) };
  }
  let sample: Sample;
  if (f.type.kind === 'any') {
    // An element of anyType: its value is the whole element, with text for content.
    if (f.minOccurs === 0) return undefined;
    sample = xmlOf([markup(`<${f.xmlName}${declaration(f.namespace)}>string</${f.xmlName}>`)]);
  } else if (f.fixed !== undefined) sample = fixedSample(model, f.type, f.fixed);
  else {
    const made = attempt(() => sampleOf(model, f.type, inside));
    // An optional member that could not be filled whole is left out; a required one leaves its owner incomplete.
    if (!made.whole && f.minOccurs === 0) return undefined;
    if (!made.whole) incomplete = true;
    sample = made.sample;
  }
  return repeated ? { kind: 'array', items: Array<Sample>(Math.max(1, f.minOccurs)).fill(sample) } : sample;
}

/**
 * The items of an ordered content (an `items` field's class), in the order its content model lays them out, one
 * member set in each.
 */
function orderedItems(model: SchemaModel, item: ComplexTypeModel, order: ParticleModel, inside: string[]): ObjectSample[] {
  const within = [...inside, item.name];
  const items: ObjectSample[] = [];
  const itemOf = (name: string, value: Sample): ObjectSample => ({ kind: 'object', class: item.name, members: [{ name, value }] });
  layOut(model, item, order, within, (place) => {
    const f = item.fields.find((m) => m.name === place.field)!;
    if (place.wildcard) {
      for (const piece of wildcardSample(model, place, within)) items.push(itemOf(f.name, xmlOf([piece])));
      return;
    }
    const value = fieldSample(model, { ...f, minOccurs: 1, maxOccurs: 1 }, within);
    if (value !== undefined) for (let k = 0; k < Math.max(1, place.occurs?.min ?? 1); k++) items.push(itemOf(f.name, value));
  });
  return items;
}

/**
 * Walks a content model as written, as a sample lays it out: each compositor as often as its minOccurs asks (once at
 * least), a choice's first branch that can be filled, each place handed to `place` (which writes it as often as asked).
 */
function layOut(
  model: SchemaModel,
  type: ComplexTypeModel,
  particle: ParticleModel,
  inside: string[],
  place: (p: FieldParticle) => void,
): void {
  if (particle.kind === 'field') {
    place(particle);
    return;
  }
  for (let k = 0; k < Math.max(1, particle.minOccurs); k++) {
    if (particle.kind !== 'choice') for (const p of particle.particles) layOut(model, type, p, inside, place);
    else {
      const branch = fillable(model, type, particle, inside);
      if (branch) layOut(model, type, branch, inside, place);
    }
  }
}

/** A type a sample can hold a value of: not abstract, or with a derived type that is not. */
function instantiable(model: SchemaModel, type: ComplexTypeModel): boolean {
  return !type.abstract || type.derived.some((name) => !model.types.find((t) => t.name === name)?.abstract);
}

/** A choice's first branch whose required members can be filled (no type being filled again, no wildcard without an element). */
function fillable(model: SchemaModel, type: ComplexTypeModel, choice: Compositor, inside: string[]): ParticleModel | undefined {
  const can = (particle: ParticleModel): boolean => {
    if (particle.kind === 'choice') return particle.particles.some(can);
    if (particle.kind !== 'field') return particle.particles.every(can);
    if (particle.wildcard) return (particle.occurs?.min ?? 1) === 0 || wildcardSample(model, particle, inside).length > 0;
    const f = type.fields.find((m) => m.name === particle.field);
    // An element of mixed content, which the model does not describe: only when it may be left out.
    if (f && f.type.kind === 'any' && f.xmlName === '') return (particle.occurs?.min ?? 0) === 0;
    if (f && f.type.kind === 'complex' && !instantiable(model, complexTypeOf(model, f.type))) return false;
    return !(f && f.minOccurs > 0 && f.type.kind === 'complex' && inside.includes(f.type.typeName));
  };
  return choice.particles.find(can) ?? choice.particles[0];
}

/**
 * The elements a wildcard's place holds in a sample, each a piece of XML: as many as its minOccurs
 * asks (none when 0) of a global element of a namespace it takes, else (lax or skip) of an element no declaration
 * names; none for a strict one of a namespace that declares no element the sample can fill.
 */
function wildcardSample(model: SchemaModel, place: FieldParticle, inside: string[]): XmlPiece[] {
  const { wildcard } = place;
  const count = place.occurs?.min ?? 1;
  if (!wildcard || count === 0) return [];
  const allowed = wildcard.namespaces;
  const takes = (namespace: string) => ('only' in allowed ? allowed.only.includes(namespace) : !allowed.but.includes(namespace));
  const candidates = model.elements.filter((e) => !e.abstract && takes(e.namespace));
  // An element of a simple type first; else the first of a complex type whose class's sample can be made.
  const declared =
    firstOf(candidates, (e) => elementText(model, e)) ??
    (inside.length <= 8 ? firstOf(candidates, (e) => elementObject(model, e, inside)) : undefined);
  if (declared !== undefined) return Array<XmlPiece>(count).fill(declared);
  if (wildcard.processContents === 'strict') return [];
  const namespace =
    'only' in allowed ? allowed.only[0] : [MADE_UP_NAMESPACE, `${MADE_UP_NAMESPACE}:1`].find((ns) => !allowed.but.includes(ns))!;
  const name = ['sample', 'sample1', 'sample2'].find((n) => !model.elements.some((e) => e.namespace === namespace && e.name === n))!;
  return Array<XmlPiece>(count).fill(markup(`<${name}${declaration(namespace)}/>`));
}

/** The first result that is not undefined, made in turn (the later ones are never made). */
function firstOf<T, R>(list: T[], make: (item: T) => R | undefined): R | undefined {
  for (const item of list) {
    const made = make(item);
    if (made !== undefined) return made;
  }
  return undefined;
}

/** A global element of a simple type (or anyType) as XML text: its sample value, or empty when it has a default (or fixed) value. */
function elementText(model: SchemaModel, e: ElementModel): XmlPiece | undefined {
  const open = `<${e.name}${declaration(e.namespace)}`;
  if (e.default !== undefined && e.type.kind !== 'complex' && e.type.kind !== 'any') return markup(`${open}/>`);
  const content = e.type.kind === 'any' ? 'string' : sampleText(model, e.type);
  return content === undefined ? undefined : markup(`${open}>${escapeXmlText(content)}</${e.name}>`);
}

/** A global element of a complex type (not one being filled, not abstract) as XML: its class's sample, written. */
function elementObject(model: SchemaModel, e: ElementModel, inside: string[]): XmlPiece | undefined {
  if (e.type.kind !== 'complex' || inside.includes(e.type.typeName)) return undefined;
  const type = complexTypeOf(model, e.type);
  if (type.abstract) return undefined;
  // A contract written with prefixes declares them all at the root; one without writes every element in the target
  // namespace as the default one, which the element declares.
  if (!model.prefixes && e.namespace !== model.authoredNamespace) return undefined;
  // A candidate whose sample cannot be filled whole is passed over.
  const made = attempt(() => objectSample(model, type, inside));
  if (!made.whole) return undefined;
  const attributes = type.attributes.length > 0 || type.anyAttribute === true;
  return { kind: 'element', name: e.name, namespace: e.namespace, value: made.sample, attributes };
}

/** A fixed value, read from its text as a value of its type. */
function fixedSample(model: SchemaModel, type: TypeRef, fixed: string): Sample {
  return type.kind === 'complex' || type.kind === 'any' ? sampleOf(model, type) : { kind: 'lexical', type, text: fixed };
}
