/**
 * A generated file as an emitter writes it: the model it is written from,
 * and the names it imports, recorded where they are written (ts.ts's
 * Imports), not found in its text afterwards.
 */
import type { SchemaModel } from '../model/model';
import { Imports } from './ts';

export interface EmitFile<M extends SchemaModel = SchemaModel> {
  readonly model: M;
  readonly imports: Imports;
}

/** A file about to be written from `model`, importing nothing yet. */
export function emitFile<M extends SchemaModel>(model: M): EmitFile<M> {
  return { model, imports: new Imports() };
}
