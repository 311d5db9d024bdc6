import { type CodeBlockWriter, Project, type SourceFile, StructureKind } from 'ts-morph';
import type { AttributeModel, ComplexTypeModel, ContractModel, FieldModel, TypeRef } from '../model';
import { GENERATED_HEADER } from './header';
import { byLowerCase, enumValues, helpersUsed, type SimpleTypeRef, valueCode } from './values';

/** What every types.ts imports from xml-codec; a contract with more types adds to it. */
const XML_CODEC_IMPORTS = ['childElements', 'DecodeError', 'escapeXmlText', 'formatXsdBoolean', 'parseXsdBoolean'];

/**
 * Emits generated/types.ts: one class per complex type of the schema (named
 * types, and anonymous ones named after their element), with typed optional
 * fields, decoding from a schema-validated libxml2-wasm element or from HTTP
 * fields, and encoding of the element's content; and each enumeration as a
 * union of its values.
 */
export function emitTypes(model: ContractModel): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('types.ts', '', { overwrite: true });
  for (const e of model.enums) {
    file.addTypeAlias({
      name: e.name,
      isExported: true,
      docs: [`Enumeration ${e.name}: its values, in schema order.`],
      type: e.values.map((v) => JSON.stringify(v).replaceAll('"', "'")).join(' | '),
    });
    file.addStatements(
      `export const ${enumValues(e.name)}: readonly ${e.name}[] = [${e.values.map((v) => JSON.stringify(v).replaceAll('"', "'")).join(', ')}];`,
    );
  }
  for (const type of model.types) emitClass(file, model, type);
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  const body = file.getFullText();
  const xmlCodec = [
    ...new Set([...XML_CODEC_IMPORTS, ...['escapeXmlAttribute', 'isXsiNil', 'XSI_NAMESPACE'].filter((n) => body.includes(n))]),
  ];
  const values = helpersUsed(body, 'xsd-values');
  const imports = [
    'import type { XmlElement } from "../src/runtime/xml/xml-engine";',
    `import { ${xmlCodec.sort(byLowerCase).join(', ')} } from "../src/runtime/xml/xml-codec";`,
    ...(values.length ? [`import { ${values.join(', ')} } from "../src/runtime/xml/xsd-values";`] : []),
  ];
  return `${GENERATED_HEADER}\n\n${imports.join('\n')}\n\n${body.trimStart()}`;
}

const required = (field: FieldModel | AttributeModel) => ('minOccurs' in field ? field.minOccurs > 0 : field.required);

function emitClass(file: SourceFile, model: ContractModel, type: ComplexTypeModel): void {
  const fieldsInterface = type.fieldsInterface;
  const description = type.anonymous ? `the type of element ${type.name}` : `complex type ${type.name}`;
  const properties = [
    ...type.fields.map((f) => ({ name: f.name, type: f.tsType, hasQuestionToken: !required(f) })),
    ...type.attributes.map((a) => ({ name: a.name, type: a.type.tsType, hasQuestionToken: !required(a) })),
  ];
  file.addInterface({
    name: fieldsInterface,
    isExported: true,
    docs: [`The fields of ${description}, in sequence order${type.attributes.length ? ', then its attributes' : ''}.`],
    properties,
  });
  const allRequiredAbsent = [...type.fields, ...type.attributes].every((f) => !required(f));
  const fromFields =
    type.attributes.length === 0 && type.fields.every((f) => f.type.kind !== 'complex' && f.maxOccurs === 1 && !f.nillable);
  file.addClass({
    name: type.name,
    isExported: true,
    implements: [fieldsInterface],
    docs: [`${description[0].toUpperCase()}${description.slice(1)}.`],
    properties,
    ctors: [
      {
        parameters: [{ name: 'fields', type: fieldsInterface, initializer: allRequiredAbsent ? '{}' : undefined }],
        statements: [...type.fields, ...type.attributes].map((f) => `this.${f.name} = fields.${f.name};`),
      },
    ],
    methods: [
      {
        name: 'fromXml',
        isStatic: true,
        docs: ['Decodes an element of this type that has been validated against the schema.'],
        parameters: [{ name: 'element', type: 'XmlElement' }],
        returnType: type.name,
        statements: (w) => {
          w.writeLine(`const fields: Partial<${fieldsInterface}> = {};`);
          for (const a of type.attributes) {
            const code = valueCode(a.type as SimpleTypeRef, firstValue(model, a.type));
            w.writeLine(`const ${a.name} = element.attr('${a.name}')?.value;`);
            w.writeLine(`if (${a.name} !== undefined) fields.${a.name} = ${code.parse(a.name)};`);
          }
          w.write('for (const child of childElements(element))').block(() => {
            w.write('switch (child.name)').block(() => {
              for (const f of type.fields) {
                let value = decodeExpression(model, f.type, 'child');
                if (f.nillable) value = `isXsiNil(child) ? null : ${value}`;
                w.writeLine(`case '${f.name}':`);
                w.indent()
                  .write(f.maxOccurs === 'unbounded' ? `(fields.${f.name} ??= []).push(${value});` : `fields.${f.name} = ${value};`)
                  .newLine();
                w.indent().write('break;').newLine();
              }
            });
          });
          for (const f of [...type.fields, ...type.attributes].filter(required)) {
            w.writeLine(`if (fields.${f.name} === undefined) throw new DecodeError('${f.name} is required');`);
          }
          w.writeLine(`return new ${type.name}(fields as ${fieldsInterface});`);
        },
      },
      ...(fromFields
        ? [
            {
              kind: StructureKind.Method as const,
              name: 'fromFields',
              isStatic: true,
              docs: ['Decodes HTTP GET query or HTTP POST form fields; an absent field stays undefined.'],
              parameters: [{ name: 'field', type: '(name: string) => string | undefined' }],
              returnType: type.name,
              statements: (w: CodeBlockWriter) => {
                w.write(`return new ${type.name}(`).inlineBlock(() => {
                  for (const f of type.fields) {
                    const value = `field('${f.name}')`;
                    const parse = valueCode(f.type as SimpleTypeRef, firstValue(model, f.type)).parse('v');
                    const expr = parse === 'v' ? value : `((v) => (v === undefined ? undefined : ${parse}))(${value})`;
                    w.writeLine(`${f.name}: ${expr},`);
                  }
                });
                w.write(allRequiredAbsent ? ');' : ` as ${fieldsInterface});`);
              },
            },
          ]
        : []),
      {
        name: 'toXml',
        docs: ['Encodes the content of an element of this type: its child elements, in sequence order.'],
        returnType: 'string',
        statements: (w) => {
          w.writeLine("let xml = '';");
          for (const f of type.fields) writeField(w, model, f);
          w.writeLine('return xml;');
        },
      },
      ...(type.attributes.length
        ? [
            {
              kind: StructureKind.Method as const,
              name: 'xmlAttributes',
              docs: ["Encodes this type's attributes, each with a space before it, for the start tag its user writes."],
              returnType: 'string',
              statements: (w: CodeBlockWriter) => {
                w.writeLine("let xml = '';");
                for (const a of type.attributes) {
                  const write = `xml += ' ${a.name}="' + escapeXmlAttribute(${formatPlain(a.type, `this.${a.name}`)}) + '"';`;
                  if (required(a)) w.writeLine(write);
                  else w.write(`if (this.${a.name} !== undefined)`).block(() => w.writeLine(write));
                }
                w.writeLine('return xml;');
              },
            },
          ]
        : []),
    ],
  });
}

/** One field of toXml: absent when undefined, xsi:nil when null, each item of an array as an element of its own. */
function writeField(w: CodeBlockWriter, model: ContractModel, f: FieldModel): void {
  const element = (value: string) => {
    const start = hasAttributes(model, f.type) ? `'<${f.name}' + ${value}.xmlAttributes() + '>'` : `'<${f.name}>'`;
    const written = `${start} + ${encodeExpression(f.type, value)} + '</${f.name}>'`;
    const nil = `'<${f.name} xsi:nil="true" xmlns:xsi="' + XSI_NAMESPACE + '" />'`;
    return `xml += ${f.nillable ? `${value} === null ? ${nil} : ${written}` : written};`;
  };
  if (f.maxOccurs === 'unbounded') {
    w.write(`for (const item of this.${f.name}${required(f) ? '' : ' ?? []'})`).block(() => w.writeLine(element('item')));
  } else if (required(f)) w.writeLine(element(`this.${f.name}`));
  else w.write(`if (this.${f.name} !== undefined)`).block(() => w.writeLine(element(`this.${f.name}`)));
}

function hasAttributes(model: ContractModel, ref: TypeRef): boolean {
  return ref.kind === 'complex' && (model.types.find((t) => t.name === ref.typeName)?.attributes.length ?? 0) > 0;
}

/** The first value of an enumeration (its sample). */
export function firstValue(model: ContractModel, ref: TypeRef): string | undefined {
  return ref.kind === 'enum' ? model.enums.find((e) => e.name === ref.typeName)?.values[0] : undefined;
}

function decodeExpression(model: ContractModel, ref: TypeRef, element: string): string {
  if (ref.kind === 'complex') return `${ref.typeName}.fromXml(${element})`;
  return valueCode(ref, firstValue(model, ref)).parse(`${element}.content`);
}

/** The value as text before XML escaping: escapeXmlAttribute escapes it for an attribute. */
function formatPlain(ref: TypeRef, value: string): string {
  if (ref.kind === 'complex') throw new Error('codegen: an attribute has a simple type');
  return valueCode(ref).text(value);
}

export function encodeExpression(ref: TypeRef, value: string): string {
  if (ref.kind === 'complex') return `${value}.toXml()`;
  return valueCode(ref).format(value);
}
