/**
 * The schema documents of a set, each read in its own scope: included and imported documents are read beside the
 * one that names them (read/schemas.ts loaded them), a chameleon include in its includer's namespace; the groups,
 * attribute groups and global attributes of every document are indexed once, for references from any other.
 */
import { attr, findAll, NS, optionalAttr, refuser } from '../documents';
import { qnameKey, type SchemaSource } from './facts';
import { declaredKey, redefinedComponents } from './redefine';
import { checkUnderstood, type SchemaScope, type SchemaSet, type Understood } from './scope';

// `id` is allowed everywhere, `annotation` as a child everywhere; attributes of other namespaces are extensions (read past).
const SCHEMA: Understood = {
  attributes: ['targetNamespace', 'elementFormDefault', 'attributeFormDefault', 'version', 'blockDefault', 'finalDefault', 'xml:lang'],
  children: ['element', 'complexType', 'simpleType', 'import', 'include', 'redefine', 'group', 'attributeGroup', 'attribute', 'notation'],
  reads: 'global elements, attributes, groups, named complex and simple types, import, include and redefine',
};

/** Each source's scope, in order, sharing the set's index of its groups, attribute groups and global attributes. */
export function schemaScopes(sources: readonly SchemaSource[], options: { soapEncoding?: boolean } = {}): SchemaScope[] {
  const set: SchemaSet = { group: new Map(), attributeGroup: new Map(), attribute: new Map(), redefined: redefinedComponents(sources) };
  return sources.map(({ schema, file, chameleon }) => {
    const refuse = refuser(file);
    if (schema.namespaceUri !== NS.s || schema.name !== 'schema') refuse(schema, 'the root', `<${schema.name}> is not an XML Schema`);
    checkUnderstood(schema, 'the schema', SCHEMA, refuse);
    const own = optionalAttr(schema, 'targetNamespace');
    const namespace = own ?? chameleon ?? '';
    const scope: SchemaScope = {
      schema,
      namespace,
      qualifiedElements: optionalAttr(schema, 'elementFormDefault') === 'qualified',
      qualifiedAttributes: optionalAttr(schema, 'attributeFormDefault') === 'qualified',
      refuse,
      chameleon: own === undefined && chameleon !== undefined,
      set,
      redefining: [],
      ...(options.soapEncoding ? { soapEncoding: true } : {}),
    };
    for (const kind of ['group', 'attributeGroup', 'attribute'] as const) {
      for (const node of findAll(schema, `s:${kind} | s:redefine/s:${kind}`)) {
        const key =
          kind === 'attribute' ? qnameKey({ namespace, name: attr(node, 'name') }) : declaredKey(set.redefined, kind, node, namespace);
        set[kind].set(key, { node, scope });
      }
    }
    return scope;
  });
}
