import { type CodeBlockWriter, type MethodDeclarationStructure, Project, Scope, type StatementStructures, StructureKind } from 'ts-morph';
import {
  type AttributeModel,
  type ComplexTypeModel,
  type ElementModel,
  type SchemaModel,
  type FieldModel,
  OTHER_ATTRIBUTES,
  type ParticleModel,
  type TypeRef,
  type XsiTypedRef,
} from '../model/model';
import { escapeXmlAttribute, escapeXmlText } from 'contract-runtime/xml';
import { type EmitFile, emitFile } from './file';
import { GENERATED, type Output, TYPES } from './header';
import { quote } from './ts';
import { enumValues, patternList, valueCode } from './values';

/** types.ts's table of the global elements, which anyType content is read lax into (the runtime's GlobalElements). */
const GLOBAL_ELEMENTS = 'GLOBAL_ELEMENTS';

/** The attributes one function writes: past this many, TypeScript's control flow analysis gives up on the function. */
const ATTRIBUTES_A_FUNCTION = 100;

/**
 * Emits generated/types.ts: one class per complex type the operations reach
 * (named types, anonymous ones named after their element, and the classes of
 * messages that are no one element), with typed fields, decoding from a
 * schema-validated libxml2-wasm element or from HTTP fields, and encoding of
 * the element's content; each enumeration as a union of its values.
 */
export function emitTypes(model: SchemaModel, output: Output = GENERATED): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const source = project.createSourceFile('types.ts', '', { overwrite: true });
  const file = emitFile(model);
  if (model.prefixes) {
    const declarations = Object.entries(model.prefixes).map(([ns, prefix]) =>
      prefix === 'tns' ? `' xmlns:tns="' + namespace + '"'` : quote(` xmlns:${prefix}="${escapeXmlAttribute(ns)}"`),
    );
    source.addStatements(
      [
        '/** The namespace declarations of a top-level element: every namespace of the contract, the target one at run time (escaped already). */',
        `export function xmlns(namespace: string): string {\n  return ${declarations.length ? declarations.join(' + ') : "''"};\n}`,
      ].join('\n'),
    );
  } else if (model.types.some((t) => t.message)) {
    source.addStatements(
      [
        '/** The namespace declaration of a top-level element: the target namespace (escaped already) as the default one. */',
        `export function xmlns(namespace: string): string {\n  return ' xmlns="' + namespace + '"';\n}`,
      ].join('\n'),
    );
  }
  for (const e of model.enums) {
    source.addTypeAlias({
      name: e.name,
      isExported: true,
      docs: [`Enumeration ${e.name}: its values, in schema order.`],
      type: e.values.map((v) => quote(v)).join(' | '),
    });
    source.addStatements(`export const ${enumValues(e.name)}: readonly ${e.name}[] = [${e.values.map((v) => quote(v)).join(', ')}];`);
  }
  // One insertion for all the classes: ts-morph prints them once.
  source.addStatements(model.types.flatMap((type) => classStatements(file, type)));
  source.addStatements(faultClasses(file));
  if (usesGlobalElements(model)) source.addStatements(globalElements(file));
  source.formatText({ indentSize: 2, convertTabsToSpaces: true });
  const body = source.getFullText();
  const imports = file.imports.runtimeDeclarations(output.runtime);
  return [output.header, ...(imports ? [imports] : []), body.trimStart()].join('\n\n');
}

const throughGlobalElements = (ref: TypeRef) => ref.kind === 'any' && (ref.lax === true || ref.wildcard !== undefined);

/** Whether a field or a global element of the schema set is read lax or written through GLOBAL_ELEMENTS (XSD mode's anyType and wildcards). */
function usesGlobalElements(model: SchemaModel): boolean {
  return (
    model.elements.some((e) => throughGlobalElements(e.type)) ||
    model.types.some((t) => t.fields.some((f) => throughGlobalElements(f.type)))
  );
}

/** How `child`, an element a wildcard's field takes, is read: as XML, or (XSD mode) as a WildcardElement. */
function wildcardRead(file: EmitFile, f: FieldModel): string {
  const { imports } = file;
  if (f.type.kind !== 'any' || !f.type.wildcard) return `${imports.runtime('xmlFragmentOf')}(child)`;
  return f.type.wildcard === 'lax'
    ? `${imports.runtime('readWildcardElement')}(child, ${imports.local(TYPES, GLOBAL_ELEMENTS)})`
    : `${imports.runtime('keepWildcardElement')}(child)`;
}

/**
 * GLOBAL_ELEMENTS: each global element's reader (its element in, its value out; null when nillable and nil) and
 * writer (the element itself, declaring every namespace the contract writes with a prefix), by `{namespace}name`:
 * what anyType content is read into and written from.
 */
function globalElements(file: EmitFile): string {
  const { model, imports } = file;
  const declarations = model.prefixes ? ` + xmlns(${quote(escapeXmlAttribute(model.authoredNamespace))})` : '';
  const entries = model.elements.map((element) => {
    const type = typeText(file, element.type);
    const tsType = element.nillable ? `${type} | null` : type;
    const decode = decodeExpression(file, element.type, 'element', element.default);
    const read = element.nillable ? `${imports.runtime('isXsiNil')}(element) ? null : ${decode}` : decode;
    const write = globalElementExpression(file, element, 'value', declarations);
    const qname = quote(`{${element.namespace}}${element.name}`);
    return `  ${qname}: { read: (element: ${imports.runtime('XmlElement')}) => ${read}, write: (value: ${tsType}) => ${write} },`;
  });
  return [
    '/** Each global element of the schema set by `{namespace}name`: its reader and writer, for the anyType content that holds it. */',
    `export const ${GLOBAL_ELEMENTS}: ${imports.runtime('GlobalElements')} = {\n${entries.join('\n')}\n};`,
  ].join('\n');
}

/** The expression writing a global element, its value `value` (elementExpression's, of the element's declaration). */
export function globalElementExpression(file: EmitFile, element: ElementModel, value: string, declarations: string): string {
  const { name, namespace, type, nillable } = element;
  const declared = { xmlName: name, namespace, type, nillable, ...(element.default !== undefined ? { default: element.default } : {}) };
  return elementExpression(file, declared, value, declarations);
}

const required = (field: FieldModel | AttributeModel) => ('minOccurs' in field ? field.minOccurs > 0 : field.required);
const repeated = (field: FieldModel) => field.maxOccurs === 'unbounded' || field.maxOccurs > 1;

/** The tag an element of this name and namespace is written with: prefixed when the contract has prefixes. */
export function tagOf(model: SchemaModel, xmlName: string, namespace: string): string {
  if (!model.prefixes || namespace === '') return xmlName;
  const prefix = model.prefixes[namespace];
  if (!prefix) throw new Error(`codegen: no prefix for the namespace ${namespace}`);
  return `${prefix}:${xmlName}`;
}

/** An xsi:type value naming a class's type, as written in this contract's documents. */
function typeQName(model: SchemaModel, type: ComplexTypeModel): string {
  return tagOf(model, type.xmlName, type.namespace);
}

const polymorphic = (model: SchemaModel, ref: TypeRef) =>
  ref.kind === 'complex' && (model.types.find((t) => t.name === ref.typeName)?.derived.length ?? 0) > 0;
const inHierarchy = (type: ComplexTypeModel) => type.derived.length > 0 || type.base !== undefined;

/**
 * A class's statements: the interface of its fields, and the class, with its constructor, its decoding (fromXml,
 * fromFields for HTTP fields) and its encoding (toXml, xmlAttributes, xsiType), each method a function below.
 */
function classStatements(file: EmitFile, type: ComplexTypeModel): StatementStructures[] {
  const description = classDescription(type);
  const properties = [
    ...(type.text ? [{ name: 'value', type: typeText(file, type.text), hasQuestionToken: false }] : []),
    ...type.fields.map((f) => ({ name: f.name, type: fieldType(file, f), hasQuestionToken: !required(f) })),
    ...type.attributes.map((a) => ({ name: a.name, type: typeText(file, a.type), hasQuestionToken: !required(a) })),
    ...(type.anyAttribute ? [{ name: OTHER_ATTRIBUTES, type: 'Record<string, string>', hasQuestionToken: true }] : []),
  ];
  const fieldsDocs = `The fields of ${description}, in sequence order${type.attributes.length ? ', then its attributes' : ''}${type.anyAttribute ? ', then the attributes its anyAttribute admits (`{namespace}name` or `name`: text)' : ''}.`;
  const members = [...(type.text ? ['value'] : []), ...[...type.fields, ...type.attributes].map((f) => f.name)];
  const ctor = {
    parameters: [{ name: 'fields', type: type.fieldsInterface, initializer: allOptional(type) ? '{}' : undefined }],
    statements: [...members, ...(type.anyAttribute ? [OTHER_ATTRIBUTES] : [])].map((name) => `this.${name} = fields.${name};`),
  };
  return [
    { kind: StructureKind.Interface, name: type.fieldsInterface, isExported: true, docs: [fieldsDocs], properties },
    {
      kind: StructureKind.Class,
      name: type.name,
      isExported: true,
      implements: [type.fieldsInterface],
      docs: [`${description[0].toUpperCase()}${description.slice(1)}.`],
      properties,
      ctors: [ctor],
      methods: [
        fromXmlMethod(file, type),
        ...(readsFields(type) ? [fromFieldsMethod(file, type)] : []),
        toXmlMethod(file, type),
        ...(hasAttributes(file.model, { kind: 'complex', typeName: type.name, tsType: type.name }) ? attributesMethods(file, type) : []),
        ...(inHierarchy(type) ? [xsiTypeMethod(file.model, type)] : []),
      ],
    },
  ];
}

/** What a class is of, as its documentation says. */
function classDescription(type: ComplexTypeModel): string {
  if (type.message) return `the parts of message ${type.xmlName}`;
  if (type.group) return 'one item of a repeated group (its elements written in place, in order)';
  return type.anonymous ? `the type of element ${type.xmlName}` : `complex type ${type.xmlName}`;
}

/** A class none of whose members is required: its constructor's fields may be left out. */
const allOptional = (type: ComplexTypeModel) => [...type.fields, ...type.attributes].every((f) => !required(f)) && !type.text;

/**
 * A class HTTP fields can fill (fromFields): elements only, each a simple value, once, never nil; no type derives from
 * it (fields cannot say which type a value is).
 */
export const readsFields = (type: ComplexTypeModel) =>
  type.derived.length === 0 &&
  type.attributes.length === 0 &&
  !type.text &&
  type.fields.every((f) => (f.type.kind === 'primitive' || f.type.kind === 'enum') && f.maxOccurs === 1 && !f.nillable);

/** fromXml: a derived type's class for its xsi:type, else the attributes, the text or children, and the required ones checked. */
function fromXmlMethod(file: EmitFile, type: ComplexTypeModel): MethodDeclarationStructure {
  const { imports } = file;
  return {
    kind: StructureKind.Method,
    name: 'fromXml',
    isStatic: true,
    docs: [
      type.message
        ? 'Decodes the parts from the element that holds them (the SOAP Body), validated against the schema.'
        : 'Decodes an element of this type that has been validated against the schema.',
    ],
    parameters: [{ name: 'element', type: imports.runtime('XmlElement') }],
    returnType: type.union ?? type.name,
    // A value that does not fit is said with the path and line of the innermost element whose reader it failed.
    statements: (w) => {
      w.write('try').block(() => fromXmlBody(w, file, type));
      w.write(' catch (error)').block(() => w.writeLine(`throw ${imports.runtime('decodeErrorAt')}(error, element);`));
    },
  };
}

/** fromXml's body: the derived type's reader, or the element read into this type's fields. */
function fromXmlBody(w: CodeBlockWriter, file: EmitFile, type: ComplexTypeModel): void {
  const { imports } = file;
  if (type.derived.length > 0) readDerived(w, file, type);
  if (type.abstract && type.union !== undefined) {
    // An abstract type is never made: its element names the derived type it holds with xsi:type.
    const message = quote(`${type.xmlName} is abstract: its element names a type derived from it with xsi:type`);
    w.writeLine(`throw new ${imports.runtime('DecodeError')}(${message});`);
    return;
  }
  w.writeLine(`const fields: Partial<${type.fieldsInterface}> = {};`);
  if (type.attributes.length > 0) readAttributes(w, file, type);
  if (type.anyAttribute) {
    const declared = type.attributes.map((a) => quote(`{${a.namespace}}${a.xmlName}`));
    w.writeLine(`const other = ${imports.runtime('otherAttributesOf')}(element, [${declared.join(', ')}]);`);
    w.writeLine(`if (other) fields.${OTHER_ATTRIBUTES} = other;`);
  }
  if (type.text) w.writeLine(`fields.value = ${simpleParse(file, type.text, 'element.content', 'element')};`);
  const mixed = type.fields.find((f) => f.type.kind === 'any' && type.mixed);
  if (mixed) w.writeLine(`fields.${mixed.name} = ${imports.runtime('mixedContentOf')}(element);`);
  else if (type.fields.length > 0) readChildren(w, file, type);
  for (const f of [...type.fields, ...type.attributes].filter(required)) {
    if ('xmlName' in f && f.xmlName === '' && 'minOccurs' in f) continue;
    w.writeLine(`if (fields.${f.name} === undefined) throw new ${imports.runtime('DecodeError')}(${quote(`${f.name} is required`)});`);
  }
  w.writeLine(
    type.allOrder
      ? `return ${imports.runtime('withXmlOrder')}(new ${type.name}(fields as ${type.fieldsInterface}), order);`
      : `return new ${type.name}(fields as ${type.fieldsInterface});`,
  );
}

/** The start of fromXml for a type with derived ones: an element whose xsi:type names one is read by its class. */
function readDerived(w: CodeBlockWriter, { model, imports }: EmitFile, type: ComplexTypeModel): void {
  w.writeLine(`const derived = ${imports.runtime('xsiTypeOf')}(element);`);
  w.write(`if (derived !== undefined && derived !== ${quote(type.xmlName)})`).block(() => {
    w.write('switch (derived)').block(() => {
      for (const name of type.derived) {
        const derived = model.types.find((t) => t.name === name)!;
        // An abstract type no concrete one derives from has no value: an xsi:type naming it is refused by validation
        // (SIRI's AbstractRequiredIdentifiedItemStructure), and it is no member of the union this answers.
        if (derived.abstract && derived.union === undefined) continue;
        w.writeLine(`case ${quote(derived.xmlName)}:`);
        w.indent().write(`return ${derived.name}.fromXml(element);`).newLine();
      }
    });
  });
}

/** One pass of fromXml over the attributes the element has, each taken by its name and namespace. */
function readAttributes(w: CodeBlockWriter, file: EmitFile, type: ComplexTypeModel): void {
  w.write('for (const attribute of element.attrs)').block(() => {
    w.write('switch (attribute.name)').block(() => {
      const byName = new Map<string, AttributeModel[]>();
      for (const a of type.attributes) byName.set(a.xmlName, [...(byName.get(a.xmlName) ?? []), a]);
      for (const [xmlName, same] of byName) {
        w.writeLine(`case ${quote(xmlName)}:`);
        w.indent(() => {
          for (const a of same) {
            const test = a.namespace ? `attribute.namespaceUri === ${quote(a.namespace)}` : '!attribute.namespaceUri';
            w.writeLine(`if (${test}) fields.${a.name} = ${simpleParse(file, a.type, 'attribute.value', 'element')};`);
          }
          w.writeLine('break;');
        });
      }
    });
  });
}

/** fromFields: the class read from HTTP GET query or HTTP POST form fields, each parsed when present. */
function fromFieldsMethod(file: EmitFile, type: ComplexTypeModel): MethodDeclarationStructure {
  return {
    kind: StructureKind.Method,
    name: 'fromFields',
    isStatic: true,
    docs: ['Decodes HTTP GET query or HTTP POST form fields; an absent field stays undefined.'],
    parameters: [{ name: 'field', type: '(name: string) => string | undefined' }],
    returnType: type.name,
    statements: (w) => {
      w.write(`return new ${type.name}(`).inlineBlock(() => {
        for (const f of type.fields) {
          const value = `field(${quote(f.xmlName)})`;
          const parse = simpleParse(file, f.type, 'v');
          const expr = parse === 'v' ? value : `((v) => (v === undefined ? undefined : ${parse}))(${value})`;
          w.writeLine(`${f.name}: ${expr},`);
        }
      });
      w.write(allOptional(type) ? ');' : ` as ${type.fieldsInterface});`);
    },
  };
}

/** toXml: the content of the type's element (a message's parts: each a top-level element), in order. */
function toXmlMethod(file: EmitFile, type: ComplexTypeModel): MethodDeclarationStructure {
  const { imports } = file;
  return {
    kind: StructureKind.Method,
    name: 'toXml',
    docs: [
      type.message
        ? 'Encodes the parts, each a top-level element with its namespace declarations; `namespace` is the target namespace, escaped.'
        : 'Encodes the content of an element of this type: its child elements, in sequence order.',
    ],
    parameters: type.message ? [{ name: 'namespace', type: 'string' }] : [],
    returnType: 'string',
    statements: (w) => {
      w.writeLine("let xml = '';");
      if (type.text) w.writeLine(`xml += ${simpleFormat(file, type.text, 'this.value')};`);
      if (type.allOrder) {
        // In the order the value was read in (any order is valid), else in the schema's.
        const names = type.fields.map((f) => quote(f.name)).join(', ');
        w.write(`for (const name of ${imports.runtime('xmlOrderOf')}(this, [${names}]))`).block(() => {
          w.write('switch (name)').block(() => {
            for (const f of type.fields) {
              w.writeLine(`case ${quote(f.name)}:`);
              w.indent(() => {
                writeField(w, file, f, undefined);
                w.writeLine('break;');
              });
            }
          });
        });
      } else for (const f of type.fields) writeField(w, file, f, type.message ? 'namespace' : undefined);
      w.writeLine('return xml;');
    },
  };
}

/**
 * xmlAttributes: what the type writes in its element's start tag (its attributes, an anyAttribute's, a QName's
 * namespace); past ATTRIBUTES_A_FUNCTION attributes, a private method for each hundred, which it calls.
 */
function attributesMethods(file: EmitFile, type: ComplexTypeModel): MethodDeclarationStructure[] {
  const { imports } = file;
  const chunks = type.attributes.length > ATTRIBUTES_A_FUNCTION ? Math.ceil(type.attributes.length / ATTRIBUTES_A_FUNCTION) : 0;
  const xmlAttributes: MethodDeclarationStructure = {
    kind: StructureKind.Method,
    name: 'xmlAttributes',
    docs: ["Encodes this type's attributes, each with a space before it, for the start tag its user writes."],
    returnType: 'string',
    statements: (w) => {
      w.writeLine("let xml = '';");
      if (chunks === 0) for (const [i, a] of type.attributes.entries()) writeAttributeOf(w, file, a, i);
      // Hundreds of attributes: a method for each hundred, so that TypeScript's control flow analysis keeps up.
      else for (let k = 0; k < chunks; k++) w.writeLine(`xml += this.xmlAttributes${k}();`);
      if (type.anyAttribute) w.writeLine(`xml += ${imports.runtime('writeOtherAttributes')}(this.${OTHER_ATTRIBUTES});`);
      const textDeclarations = type.text && valueDeclarations(file, type.text, 'this.value', 'q');
      if (textDeclarations) w.writeLine(`xml += ${textDeclarations};`);
      w.writeLine('return xml;');
    },
  };
  const chunk = (k: number): MethodDeclarationStructure => ({
    kind: StructureKind.Method,
    name: `xmlAttributes${k}`,
    scope: Scope.Private,
    returnType: 'string',
    statements: (w) => {
      w.writeLine("let xml = '';");
      const start = k * ATTRIBUTES_A_FUNCTION;
      for (const [i, a] of type.attributes.slice(start, start + ATTRIBUTES_A_FUNCTION).entries()) writeAttributeOf(w, file, a, start + i);
      w.writeLine('return xml;');
    },
  });
  return [xmlAttributes, ...Array.from({ length: chunks }, (_, k) => chunk(k))];
}

/** The type's class has xmlAttributes(): declared attributes, or an anyAttribute's. */
export function writesAttributes(type: ComplexTypeModel): boolean {
  return type.attributes.length > 0 || type.anyAttribute === true;
}

/**
 * The attributes of a top-level element of `type` holding `value` (an expression): xsi:type when the value is of a
 * type derived from it (an abstract one's element always names one), and the value's own attributes; '' for none.
 */
export function topLevelAttributes(file: EmitFile, type: ComplexTypeModel, value: string): string {
  const own = writesAttributes(type) ? `${value}.xmlAttributes()` : '';
  if (type.derived.length === 0) return own;
  const xsiType = `(${value}.xsiType() === ${quote(typeQName(file.model, type))} ? '' : ' xsi:type="' + ${value}.xsiType() + '" xmlns:xsi="' + ${file.imports.runtime('XSI_NAMESPACE')} + '"')`;
  // A derived type may have attributes its base lacks.
  return `${xsiType} + ${own || `('xmlAttributes' in ${value} ? (${value} as { xmlAttributes(): string }).xmlAttributes() : '')`}`;
}

/** xsiType: the type's name as xsi:type writes it, for a class with a base or derived ones. */
function xsiTypeMethod(model: SchemaModel, type: ComplexTypeModel): MethodDeclarationStructure {
  return {
    kind: StructureKind.Method,
    name: 'xsiType',
    docs: ["The type's name as xsi:type writes it, for an instance written where its base is declared."],
    returnType: 'string',
    statements: [`return ${quote(typeQName(model, type))};`],
  };
}

/** One attribute of xmlAttributes: absent when undefined; a QName value declares its prefix (one of its own, `qaN`) beside it. */
function writeAttributeOf(w: CodeBlockWriter, file: EmitFile, a: AttributeModel, i: number): void {
  const { model, imports } = file;
  const name = a.namespace === 'http://www.w3.org/XML/1998/namespace' ? `xml:${a.xmlName}` : tagOf(model, a.xmlName, a.namespace);
  const prefix = `qa${i}`;
  const declarations = valueDeclarations(file, a.type, `this.${a.name}`, prefix);
  const write = `xml += ' ${name}="' + ${imports.runtime('escapeXmlAttribute')}(${plainText(file, a.type, `this.${a.name}`, prefix)}) + '"'${declarations ? ` + ${declarations}` : ''};`;
  if (required(a)) w.writeLine(write);
  else w.write(`if (this.${a.name} !== undefined)`).block(() => w.writeLine(write));
}

/**
 * One field of toXml: absent when undefined, xsi:nil when null, each item of an array as an element of its own,
 * xsi:type when the value is of a type derived from the declared one. `top` (a message's parts) declares the namespaces.
 */
function writeField(w: CodeBlockWriter, file: EmitFile, f: FieldModel, top: string | undefined): void {
  const target = `this.${f.name}`;
  if (f.inline) {
    // A group's items: each one's members in place, in order.
    w.write(`for (const item of ${target}${required(f) ? '' : ' ?? []'})`).block(() => w.writeLine('xml += item.toXml();'));
    return;
  }
  if (f.type.kind === 'any' && f.type.wildcard) {
    const write = `xml += ${file.imports.runtime('wildcardElementXml')}(item, ${file.imports.local(TYPES, GLOBAL_ELEMENTS)});`;
    w.write(`for (const item of ${target}${required(f) ? '' : ' ?? []'})`).block(() => w.writeLine(write));
    return;
  }
  if (f.type.kind === 'any' && !f.type.lax) {
    if (repeated(f)) w.write(`for (const item of ${target}${required(f) ? '' : ' ?? []'})`).block(() => w.writeLine('xml += item;'));
    else if (required(f)) w.writeLine(`xml += ${target};`);
    else w.write(`if (${target} !== undefined)`).block(() => w.writeLine(`xml += ${target};`));
    return;
  }
  const declarations = top ? ` + xmlns(${top})` : '';
  const element = (value: string) => `xml += ${elementExpression(file, f, value, declarations)};`;
  if (repeated(f)) {
    w.write(`for (const item of ${target}${required(f) ? '' : ' ?? []'})`).block(() => w.writeLine(element('item')));
  } else if (required(f)) w.writeLine(element(target));
  else w.write(`if (${target} !== undefined)`).block(() => w.writeLine(element(target)));
}

/**
 * The expression writing one element of a simple or complex type (not a wildcard's), its value `value`:
 * xsi:nil when nillable and null, xsi:type when the value is of a type derived from the declared one.
 * `declarations` (an expression, with its leading ` + `) adds namespace declarations to the start tag.
 */
export function elementExpression(
  file: EmitFile,
  f: { xmlName: string; namespace: string; type: TypeRef; nillable: boolean; default?: string },
  value: string,
  declarations: string,
): string {
  const { model, imports } = file;
  const tag = tagOf(model, f.xmlName, f.namespace);
  const attributes = hasAttributes(model, f.type) ? ` + ${value}.xmlAttributes()` : '';
  let start: string;
  if (polymorphic(model, f.type)) {
    const declared = model.types.find((t) => f.type.kind === 'complex' && t.name === f.type.typeName)!;
    const typeName = typeQName(model, declared);
    start = `'<${tag}'${declarations} + (${value}.xsiType() === ${quote(typeName)} ? '' : ' xsi:type="' + ${value}.xsiType() + '" xmlns:xsi="' + ${imports.runtime('XSI_NAMESPACE')} + '"')${attributes} + '>'`;
    if (!hasAttributes(model, f.type)) {
      // A derived type may have attributes its base lacks.
      start = `'<${tag}'${declarations} + (${value}.xsiType() === ${quote(typeName)} ? '' : ' xsi:type="' + ${value}.xsiType() + '" xmlns:xsi="' + ${imports.runtime('XSI_NAMESPACE')} + '"') + ('xmlAttributes' in ${value} ? (${value} as { xmlAttributes(): string }).xmlAttributes() : '') + '>'`;
    }
  } else if (isXsiTyped(f.type)) {
    // A simple value read with an xsi:type is written with it; the declaration's default or fixed value as the
    // schema writes it (a validator may compare a fixed value by its text).
    const plain = `${imports.runtime('xsiTypedValue')}(${value})`;
    const own = valueDeclarations(file, f.type, plain, 'q');
    start = `'<${tag}'${declarations}${own ? ` + ${own}` : ''} + ${imports.runtime('xsiTypeAttribute')}(${value}) + '>'`;
    let text = encodeExpression(file, f.type, plain);
    if (f.default !== undefined && !qnameValued(model, f.type)) {
      const schemaText = encodeExpression(file, f.type, simpleParse(file, f.type, quote(f.default)));
      text = `((text: string) => (text === ${schemaText} ? ${quote(escapeXmlText(f.default))} : text))(${text})`;
    }
    return nilOr(file, f, tag, declarations, value, joinLiterals(`${start} + ${text} + '</${tag}>'`));
  } else {
    const own = valueDeclarations(file, f.type, value, 'q');
    start = `'<${tag}'${declarations}${attributes}${own ? ` + ${own}` : ''} + '>'`;
  }
  return nilOr(file, f, tag, declarations, value, joinLiterals(`${start} + ${encodeExpression(file, f.type, value)} + '</${tag}>'`));
}

/** Whether a simple type's values may come with an xsi:type (XSD mode's elements: model/build.ts). */
export function isXsiTyped(ref: TypeRef): ref is XsiTypedRef {
  return (ref as Partial<XsiTypedRef>).xsiTyped === true;
}

/** The element written, or xsi:nil when nillable and the value null. */
function nilOr(
  file: EmitFile,
  f: { xmlName: string; namespace: string; type: TypeRef; nillable: boolean },
  tag: string,
  declarations: string,
  value: string,
  written: string,
): string {
  const { imports } = file;
  if (!f.nillable) return written;
  const nil = joinLiterals(`'<${tag}'${declarations} + ' xsi:nil="true" xmlns:xsi="' + ${imports.runtime('XSI_NAMESPACE')} + '" />'`);
  return `${value} === null ? ${nil} : ${written}`;
}

/**
 * The loop of fromXml over an element's children: each goes to the field (or a group's member) of its name and
 * namespace, or else to the wildcard; a group's item ends where its compositor starts again. An all group's
 * members are recorded in the order they came in.
 */
function readChildren(w: CodeBlockWriter, file: EmitFile, type: ComplexTypeModel): void {
  const { model, imports } = file;
  const plainWildcard = type.fields.find((f) => f.xmlName === '' && !f.inline);
  const groups = type.fields.filter((f) => f.inline).map((f, i) => groupOf(model, f, i));
  const groupWildcard = groups.find((g) => g.members.some((m) => m.field.xmlName === ''));
  const anyWildcard = plainWildcard !== undefined || groupWildcard !== undefined;
  for (const g of groups) {
    w.writeLine(`const ${g.items}: Partial<${g.type.fieldsInterface}>[] = [];`);
    w.writeLine(`let ${g.current}: Partial<${g.type.fieldsInterface}> = {};`);
    w.writeLine(`let ${g.at} = -1;`);
    if (g.members.some((m) => repeated(m.field))) w.writeLine(`let ${g.last} = '';`);
  }
  if (type.allOrder) w.writeLine('const order: string[] = [];');
  /** The statements that take `child` into a group's member. */
  const intoGroup = (g: ReturnType<typeof groupOf>, member: { field: FieldModel; position: number }) => {
    const f = member.field;
    // An item ends where its sequence starts again (or where a choice's next branch starts).
    const again = repeated(f)
      ? `${g.at} > ${member.position} || (${g.at} === ${member.position} && ${g.last} !== ${quote(f.name)})`
      : `${g.at} >= ${member.position}`;
    const lines = [
      `if (${g.items}.length === 0 || ${again}) {`,
      `  ${g.current} = {};`,
      `  ${g.items}.push(${g.current});`,
      '}',
      `${g.at} = ${member.position};`,
    ];
    if (g.members.some((m) => repeated(m.field))) lines.push(`${g.last} = ${quote(f.name)};`);
    let value = f.xmlName === '' ? wildcardRead(file, f) : decodeExpression(file, f.type, 'child', f.default);
    if (f.nillable) value = `${imports.runtime('isXsiNil')}(child) ? null : ${value}`;
    // A wildcard's elements one by one (XSD mode).
    const each = f.type.kind === 'any' && f.type.wildcard;
    lines.push(repeated(f) || each ? `(${g.current}.${f.name} ??= []).push(${value});` : `${g.current}.${f.name} = ${value};`);
    return lines;
  };
  /** The statements that take `child` into a field of the type. */
  const intoField = (f: FieldModel) => {
    let value = decodeExpression(file, f.type, 'child', f.default);
    if (f.nillable) value = `${imports.runtime('isXsiNil')}(child) ? null : ${value}`;
    const lines = [repeated(f) ? `(fields.${f.name} ??= []).push(${value});` : `fields.${f.name} = ${value};`];
    if (type.allOrder) lines.push(`order.push(${quote(f.name)});`);
    return lines;
  };
  const wildcardLines = plainWildcard
    ? plainWildcard.type.kind === 'any' && plainWildcard.type.wildcard
      ? [`(fields.${plainWildcard.name} ??= []).push(${wildcardRead(file, plainWildcard)});`]
      : [`fields.${plainWildcard.name} = (fields.${plainWildcard.name} ?? '') + ${imports.runtime('xmlFragmentOf')}(child);`]
    : groupWildcard
      ? intoGroup(groupWildcard, groupWildcard.members.find((m) => m.field.xmlName === '')!)
      : [];
  // The slots of each local name: a group's member or a field, told apart by namespace where that can matter.
  const slots = new Map<string, { namespace: string; lines: string[]; free?: string }[]>();
  const add = (f: FieldModel, lines: string[], free?: string) =>
    slots.set(f.xmlName, [...(slots.get(f.xmlName) ?? []), { namespace: f.namespace, lines, ...(free ? { free } : {}) }]);
  for (const g of groups) for (const member of g.members) if (member.field.xmlName !== '') add(member.field, intoGroup(g, member));
  // Beside a wildcard, an element of a field's name that the field holds already is the wildcard's.
  // An element the wildcard must take first (a required wildcard before the field, in the type's sequence) is its too.
  for (const f of type.fields.filter((f) => f.xmlName !== '' && !f.inline))
    add(
      f,
      intoField(f),
      plainWildcard && !repeated(f)
        ? `fields.${f.name} === undefined${wildcardFirst(type, plainWildcard, f) ? ` && fields.${plainWildcard.name} !== undefined` : ''}`
        : undefined,
    );
  w.write(`for (const child of ${imports.runtime('childElements')}(element))`).block(() => {
    w.write('switch (child.name)').block(() => {
      for (const [xmlName, same] of slots) {
        w.writeLine(`case ${quote(xmlName)}:`);
        if (same.length === 1 && !anyWildcard) {
          for (const line of same[0].lines) w.indent().write(line).newLine();
        } else {
          // Two slots of one local name, or a wildcard beside: the namespace tells them apart.
          for (const slot of same) {
            w.indent()
              .write(`if (child.namespaceUri === ${quote(slot.namespace)}${slot.free ? ` && ${slot.free}` : ''})`)
              .block(() => {
                for (const line of slot.lines) w.writeLine(line);
                w.writeLine('break;');
              });
          }
          for (const line of wildcardLines) w.indent().write(line).newLine();
        }
        w.indent().write('break;').newLine();
      }
      if (wildcardLines.length) {
        w.writeLine('default:');
        for (const line of wildcardLines) w.indent().write(line).newLine();
      }
    });
  });
  for (const g of groups) {
    w.writeLine(
      `if (${g.items}.length > 0) fields.${g.field.name} = ${g.items}.map((item) => new ${g.type.name}(item as ${g.type.fieldsInterface}));`,
    );
  }
}

/** Whether a type's sequence has a required place of its wildcard field before the field `f`'s. */
function wildcardFirst(type: ComplexTypeModel, wildcard: FieldModel, f: FieldModel): boolean {
  const top = type.particle;
  if (top.kind !== 'sequence') return false;
  const places = top.particles;
  const at = places.findIndex((p) => p.kind === 'field' && p.field === f.name);
  return places.some((p, i) => i < at && p.kind === 'field' && p.field === wildcard.name && (p.occurs?.min ?? wildcard.minOccurs) > 0);
}

/** An inline field's group: its class, each member with its place in the group's compositor (a choice's all 0), and the names fromXml reads it with. */
function groupOf(model: SchemaModel, field: FieldModel, i: number) {
  const type = model.types.find((t) => field.type.kind === 'complex' && t.name === field.type.typeName)!;
  const members: { field: FieldModel; position: number }[] = [];
  const leaves = (particle: ParticleModel, position: number) => {
    if (particle.kind === 'field') members.push({ field: type.fields.find((f) => f.name === particle.field)!, position });
    else for (const p of particle.particles) leaves(p, position);
  };
  const top = type.particle;
  if (top.kind === 'sequence') for (const [position, p] of top.particles.entries()) leaves(p, position);
  else leaves(top, 0);
  return { field, type, members, items: `group${i}Items`, current: `group${i}`, at: `group${i}At`, last: `group${i}Last` };
}

/** Whether a class writes something in its element's start tag: attributes, or the namespace of a QName it holds as text. */
export function hasAttributes(model: SchemaModel, ref: TypeRef): boolean {
  // An anyType value keeps the attributes it came with.
  if (ref.kind === 'any' && ref.lax) return true;
  const type = ref.kind === 'complex' ? model.types.find((t) => t.name === ref.typeName) : undefined;
  return (
    type !== undefined &&
    (type.attributes.length > 0 || type.anyAttribute === true || (type.text !== undefined && qnameValued(model, type.text) !== undefined))
  );
}

/** Whether the values of a simple type are QNames (a QName, a NOTATION, an enumeration of them), or lists of them. */
export function qnameValued(model: SchemaModel, ref: TypeRef): 'one' | 'list' | undefined {
  const isQName = (r: TypeRef): boolean => {
    if (r.kind === 'primitive') return r.builtin === 'QName' || r.builtin === 'NOTATION';
    if (r.kind === 'enum') {
      const base = model.enums.find((e) => e.name === r.typeName)?.base;
      return base !== undefined && isQName(base);
    }
    return false;
  };
  if (ref.kind === 'list') return isQName(ref.item) ? 'list' : undefined;
  return isQName(ref) ? 'one' : undefined;
}

/** The namespace declarations a value needs in its element's start tag (a QName's, with `prefix`), as an expression. */
export function valueDeclarations(file: EmitFile, ref: TypeRef, value: string, prefix: string): string | undefined {
  const qname = qnameValued(file.model, ref);
  if (qname === 'one') return `${file.imports.runtime('xsdQNameDeclaration')}(${value}, ${quote(prefix)})`;
  if (qname === 'list') return `${file.imports.runtime('xsdQNameListDeclarations')}(${value}, ${quote(prefix)})`;
  return undefined;
}

/**
 * A type's TypeScript (its tsType, or `written`, a type made of it: a field's, a result's), the names it holds
 * recorded in the file's imports: the runtime's XmlFragment, the contract's enumerations and classes (each member of
 * the union that stands for a class with derived ones).
 */
export function typeText(file: EmitFile, ref: TypeRef, written = ref.tsType): string {
  const { model, imports } = file;
  if (isXsiTyped(ref)) imports.runtime('XsiTyped');
  if (ref.kind === 'any') imports.runtime(ref.lax ? 'AnyType' : ref.wildcard ? 'WildcardElement' : 'XmlFragment');
  else if (ref.kind === 'enum') imports.local(TYPES, ref.typeName, 'type');
  else if (ref.kind === 'list') typeText(file, ref.item);
  else if (ref.kind === 'complex') {
    // The model writes the union as its members joined by ' | ' (model/polymorphism.ts).
    const union = model.types.find((t) => t.name === ref.typeName)?.union;
    for (const name of ref.tsType === union ? union.split(' | ') : [ref.typeName]) imports.local(TYPES, name, 'type');
  }
  return written;
}

/** A field's TypeScript (its type, `| null` when nillable, an array when repeated), its names recorded as typeText's. */
export function fieldType(file: EmitFile, f: FieldModel): string {
  return typeText(file, f.type, f.tsType);
}

/** Reads an element's value; `empty` (a simple type's default or fixed value) is the value of an empty element. */
export function decodeExpression(file: EmitFile, ref: TypeRef, element: string, empty?: string): string {
  if (ref.kind === 'complex') return `${file.imports.local(TYPES, ref.typeName)}.fromXml(${element})`;
  if (ref.kind === 'any' && ref.lax)
    return `${file.imports.runtime('readAnyType')}(${element}, ${file.imports.local(TYPES, GLOBAL_ELEMENTS)})`;
  if (ref.kind === 'any') return `${file.imports.runtime('xmlFragmentOf')}(${element})`;
  const text = empty === undefined ? `${element}.content` : `(${element}.content || ${quote(empty)})`;
  const value = simpleParse(file, ref, text, element);
  // The value kept with the xsi:type its element names, if any.
  return isXsiTyped(ref) ? `${file.imports.runtime('xsiTyped')}(${element}, ${value})` : value;
}

/** Reads a simple value (a built-in, an enumeration, a list of either) from its text; `context` is its element, when there is one. */
export function simpleParse(file: EmitFile, ref: TypeRef, text: string, context?: string): string {
  if (ref.kind === 'list') {
    const item = simpleParse(file, ref.item, 'item', context);
    if (ref.patterns) text = `${file.imports.runtime('checkXsdPatterns')}(${text}, ${patternList(ref.patterns)})`;
    return `${text}.split(/[\\t\\n\\r ]+/).filter((item) => item !== '').map((item) => ${item})`;
  }
  if (ref.kind === 'complex' || ref.kind === 'any') throw new Error('codegen: a simple type was expected');
  return valueCode(file.imports, ref, file.model).parse(text, context);
}

/** Writes a simple value as escaped XML text (a QName with `prefix`, which valueDeclarations declares). */
function simpleFormat(file: EmitFile, ref: TypeRef, value: string, prefix = 'q'): string {
  const { model, imports } = file;
  if (ref.kind === 'list') {
    if (qnameValued(model, ref))
      return `${imports.runtime('escapeXmlText')}(${imports.runtime('formatXsdQNameList')}(${value}, ${quote(prefix)}))`;
    if (ref.patterns) return patternedList(file, ref, value);
    return `${value}.map((item) => ${valueCode(imports, ref.item, model).format('item')}).join(' ')`;
  }
  if (ref.kind === 'complex' || ref.kind === 'any') throw new Error('codegen: a simple type was expected');
  return valueCode(imports, ref, model).format(value, prefix);
}

/** The value as text before XML escaping: escapeXmlAttribute escapes it for an attribute. */
export function plainText(file: EmitFile, ref: TypeRef, value: string, prefix = 'q'): string {
  const { model, imports } = file;
  if (ref.kind === 'list') {
    if (qnameValued(model, ref)) return `${imports.runtime('formatXsdQNameList')}(${value}, ${quote(prefix)})`;
    if (ref.patterns) return patternedList(file, ref, value);
    return `${value}.map((item) => ${valueCode(imports, ref.item, model).text('item')}).join(' ')`;
  }
  if (ref.kind === 'complex' || ref.kind === 'any') throw new Error('codegen: an attribute has a simple type');
  if (qnameValued(model, ref)) return `${imports.runtime('formatXsdQName')}(${value}, ${quote(prefix)})`;
  return valueCode(imports, ref, model).text(value);
}

/** A list of numbers, booleans or binary values written in forms its patterns (and its items') admit. */
function patternedList(file: EmitFile, ref: Extract<TypeRef, { kind: 'list' }>, value: string): string {
  const item = ref.item.kind === 'primitive' ? ref.item : undefined;
  const args = [value, quote(item?.primitive ?? 'string'), patternList(ref.patterns ?? [])];
  if (item?.patterns) args.push(patternList(item.patterns));
  return `${file.imports.runtime('formatXsdPatternedList')}(${args.join(', ')})`;
}

export function encodeExpression(file: EmitFile, ref: TypeRef, value: string): string {
  if (ref.kind === 'complex') return `${value}.toXml()`;
  if (ref.kind === 'any' && ref.lax)
    return `${file.imports.runtime('anyTypeContent')}(${value}, ${file.imports.local(TYPES, GLOBAL_ELEMENTS)})`;
  if (ref.kind === 'any') return value;
  return simpleFormat(file, ref, value);
}

/** `'<a' + '>'` → `'<a>'`: adjacent string literals of generated code joined, so that nothing is concatenated at run time for them. */
export function joinLiterals(expression: string): string {
  return expression.replace(/([^\\])' \+ '/g, '$1');
}

/**
 * Each declared fault as an error class a handler throws: its detail (the
 * fault's element) written in the fault's detail, soap:Server unless the
 * handler says the caller is at fault.
 */
function faultClasses(file: EmitFile): string[] {
  const { model, imports } = file;
  const seen = new Set<string>();
  return model.operations.flatMap((op) =>
    (op.soap?.faults ?? []).flatMap((fault) => {
      if (seen.has(fault.className)) return [];
      seen.add(fault.className);
      const { name, namespace } = fault.element;
      const tag = tagOf(model, name, namespace);
      const target = namespace === model.authoredNamespace;
      // After xmlns(), an empty literal that joinLiterals folds into the tag's next one.
      const declarations = model.prefixes
        ? ['xmlns(namespace)', quote('')]
        : target
          ? [quote(' xmlns="'), 'namespace', quote('"')]
          : [quote(` xmlns="${escapeXmlAttribute(namespace)}"`)];
      const attributes = hasAttributes(model, fault.type) ? ['detail.xmlAttributes()'] : [];
      const content = encodeExpression(file, fault.type, 'detail');
      const detail = [quote(`<${tag}`), ...declarations, ...attributes, quote('>'), content, quote(`</${tag}>`)].join(' + ');
      return [
        [
          `/** The declared fault ${fault.name}: its detail is element ${name}. */`,
          `export class ${fault.className} extends ${imports.runtime('DeclaredFault')} {`,
          `  constructor(readonly detail: ${typeText(file, fault.type)}, message = ${quote(`${fault.name}`)}, kind: 'client' | 'server' = 'server') {`,
          `    super(kind, message, (namespace) => ${joinLiterals(detail)});`,
          '  }',
          '}',
        ].join('\n'),
      ];
    }),
  );
}
