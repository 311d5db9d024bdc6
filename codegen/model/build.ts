/**
 * The model, made from what read/ found by passes over plain data, in the order listed here (the one list of
 * them): each pass is a function of one job, in a module of this folder named after it, and hands its result to the
 * next. The reach, derivation and global-element passes make classes; they share context.ts's state (the names
 * claimed, the classes made), which the passes after them no longer change. A contract whose parts disagree is
 * refused; what cannot be modelled of it is skipped with a `codegen: warning:` line.
 */
import type { ContractFacts } from '../read/contract';
import type { SchemaSetFacts } from '../read/schemas';
import { createContext, type ModelContext } from './context';
import { simpleRef } from './type-refs';
import { derivedTypes } from './derivations';
import { globalElements } from './elements';
import { checkIdentifiers } from './identifiers';
import { field } from './content';
import type { ComplexTypeModel, ElementModel, ParticleModel, SchemaModel, ServiceModel, TypeRef } from './model';
import { identifier, sortByName } from './names';
import { attachEncodings, encodedTypesOf } from './encoding';
import { modelOperations } from './operations';
import { attachPolicies } from './policies';
import { unionsForDerivedTypes } from './polymorphism';
import { choosePrefixes, schemaSetPrefixes } from './prefixes';
import { reachEverything } from './reach';
import { requestElementsOf } from './request-schemas';
import { expandSubstitutionGroups } from './substitution-groups';
import { claimTypeNames } from './type-names';

export function buildContractModel({ wsdl, xsd }: ContractFacts, warn: (line: string) => void = () => {}): ServiceModel {
  const tns = wsdl.targetNamespace;
  // 1. A reference to a substitution group's head is a choice of its members.
  const context = createContext(expandSubstitutionGroups(xsd), tns);
  // 2. Named types claim their names first, in document order; anonymous ones take what is left.
  claimTypeNames(context);
  // 3. The operations' messages, headers, faults and HTTP answers reach the types that get classes.
  const operations = modelOperations(context, wsdl.operations, warn);
  // 4. The types derived from a reached type stand in for it (xsi:type): they are reached too, and each class lists them.
  const all = derivedTypes(context);
  // 5. Every member name is an identifier.
  checkIdentifiers(all);
  // 6. The prefixes elements are written with, and 7. the requests that get a small schema of their own.
  const prefixes = choosePrefixes(tns, context.xsd.namespaces, all, operations);
  const requestElements = requestElementsOf(tns, all, operations);
  // 8. The global elements whose types are simple or have classes (before the enumerations: they may name one).
  const elements = globalElements(context, new Set(all.map((t) => t.name)), warn);
  // 9. A reference to a type with derived types holds any of them.
  unionsForDerivedTypes(all, elements, operations);
  // 10. What each SOAP binding's WS-Policy asks of each operation, and its WS-Addressing actions.
  attachPolicies(operations, wsdl, warn);
  // 11. What SOAP encoding writes of each rpc/encoded operation, and of each type it reaches.
  attachEncodings(operations, wsdl.operations);
  const encodedTypes = encodedTypesOf(all, operations);
  const paths = [...new Set(wsdl.ports.map((p) => p.path))];
  return {
    service: identifier(wsdl.service),
    authoredNamespace: tns,
    endpointPath: paths[0],
    endpointPaths: paths,
    prefixes,
    elements,
    types: sortByName(all),
    enums: sortByName([...context.enums.values()]),
    operations,
    ports: wsdl.ports,
    requestElements,
    ...(Object.keys(encodedTypes).length ? { encodedTypes } : {}),
    ...(wsdl.choice ? { choice: wsdl.choice } : {}),
  };
}

/**
 * The model of a bare schema set (`--xsd`): every global complex type and
 * element of every namespace gets its class (named types first, in document
 * order), every element a reader and a writer; elements are written with a
 * prefix for each namespace.
 */
export function buildSchemaModel({ xsd, targetNamespace }: SchemaSetFacts): SchemaModel {
  const context = createContext(expandSubstitutionGroups(xsd), targetNamespace);
  context.discriminateUnions = true;
  claimTypeNames(context);
  const elements = reachEverything(context);
  const all = derivedTypes(context);
  unionsForDerivedTypes(all, elements, []);
  checkIdentifiers(all);
  keepSimpleXsiTypes(elements, all);
  readLax(elements, all);
  const rootTypes = rootTypesOf(context, all);
  return {
    authoredNamespace: targetNamespace,
    prefixes: schemaSetPrefixes(targetNamespace, context.xsd.namespaces, elements, all),
    elements,
    types: sortByName(all),
    enums: sortByName([...context.enums.values()]),
    operations: [],
    ...(rootTypes.length ? { rootTypes } : {}),
  };
}

/** The global types a root may name with xsi:type where no element declares it: the named complex types' classes, the simple types. */
function rootTypesOf(context: ModelContext, types: ComplexTypeModel[]): NonNullable<SchemaModel['rootTypes']> {
  const found: NonNullable<SchemaModel['rootTypes']> = [];
  for (const t of types)
    if (!t.anonymous && !t.abstract && !t.group && !t.message)
      found.push({ name: t.xmlName, namespace: t.namespace, type: { kind: 'complex', typeName: t.name, tsType: t.name } });
  for (const simple of context.xsd.simpleTypes.values()) {
    if (simple.name === undefined) continue;
    try {
      found.push({ name: simple.name, namespace: simple.namespace, type: simpleRef(context, simple, simple.name) });
    } catch {
      // A simple type codegen cannot read (it says so where an element uses it) is no root's.
    }
  }
  return found;
}

/** An element of anyType, read lax: the runtime's AnyType. */
const laxAnyType = (): TypeRef => ({ kind: 'any', tsType: 'AnyType', lax: true });

/**
 * In a bare schema set, each element of anyType (a global one, a field) is read lax into the runtime's AnyType: its
 * text, the elements global declarations describe read into their types, the others kept as XML; and a wildcard's
 * field is an array of WildcardElement, each element a strict or lax wildcard matches read into its declaration's
 * type in the same way (a skip wildcard's kept). Mixed content stays XML. A contract's (WSDL mode) anyType and
 * wildcards stay XmlFragment, as their JSON and OpenAPI forms write them.
 */
function readLax(elements: ElementModel[], types: ComplexTypeModel[]): void {
  // xsi:nil and xsi:type stay on the value as attributes (a nil one is an AnyType of no content): nothing is null.
  for (const element of elements)
    if (element.type.kind === 'any') {
      element.type = laxAnyType();
      element.nillable = false;
    }
  for (const type of types) {
    const skipOnly = skipWildcards(type.particle);
    type.fields = type.fields.map((f) => {
      if (f.inline || f.type.kind !== 'any') return f;
      if (f.xmlName === '') {
        // A wildcard's field (not mixed content's): its elements one by one, read lax unless every wildcard of it skips.
        if (type.mixed) return f;
        const wildcard = skipOnly.get(f.name) === false ? 'lax' : 'skip';
        return { ...f, type: { kind: 'any', tsType: 'WildcardElement', wildcard }, tsType: 'WildcardElement[]' };
      }
      return {
        ...f,
        type: laxAnyType(),
        nillable: false,
        tsType: field(f.name, f.xmlName, f.namespace, laxAnyType(), f.minOccurs, f.maxOccurs, false).tsType,
      };
    });
  }
}

/** For each wildcard field of a content model: whether every wildcard whose elements it holds is a skip one. */
function skipWildcards(particle: ParticleModel, into = new Map<string, boolean>()): Map<string, boolean> {
  if (particle.kind === 'field') {
    if (particle.wildcard) into.set(particle.field, (into.get(particle.field) ?? true) && particle.wildcard.processContents === 'skip');
  } else for (const p of particle.particles) skipWildcards(p, into);
  return into;
}

/**
 * In a bare schema set, an element of a simple type may name another simple type with xsi:type (one derived from
 * its own, or any where anySimpleType is declared): each such element and field keeps it on its value (XsiTypedRef).
 * A contract's (WSDL mode) values stay as they are.
 */
function keepSimpleXsiTypes(elements: ElementModel[], types: ComplexTypeModel[]): void {
  const typed = (ref: TypeRef): TypeRef =>
    ref.kind === 'complex' || ref.kind === 'any'
      ? ref
      : Object.assign({}, ref, {
          xsiTyped: true as const,
          tsType: `${ref.tsType.includes('|') ? `(${ref.tsType})` : ref.tsType} | XsiTyped<${ref.tsType}>`,
        });
  for (const element of elements) element.type = typed(element.type);
  for (const type of types)
    type.fields = type.fields.map((f) =>
      f.inline || f.xmlName === '' || f.type.kind === 'complex' || f.type.kind === 'any'
        ? f
        : (() => {
            const type = typed(f.type);
            return { ...f, type, tsType: field(f.name, f.xmlName, f.namespace, type, f.minOccurs, f.maxOccurs, f.nillable).tsType };
          })(),
    );
}
