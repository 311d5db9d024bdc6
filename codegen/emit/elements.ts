/**
 * Emits elements.ts: for each global element of the schemas, a reader (its
 * document in, a value of its type out) and a writer (a value in, its
 * document out), and ELEMENTS, every element's pair by `{namespace}name`.
 */
import type { ElementModel, SchemaModel } from '../model/model';
import { identifier } from '../model/names';
import { escapeXmlAttribute } from '../../src/runtime/xml/xml-escape';
import { byLowerCase, doubleQuote } from './ts';
import { helpersUsed } from './values';
import { decodeExpression, elementExpression } from './types';
import { GENERATED, type Output, runtimeImport } from './header';

export function emitElements(model: SchemaModel, output: Output = GENERATED): string {
  const used = new Set<string>();
  const functionName = (element: ElementModel) => {
    const base = identifier(element.name).replace(/^./, (c) => c.toUpperCase());
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}${i}`;
    used.add(name);
    return name;
  };
  const declarations = model.prefixes ? ` + xmlns(${doubleQuote(escapeXmlAttribute(model.authoredNamespace))})` : '';
  const blocks: string[] = [];
  const entries: string[] = [];
  const classes = new Set<string>();
  for (const element of model.elements) {
    const name = functionName(element);
    // An element of anyType is kept whole as XML, xsi:nil and all.
    const nillable = element.nillable && element.type.kind !== 'any';
    const tsType = nillable ? `${element.type.tsType} | null` : element.type.tsType;
    // A type with derived types: the classes of the union it holds.
    if (element.type.kind === 'complex')
      for (const member of [element.type.typeName, ...element.type.tsType.split(' | ')]) classes.add(member);
    if (element.type.kind === 'enum') classes.add(element.type.typeName);
    // The root declares every namespace the contract writes with a prefix (its descendants may be in any of them).
    const own = model.prefixes
      ? declarations
      : element.namespace !== ''
        ? ` + ' xmlns="' + ${doubleQuote(escapeXmlAttribute(element.namespace))} + '"'`
        : '';
    const decode = element.type.kind === 'any' ? 'xmlFragmentOf(root)' : decodeExpression(model, element.type, 'root', element.default);
    const write =
      element.type.kind === 'any'
        ? 'value'
        : elementExpression(
            model,
            { xmlName: element.name, namespace: element.namespace, type: element.type, nillable: element.nillable },
            'value',
            own,
          );
    const qname = `{${element.namespace}}${element.name}`;
    blocks.push(
      [
        `/** Reads a document whose root is element ${qname}. */`,
        `export function read${name}(text: string): ${tsType} {`,
        `  return readDocument(text, ${doubleQuote(element.name)}, ${doubleQuote(element.namespace)}, (root) => ${nillable ? `isXsiNil(root) ? null : ${decode}` : decode});`,
        '}',
        '',
        `/** Writes a document whose root is element ${qname}. */`,
        `export function write${name}(value: ${tsType}): string {`,
        `  return XML_DECLARATION + ${nillable ? `(${write})` : write};`,
        '}',
      ].join('\n'),
    );
    entries.push(
      `  ${doubleQuote(qname)}: { name: ${doubleQuote(element.name)}, namespace: ${doubleQuote(element.namespace)}, read: read${name}, write: write${name} },`,
    );
  }
  const body = `${blocks.join('\n\n')}\n\n/** Every global element's reader and writer, by \`{namespace}name\`. */\nexport const ELEMENTS = {\n${entries.join('\n')}\n} as const satisfies Record<string, ElementCodec<unknown>>;\n`;
  const typeOnly = ['ElementCodec', 'XmlFragment'];
  const codec = [
    'ElementCodec',
    'XmlFragment',
    'XML_DECLARATION',
    'readDocument',
    'isXsiNil',
    'XSI_NAMESPACE',
    'xmlFragmentOf',
    'escapeXmlText',
    'formatXsdBoolean',
    'parseXsdBoolean',
  ]
    .filter((n) => n === 'ElementCodec' || new RegExp(`\\b${n}\\b`).test(body))
    .sort(byLowerCase)
    .map((n) => (typeOnly.includes(n) ? `type ${n}` : n));
  const fromTypes = [...classes, ...(declarations ? ['xmlns'] : [])].sort(byLowerCase);
  const values = helpersUsed(body, 'xsd-values');
  const enumValues = [...classes].map((c) => `${c}Values`).filter((n) => body.includes(n));
  const imports = [
    runtimeImport([...codec, ...values], output.runtime),
    ...(fromTypes.length + enumValues.length
      ? [
          `import { ${[...fromTypes.map((c) => (model.enums.some((e) => e.name === c) ? `type ${c}` : c)), ...enumValues].join(', ')} } from "./types";`,
        ]
      : []),
  ];
  return `${output.header}\n\n${imports.join('\n')}\n\n${body}`;
}
