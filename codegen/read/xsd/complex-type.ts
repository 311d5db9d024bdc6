/** Complex types: a content model and attributes, or complexContent or simpleContent deriving from a base; and the type an element declares. */
import type { XmlElement } from 'contract-runtime/xml';
import { attr, findAll, NS, optionalAttr, type Refuse } from '../documents';
import type { XsdComplexType, XsdTypeUse } from './facts';
import { attributesOf } from './attribute';
import { particle } from './particle';
import { at, checkUnderstood, flag, namedType, original, qnameOf, type SchemaScope, typeUse, type Understood } from './scope';
import { FACETS, facetsOf, simpleType } from './simple-type';
import { arrayType, isSoapArray, soapArrayOf } from './soap-arrays';

/** Attributes of an element written on its type by some generators (not XML Schema): left out of the served schema. */
export const STRAY_TYPE_ATTRIBUTES = ['nillable', 'type'];

const COMPLEX_TYPE: Understood = {
  attributes: ['name', 'mixed', 'abstract', 'block', 'final', ...STRAY_TYPE_ATTRIBUTES],
  children: ['sequence', 'choice', 'all', 'group', 'attribute', 'attributeGroup', 'anyAttribute', 'complexContent', 'simpleContent'],
  reads: 'a content model, attributes, complexContent or simpleContent',
};
const CONTENT: Understood = { attributes: ['mixed'], children: ['extension', 'restriction'], reads: 'an extension or a restriction' };
const DERIVATION: Understood = {
  attributes: ['base'],
  children: ['sequence', 'choice', 'all', 'group', 'attribute', 'attributeGroup', 'anyAttribute', 'simpleType', 'enumeration', ...FACETS],
  reads: 'a content model and attributes, or facets',
};

/** A named complex type, or the anonymous one of element `owner`. */
export function complexType(scope: SchemaScope, node: XmlElement, name: string | undefined, owner: string): XsdComplexType {
  const where = name ? `complex type ${name}` : `the complexType of element ${owner}`;
  checkUnderstood(node, where, COMPLEX_TYPE, scope.refuse);
  const mixed = flag(scope, node, 'mixed', where);
  const abstract = flag(scope, node, 'abstract', where);
  const common = { name, namespace: scope.namespace, mixed, abstract, at: at(scope, node) };
  const [content] = findAll(node, 's:complexContent | s:simpleContent');
  if (content) return derivedType(scope, content, common, where, name ?? owner);
  const models = findAll(node, 's:sequence | s:choice | s:all | s:group');
  if (models.length > 1) scope.refuse(models[1], where, 'holds more than one content model');
  return {
    ...common,
    ...(models[0] ? { particle: particle(scope, models[0], name ?? owner, declaredType) } : {}),
    ...attributesOf(scope, node, name ?? owner),
  };
}

type Common = Pick<XsdComplexType, 'name' | 'namespace' | 'mixed' | 'abstract' | 'at'>;

/** complexContent or simpleContent: an extension or a restriction of a base. */
function derivedType(scope: SchemaScope, content: XmlElement, common: Common, where: string, owner: string): XsdComplexType {
  const refuse: Refuse = scope.refuse;
  checkUnderstood(content, where, CONTENT, refuse);
  const [derivation] = findAll(content, 's:extension | s:restriction');
  if (!derivation) refuse(content, where, `<${content.name}> holds no extension or restriction`);
  checkUnderstood(derivation, where, DERIVATION, refuse);
  const baseType = original(scope, 'type', qnameOf(scope, derivation, attr(derivation, 'base'), where));
  if (scope.soapEncoding && content.name === 'complexContent' && isSoapArray(baseType)) {
    const [model] = findAll(derivation, 's:sequence | s:choice | s:all | s:group');
    const read = model ? particle(scope, model, owner, declaredType) : undefined;
    const one = read?.kind === 'element' ? read : read?.kind === 'sequence' && read.particles.length === 1 ? read.particles[0] : undefined;
    const declared = one?.kind === 'element' && one.element.type ? { name: one.element.name, type: one.element.type } : undefined;
    const array = soapArrayOf(derivation, declared, common.at);
    return { ...arrayType(common.name, common.namespace, array.item, array.rank, common.at, array.element), abstract: common.abstract };
  }
  const own = attributesOf(scope, derivation, owner);
  const mixedContent = common.mixed || flag(scope, content, 'mixed', where);
  const kind = derivation.name as 'extension' | 'restriction';
  if (content.name === 'simpleContent') {
    const [inner] = findAll(derivation, 's:simpleType');
    const text: XsdTypeUse =
      kind === 'extension'
        ? namedType(baseType)
        : {
            kind: 'simple',
            type: {
              namespace: scope.namespace,
              variety: 'atomic',
              ...facetsOf(scope, derivation, where),
              base: inner ? { kind: 'simple', type: simpleType(scope, inner, undefined) } : namedType(baseType),
              at: at(scope, derivation),
            },
          };
    return { ...common, mixed: false, base: baseType, derivation: kind, text, ...own };
  }
  const [model] = findAll(derivation, 's:sequence | s:choice | s:all | s:group');
  return {
    ...common,
    mixed: mixedContent,
    // A restriction of anyType (SOAP encoding's arrays aside) is a type of its own.
    ...(baseType.namespace === NS.s && baseType.name === 'anyType' ? {} : { base: baseType, derivation: kind }),
    ...(model ? { particle: particle(scope, model, owner, declaredType) } : {}),
    ...own,
  };
}

/** The type of an element: named, anonymous, or none (anyType). */
export function declaredType(scope: SchemaScope, node: XmlElement, where: string, name: string): XsdTypeUse {
  const complex = findAll(node, 's:complexType');
  const simple = findAll(node, 's:simpleType');
  const named = optionalAttr(node, 'type') !== undefined;
  if (complex.length + simple.length + (named ? 1 : 0) > 1) scope.refuse(node, where, 'has both a type and an anonymous type');
  if (named) return typeUse(scope, node, where);
  if (complex[0]) return { kind: 'complex', type: complexType(scope, complex[0], undefined, name) };
  if (simple[0]) return { kind: 'simple', type: simpleType(scope, simple[0], undefined) };
  return { kind: 'builtin', name: 'anyType' };
}
