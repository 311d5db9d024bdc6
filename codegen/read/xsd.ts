/**
 * The facts of a schema set (every global declaration of every namespace) and their reader. Each construct is read
 * by its module of read/xsd/, a function of the schema's scope (scope.ts) and the node it reads.
 */
import { attr, findAll } from './documents';
import { complexType } from './xsd/complex-type';
import { qnameKey, type SchemaSource, type XsdFacts } from './xsd/facts';
import { checkGlobalElement, globalElement } from './xsd/element';
import { checkRedefines, declaredName } from './xsd/redefine';
import { declarationScope, type SchemaScope } from './xsd/scope';
import { schemaScopes } from './xsd/set';
import { simpleType } from './xsd/simple-type';

export { STRAY_TYPE_ATTRIBUTES } from './xsd/complex-type';
export { qnameKey } from './xsd/facts';
export type {
  QName,
  XsdTypeUse,
  XsdElement,
  XsdLocalElement,
  Occurs,
  XsdNamespaceConstraint,
  XsdParticle,
  XsdAttribute,
  XsdComplexType,
  XsdSimpleType,
  XsdFacts,
  SchemaSource,
  LoadedSchema,
} from './xsd/facts';

/**
 * Reads the global declarations of the contract's schemas (every schema,
 * of every namespace): elements, complex and simple types, with groups and
 * attribute groups expanded in place, substitution groups (each element's
 * head: model/substitution-groups.ts expands them) and redefinitions. What changes the wire and is not read is
 * refused with one line naming its file and line; what does not
 * (annotations, identity constraints, extension attributes) is read past.
 */
export function readXsd(sources: SchemaSource[], options: { soapEncoding?: boolean } = {}): XsdFacts {
  const facts: XsdFacts = { elements: new Map(), complexTypes: new Map(), simpleTypes: new Map(), namespaces: [] };
  for (const scope of schemaScopes(sources, options)) readDeclarations(scope, facts);
  return facts;
}

/** A schema's global elements and types, into the facts: the first declaration of a name is the one read. */
function readDeclarations(scope: SchemaScope, facts: XsdFacts): void {
  const { schema, namespace } = scope;
  if (!facts.namespaces.includes(namespace) && findAll(schema, 's:element | s:complexType | s:simpleType').length > 0) {
    facts.namespaces.push(namespace);
  }
  checkRedefines(scope);
  // A redefinition first, so that it keeps its name; the original it redefines takes the ORIGINAL key.
  for (const node of findAll(schema, 's:redefine/s:complexType | s:redefine/s:simpleType | s:element | s:complexType | s:simpleType')) {
    if (node.name === 'element') {
      checkGlobalElement(scope, node);
      const key = qnameKey({ namespace, name: attr(node, 'name') });
      if (!facts.elements.has(key)) facts.elements.set(key, globalElement(scope, node));
      continue;
    }
    const { key, name } = declaredName(scope, node);
    const inScope = declarationScope(scope, 'type', node);
    if (node.name === 'complexType') {
      if (!facts.complexTypes.has(key)) facts.complexTypes.set(key, complexType(inScope, node, name, name));
    } else if (!facts.simpleTypes.has(key)) facts.simpleTypes.set(key, simpleType(inScope, node, name));
  }
}
