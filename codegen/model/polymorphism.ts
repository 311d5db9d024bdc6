/**
 * A complex type with derived types stands for any of them (xsi:type): a
 * reference to it holds the union of its class and theirs (less the class of
 * an abstract type, which is never made), and its fromXml answers that union.
 * A restriction's class need not have its base's members, so a derived class
 * is no subtype of its base's in TypeScript: the union says what may come.
 */
import type { ComplexTypeModel, ElementModel, FieldModel, OperationModel, TypeRef } from './model';

export function unionsForDerivedTypes(all: ComplexTypeModel[], elements: ElementModel[], operations: OperationModel[]): void {
  const byName = new Map(all.map((t) => [t.name, t]));
  const unionOf = (type: ComplexTypeModel): string | undefined => {
    if (type.derived.length === 0) return undefined;
    const members = [...(type.abstract ? [] : [type.name]), ...type.derived.filter((name) => !byName.get(name)?.abstract)];
    return members.length > 0 && !(members.length === 1 && members[0] === type.name) ? members.join(' | ') : undefined;
  };
  for (const type of all) {
    const union = unionOf(type);
    if (union) type.union = union;
  }
  const retype = (ref: TypeRef): TypeRef => {
    if (ref.kind !== 'complex') return ref;
    const union = byName.get(ref.typeName)?.union;
    return union && union !== ref.tsType ? { ...ref, tsType: union } : ref;
  };
  const refield = (f: FieldModel) => {
    const type = retype(f.type);
    if (type === f.type) return;
    f.type = type;
    const repeated = f.maxOccurs === 'unbounded' || f.maxOccurs > 1;
    const item = f.nillable ? `${type.tsType} | null` : type.tsType;
    f.tsType = repeated ? `(${item})[]` : item;
  };
  for (const type of all) for (const f of type.fields) refield(f);
  for (const element of elements) element.type = retype(element.type);
  for (const op of operations) {
    // An answer element of a type others derive from may hold one of them (xsi:type): the result is the whole
    // element's class, not its one member.
    const output = op.soap?.output?.type;
    if (op.result?.field !== undefined && output?.derived.some((name) => !byName.get(name)?.abstract)) {
      op.result = { type: { kind: 'complex', typeName: output.name, tsType: output.name }, mayBeAbsent: false, tsType: output.name };
    }
    if (op.result) {
      const type = retype(op.result.type);
      if (type !== op.result.type) {
        const field = op.result.field === undefined ? undefined : op.soap?.output?.type.fields.find((f) => f.name === op.result!.field);
        op.result = { ...op.result, type, tsType: (field?.tsType ?? type.tsType) + (op.result.mayBeAbsent ? ' | undefined' : '') };
      }
    }
    for (const header of op.soap?.headers ?? []) header.type = retype(header.type);
    for (const fault of op.soap?.faults ?? []) fault.type = retype(fault.type);
    if (op.http?.answer) op.http.answer = { ...op.http.answer, type: retype(op.http.answer.type) };
  }
}
