import { GENERATED, type Output, runtimeImport } from './header';
import { render } from './render';

/** generated/contract.ts: the routes, documents and JSON codecs gathered into the definition the runtime serves. */
export function emitContract(output: Output = GENERATED): string {
  return render('contract.ts.hbs', { header: output.header, runtimeImport: runtimeImport(['type ContractDefinition'], output.runtime) });
}
