/**
 * Named complex types claim their class names first, in document order, so that they keep them; anonymous types,
 * messages' classes and companions take what is left, and a name taken (or reserved by generated code) gets a number.
 */
import type { ModelContext } from './context';

export function claimTypeNames(context: ModelContext): void {
  for (const type of context.xsd.complexTypes.values()) context.complexNames.set(type, context.names.claim(type.name!));
}
