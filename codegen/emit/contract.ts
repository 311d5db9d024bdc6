import { GENERATED, type Output } from './header';
import { renderFile } from './render';
import { Imports } from './ts';

/** generated/contract.ts: the routes, documents and JSON codecs gathered into the definition the runtime serves. */
export function emitContract(output: Output = GENERATED): string {
  return renderFile('contract.ts.hbs', { header: output.header }, new Imports(), output.runtime);
}
