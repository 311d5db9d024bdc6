/** Content models: compositors (sequence, choice, all), group references expanded in place, wildcards and local elements. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, NS, optionalAttr } from '../documents';
import { qnameKey, type XsdNamespaceConstraint, type XsdParticle, type XsdTypeUse } from './facts';
import {
  at,
  checkUnderstood,
  declarationScope,
  flag,
  homeScope,
  occurs,
  original,
  qnameOf,
  type SchemaScope,
  type Understood,
} from './scope';

const COMPOSITOR: Understood = {
  attributes: ['minOccurs', 'maxOccurs'],
  children: ['element', 'sequence', 'choice', 'group', 'any'],
  reads: 'elements, compositors, group references and any',
};
const MEMBER: Understood = {
  attributes: ['name', 'type', 'ref', 'minOccurs', 'maxOccurs', 'nillable', 'form', 'default', 'fixed', 'block'],
  children: ['complexType', 'simpleType', 'key', 'keyref', 'unique'],
  reads: 'name or ref, type or an anonymous type, occurrences, nillable, form, default and fixed',
};
const ANY: Understood = { attributes: ['minOccurs', 'maxOccurs', 'namespace', 'processContents'], children: [], reads: 'occurrences' };
const GROUP_REF: Understood = { attributes: ['ref', 'minOccurs', 'maxOccurs'], children: [], reads: 'ref and occurrences' };

/**
 * Reads the type an element declares (named, or anonymous: complex-type.ts's declaredType). A local element's
 * anonymous complex type holds a particle again: the reader is passed in, so that the two modules need not import
 * each other.
 */
export type DeclaredTypeReader = (scope: SchemaScope, node: XmlElement, where: string, name: string) => XsdTypeUse;

/** A particle of the content model of `owner` (a complex type's name, or its element's). */
export function particle(scope: SchemaScope, node: XmlElement, owner: string, declaredType: DeclaredTypeReader, depth = 0): XsdParticle {
  const where = `complex type ${owner}`;
  if (depth > 32) scope.refuse(node, where, 'nests groups more than 32 deep (a group that holds itself?)');
  if (node.name === 'element') return localElement(scope, node, owner, declaredType);
  if (node.name === 'any') return wildcard(scope, node, where);
  if (node.name === 'group') return groupContent(scope, node, owner, declaredType, depth);
  checkUnderstood(node, where, node.name === 'all' ? { ...COMPOSITOR, children: ['element'] } : COMPOSITOR, scope.refuse);
  const particles = findAll(node, '*')
    .filter((child) => child.namespaceUri === NS.s && child.name !== 'annotation')
    .map((child) => particle(scope, child, owner, declaredType, depth));
  return { kind: node.name as 'sequence' | 'choice' | 'all', particles, ...occurs(scope, node, where) };
}

function wildcard(scope: SchemaScope, node: XmlElement, where: string): XsdParticle {
  checkUnderstood(node, where, ANY, scope.refuse);
  const process = optionalAttr(node, 'processContents');
  return {
    kind: 'any',
    ...occurs(scope, node, where),
    namespaces: namespaceConstraint(optionalAttr(node, 'namespace') ?? '##any', scope.namespace),
    processContents: process === 'lax' || process === 'skip' ? process : 'strict',
    at: at(scope, node),
  };
}

/** A group reference: the group's content, read in its own schema's scope (its form defaults, its prefixes), with the reference's occurrences. */
function groupContent(scope: SchemaScope, node: XmlElement, owner: string, declaredType: DeclaredTypeReader, depth: number): XsdParticle {
  const where = `complex type ${owner}`;
  checkUnderstood(node, where, GROUP_REF, scope.refuse);
  const found = scope.set.group.get(qnameKey(original(scope, 'group', qnameOf(scope, node, attr(node, 'ref'), where))));
  if (!found) scope.refuse(node, where, `group ${attr(node, 'ref')} is not declared`);
  const [model] = findAll(found.node, 's:sequence | s:choice | s:all');
  if (!model) scope.refuse(found.node, `group ${attr(found.node, 'name')}`, 'holds no sequence, choice or all');
  const home = declarationScope(homeScope(scope, found.scope), 'group', found.node);
  const inner = particle(home, model, owner, declaredType, depth + 1);
  return { ...inner, ...occurs(scope, node, where) } as XsdParticle;
}

/** An element of a content model: declared there, or a reference to a global element. */
function localElement(scope: SchemaScope, node: XmlElement, owner: string, declaredType: DeclaredTypeReader): XsdParticle {
  const where = `element ${owner}/${optionalAttr(node, 'name') ?? optionalAttr(node, 'ref') ?? '?'}`;
  checkUnderstood(node, where, MEMBER, scope.refuse);
  const { min, max } = occurs(scope, node, where);
  const nillable = flag(scope, node, 'nillable', where);
  const fixed = optionalAttr(node, 'fixed');
  const value = optionalAttr(node, 'default');
  const ref = optionalAttr(node, 'ref');
  if (ref !== undefined) {
    const q = qnameOf(scope, node, ref, where);
    return {
      kind: 'element',
      element: {
        name: q.name,
        namespace: q.namespace,
        ref: q,
        nillable,
        ...(fixed !== undefined ? { fixed } : {}),
        ...(value !== undefined ? { default: value } : {}),
        at: at(scope, node),
      },
      min,
      max,
    };
  }
  const name = attr(node, 'name');
  const form = optionalAttr(node, 'form');
  const qualified = form === undefined ? scope.qualifiedElements : form === 'qualified';
  return {
    kind: 'element',
    element: {
      name,
      namespace: qualified ? scope.namespace : '',
      type: declaredType(scope, node, where, `${owner}/${name}`),
      nillable,
      ...(fixed !== undefined ? { fixed } : {}),
      ...(value !== undefined ? { default: value } : {}),
      at: at(scope, node),
    },
    min,
    max,
  };
}

/** A wildcard's namespace attribute, in a schema of `namespace`: ##any, ##other (neither that one nor none), or a list. */
export function namespaceConstraint(value: string, namespace: string): XsdNamespaceConstraint {
  const tokens = value.split(/\s+/).filter(Boolean);
  if (tokens.includes('##any')) return { but: [] };
  if (tokens.includes('##other')) return { but: [...new Set([namespace, ''])] };
  return { only: tokens.map((t) => (t === '##targetNamespace' ? namespace : t === '##local' ? '' : t)) };
}
