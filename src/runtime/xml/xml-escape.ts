/**
 * XML escaping, written once: character data and attribute values, as the
 * runtime, the generated code and codegen write them (codegen imports these
 * too, for the XML it writes into generated code).
 */
import { escapeEach, type Escapes } from '../escape';

/** `&` first, so that the entities written by the others stay as they are. */
const TEXT_ESCAPES: Escapes = [
  ['&', /&/g, '&amp;'],
  ['<', /</g, '&lt;'],
  ['>', />/g, '&gt;'],
  ['\r', /\r/g, '&#xD;'],
];
/** Both quotes, so that the value may stand in either; white space as references, so that normalisation keeps it. */
const ATTRIBUTE_ESCAPES: Escapes = [
  ...TEXT_ESCAPES,
  ['"', /"/g, '&quot;'],
  ["'", /'/g, '&apos;'],
  ['\n', /\n/g, '&#xA;'],
  ['\t', /\t/g, '&#x9;'],
];

/** Escapes character data; `\r` too, so that it survives end-of-line normalisation. */
export function escapeXmlText(value: string): string {
  return escapeEach(value, TEXT_ESCAPES);
}

/** Escapes an attribute value, in double or single quotes. */
export function escapeXmlAttribute(value: string): string {
  return escapeEach(value, ATTRIBUTE_ESCAPES);
}
