/**
 * Emits elements.ts: for each global element of the schemas, a reader (its
 * document in, a value of its type out) and a writer (a value in, its
 * document out), and ELEMENTS, every element's pair by `{namespace}name`.
 */
import type { ElementModel, SchemaModel } from '../model/model';
import { identifier } from '../model/names';
import { CODEC_EXPORTS } from 'contract-runtime/codec';
import { escapeXmlAttribute } from 'contract-runtime/xml';
import { type EmitFile, emitFile } from './file';
import { GENERATED, type Output, TYPES } from './header';
import { byLowerCase, doubleQuote } from './ts';
import { decodeExpression, encodeExpression, globalElementExpression, hasAttributes, typeText, valueDeclarations } from './types';
import { enumValues } from './values';

export function emitElements(model: SchemaModel, output: Output = GENERATED): string {
  const file = emitFile(model);
  const { imports } = file;
  // readByType and writeByType are ROOT_TYPES' (no element's reader or writer takes their names), and no reader or
  // writer takes the name of what the file imports: the runtime's (an ISO 20022 message's root is `Document`: its
  // reader is readDocument2, beside the runtime's readDocument), a class or enumeration of types.ts.
  const used = new Set<string>(['ByType']);
  const imported = new Set<string>([
    ...CODEC_EXPORTS.values,
    ...CODEC_EXPORTS.types,
    ...model.types.map((t) => t.name),
    ...model.enums.flatMap((e) => [e.name, enumValues(e.name)]),
  ]);
  const taken = (name: string) => used.has(name) || imported.has(`read${name}`) || imported.has(`write${name}`);
  const functionName = (element: ElementModel) => {
    const base = identifier(element.name).replace(/^./, (c) => c.toUpperCase());
    let name = base;
    for (let i = 2; taken(name); i++) name = `${base}${i}`;
    used.add(name);
    return name;
  };
  // The root declares every namespace the contract writes with a prefix (its descendants may be in any of them).
  const declarations = () => ` + ${imports.local(TYPES, 'xmlns')}(${doubleQuote(escapeXmlAttribute(model.authoredNamespace))})`;
  const blocks: string[] = [];
  const entries: string[] = [];
  for (const element of model.elements) {
    const name = functionName(element);
    // An element of anyType kept as XML (not read lax) is kept whole, xsi:nil and all.
    const kept = element.type.kind === 'any' && !element.type.lax;
    const nillable = element.nillable && !kept;
    const type = typeText(file, element.type);
    const tsType = nillable ? `${type} | null` : type;
    const own = model.prefixes
      ? declarations()
      : element.namespace !== ''
        ? ` + ' xmlns="' + ${doubleQuote(escapeXmlAttribute(element.namespace))} + '"'`
        : '';
    const decode = kept ? `${imports.runtime('xmlFragmentOf')}(root)` : decodeExpression(file, element.type, 'root', element.default);
    const write = kept ? 'value' : globalElementExpression(file, element, 'value', own);
    const qname = `{${element.namespace}}${element.name}`;
    const read = `${imports.runtime('readDocument')}(text, ${doubleQuote(element.name)}, ${doubleQuote(element.namespace)}, (root) => ${nillable ? `${imports.runtime('isXsiNil')}(root) ? null : ${decode}` : decode})`;
    blocks.push(
      [
        `/** Reads a document whose root is element ${qname}. */`,
        `export function read${name}(text: string): ${tsType} {`,
        `  return ${read};`,
        '}',
        '',
        `/** Writes a document whose root is element ${qname}. */`,
        `export function write${name}(value: ${tsType}): string {`,
        `  return ${imports.runtime('XML_DECLARATION')} + ${nillable ? `(${write})` : write};`,
        '}',
      ].join('\n'),
    );
    entries.push(
      `  ${doubleQuote(qname)}: { name: ${doubleQuote(element.name)}, namespace: ${doubleQuote(element.namespace)}, read: read${name}, write: write${name} },`,
    );
  }
  const elements = `export const ELEMENTS = {\n${entries.join('\n')}\n} as const satisfies Record<string, ${imports.runtime('ElementCodec')}<unknown>>;\n`;
  const body = `${blocks.join('\n\n')}\n\n/** Every global element's reader and writer, by \`{namespace}name\`. */\n${elements}${rootTypes(file, declarations)}`;
  return `${output.header}\n\n${[imports.runtimeDeclarations(output.runtime), ...typesImport(file)].join('\n')}\n\n${body}`;
}

/**
 * ROOT_TYPES, readByType and writeByType: a document whose root no global element declares, read and written by the
 * global type its xsi:type names (a validation root assessed by its type), each type by `{namespace}name`.
 */
function rootTypes(file: EmitFile, declarations: () => string): string {
  const { model, imports } = file;
  if (!model.rootTypes?.length) return '';
  // What the root declares for its content: the prefixes the contract writes with, or its default namespace.
  const own = model.prefixes
    ? declarations().slice(3)
    : model.authoredNamespace !== ''
      ? doubleQuote(` xmlns="${escapeXmlAttribute(model.authoredNamespace)}"`)
      : "''";
  const entries = model.rootTypes.map(({ name, namespace, type }) => {
    const tsType = typeText(file, type);
    const element = imports.runtime('XmlElement');
    if (type.kind === 'complex') {
      const attributes = hasAttributes(model, type) ? ' + value.xmlAttributes()' : '';
      return `  ${doubleQuote(`{${namespace}}${name}`)}: { read: (root: ${element}) => ${decodeExpression(file, type, 'root')}, write: (value: ${tsType}) => ({ attributes: ${own}${attributes}, content: value.toXml() }) },`;
    }
    const qname = valueDeclarations(file, type, 'value', 'q');
    return `  ${doubleQuote(`{${namespace}}${name}`)}: { read: (root: ${element}) => ${decodeExpression(file, type, 'root')}, write: (value: ${tsType}) => ({ attributes: ${own}${qname ? ` + ${qname}` : ''}, content: ${encodeExpression(file, type, 'value')} }) },`;
  });
  const types = imports.runtime('RootType');
  const root = imports.runtime('TypedRoot');
  return [
    '',
    "/** The global types a document's root may name with xsi:type where no global element declares it, by `{namespace}name`. */",
    `export const ROOT_TYPES: Readonly<Record<string, ${types}>> = {\n${entries.join('\n')}\n};`,
    '',
    '/** Reads a document whose root no global element declares, by the global type its xsi:type names. */',
    `export function readByType(text: string): ${root} {`,
    `  return ${imports.runtime('readTypedRoot')}(text, ROOT_TYPES);`,
    '}',
    '',
    '/** Writes a document read by readByType, its root as it was. */',
    `export function writeByType(root: ${root}): string {`,
    `  return ${imports.runtime('writeTypedRoot')}(root, ROOT_TYPES);`,
    '}',
    '',
  ].join('\n');
}

/**
 * The import of ./types: the classes, enumerations (as types) and xmlns the readers and writers name, in lower-case
 * order, then the enumerations' value arrays they read with.
 */
function typesImport({ model, imports }: EmitFile): string[] {
  const isValues = (name: string) => model.enums.some((e) => enumValues(e.name) === name);
  const names = imports.localOf(TYPES);
  const declared = names
    .filter((name) => !isValues(name))
    .sort(byLowerCase)
    .map((name) => (model.enums.some((e) => e.name === name) ? `type ${name}` : name));
  const listed = [...declared, ...names.filter(isValues)];
  return listed.length ? [`import { ${listed.join(', ')} } from "./types";`] : [];
}
