/**
 * Derived types stand in for their base (xsi:type): a type derived from a
 * reached one is reached too, and each class lists the classes derived from
 * it, nearest first.
 */
import { drain } from './classes';
import { complexByKey, type ModelContext } from './context';
import type { ComplexTypeModel } from './model';
import { complexRef } from './type-refs';

/** Every class made, the types derived from reached ones included, each base listing its derived classes. */
export function derivedTypes(context: ModelContext): ComplexTypeModel[] {
  reachDerivedTypes(context);
  return linkDerivations(context);
}

/** Reaches every type derived from a reached one, until no more are found, and makes their classes. */
function reachDerivedTypes(context: ModelContext): void {
  for (let grew = true; grew; ) {
    grew = false;
    drain(context);
    const reached = new Set(context.types.keys());
    for (const candidate of context.xsd.complexTypes.values()) {
      if (context.types.has(candidate) || !candidate.base) continue;
      const base = complexByKey(context, candidate.base);
      if (base && reached.has(base)) {
        complexRef(context, candidate, candidate.name!);
        grew = true;
      }
    }
  }
  drain(context);
}

/** Every class made, each base listing the classes derived from it (its bases' too). */
function linkDerivations(context: ModelContext): ComplexTypeModel[] {
  const all = [...context.types.values(), ...context.synthesized];
  const byName = new Map(all.map((t) => [t.name, t]));
  for (const type of all) {
    for (let base = type.base; base; base = byName.get(base)?.base) byName.get(base)?.derived.push(type.name);
  }
  return all;
}
