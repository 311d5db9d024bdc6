/**
 * What gets a class: a contract's, the types its operations reach (their messages, headers, faults and HTTP
 * answers: operations.ts's modelOperations); a bare schema set's, every global complex type and element.
 */
import type { ModelContext } from './context';
import type { ElementModel } from './model';
import { toElementModel } from './operations';
import { complexRef } from './type-refs';

/** Reaches every global complex type and element of a schema set (`--xsd`): each element gets a reader and a writer. */
export function reachEverything(context: ModelContext): ElementModel[] {
  for (const type of context.xsd.complexTypes.values()) complexRef(context, type, type.name!);
  return [...context.xsd.elements.values()].map((e) => toElementModel(context, e));
}
