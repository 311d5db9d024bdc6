/**
 * The repository is self-contained: no file of the project reads the
 * `shared` folder that may sit beside a checkout (a user's clone has none).
 * `.ci/run` proves it for the tests by running them from a copy with nothing
 * beside it; this catches a new reference early, in `make test`.
 */
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { VECTORS_DIR } from './support/vectors';

const REPO = join(__dirname, '..');
const ROOTS = [
  'src',
  'codegen',
  'generated',
  'test',
  'bench',
  'schema',
  'deploy',
  '.ci',
  'Makefile',
  'package.json',
  'ava.system.config.cjs',
  'tsconfig.json',
];
// The sibling folder's name, put together so that this file itself names no path outside the repository.
const SIBLING = ['sha', 'red'].join('');
// A path out of the repository into that sibling folder, written as a string or as path segments.
const OUTSIDE = new RegExp(`\\.\\.[/\\\\]+(?:\\.\\.[/\\\\]+)*${SIBLING}\\b|'\\.\\.',\\s*(?:'\\.\\.',\\s*)*'${SIBLING}'`);

function* files(path: string): Generator<string> {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) if (name !== 'node_modules') yield* files(join(path, name));
  } else yield path;
}

test('no file of the project refers to a folder outside the repository', (t) => {
  let read = 0;
  for (const root of ROOTS) {
    for (const file of files(join(REPO, root))) {
      read++;
      const text = readFileSync(file, 'utf8');
      t.false(OUTSIDE.test(text), `${relative(REPO, file)} refers to a folder outside the repository`);
    }
  }
  t.true(read > 100, `read the project's files (${read})`);
  t.false(OUTSIDE.test(`join(__dirname, '..', 'vectors')`));
  t.true(
    OUTSIDE.test(`join(__dirname, '../../${SIBLING}/reference/x.json')`) && OUTSIDE.test(`join(__dirname, '..', '..', '${SIBLING}')`),
    'the pattern finds both ways of writing it',
  );
});

test('the vectors the tests use are in the repository, each described', (t) => {
  const readme = readFileSync(join(VECTORS_DIR, 'README.md'), 'utf8');
  const vectors = readdirSync(VECTORS_DIR).filter((name) => name.endsWith('.json'));
  t.true(vectors.length >= 2);
  for (const name of vectors) t.true(readme.includes(`\`${name}\``), `test/fixtures/vectors/README.md says what ${name} records`);
});
