import type { OperationName, OperationsOf, Route } from '../definition';
import { clientError } from '../errors';
import { DecodeError } from '../xml/xml-codec';

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

/**
 * The request of `route` read from fields (HTTP GET and POST, JSON): a value that does not fit its type is
 * the caller's mistake, a client error saying which, not a failure of the service.
 */
export function requestOfFields<Ops extends OperationsOf<Ops>, K extends OperationName<Ops>>(
  route: Route<Ops, K>,
  field: (name: string) => string | undefined,
): Ops[K]['request'] {
  try {
    return route.decodeFields(field);
  } catch (error) {
    if (error instanceof DecodeError) throw clientError(`The request does not fit the contract: ${error.message}.`);
    throw error;
  }
}
