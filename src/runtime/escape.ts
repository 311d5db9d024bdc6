/**
 * Escaping, written once: text for a markup language (a table of the
 * characters to escape, escapeEach; the XML tables are xml/xml-escape.ts's,
 * HTML's is here), and text as a literal of a regular expression.
 */

/** Escaping text for a markup language: each character to escape, a global pattern for it, and what it becomes. */
export type Escapes = readonly (readonly [char: string, all: RegExp, entity: string])[];

/**
 * One global replace per character that occurs: faster on a long text (an
 * HTML fragment) than one pass with a character class and a callback, and
 * nothing but a few scans when nothing needs escaping.
 */
export function escapeEach(value: string, escapes: Escapes): string {
  let out = value;
  for (const [char, all, entity] of escapes) if (out.includes(char)) out = out.replace(all, entity);
  return out;
}

/** `&` first, so that the entities written by the others stay as they are; both quotes, for an attribute in either. */
const HTML_ESCAPES: Escapes = [
  ['&', /&/g, '&amp;'],
  ['<', /</g, '&lt;'],
  ['>', />/g, '&gt;'],
  ['"', /"/g, '&quot;'],
  ["'", /'/g, '&#39;'],
];

/** Escapes text for HTML, as character data or as an attribute value in double or single quotes. */
export function escapeHtml(text: string): string {
  return escapeEach(text, HTML_ESCAPES);
}

/** A text as a regular expression that matches it, and only it: each character of the syntax behind a backslash. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
