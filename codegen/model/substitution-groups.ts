/**
 * A reference to the head of a substitution group stands for the head (unless
 * abstract) or any member of its group, members of members too: it is modelled
 * as a choice of those elements, each a field of its own (the served schema
 * keeps the group, so libxml2 checks the members' types).
 */
import { qnameKey, type XsdComplexType, type XsdElement, type XsdFacts, type XsdParticle, type XsdTypeUse } from '../read/xsd';

/** The facts with every reference to a head expanded: the types that hold one are new objects, the others the same. */
export function expandSubstitutionGroups(facts: XsdFacts): XsdFacts {
  const members = new Map<string, XsdElement[]>();
  for (const element of facts.elements.values()) {
    if (!element.substitutionGroup) continue;
    const head = qnameKey(element.substitutionGroup);
    members.set(head, [...(members.get(head) ?? []), element]);
  }
  if (members.size === 0) return facts;
  const standIns = (head: string, seen: Set<string>): XsdElement[] =>
    (members.get(head) ?? []).flatMap((member) => {
      const key = qnameKey(member);
      if (seen.has(key)) return [];
      seen.add(key);
      return [...(member.abstract ? [] : [member]), ...standIns(key, seen)];
    });
  // Each complex type once: an anonymous one is rewritten where it is declared, and so wherever it is used.
  const rewritten = new Map<XsdComplexType, XsdComplexType>();
  const inType = (type: XsdComplexType): XsdComplexType => {
    const known = rewritten.get(type);
    if (known) return known;
    const copy: XsdComplexType = { ...type };
    rewritten.set(type, copy);
    if (type.particle) copy.particle = inParticle(type.particle);
    return copy;
  };
  const inUse = (use: XsdTypeUse): XsdTypeUse => (use.kind === 'complex' ? { kind: 'complex', type: inType(use.type) } : use);
  const inParticle = (particle: XsdParticle): XsdParticle => {
    if (particle.kind === 'any') return particle;
    if (particle.kind !== 'element') return { ...particle, particles: particle.particles.map(inParticle) };
    const { element } = particle;
    if (!element.ref || !members.has(qnameKey(element.ref))) {
      return element.type ? { ...particle, element: { ...element, type: inUse(element.type) } } : particle;
    }
    const head = facts.elements.get(qnameKey(element.ref));
    const alternatives = [...(head && !head.abstract ? [head] : []), ...standIns(qnameKey(element.ref), new Set())];
    return {
      kind: 'choice',
      min: particle.min,
      max: particle.max,
      particles: alternatives.map((alternative) => ({
        kind: 'element',
        element: {
          name: alternative.name,
          namespace: alternative.namespace,
          ref: { namespace: alternative.namespace, name: alternative.name },
          nillable: element.nillable,
          at: element.at,
        },
        min: 1,
        max: 1,
      })),
    };
  };
  const complexTypes = new Map([...facts.complexTypes].map(([key, type]) => [key, inType(type)]));
  const elements = new Map([...facts.elements].map(([key, element]) => [key, { ...element, type: inUse(element.type) }]));
  return { ...facts, complexTypes, elements };
}
