/**
 * Redefinitions (xs:redefine): a redefined component takes its name, and the original it redefines takes the
 * ORIGINAL key, by which the redefinition refers to it (scope.ts's `original`).
 */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, optionalAttr } from '../documents';
import { qnameKey, type SchemaSource } from './facts';
import { checkUnderstood, ORIGINAL, type RedefinedKind, redefinedKey, type SchemaScope, type Understood } from './scope';

const REDEFINE: Understood = {
  attributes: ['schemaLocation'],
  children: ['simpleType', 'complexType', 'group', 'attributeGroup'],
  reads: 'the simple and complex types, groups and attribute groups it redefines',
};

const kindOf = (node: XmlElement): RedefinedKind => (node.name === 'group' || node.name === 'attributeGroup' ? node.name : 'type');

/** What the redefines of every schema of the set redefine, by kind and key (redefinedKey). */
export function redefinedComponents(sources: readonly SchemaSource[]): Set<string> {
  const redefined = new Set<string>();
  for (const { schema, chameleon } of sources) {
    const namespace = optionalAttr(schema, 'targetNamespace') ?? chameleon ?? '';
    for (const node of findAll(
      schema,
      's:redefine/s:complexType | s:redefine/s:simpleType | s:redefine/s:group | s:redefine/s:attributeGroup',
    )) {
      redefined.add(redefinedKey(kindOf(node), qnameKey({ namespace, name: attr(node, 'name') })));
    }
  }
  return redefined;
}

/** The key of a global declaration: an original that a redefine replaces takes its ORIGINAL key. */
export function declaredKey(redefined: ReadonlySet<string>, kind: RedefinedKind, node: XmlElement, namespace: string): string {
  const key = qnameKey({ namespace, name: attr(node, 'name') });
  const inRedefine = node.parent?.name === 'redefine';
  return !inRedefine && redefined.has(redefinedKey(kind, key)) ? `${key}${ORIGINAL}` : key;
}

/** The name a global type is read under: the original of a redefined one is named by its ORIGINAL key. */
export function declaredName(scope: SchemaScope, node: XmlElement): { key: string; name: string } {
  const name = attr(node, 'name');
  const key = declaredKey(scope.set.redefined, 'type', node, scope.namespace);
  return { key, name: key.endsWith(ORIGINAL) ? `${name}${ORIGINAL}` : name };
}

export function checkRedefines(scope: SchemaScope): void {
  for (const redefine of findAll(scope.schema, 's:redefine')) checkUnderstood(redefine, 'the redefine', REDEFINE, scope.refuse);
}
