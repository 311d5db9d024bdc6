/**
 * codegen/standard/: the copies of the standard schemas and WSDLs that
 * published contracts import by URL, and the catalog that maps those URLs to
 * them. Each location the catalog names (in http and https) leads to a copy
 * there, each copy is named by the catalog, each absolute location inside the
 * copies is one the catalog maps, so that the set reads with nothing fetched,
 * and README.md lists every copy.
 */
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateSchemaTexts } from '../../../codegen/main';
import { readCatalog } from '../../../codegen/read/catalog';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const FOLDER = join(__dirname, '..', '..', '..', 'codegen', 'standard');
const CATALOG = join(FOLDER, 'catalog.xml');

test.before(async () => {
  await loadXmlEngine();
});

function documents(dir = FOLDER): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return documents(path);
    return /\.(xsd|wsdl)$/.test(name) ? [path] : [];
  });
}

/** The URLs the catalog names in its uri and system entries. */
function catalogUrls(): string[] {
  const text = readFileSync(CATALOG, 'utf8');
  return [...text.matchAll(/<(?:uri|system)\s+(?:name|systemId)="([^"]+)"/g)].map((m) => m[1]);
}

/** The absolute locations a document imports, includes or redefines. */
function absoluteLocations(path: string): string[] {
  const text = readFileSync(path, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  return [...text.matchAll(/\b(?:schemaLocation|location)\s*=\s*["'](https?:\/\/[^"']+)["']/g)].map((m) => m[1]);
}

test('each URL of the catalog leads to a copy in the folder, in http and in https', (t) => {
  const catalog = readCatalog(CATALOG);
  const urls = catalogUrls();
  t.true(urls.length >= 40, `the catalog was read (${urls.length} entries)`);
  for (const url of urls) {
    const file = catalog.resolve(url);
    t.truthy(file, `${url} is mapped`);
    if (file) t.true(statSync(file).isFile() && file.startsWith(FOLDER), `${url} leads to ${file}`);
    const twin = url.startsWith('https:') ? url.replace(/^https:/, 'http:') : url.replace(/^http:/, 'https:');
    t.is(catalog.resolve(twin), file, `${twin} is mapped as ${url} is`);
  }
});

test('each copy is named by the catalog and listed in README.md', (t) => {
  const catalog = readCatalog(CATALOG);
  const mapped = new Set(catalogUrls().map((url) => catalog.resolve(url)));
  const readme = readFileSync(join(FOLDER, 'README.md'), 'utf8');
  const files = documents();
  t.true(files.length >= 15, 'the copies were found');
  for (const file of files) {
    t.true(mapped.has(file), `${relative(FOLDER, file)} is named by the catalog`);
    t.true(readme.includes(`\`${relative(FOLDER, file)}\``), `README.md lists ${relative(FOLDER, file)}`);
  }
});

test('each absolute location inside the copies is one the catalog maps', (t) => {
  const catalog = readCatalog(CATALOG);
  let seen = 0;
  for (const file of documents()) {
    for (const url of absoluteLocations(file)) {
      seen++;
      t.truthy(catalog.resolve(url), `${relative(FOLDER, file)} names ${url}`);
    }
  }
  t.true(seen >= 15, `the locations were read (${seen})`);
});

test('each schema reads, with every schema it imports, through the catalog alone', async (t) => {
  const catalog = readCatalog(CATALOG);
  for (const file of documents().filter((f) => f.endsWith('.xsd'))) {
    const warnings: string[] = [];
    const { files } = await generateSchemaTexts([file], { catalog, note: (line) => warnings.push(line) });
    t.true(files['types.ts'].length > 0, `${relative(FOLDER, file)} generates`);
    t.deepEqual(warnings, [], `${relative(FOLDER, file)} reads with no warning`);
  }
});
