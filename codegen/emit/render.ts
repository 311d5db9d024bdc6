import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { type Imports, propertyAccess, propertyKey, quote, type RuntimeName } from './ts';

const TEMPLATES = join(__dirname, '..', 'templates');

// The handler skeleton (handlers.ts) takes propertyKey from here.
export { propertyKey };

// `{{key name}}` and `{{at name}}` in the templates: an operation's name is any XML name (`Do-It`, `do.it`).
Handlebars.registerHelper('key', (name: string) => propertyKey(name));
Handlebars.registerHelper('at', (name: string) => propertyAccess(name));
// `{{quote value}}`: a string literal of any text (a SOAP action's suffix, a port's path).
Handlebars.registerHelper('quote', (value: string) => quote(value));
// `{{runtime "name"}}` (or `{{runtime "name" "alias"}}`): a name of the runtime the template's own text uses, recorded in
// the file's imports as it is written.
Handlebars.registerHelper('runtime', (name: RuntimeName, ...rest: unknown[]) => {
  const options = rest.pop() as Handlebars.HelperOptions;
  const imports = options.data?.imports as Imports | undefined;
  if (!imports) throw new Error(`codegen: {{runtime "${name}"}} in a template rendered without a file's imports`);
  return imports.runtime(name, typeof rest[0] === 'string' ? rest[0] : name);
});

/** Renders codegen/templates/<template>; strict, so a name the view lacks is an error, not an empty string. */
export function render(template: string, view: object, imports?: Imports): string {
  const compiled = Handlebars.compile(readFileSync(join(TEMPLATES, template), 'utf8'), { noEscape: true, strict: true });
  return compiled(view, { data: { imports } });
}

/** Where a file's imports of the runtime go until the template has written the rest: every name is known then. */
const RUNTIME_IMPORTS = '\u0000runtime imports\u0000';

/**
 * Renders the template of a generated file whose imports are `imports`: its `{{{runtimeImport}}}` is the file's
 * import declarations of the runtime (from `runtime`, the front door's module), with the names the emitter recorded
 * and those the template's `{{runtime}}` helpers record as it is rendered.
 */
export function renderFile(template: string, view: object, imports: Imports, runtime: string): string {
  return render(template, { ...view, runtimeImport: RUNTIME_IMPORTS }, imports).replace(
    RUNTIME_IMPORTS,
    imports.runtimeDeclarations(runtime),
  );
}
