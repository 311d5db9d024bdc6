/**
 * The prefixes elements are written with: none when every element is
 * qualified in the target namespace (it is then the default one, as ASMX
 * writes it); else one per namespace, `tns` for the target one.
 */
import type { ComplexTypeModel, ElementModel, OperationModel } from './model';

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
  const add = (ns: string) => {
    if (ns && !namespaces.includes(ns)) namespaces.push(ns);
  };
  for (const op of operations) {
    for (const part of [op.soap?.input, op.soap?.output]) {
      if (part?.style === 'parts') for (const f of part.type.fields) add(f.namespace);
      // An rpc wrapper's namespace (soap:body namespace) need not be any schema's.
      else if (part?.element) add(part.element.namespace);
    }
    for (const fault of op.soap?.faults ?? []) add(fault.element.namespace);
    // An encoded header block's namespace (soap:header namespace) need not be any schema's either.
    for (const header of op.soap?.headers ?? []) add(header.element.namespace);
  }
  return usesOtherForms
    ? Object.fromEntries(namespaces.map((ns, i) => [ns, i === 0 ? 'tns' : `ns${i}`]).filter(([ns]) => ns !== ''))
    : undefined;
}

/** A bare schema set's prefixes: one for every namespace an element, attribute or type (named by xsi:type) of the set is in, `tns` for the first schema's. */
export function schemaSetPrefixes(
  targetNamespace: string,
  schemaNamespaces: string[],
  elements: ElementModel[],
  all: ComplexTypeModel[],
): Record<string, string> | undefined {
  const used = [
    ...elements.map((e) => e.namespace),
    ...all.flatMap((t) => [t.namespace, ...t.fields.map((f) => f.namespace), ...t.attributes.map((a) => a.namespace)]),
  ];
  const namespaces = [...new Set([targetNamespace, ...schemaNamespaces, ...used])].filter(
    (ns) => ns !== '' && ns !== 'http://www.w3.org/XML/1998/namespace',
  );
  return namespaces.length
    ? Object.fromEntries(namespaces.map((ns, i) => [ns, i === 0 && ns === targetNamespace ? 'tns' : `ns${i}`]))
    : undefined;
}
