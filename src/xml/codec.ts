/**
 * The small run-time the generated classes and routes encode and decode with:
 * XML escaping for writing, XML Schema value spaces for reading. Parsing
 * itself is libxmljs2's; nothing here reads XML syntax.
 */
import type { Element } from 'libxmljs2';

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\n': '&#xA;',
  '\t': '&#x9;',
};

/** Escapes character data; `\r` too, so that it survives end-of-line normalisation. */
export function escapeXmlText(value: string): string {
  return /[&<>\r]/.test(value) ? value.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]) : value;
}

export function escapeXmlAttribute(value: string): string {
  return /[&<>"'\r\n\t]/.test(value) ? value.replace(/[&<>"'\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c]) : value;
}

/** XML Schema boolean: `true`/`1` and `false`/`0`, surrounding white space collapsed. */
export function parseXsdBoolean(text: string): boolean {
  switch (text.trim()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw new DecodeError('a boolean must be true, false, 1 or 0');
  }
}

export function formatXsdBoolean(value: boolean): string {
  return value ? 'true' : 'false';
}

/** The element children of an element, in document order. */
export function childElements(element: Element): Element[] {
  return element.childNodes().filter((node): node is Element => node.type() === 'element');
}

/** A value that does not fit the generated type (only possible for input not validated first). */
export class DecodeError extends Error {
  override name = 'DecodeError';
}
