/**
 * Regenerates every contract and schema the tests hold, into one folder, so that two revisions of codegen can be
 * compared file by file (`diff -r`): schema/api.wsdl and each WSDL under test/fixtures/ (with the catalog beside it,
 * when there is one), each with its handler skeleton, and the schema set of each case of the W3C sample (test/fixtures/xsts/cases.tsv). What a
 * contract is refused with is written too (`refused.txt`), so a changed refusal is a difference as well. The files go to
 * test-output/regenerated/NAME inside the checkout, so that the paths they import the runtime by are the same in
 * every checkout: `diff -r` of two checkouts' folders shows what changed.
 *   npm run regenerate-fixtures -- NAME
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { generate, generateSchemaTexts, outputFor } from '../main';

const ROOT = resolve(__dirname, '..', '..');

function wsdlsUnder(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return wsdlsUnder(path);
      return /\.wsdl$/i.test(name) ? [path] : [];
    });
}

async function regenerate(out: string): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  const wsdls = [join(ROOT, 'schema', 'api.wsdl'), ...wsdlsUnder(join(ROOT, 'test', 'fixtures'))];
  const quiet = () => {};
  for (const wsdl of wsdls) {
    const folder = join(out, 'wsdl', relative(ROOT, wsdl));
    const catalog = join(dirname(wsdl), 'catalog.xml');
    try {
      await generate(wsdl, folder, {
        note: quiet,
        handlers: relative(ROOT, join(folder, 'handlers')),
        ...(existsSync(catalog) ? { catalog } : {}),
      });
    } catch (error) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'refused.txt'), `${(error as Error).message}\n`);
    }
  }
  const suite = join(ROOT, 'test', 'fixtures', 'xsts');
  const [, ...lines] = readFileSync(join(suite, 'cases.tsv'), 'utf8').trim().split('\n');
  const sets = new Set(lines.map((line) => line.split('\t')[2]));
  for (const set of sets) {
    const schemas = set.split(';').map((file) => join(suite, file));
    const folder = join(out, 'xsd', set.split(';')[0]);
    mkdirSync(folder, { recursive: true });
    try {
      const { files } = await generateSchemaTexts(schemas, { note: quiet, output: outputFor(schemas[0], folder, 'path') });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
    } catch (error) {
      writeFileSync(join(folder, 'refused.txt'), `${(error as Error).message}\n`);
    }
  }
  console.log(`regenerate-fixtures: ${wsdls.length} WSDLs and ${sets.size} schema sets`);
}

const [name] = process.argv.slice(2);
if (!name || /[/\\]/.test(name)) {
  console.error('usage: npm run regenerate-fixtures -- NAME (written to test-output/regenerated/NAME)');
  process.exit(2);
}
process.chdir(ROOT);
// Written under one fixed name (the handler skeletons name their folder), then renamed.
const written = join(ROOT, 'test-output', 'regenerated', 'latest');
regenerate(written)
  .then(() => {
    const named = join(ROOT, 'test-output', 'regenerated', name);
    if (named !== written) {
      rmSync(named, { recursive: true, force: true });
      renameSync(written, named);
    }
  })
  .catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
