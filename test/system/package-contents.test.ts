/**
 * What each workspace packs on its own (`npm pack --dry-run` of contract-runtime and of contract-codegen, built in a
 * fresh copy of the repository: test/support/installed-package.ts): its README, its package.json and its compiled
 * JavaScript and declarations in its dist/ (codegen's templates and standard schemas too), no TypeScript source, no
 * source map, and nothing of the PIN service (src/service/, the QR code, the Redis store, generated/). In
 * `make test-all` only: it builds both packages.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Packed, packWorkspaces } from '../support/installed-package';
import { requireTool } from './clients/harness';

const ROOT = join(__dirname, '..', '..');
let work: string | undefined;
test.after.always(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Files of a package that belong to the service (its folder, its QR code, its Redis store, its contract), sources, maps, build state. */
const foreign = (files: string[]) =>
  files.filter((file) => /(^|\/)(src|service|qr|generated)\/|redis|\.map$|\.tsbuildinfo$|(?<!\.d)\.ts$/i.test(file));

/** The files a package.json's `bin` and `exports` name (`./dist/x.js` as `dist/x.js`). */
function named(folder: string): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
    bin?: Record<string, string>;
    exports: Record<string, string | { types: string; default: string }>;
  };
  return [
    ...Object.values(manifest.bin ?? {}),
    ...Object.values(manifest.exports).flatMap((target) => (typeof target === 'string' ? [target] : [target.types, target.default])),
  ].map((file) => file.replace(/^\.\//, ''));
}

test.serial(
  'each workspace packs its dist/ and README alone, with every file its bin and exports name, and nothing of the service',
  async (t) => {
    t.timeout(10 * 60_000, 'copy, build both packages, pack');
    requireTool('npm', ['--version'], 'npm');
    work = mkdtempSync(join(tmpdir(), 'pin-pack-list-'));
    const packed = await packWorkspaces(work, { dryRun: true });
    const byName = new Map<string, Packed>(packed.map((p) => [p.name, p]));
    t.deepEqual([...byName.keys()], ['contract-runtime', 'contract-codegen']);
    for (const [name, folder] of [
      ['contract-runtime', 'src/runtime'],
      ['contract-codegen', 'codegen'],
    ] as const) {
      const files = byName.get(name)?.files ?? [];
      t.true(files.includes('README.md') && files.includes('package.json'), `${name}: its README and package.json`);
      t.deepEqual(
        files.filter((file) => !file.startsWith('dist/') && !['README.md', 'package.json'].includes(file)),
        [],
        `${name}: nothing but dist/ beside them`,
      );
      t.deepEqual(
        named(folder).filter((file) => !files.includes(file)),
        [],
        `${name}: every file its bin and exports name`,
      );
      t.deepEqual(foreign(files), [], `${name}: nothing of the service, no source, no map`);
    }
    const runtime = byName.get('contract-runtime')?.files ?? [];
    t.true(runtime.includes('dist/help/templates/layout.hbs'), "the runtime's help templates");
    const codegen = byName.get('contract-codegen')?.files ?? [];
    t.true(
      codegen.includes('dist/templates/routes.ts.hbs') && codegen.includes('dist/standard/catalog.xml'),
      "codegen's templates and schemas",
    );
    t.true(codegen.includes('dist/harness/load-generated.js'), "the mock's loader");
    t.false(
      codegen.some((file) => file.startsWith('dist/harness/xsts/') || file.startsWith('dist/harness/corpus')),
      "codegen's own measurements are not packed",
    );
  },
);

test("the foreign-file check sees the service's files, a source and a map, and lets a declaration and the runtime's service links through", (t) => {
  const files = ['dist/index.js', 'dist/index.d.ts', 'dist/service-links.js', 'dist/qr/png.js', 'dist/state/redis-store.js'];
  t.deepEqual(foreign([...files, 'src/service/main.ts', 'dist/a.js.map', 'dist/build.tsbuildinfo', 'dist/x.ts']), [
    'dist/qr/png.js',
    'dist/state/redis-store.js',
    'src/service/main.ts',
    'dist/a.js.map',
    'dist/build.tsbuildinfo',
    'dist/x.ts',
  ]);
});
