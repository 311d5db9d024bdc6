import { clientError } from '../errors';

/**
 * Parses application/x-www-form-urlencoded text (a query string or a form
 * body) into name → values, strictly: `+` is a space, a malformed
 * percent-escape or invalid UTF-8 is a client error, not a replacement
 * character.
 */
export function parseUrlEncoded(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  if (text === '') return fields;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

function decode(component: string): string {
  try {
    return decodeURIComponent(component.includes('+') ? component.replace(/\+/g, ' ') : component);
  } catch {
    throw clientError('The query or form is not valid percent-encoded UTF-8.');
  }
}
