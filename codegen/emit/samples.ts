/**
 * Samples written as TypeScript: the expression that builds a sample
 * (model/samples/, plain data) in generated/routes.ts, where the help pages,
 * the mock and `npm run corpus` take it.
 */
import type { ObjectSample, Sample, XmlPiece } from '../model/samples/sample-tree';
import { escapeXmlAttribute } from 'contract-runtime/xml';
import type { EmitFile } from './file';
import { TYPES } from './header';
import { quote } from './ts';
import { simpleParse, tagOf } from './types';

/** The expression building a sample's value. */
export function sampleCode(file: EmitFile, sample: Sample): string {
  switch (sample.kind) {
    case 'object':
      return objectCode(file, sample);
    case 'array':
      return `[${sample.items.map((item) => sampleCode(file, item)).join(', ')}]`;
    case 'string':
      return quote(sample.value);
    case 'number':
    case 'boolean':
      return String(sample.value);
    case 'bigint':
      return `${sample.value}n`;
    case 'bytes':
      return `new Uint8Array(${sample.length})`;
    case 'lexical':
      return simpleParse(file, sample.type, quote(sample.text));
    case 'nil':
      return 'null';
    case 'xml':
      return sample.pieces.length === 0 ? quote('') : sample.pieces.map((piece) => pieceCode(file, piece)).join(' + ');
  }
}

/** `new X({ a: …, b: … })`. */
function objectCode(file: EmitFile, sample: ObjectSample): string {
  return `new ${file.imports.local(TYPES, sample.class)}({ ${sample.members.map((m) => `${m.name}: ${sampleCode(file, m.value)}`).join(', ')} })`;
}

/**
 * A piece of XML as a string expression: markup as a literal; an element of a class, written by the class, its start
 * tag declaring every prefix (xmlns()) when the contract writes prefixes, else its namespace as the default one.
 */
function pieceCode(file: EmitFile, piece: XmlPiece): string {
  if (piece.kind === 'markup') return quote(piece.xml);
  const { model, imports } = file;
  const tag = model.prefixes ? tagOf(model, piece.name, piece.namespace) : piece.name;
  const open = model.prefixes
    ? `${quote(`<${tag}`)} + ${imports.local(TYPES, 'xmlns')}(${quote(escapeXmlAttribute(model.authoredNamespace))})`
    : quote(`<${tag} xmlns="${escapeXmlAttribute(piece.namespace)}"`);
  const attributes = piece.attributes ? ' + v.xmlAttributes()' : '';
  const value = objectCode(file, piece.value);
  return `((v: ${imports.local(TYPES, piece.value.class, 'type')}) => ${open}${attributes} + '>' + v.toXml() + ${quote(`</${tag}>`)})(${value})`;
}
