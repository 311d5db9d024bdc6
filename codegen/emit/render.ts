import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';

const TEMPLATES = join(__dirname, '..', 'templates');

/** A name as it is written as a property key: itself when it is an identifier, else quoted (`'Do-It'`). */
export const propertyKey = (name: string): string => (/^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name) ? name : `'${name}'`);

/** A property of `name` read from an object: `.Add`, or `['Do-It']`. */
export const propertyAccess = (name: string): string => {
  const key = propertyKey(name);
  return key === name ? `.${name}` : `[${key}]`;
};

// `{{key name}}` and `{{at name}}` in the templates: an operation's name is any XML name (`Do-It`, `do.it`).
Handlebars.registerHelper('key', (name: string) => propertyKey(name));
Handlebars.registerHelper('at', (name: string) => propertyAccess(name));

/** Renders codegen/templates/<template>; strict, so a name the view lacks is an error, not an empty string. */
export function render(template: string, view: object): string {
  const compiled = Handlebars.compile(readFileSync(join(TEMPLATES, template), 'utf8'), { noEscape: true, strict: true });
  return compiled(view);
}
