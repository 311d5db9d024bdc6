import { escapeRegExp } from 'contract-runtime/xml';
import { ADDRESS_MARKER } from '../documents/wsdl';
import type { ContractModel, Segment } from '../model/model';
import { GENERATED, type Output } from './header';
import { scriptProxySegments } from './json';
import { renderFile } from './render';
import { doubleQuote, Imports } from './ts';

/** generated/documents.ts: the WSDL and schema texts with their run-time holes. */
export function emitDocuments(model: ContractModel, output: Output = GENERATED): string {
  const others = model.schemas.map((s) => s.namespace);
  const cut = (text: string) => expressions(segments(text, model.authoredNamespace, others));
  return renderFile(
    'documents.ts.hbs',
    {
      header: output.header,
      wsdl: cut(model.wsdl),
      schema: cut(model.schema),
      schemas: model.schemas.map((s) => ({ segments: cut(s.text) })),
      importedWsdls: model.importedWsdls.map((text) => ({ segments: cut(text) })),
      requestSchemas: Object.entries(model.requestSchemas).map(([name, text]) => ({ name, segments: cut(text) })),
      scriptProxy: expressions(scriptProxySegments(model)),
    },
    new Imports(),
    output.runtime,
  );
}

/** Cuts text at each occurrence of the namespace and the address marker. */
export function segments(text: string, namespace: string, others: readonly string[] = []): Segment[] {
  const out: Segment[] = [];
  // A contract of no target namespace has no namespace to fill in: only the address is a hole (an empty alternative
  // would cut the text at every character).
  const holes = namespace === '' ? [ADDRESS_MARKER] : [namespace, ADDRESS_MARKER];
  // Another namespace that starts with this one is its own text, not a hole followed by the rest.
  const longer =
    namespace === '' ? [] : others.filter((ns) => ns !== namespace && ns.startsWith(namespace)).sort((a, b) => b.length - a.length);
  const pattern = new RegExp([...longer, ...holes].map(escapeRegExp).join('|'), 'g');
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match[0] !== namespace && match[0] !== ADDRESS_MARKER) continue;
    if (match.index > last) out.push({ text: text.slice(last, match.index) });
    out.push({ hole: match[0] === namespace ? 'namespace' : 'address' });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** Each segment as a TypeScript expression: a string literal, or the variable that fills the hole. */
function expressions(list: Segment[]): string[] {
  return list.map((s) => ('text' in s ? doubleQuote(s.text) : s.hole === 'namespace' ? 'ns' : 'location'));
}
