/** Global elements: a type or an anonymous type, nillable, abstract, a value, and the substitution group they are a member of. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, optionalAttr } from '../documents';
import type { XsdElement } from './facts';
import { declaredType } from './complex-type';
import { at, checkUnderstood, flag, qnameOf, type SchemaScope, type Understood } from './scope';

const GLOBAL_ELEMENT: Understood = {
  attributes: ['name', 'type', 'nillable', 'abstract', 'block', 'final', 'default', 'fixed', 'substitutionGroup'],
  children: ['complexType', 'simpleType', 'key', 'keyref', 'unique'],
  reads: 'a type or an anonymous type, nillable, abstract, default, fixed and substitutionGroup',
};

/** Checks a global element's attributes and children: a second declaration of its name is checked, then read past. */
export function checkGlobalElement(scope: SchemaScope, node: XmlElement): void {
  checkUnderstood(node, `element ${attr(node, 'name')}`, GLOBAL_ELEMENT, scope.refuse);
}

/** A global element, checked first (checkGlobalElement). */
export function globalElement(scope: SchemaScope, node: XmlElement): XsdElement {
  const name = attr(node, 'name');
  const where = `element ${name}`;
  const fixed = optionalAttr(node, 'fixed');
  const value = optionalAttr(node, 'default');
  const head = optionalAttr(node, 'substitutionGroup');
  return {
    name,
    namespace: scope.namespace,
    type: declaredType(scope, node, where, name),
    nillable: flag(scope, node, 'nillable', where),
    abstract: flag(scope, node, 'abstract', where),
    ...(fixed !== undefined ? { fixed } : {}),
    ...(value !== undefined ? { default: value } : {}),
    ...(head !== undefined ? { substitutionGroup: qnameOf(scope, node, head, where) } : {}),
    at: at(scope, node),
  };
}
