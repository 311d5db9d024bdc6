/**
 * The prefixes elements are written with: none when every element is
 * qualified in the target namespace (it is then the default one, as ASMX
 * writes it); else one per namespace, `tns` for the target one.
 */
import type { ComplexTypeModel, OperationModel } from './model';

export function choosePrefixes(
  tns: string,
  schemaNamespaces: string[],
  all: ComplexTypeModel[],
  operations: OperationModel[],
): Record<string, string> | undefined {
  // Elements of no namespace are written without a prefix (one cannot be declared for no namespace).
  const namespaces = [tns, ...schemaNamespaces.filter((ns) => ns !== tns && ns !== '')];
  const usesOtherForms =
    all.some(
      (t) =>
        t.fields.some((f) => f.namespace !== tns || f.type.kind === 'any') ||
        t.attributes.some((a) => a.namespace !== '') ||
        (!t.anonymous && t.namespace !== tns && t.derived.length + (t.base ? 1 : 0) > 0),
    ) ||
    operations.some(
      (op) =>
        (op.soap && [op.soap.input, op.soap.output].some((b) => b && (b.style === 'parts' || b.element!.namespace !== tns))) ||
        op.soap?.headers.some((h) => h.element.namespace !== tns) ||
        op.soap?.faults.some((f) => f.element.namespace !== tns) ||
        (op.http?.answer && op.http.answer.namespace !== tns),
    );
  for (const op of operations)
    for (const part of [op.soap?.input, op.soap?.output])
      if (part?.style === 'parts')
        for (const f of part.type.fields) if (f.namespace && !namespaces.includes(f.namespace)) namespaces.push(f.namespace);
  return usesOtherForms
    ? Object.fromEntries(namespaces.map((ns, i) => [ns, i === 0 ? 'tns' : `ns${i}`]).filter(([ns]) => ns !== ''))
    : undefined;
}
