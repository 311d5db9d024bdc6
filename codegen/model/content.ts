/**
 * A content model as the class's fields: each element a field (a choice's
 * members optional), a wildcard one field of XML, and a repeated sequence or
 * choice of several elements a field of its own items (a group class), so
 * that the order between its elements is kept.
 */
import type { XsdParticle } from '../read/xsd';
import { elementByKey, type ModelContext } from './context';
import type { ComplexTypeModel, FieldModel, ParticleModel, TypeRef, WildcardModel } from './model';
import { uniqueMembers } from './names';
import { elementType, useRef, XSD } from './type-refs';

/** A field and its TypeScript type: `| null` when nillable, `[]` when repeated. */
export function field(
  wanted: string,
  xmlName: string,
  namespace: string,
  type: TypeRef,
  minOccurs: number,
  maxOccurs: number | 'unbounded',
  nillable: boolean,
): FieldModel {
  const repeated = maxOccurs === 'unbounded' || maxOccurs > 1;
  const item = nillable ? `${type.tsType} | null` : type.tsType;
  const tsType = repeated ? (nillable || type.tsType.includes('|') ? `(${item})[]` : `${item}[]`) : item;
  return { name: wanted, xmlName, namespace, type, minOccurs, maxOccurs, nillable, tsType };
}

/** Where a field stands when it is not all its own occurrences say: a wildcard's place, an ordered content's member. */
type Place = Omit<Extract<ParticleModel, { kind: 'field' }>, 'kind' | 'field'>;

/** The particle of a field, remembered so that renameParticles follows the field's final name. */
export function fieldParticle(context: ModelContext, f: FieldModel, place: Place = {}): ParticleModel {
  const made: ParticleModel = { kind: 'field', field: f.name, ...place };
  context.particleFields.set(made, f);
  return made;
}

/** A wildcard as the model keeps it. */
const wildcardOf = (particle: Extract<XsdParticle, { kind: 'any' }>): WildcardModel => ({
  namespaces: particle.namespaces,
  processContents: particle.processContents,
});

/** Each particle names its field by the field's final name (uniqueMembers may have changed it). */
export function renameParticles(context: ModelContext, particle: ParticleModel): void {
  if (particle.kind === 'field') particle.field = context.particleFields.get(particle)?.name ?? particle.field;
  else for (const p of particle.particles) renameParticles(context, p);
}

/** How often each element name occurs in a content model; undefined when it holds a wildcard (unless `pastWildcards`). */
export function elementNameCounts(
  particle: XsdParticle,
  into = new Map<string, number>(),
  pastWildcards = false,
): Map<string, number> | undefined {
  if (particle.kind === 'any') return pastWildcards ? into : undefined;
  if (particle.kind === 'element') {
    into.set(particle.element.name, (into.get(particle.element.name) ?? 0) + 1);
    return into;
  }
  for (const p of particle.particles) if (!elementNameCounts(p, into, pastWildcards)) return undefined;
  return into;
}

/**
 * How often each element name occurs in a whole content model, for its groups (flatten): its wildcards left out
 * where none takes a namespace of its elements (NewsML-G2's `##other` after repeated choices), which no element of
 * a group can then be read by; undefined when one may.
 */
export function contentNameCounts(particle: XsdParticle): Map<string, number> | undefined {
  const namespaces = new Set<string>();
  const wildcards: Extract<XsdParticle, { kind: 'any' }>[] = [];
  const walk = (p: XsdParticle): void => {
    if (p.kind === 'element') namespaces.add(p.element.ref?.namespace ?? p.element.namespace);
    else if (p.kind === 'any') wildcards.push(p);
    else for (const q of p.particles) walk(q);
  };
  walk(particle);
  const takes = (w: Extract<XsdParticle, { kind: 'any' }>, ns: string) =>
    'only' in w.namespaces ? w.namespaces.only.includes(ns) : !w.namespaces.but.includes(ns);
  if (wildcards.some((w) => [...namespaces].some((ns) => takes(w, ns)))) return undefined;
  return elementNameCounts(particle, new Map(), true);
}

const times = (a: number | 'unbounded', b: number | 'unbounded') => (a === 'unbounded' || b === 'unbounded' ? 'unbounded' : a * b);

/**
 * A particle's fields, appended to `fields`: a choice's members optional. A repeated sequence or choice of several
 * elements is a group (`groups`: the element names of the whole content model, by count): one array field of a
 * class of its own whose members are written in place, so that the order between them is kept. One inside
 * another, one holding a wildcard, or one whose element names occur elsewhere in the type is read as repeated fields.
 */
export function flatten(
  context: ModelContext,
  particle: XsdParticle,
  fields: FieldModel[],
  owner: string,
  min: number,
  max: number | 'unbounded',
  inChoice: boolean,
  groups?: Map<string, number>,
): ParticleModel {
  const pmin = min * particle.min;
  const pmax = times(max, particle.max);
  if ((particle.kind === 'sequence' || particle.kind === 'choice') && groups && particle.max !== 1 && particle.max !== 0) {
    const group = groupField(context, particle, fields, owner, groups, inChoice ? 0 : pmin, pmax);
    if (group) return group;
  }
  if (particle.kind === 'element') return elementField(context, particle, fields, owner, inChoice ? 0 : pmin, pmax);
  if (particle.kind === 'any') {
    // The wildcards of a content model share one field of XML; each place keeps its own namespaces and occurrences.
    // In a choice, the place's own minOccurs: what the branch holds when a sample takes it.
    const place: Place = { occurs: { min: inChoice ? particle.min : pmin, max: pmax }, wildcard: wildcardOf(particle) };
    const existing = fields.find((f) => f.type.kind === 'any' && f.xmlName === '');
    if (existing) return fieldParticle(context, existing, place);
    const made = field('any', '', '', { kind: 'any', tsType: 'XmlFragment' }, inChoice ? 0 : pmin, 1, false);
    fields.push(made);
    return fieldParticle(context, made, place);
  }
  const choice = particle.kind === 'choice' && particle.particles.length > 1;
  return {
    kind: particle.kind,
    minOccurs: particle.min,
    particles: particle.particles.map((p) => flatten(context, p, fields, owner, choice ? 0 : pmin, pmax, inChoice || choice, groups)),
  };
}

/** A repeated sequence or choice of several elements, alone in its type with its element names: a group field. */
function groupField(
  context: ModelContext,
  particle: Extract<XsdParticle, { particles: XsdParticle[] }>,
  fields: FieldModel[],
  owner: string,
  groups: Map<string, number>,
  min: number,
  max: number | 'unbounded',
): ParticleModel | undefined {
  const own = elementNameCounts(particle);
  const alone =
    own !== undefined &&
    [...own].every(([n, count]) => groups.get(n) === count && !fields.some((f) => f.xmlName === n)) &&
    [...own.values()].reduce((a, b) => a + b, 0) >= 2;
  if (!alone) return undefined;
  const members: FieldModel[] = [];
  const inner = flatten(context, { ...particle, min: 1, max: 1 }, members, owner, 1, 1, false);
  uniqueMembers(members, []);
  renameParticles(context, inner);
  const name = context.names.claim(`${owner}Group`);
  const group: ComplexTypeModel = {
    name,
    xmlName: name,
    namespace: members[0].namespace || context.tns,
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
  context.synthesized.push(group);
  // A group that may hold no element may be absent, however often it is required (NeTEx's sequences of optional
  // members): an element of none of its members has no item to read.
  const made = field('group', name, '', { kind: 'complex', typeName: name, tsType: name }, fewest(particle) === 0 ? 0 : min, max, false);
  made.inline = true;
  fields.push(made);
  return fieldParticle(context, made);
}

/** An element particle's field: the same element twice in one content model is one repeated field. */
function elementField(
  context: ModelContext,
  particle: Extract<XsdParticle, { kind: 'element' }>,
  fields: FieldModel[],
  owner: string,
  min: number,
  max: number | 'unbounded',
): ParticleModel {
  const local = particle.element;
  let xmlName = local.name;
  let namespace = local.namespace;
  let type: TypeRef;
  let nillable = local.nillable;
  let fixed = local.fixed;
  let value = local.default;
  if (local.ref) {
    if (local.ref.namespace === XSD) {
      // ASMX's DataSet: a ref to xs:schema, then any: both kept as XML.
      type = { kind: 'any', tsType: 'XmlFragment' };
      xmlName = '';
      namespace = '';
    } else {
      const global = elementByKey(context, local.ref, `${owner}/${local.ref.name}`);
      type = elementType(context, global);
      nillable = global.nillable || local.nillable;
      fixed ??= global.fixed;
      value ??= global.default;
      xmlName = global.name;
      namespace = global.namespace;
    }
  } else type = useRef(context, local.type!, `${owner}/${local.name}`);
  const existing = fields.find((f) => f.xmlName === xmlName && f.namespace === namespace && f.type.kind !== 'any');
  if (existing) {
    // The same element twice in one content model: one repeated field (the order between them is not kept).
    existing.maxOccurs = 'unbounded';
    existing.minOccurs = Math.min(existing.minOccurs, min);
    Object.assign(
      existing,
      field(existing.name, existing.xmlName, existing.namespace, existing.type, existing.minOccurs, 'unbounded', existing.nillable),
    );
    return fieldParticle(context, existing);
  }
  // An element of anyType is kept whole as XML, xsi:nil and all.
  const made =
    xmlName === ''
      ? field('any', '', '', type, min, max, false)
      : field(xmlName, xmlName, namespace, type, min, max, nillable && type.kind !== 'any');
  if (fixed !== undefined) made.fixed = fixed;
  // An empty element of a simple type holds its default (or fixed) value.
  if ((value ?? fixed) !== undefined && (type.kind === 'primitive' || type.kind === 'enum' || type.kind === 'list'))
    made.default = value ?? fixed;
  fields.push(made);
  // ASMX's DataSet schema: the served schema takes it as a wildcard of XML Schema's namespace, not checked (documents/schemas.ts).
  const place: Place = xmlName === '' ? { occurs: { min, max }, wildcard: { namespaces: { only: [XSD] }, processContents: 'skip' } } : {};
  return fieldParticle(context, made, place);
}

/**
 * Mixed content's model, over its one field of XML, for samples: each wildcard a place with its namespaces and
 * occurrences, each element a place of its occurrences (the element itself is not modelled).
 */
export function mixedParticle(context: ModelContext, particle: XsdParticle, content: FieldModel): ParticleModel {
  const placeOf = (p: XsdParticle): ParticleModel[] => {
    if (p.max === 0) return [];
    const occurs = { min: p.min, max: p.max };
    if (p.kind === 'any') return [fieldParticle(context, content, { occurs, wildcard: wildcardOf(p) })];
    if (p.kind === 'element') {
      const dataSet = p.element.ref?.namespace === XSD;
      return [
        fieldParticle(
          context,
          content,
          dataSet ? { occurs, wildcard: { namespaces: { only: [XSD] }, processContents: 'skip' } } : { occurs },
        ),
      ];
    }
    return [{ kind: p.kind, minOccurs: p.min, particles: p.particles.flatMap(placeOf) }];
  };
  return placeOf(particle)[0] ?? fieldParticle(context, content);
}

/** An element particle's key: its namespace and name (a reference's, the global element's). */
const leafKey = (particle: XsdParticle): string =>
  particle.kind === 'element'
    ? `{${particle.element.ref?.namespace ?? particle.element.namespace}}${particle.element.ref?.name ?? particle.element.name}`
    : '*';

const repeatsAt = (max: number | 'unbounded') => max === 'unbounded' || max > 1;

/**
 * Whether a content model's fields, each written in its place, cannot write back the order its elements came in:
 * an element in two places, a repeated compositor inside a repeated one, more than one wildcard, or a wildcard
 * repeated with elements. (A repeated sequence or choice of several elements found nowhere else is a group field.)
 */
export function needsOrderedContent(particle: XsdParticle): boolean {
  const counts = new Map<string, number>();
  const count = (p: XsdParticle) => {
    if (p.kind === 'element' || p.kind === 'any') counts.set(leafKey(p), (counts.get(leafKey(p)) ?? 0) + 1);
    else for (const inner of p.particles) count(inner);
  };
  count(particle);
  if ([...counts.values()].some((n) => n > 1)) return true;
  const leaves = (p: XsdParticle): number =>
    p.kind === 'element' || p.kind === 'any' ? 1 : p.particles.reduce((sum, q) => sum + leaves(q), 0);
  const hasWildcard = (p: XsdParticle): boolean => p.kind === 'any' || (p.kind !== 'element' && p.particles.some(hasWildcard));
  const check = (p: XsdParticle, insideRepeated: boolean): boolean => {
    if (p.kind === 'element' || p.kind === 'any') return false;
    const repeated = repeatsAt(p.max) && leaves(p) > 1;
    if (repeated && (insideRepeated || hasWildcard(p))) return true;
    return p.particles.some((q) => check(q, insideRepeated || repeated));
  };
  return check(particle, false);
}

/** The fewest elements a content model holds. */
function fewest(particle: XsdParticle): number {
  if (particle.kind === 'element' || particle.kind === 'any') return particle.min;
  const inner = particle.particles.map(fewest);
  const least = particle.kind === 'choice' ? (inner.length ? Math.min(...inner) : 0) : inner.reduce((a, b) => a + b, 0);
  return particle.min * least;
}

/**
 * A content model whose order fields cannot keep (needsOrderedContent): one array field, `items`, of a class with a
 * member for each element (and the wildcard), one member set in each item, written in place, in order.
 */
export function orderedField(context: ModelContext, particle: XsdParticle, fields: FieldModel[], owner: string): ParticleModel {
  const leaves: XsdParticle[] = [];
  const seen = new Set<string>();
  const collect = (p: XsdParticle) => {
    if (p.kind === 'element' || p.kind === 'any') {
      if (!seen.has(leafKey(p))) leaves.push({ ...p, min: 1, max: 1 } as XsdParticle);
      seen.add(leafKey(p));
    } else for (const q of p.particles) collect(q);
  };
  collect(particle);
  const members: FieldModel[] = [];
  const inner = flatten(context, { kind: 'choice', particles: leaves, min: 1, max: 1 }, members, owner, 1, 1, false);
  // The content model as written, each leaf the member of its key, with its occurrences there (none: left out).
  const memberOf = new Map(
    leaves.map((leaf, i) => [leafKey(leaf), (inner as Extract<ParticleModel, { particles: ParticleModel[] }>).particles[i]]),
  );
  const orderOf = (p: XsdParticle): ParticleModel[] => {
    if (p.max === 0) return [];
    if (p.kind === 'element' || p.kind === 'any') {
      const leaf = memberOf.get(leafKey(p)) as Extract<ParticleModel, { kind: 'field' }>;
      const wildcard = p.kind === 'any' ? wildcardOf(p) : leaf.wildcard;
      return [
        fieldParticle(context, context.particleFields.get(leaf)!, {
          occurs: { min: p.min, max: p.max },
          ...(wildcard ? { wildcard } : {}),
        }),
      ];
    }
    return [{ kind: p.kind, minOccurs: p.min, particles: p.particles.flatMap(orderOf) }];
  };
  const [order] = orderOf(particle);
  uniqueMembers(members, []);
  renameParticles(context, inner);
  if (order) renameParticles(context, order);
  const name = context.names.claim(`${owner}Item`);
  const group: ComplexTypeModel = {
    name,
    xmlName: name,
    namespace: members.find((m) => m.namespace)?.namespace || context.tns,
    anonymous: true,
    group: true,
    fieldsInterface: `${name}Fields`,
    derived: [],
    abstract: false,
    fields: members,
    attributes: [],
    particle: inner,
    ...(order ? { order } : {}),
    arrayWrapper: false,
  };
  context.synthesized.push(group);
  const made = field(
    'items',
    name,
    '',
    { kind: 'complex', typeName: name, tsType: name },
    fewest(particle) > 0 ? 1 : 0,
    'unbounded',
    false,
  );
  made.inline = true;
  fields.push(made);
  return fieldParticle(context, made);
}
