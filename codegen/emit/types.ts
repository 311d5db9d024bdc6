import { type CodeBlockWriter, Project, type SourceFile, StructureKind } from 'ts-morph';
import type { ComplexTypeModel, ContractModel, FieldModel, TypeRef } from '../model';
import { GENERATED_HEADER } from './header';

/**
 * Emits generated/types.ts: one class per complex type of the schema (named
 * types, and anonymous ones named after their element), with typed optional
 * fields, decoding from a schema-validated libxml2-wasm element or from HTTP
 * fields, and encoding of the element's content.
 */
export function emitTypes(model: ContractModel): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('types.ts', '', { overwrite: true });
  file.addImportDeclaration({ isTypeOnly: true, namedImports: ['XmlElement'], moduleSpecifier: '../src/xml/xml-engine' });
  file.addImportDeclaration({
    namedImports: ['childElements', 'DecodeError', 'escapeXmlText', 'formatXsdBoolean', 'parseXsdBoolean'],
    moduleSpecifier: '../src/xml/xml-codec',
  });
  for (const type of model.types) emitClass(file, type);
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return `${GENERATED_HEADER}\n\n${file.getFullText()}`;
}

const required = (field: FieldModel) => field.minOccurs > 0;

function emitClass(file: SourceFile, type: ComplexTypeModel): void {
  const fieldsInterface = type.fieldsInterface;
  const description = type.anonymous ? `the type of element ${type.name}` : `complex type ${type.name}`;
  file.addInterface({
    name: fieldsInterface,
    isExported: true,
    docs: [`The fields of ${description}, in sequence order.`],
    properties: type.fields.map((f) => ({ name: f.name, type: f.type.tsType, hasQuestionToken: !required(f) })),
  });
  const allRequiredAbsent = type.fields.every((f) => !required(f));
  const onlyPrimitives = type.fields.every((f) => f.type.kind === 'primitive');
  file.addClass({
    name: type.name,
    isExported: true,
    implements: [fieldsInterface],
    docs: [`${description[0].toUpperCase()}${description.slice(1)}.`],
    properties: type.fields.map((f) => ({
      name: f.name,
      type: f.type.tsType,
      hasQuestionToken: !required(f),
    })),
    ctors: [
      {
        parameters: [{ name: 'fields', type: fieldsInterface, initializer: allRequiredAbsent ? '{}' : undefined }],
        statements: type.fields.map((f) => `this.${f.name} = fields.${f.name};`),
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
          w.write('for (const child of childElements(element))').block(() => {
            w.write('switch (child.name)').block(() => {
              for (const f of type.fields) {
                w.writeLine(`case '${f.name}':`);
                w.indent()
                  .write(`fields.${f.name} = ${decodeExpression(f.type, 'child')};`)
                  .newLine();
                w.indent().write('break;').newLine();
              }
            });
          });
          for (const f of type.fields.filter(required)) {
            w.writeLine(`if (fields.${f.name} === undefined) throw new DecodeError('${f.name} is required');`);
          }
          w.writeLine(`return new ${type.name}(fields as ${fieldsInterface});`);
        },
      },
      ...(onlyPrimitives
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
                    const expr =
                      f.type.kind === 'primitive' && f.type.primitive === 'boolean'
                        ? `((v) => (v === undefined ? undefined : parseXsdBoolean(v)))(${value})`
                        : value;
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
          for (const f of type.fields) {
            const write = `xml += '<${f.name}>' + ${encodeExpression(f.type, `this.${f.name}`)} + '</${f.name}>';`;
            if (required(f)) w.writeLine(write);
            else w.write(`if (this.${f.name} !== undefined)`).block(() => w.writeLine(write));
          }
          w.writeLine('return xml;');
        },
      },
    ],
  });
}

function decodeExpression(ref: TypeRef, element: string): string {
  if (ref.kind === 'complex') return `${ref.typeName}.fromXml(${element})`;
  return ref.primitive === 'boolean' ? `parseXsdBoolean(${element}.content)` : `${element}.content`;
}

export function encodeExpression(ref: TypeRef, value: string): string {
  if (ref.kind === 'complex') return `${value}.toXml()`;
  return ref.primitive === 'boolean' ? `formatXsdBoolean(${value})` : `escapeXmlText(${value})`;
}
