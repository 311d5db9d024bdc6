/**
 * The operations whose request element gets a schema of its own (small, so
 * fast to validate against): those whose element names nothing beyond what it
 * holds (a wildcard or a derived type, xsi:type, may name anything). The
 * documents stage writes the schemas.
 */
import type { ComplexTypeModel, OperationModel } from './model';

export function requestElementsOf(tns: string, all: ComplexTypeModel[], operations: OperationModel[]): Record<string, string> {
  const byName = new Map(all.map((t) => [t.name, t]));
  const selfContained = (type: ComplexTypeModel, seen = new Set<string>()): boolean => {
    if (seen.has(type.name)) return true;
    seen.add(type.name);
    if (type.derived.length > 0 || type.base) return false;
    return type.fields.every(
      (f) => f.type.kind !== 'any' && (f.type.kind !== 'complex' || selfContained(byName.get(f.type.typeName)!, seen)),
    );
  };
  const requestElements: Record<string, string> = {};
  for (const op of operations) {
    const input = op.soap?.input;
    if (input?.style === 'element' && input.element!.namespace === tns && selfContained(input.type)) {
      requestElements[op.name] = input.element!.name;
    }
  }
  return requestElements;
}
