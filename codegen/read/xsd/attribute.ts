/** Attributes: declared in place, referenced (a global attribute, or one of the XML namespace), and attribute groups expanded. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, optionalAttr, XML_NAMESPACE, type Refuse } from '../documents';
import { qnameKey, type XsdAttribute, type XsdTypeUse } from './facts';
import { at, checkUnderstood, declarationScope, homeScope, original, qnameOf, type SchemaScope, typeUse, type Understood } from './scope';
import { simpleType } from './simple-type';

const ATTRIBUTE: Understood = {
  attributes: ['name', 'type', 'ref', 'use', 'form', 'default', 'fixed'],
  children: ['simpleType'],
  reads: 'name or ref, a simple type, use, form, default and fixed',
};
const ATTRIBUTE_GROUP_REF: Understood = { attributes: ['ref'], children: [], reads: 'ref' };

/** The attributes of a complex type or a derivation (`node`), attribute groups expanded in their own schema's scope. */
export function attributesOf(
  scope: SchemaScope,
  node: XmlElement,
  owner: string,
  depth = 0,
): { attributes: XsdAttribute[]; anyAttribute: boolean } {
  const attributes: XsdAttribute[] = [];
  let anyAttribute = false;
  for (const child of findAll(node, 's:attribute | s:attributeGroup | s:anyAttribute')) {
    if (child.name === 'attribute') {
      const read = attributeDeclaration(scope, child, owner);
      if (read) attributes.push(read);
    } else if (child.name === 'anyAttribute') anyAttribute = true;
    else {
      const inner = attributeGroup(scope, child, owner, depth);
      attributes.push(...inner.attributes);
      anyAttribute ||= inner.anyAttribute;
    }
  }
  return { attributes, anyAttribute };
}

/** A reference to an attribute group: its attributes, read where the group is declared. */
function attributeGroup(scope: SchemaScope, reference: XmlElement, owner: string, depth: number) {
  const where = `complex type ${owner}`;
  checkUnderstood(reference, where, ATTRIBUTE_GROUP_REF, scope.refuse);
  if (depth > 32) scope.refuse(reference, where, 'nests attribute groups more than 32 deep');
  const found = scope.set.attributeGroup.get(
    qnameKey(original(scope, 'attributeGroup', qnameOf(scope, reference, attr(reference, 'ref'), where))),
  );
  if (!found) scope.refuse(reference, where, `attribute group ${attr(reference, 'ref')} is not declared`);
  const home = declarationScope(homeScope(scope, found.scope), 'attributeGroup', found.node);
  return attributesOf(home, found.node, owner, depth + 1);
}

/** An xs:attribute of a complex type: none for a prohibited one. */
function attributeDeclaration(scope: SchemaScope, node: XmlElement, owner: string): XsdAttribute | undefined {
  const refuse: Refuse = scope.refuse;
  const where = `attribute ${owner}/@${optionalAttr(node, 'name') ?? optionalAttr(node, 'ref') ?? '?'}`;
  checkUnderstood(node, where, ATTRIBUTE, refuse);
  const use = optionalAttr(node, 'use') ?? 'optional';
  if (!['optional', 'required', 'prohibited'].includes(use)) refuse(node, where, `use="${use}" is not an attribute use`);
  if (use === 'prohibited') return undefined;
  const ref = optionalAttr(node, 'ref');
  if (ref !== undefined) {
    const q = qnameOf(scope, node, ref, where);
    if (q.namespace === XML_NAMESPACE) {
      return {
        name: q.name,
        namespace: q.namespace,
        type: { kind: 'builtin', name: 'string' },
        required: use === 'required',
        at: at(scope, node),
      };
    }
    const found = scope.set.attribute.get(qnameKey(q));
    if (!found) refuse(node, where, `attribute ${ref} is not declared`);
    const type = attributeType(homeScope(scope, found.scope), found.node, where);
    const fixed = optionalAttr(node, 'fixed') ?? optionalAttr(found.node, 'fixed');
    return {
      name: q.name,
      namespace: q.namespace,
      type,
      required: use === 'required',
      ...(fixed !== undefined ? { fixed } : {}),
      at: at(scope, node),
    };
  }
  const name = attr(node, 'name');
  const form = optionalAttr(node, 'form');
  const qualified = form === undefined ? scope.qualifiedAttributes : form === 'qualified';
  const fixed = optionalAttr(node, 'fixed');
  return {
    name,
    namespace: qualified ? scope.namespace : '',
    type: attributeType(scope, node, where),
    required: use === 'required',
    ...(fixed !== undefined ? { fixed } : {}),
    at: at(scope, node),
  };
}

/** The simple type of an attribute: named, anonymous, or none (anySimpleType). */
function attributeType(scope: SchemaScope, node: XmlElement, where: string): XsdTypeUse {
  const simple = findAll(node, 's:simpleType');
  const named = optionalAttr(node, 'type') !== undefined;
  if (simple.length + (named ? 1 : 0) > 1) scope.refuse(node, where, 'has both a type and an anonymous type');
  if (named) return typeUse(scope, node, where);
  if (simple[0]) return { kind: 'simple', type: simpleType(scope, simple[0], undefined) };
  return { kind: 'builtin', name: 'anySimpleType' };
}
