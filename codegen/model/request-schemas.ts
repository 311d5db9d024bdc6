/**
 * Per operation, a schema of its request element alone (small, so fast to
 * validate against), where that element names nothing beyond what it holds:
 * a wildcard or a derived type (xsi:type) may name anything.
 */
import type { ComplexTypeModel, OperationModel } from './model';

export function requestSchemasOf(
  tns: string,
  all: ComplexTypeModel[],
  operations: OperationModel[],
  elementSchemas: Record<string, string>,
): Record<string, string> {
  const byName = new Map(all.map((t) => [t.name, t]));
  const selfContained = (type: ComplexTypeModel, seen = new Set<string>()): boolean => {
    if (seen.has(type.name)) return true;
    seen.add(type.name);
    if (type.derived.length > 0 || type.base) return false;
    return type.fields.every(
      (f) => f.type.kind !== 'any' && (f.type.kind !== 'complex' || selfContained(byName.get(f.type.typeName)!, seen)),
    );
  };
  const requestSchemas: Record<string, string> = {};
  for (const op of operations) {
    const input = op.soap?.input;
    if (
      input?.style === 'element' &&
      input.element!.namespace === tns &&
      elementSchemas[input.element!.name] &&
      selfContained(input.type)
    ) {
      requestSchemas[op.name] = elementSchemas[input.element!.name];
    }
  }
  return requestSchemas;
}
