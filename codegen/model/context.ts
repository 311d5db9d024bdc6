/**
 * What the passes of build.ts share while they make the model from what
 * read/ found: the facts, the names claimed so far, and the classes made (or
 * waiting to be made) for the complex types the operations reach.
 */
import type { QName, XsdComplexType, XsdElement, XsdFacts, XsdSimpleType } from '../read/xsd';
import { qnameKey } from '../read/xsd';
import type { ComplexTypeModel, EnumModel, FieldModel, ParticleModel } from './model';
import { NameRegistry } from './names';

export interface ModelContext {
  readonly xsd: XsdFacts;
  /** The contract's target namespace: the classes synthesized for messages and groups are in it. */
  readonly tns: string;
  /** TypeScript names of classes, enumerations and their companions, each claimed once. */
  readonly names: NameRegistry;
  /** The class name of each complex type (named ones first, so that they keep their names). */
  readonly complexNames: Map<XsdComplexType, string>;
  /** The name of each enumeration's union type. */
  readonly enumNames: Map<XsdSimpleType, string>;
  /** The classes made, by the complex type they model. */
  readonly types: Map<XsdComplexType, ComplexTypeModel>;
  /** Classes of no schema type: a message's parts, an rpc wrapper, a repeated group's item. */
  readonly synthesized: ComplexTypeModel[];
  readonly enums: Map<string, EnumModel>;
  /** Complex types reached whose classes are still to be made (classes.ts drains it). */
  readonly pending: XsdComplexType[];
  /** The types whose classes are being made: a derivation that comes back to one derives from itself. */
  readonly building: Set<XsdComplexType>;
  /** A particle names its field; the field's name may change (uniqueMembers), so each particle keeps its field. */
  readonly particleFields: Map<ParticleModel, FieldModel>;
  /** A bare schema set's (XSD mode): a union's value is its member type's, discriminated (type-refs.ts). */
  discriminateUnions?: boolean;
}

export function createContext(xsd: XsdFacts, tns: string, reserved: Iterable<string> = []): ModelContext {
  const context: ModelContext = {
    xsd,
    tns,
    names: new NameRegistry(reserved),
    complexNames: new Map(),
    enumNames: new Map(),
    types: new Map(),
    synthesized: [],
    enums: new Map(),
    pending: [],
    building: new Set(),
    particleFields: new Map(),
  };
  return context;
}

export const complexByKey = (context: ModelContext, q: QName) => context.xsd.complexTypes.get(qnameKey(q));
export const simpleByKey = (context: ModelContext, q: QName) => context.xsd.simpleTypes.get(qnameKey(q));

/** A global element a part, header, fault or reference names: refused when no schema declares it. */
export function elementByKey(context: ModelContext, q: QName, user: string): XsdElement {
  const found = context.xsd.elements.get(qnameKey(q));
  if (!found)
    throw new Error(`codegen: ${user} names element ${q.name}${q.namespace ? ` of ${q.namespace}` : ''}, which no schema declares`);
  return found;
}
