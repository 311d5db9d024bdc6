import { GENERATED_HEADER } from './header';
import { render } from './render';

/** generated/contract.ts: the routes, documents and JSON codecs gathered into the definition the runtime serves. */
export function emitContract(): string {
  return render('contract.ts.hbs', { header: GENERATED_HEADER });
}
