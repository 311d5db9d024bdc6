/** Every member name of every class is a JavaScript identifier: one that is not would be a codegen bug, refused here. */
import type { ComplexTypeModel } from './model';
import { identifierCheck } from './names';

export function checkIdentifiers(all: readonly ComplexTypeModel[]): void {
  for (const type of all) {
    for (const name of [...type.fields.map((f) => f.name), ...type.attributes.map((a) => a.name)]) identifierCheck(name, type.name);
  }
}
