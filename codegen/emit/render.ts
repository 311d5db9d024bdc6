import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';

const TEMPLATES = join(__dirname, '..', 'templates');

/** Renders codegen/templates/<template>; strict, so a name the view lacks is an error, not an empty string. */
export function render(template: string, view: object): string {
  const compiled = Handlebars.compile(readFileSync(join(TEMPLATES, template), 'utf8'), { noEscape: true, strict: true });
  return compiled(view);
}
