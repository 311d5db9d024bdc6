/**
 * The contract model, made from what read/ found by small passes over plain
 * data, in this order; each pass is a module of this folder named after its
 * job. The model holds every fact the emitters need, derived once, and a
 * contract whose parts disagree is refused.
 */
import type { ContractFacts } from '../read/contract';
import type { SchemaSetFacts } from '../read/schemas';
import { createContext } from './context';
import { linkDerivations, reachDerivedTypes } from './derivations';
import type { SchemaModel, ServiceModel } from './model';
import { complexRef } from './type-refs';
import { identifier, identifierCheck, sortByName } from './names';
import { modelOperations, toElementModel } from './operations';
import { unionsForDerivedTypes } from './polymorphism';
import { choosePrefixes } from './prefixes';
import { requestElementsOf } from './request-schemas';

export function buildContractModel({ wsdl, xsd }: ContractFacts, warn: (line: string) => void = () => {}): ServiceModel {
  const tns = wsdl.targetNamespace;
  const context = createContext(xsd, tns);
  // 1. Named types claim their names first, in document order; anonymous ones take what is left.
  for (const type of xsd.complexTypes.values()) context.complexNames.set(type, context.names.claim(type.name!));
  // 2. The operations' messages, headers, faults and HTTP answers reach the types that get classes.
  const operations = modelOperations(context, wsdl.operations, warn);
  // 3. The types derived from a reached type stand in for it (xsi:type): they are reached too.
  reachDerivedTypes(context);
  // 4. Each class lists the classes derived from it.
  const all = linkDerivations(context);
  // 5. A reference to a type with derived types holds any of them; every member name is an identifier.
  unionsForDerivedTypes(all, [], operations);
  for (const type of all) {
    for (const name of [...type.fields.map((f) => f.name), ...type.attributes.map((a) => a.name)]) identifierCheck(name, type.name);
  }
  // 6. The prefixes elements are written with, and 7. the small schemas requests are validated against.
  const prefixes = choosePrefixes(tns, xsd.namespaces, all, operations);
  const requestElements = requestElementsOf(tns, all, operations);
  const classes = new Set(all.map((t) => t.name));
  // 8. The global elements whose types are simple or have classes (before the enumerations: they may name one).
  const elements = [...xsd.elements.values()]
    .flatMap((e) => {
      try {
        return [toElementModel(context, e)];
      } catch {
        return [];
      }
    })
    .filter((e) => e.type.kind !== 'complex' || classes.has(e.type.typeName));
  unionsForDerivedTypes(all, elements, []);
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
  const context = createContext(xsd, targetNamespace);
  for (const type of xsd.complexTypes.values()) context.complexNames.set(type, context.names.claim(type.name!));
  for (const type of xsd.complexTypes.values()) complexRef(context, type, type.name!);
  const elements = [...xsd.elements.values()].map((e) => toElementModel(context, e));
  reachDerivedTypes(context);
  const all = linkDerivations(context);
  unionsForDerivedTypes(all, elements, []);
  for (const type of all) {
    for (const name of [...type.fields.map((f) => f.name), ...type.attributes.map((a) => a.name)]) identifierCheck(name, type.name);
  }
  // Every namespace an element, attribute or type (named by xsi:type) of the set is in.
  const used = [
    ...elements.map((e) => e.namespace),
    ...all.flatMap((t) => [t.namespace, ...t.fields.map((f) => f.namespace), ...t.attributes.map((a) => a.namespace)]),
  ];
  const namespaces = [...new Set([targetNamespace, ...xsd.namespaces, ...used])].filter(
    (ns) => ns !== '' && ns !== 'http://www.w3.org/XML/1998/namespace',
  );
  return {
    authoredNamespace: targetNamespace,
    prefixes: namespaces.length
      ? Object.fromEntries(namespaces.map((ns, i) => [ns, i === 0 && ns === targetNamespace ? 'tns' : `ns${i}`]))
      : undefined,
    elements,
    types: sortByName(all),
    enums: sortByName([...context.enums.values()]),
    operations: [],
  };
}
