/**
 * The global elements a contract's generated code reads and writes: those whose types are simple or have classes
 * (run before the enumerations are listed: an element may name one). An element whose type cannot be modelled is
 * skipped with one line, as an operation is.
 */
import type { XsdElement } from '../read/xsd';
import type { ModelContext } from './context';
import type { ElementModel } from './model';
import { toElementModel } from './operations';

export function globalElements(context: ModelContext, classes: ReadonlySet<string>, warn: (line: string) => void): ElementModel[] {
  return [...context.xsd.elements.values()]
    .flatMap((element) => modelled(context, element, warn))
    .filter((e) => e.type.kind !== 'complex' || classes.has(e.type.typeName));
}

function modelled(context: ModelContext, element: XsdElement, warn: (line: string) => void): ElementModel[] {
  try {
    return [toElementModel(context, element)];
  } catch (error) {
    const message = (error as Error).message.replace(/^codegen: /, '');
    warn(
      `codegen: warning: element ${element.name}${element.namespace ? ` of ${element.namespace}` : ''} gets no reader or writer: ${message}`,
    );
    return [];
  }
}
