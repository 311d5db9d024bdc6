import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { propertyAccess, propertyKey, quote } from './ts';

const TEMPLATES = join(__dirname, '..', 'templates');

// The handler skeleton (handlers.ts) takes propertyKey from here.
export { propertyKey };

// `{{key name}}` and `{{at name}}` in the templates: an operation's name is any XML name (`Do-It`, `do.it`).
Handlebars.registerHelper('key', (name: string) => propertyKey(name));
Handlebars.registerHelper('at', (name: string) => propertyAccess(name));
// `{{quote value}}`: a string literal of any text (a SOAP action's suffix, a port's path).
Handlebars.registerHelper('quote', (value: string) => quote(value));

/** Renders codegen/templates/<template>; strict, so a name the view lacks is an error, not an empty string. */
export function render(template: string, view: object): string {
  const compiled = Handlebars.compile(readFileSync(join(TEMPLATES, template), 'utf8'), { noEscape: true, strict: true });
  return compiled(view);
}
