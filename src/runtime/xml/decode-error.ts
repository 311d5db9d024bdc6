import type { XmlElement } from './xml-engine';

/**
 * A value that does not fit the generated type (only possible for input not validated first). `at` names the
 * element it was found in (`/Document/CstmrCdtTrfInitn/PmtInf[2]/Dbtr`) and `line` its line, when a generated
 * reader read it (decodeErrorAt).
 */
export class DecodeError extends Error {
  override name = 'DecodeError';
  at?: string;
  line?: number;
}

/**
 * The error a generated reader of `element` throws on: a DecodeError not yet placed is given the path and line of
 * `element` (the innermost reader that fails places it), said after its message; any other error as it is.
 */
export function decodeErrorAt(error: unknown, element: XmlElement): unknown {
  if (!(error instanceof DecodeError) || error.at !== undefined) return error;
  error.at = pathOf(element);
  error.line = element.line;
  error.message += ` (at ${error.at}${error.line > 0 ? `, line ${error.line}` : ''})`;
  return error;
}

/** An element's path from its document's root: each step its name, and its position among same-named siblings after the first. */
function pathOf(element: XmlElement): string {
  const steps: string[] = [];
  for (let at: XmlElement | null = element; at; at = at.parent) {
    let position = 1;
    for (let sibling = at.prev; sibling; sibling = sibling.prev) {
      const other = sibling as XmlElement;
      if (other.name === at.name && other.namespaceUri === at.namespaceUri && 'attrs' in other) position++;
    }
    steps.unshift(position > 1 ? `${at.name}[${position}]` : at.name);
  }
  return `/${steps.join('/')}`;
}
