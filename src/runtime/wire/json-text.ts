/**
 * JSON text as ASP.NET AJAX writes it: JSON.stringify, then `<`, `>`, `&`
 * and `'` as \u escapes, so an answer or a served script can never close a
 * <script> element or an HTML attribute it is pasted into.
 */
const HTML_SENSITIVE = /[<>&'\u2028\u2029]/g;

const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A string value as a JSON string literal (also a valid JavaScript one). */
export function jsonString(value: string): string {
  return JSON.stringify(value).replace(HTML_SENSITIVE, escapeChar);
}
