/**
 * The README and docs/ as a reader meets them: a README short enough to read
 * in five minutes that shows the two commands and leads to every page of
 * docs/, links that all arrive, a settings table that is the one
 * src/service/config.ts describes (make generate writes it), a diagram of the
 * rooms that is the one the imports make, and no repository path named in a
 * comment or a page that the repository does not hold.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { SETTINGS } from '../src/service/config';
import { settingsTable, withSettingsTable } from '../src/service/cli/settings-table';

const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = read('README.md');
const PAGES = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A page without its fenced code blocks. */
const outsideCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```$/gm, '');

/** The anchors of a page's headings, outside code blocks. */
function anchors(markdown: string): Set<string> {
  return new Set([...outsideCode(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

/** The relative links of a page, outside code blocks: [text](target). */
function links(markdown: string): string[] {
  return [...outsideCode(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/.test(target));
}

test('the README shows the two commands', (t) => {
  t.regex(readme, /^make run\b/m);
  t.regex(readme, /^make test\b/m);
});

test('the README is a front page: at most 150 lines', (t) => {
  const lines = readme.split('\n').length;
  t.true(lines <= 150, `${lines} lines`);
});

test('the README links to every page of docs/', (t) => {
  t.true(PAGES.length >= 5);
  for (const page of PAGES) t.true(links(readme).includes(page), `${page} is not linked from the README`);
});

test('every relative link of the README and docs/ arrives: the file, and the heading it names', (t) => {
  let checked = 0;
  for (const file of ['README.md', ...PAGES]) {
    for (const target of links(read(file))) {
      const [path, anchor] = target.split('#');
      const destination = path === '' ? file : join(dirname(file), path);
      t.true(existsSync(resolve(ROOT, destination)), `${file}: ${target}: no ${destination}`);
      if (anchor !== undefined && destination.endsWith('.md')) {
        t.true(anchors(read(destination)).has(anchor), `${file}: ${target}: no heading #${anchor} in ${destination}`);
      }
      checked++;
    }
  }
  t.true(checked > 20, `${checked} links checked`);
});

test('the heading anchors are GitHub’s', (t) => {
  t.is(anchorOf('Past one machine (Sentinel, Cluster)'), 'past-one-machine-sentinel-cluster');
  t.is(anchorOf('JSON (browser scripts)'), 'json-browser-scripts');
  t.is(anchorOf('Several instances (nginx, Redis, one state key)'), 'several-instances-nginx-redis-one-state-key');
});

test('the settings table of docs/operations.md is the one make generate writes from src/service/config.ts', (t) => {
  const page = read('docs/operations.md');
  t.is(withSettingsTable(page), page, 'run make generate');
  for (const s of SETTINGS) t.true(settingsTable().includes(`| \`${s.flag}\` | \`${s.env}\` |`), s.flag);
});

/** The figures of a text: a number with the unit RESULTS.md writes after it (µs, ms, MB, MiB, %, ×), or a median with its spread, `117 (108–126)`. */
function figures(text: string): string[] {
  return [...text.matchAll(/\d[\d.]*(?:–\d[\d.]*)? ?(?:µs|ms|MB|MiB|%|×)|\d+ \(\d+–\d+\)/g)].map((m) => m[0]);
}

/** A page without the sections of the given headings (each up to the next heading of its level). */
function withoutSections(page: string, headings: string[]): string {
  let out = page;
  for (const heading of headings) {
    const start = out.indexOf(`\n## ${heading}\n`);
    if (start < 0) throw new Error(`no section ${heading}`);
    const end = out.indexOf('\n## ', start + 1);
    out = out.slice(0, start) + (end < 0 ? '' : out.slice(end));
  }
  return out;
}

test('docs/performance.md and the README’s Performance section quote no figure of a bench run: they point at bench/RESULTS.md', (t) => {
  const start = readme.indexOf('\n## Performance\n');
  t.true(start >= 0, 'the README has a Performance section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  // The goals are targets, and the A/B table's figures are those of its own runs, not of the last make bench.
  const page = withoutSections(read('docs/performance.md'), ['The goals', 'Hand-written replacements: the A/B table']);
  for (const [name, text] of [
    ['README.md', section],
    ['docs/performance.md', page],
  ] as const) {
    t.true(text.includes('bench/RESULTS.md'), `${name} points at bench/RESULTS.md`);
    // The soak's bound (RSS growth under 5 %) is a setting of the soak, not a figure of a run.
    t.deepEqual(
      figures(text).filter((f) => f !== '5 %'),
      [],
      `${name}: a figure of a run belongs in bench/RESULTS.md`,
    );
  }
});

test('the A/B table of docs/performance.md has a decision for each hand-written replacement', (t) => {
  const page = read('docs/performance.md');
  const table = page.slice(page.indexOf('\n## Hand-written replacements'), page.indexOf('\n## The embedded store'));
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| replacement'));
  for (const replacement of ['body reader', 'lookup before the router', 'request metrics', 'request line', 'error middleware']) {
    const row = rows.find((r) => r.toLowerCase().includes(replacement));
    t.truthy(row, `a row for the ${replacement}`);
    t.regex(row ?? '', /\| (library|kept)[^|]*\|$/, `the ${replacement}'s row ends with its decision`);
  }
});

test('a figure is a number and the unit after it', (t) => {
  t.deepEqual(figures('113 µs against 139 µs, 1.23× (1.08–1.31×), 40 % and p99 13 ms, 0.4 MB, 18–35 %, | 117 (108–126) |, 2 cores'), [
    '113 µs',
    '139 µs',
    '1.23×',
    '1.08–1.31×',
    '40 %',
    '13 ms',
    '0.4 MB',
    '18–35 %',
    '117 (108–126)',
  ]);
});

/** The rooms and arrows of docs/architecture.md's diagram: each room's label lists the paths it holds. */
function drawnRooms(markdown: string): { rooms: Map<string, string[]>; arrows: Set<string> } {
  const block = /<!-- rooms:start[^>]*-->\s*```mermaid\n([\s\S]*?)```\s*<!-- rooms:end -->/.exec(markdown)?.[1];
  if (!block) throw new Error('docs/architecture.md has no rooms diagram between its markers');
  const rooms = new Map<string, string[]>();
  const arrows = new Set<string>();
  const node = /(\w+)(?:\["([^"]+)"\])?/;
  for (const line of block.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('flowchart')) continue;
    const [from, to] = line.split(' --> ').map((side) => node.exec(side)!);
    for (const [, id, label] of [from, to]) if (label) rooms.set(id, label.split(', '));
    arrows.add(`${from[1]} --> ${to[1]}`);
  }
  return { rooms, arrows };
}

/** The project's own source files under `dir` (not a package's build output, dist/). */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === 'dist'
        ? []
        : tsFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The project's packages imported by name (the runtime's doors, `contract-runtime/xml`): tsconfig.json's `paths`. */
const PATHS = (
  ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as { compilerOptions: { paths: Record<string, string[]> } }
).compilerOptions.paths;

/** The arrows between rooms that the imports of src/, codegen/ and generated/ make (by path, or by a workspace's name). */
function importedArrows(rooms: Map<string, string[]>): Set<string> {
  const roomOf = (file: string) =>
    [...rooms].find(([, paths]) => paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)))?.[0];
  const arrows = new Set<string>();
  for (const file of [...tsFiles('src'), ...tsFiles('codegen'), ...tsFiles('generated')]) {
    const from = roomOf(file);
    for (const { fileName } of ts.preProcessFile(read(file), true, true).importedFiles) {
      const named = PATHS[fileName]?.[0];
      if (!fileName.startsWith('.') && !named) continue;
      const target = named ? named.replace(/^\.\//, '').replace(/\.ts$/, '') : relative(ROOT, resolve(ROOT, dirname(file), fileName));
      const to = roomOf([`${target}.ts`, `${target}/index.ts`].find((f) => existsSync(join(ROOT, f))) ?? '');
      if (from && to && from !== to) arrows.add(`${from} --> ${to}`);
    }
  }
  return arrows;
}

test("docs/architecture.md's diagram of the rooms is drawn from the imports: each arrow an import, each import an arrow", (t) => {
  const { rooms, arrows } = drawnRooms(read('docs/architecture.md'));
  t.true(rooms.size >= 10, 'the diagram was read');
  const drawnPaths = [...rooms.values()].flat();
  for (const path of drawnPaths) t.true(existsSync(join(ROOT, path)), `${path} exists`);
  for (const file of [...tsFiles('src'), ...tsFiles('codegen')]) {
    t.true(
      drawnPaths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)),
      `${file} is in a room of the diagram`,
    );
  }
  const imported = importedArrows(rooms);
  t.deepEqual([...arrows].filter((a) => !imported.has(a)).sort(), [], 'arrows drawn with no import behind them');
  t.deepEqual([...imported].filter((a) => !arrows.has(a)).sort(), [], 'imports between rooms the diagram does not draw');
});

test('the diagram check sees an arrow that is not an import, and an import that is not drawn', (t) => {
  const markdown = read('docs/architecture.md');
  const { rooms, arrows } = drawnRooms(markdown.replace('  codegen["codegen/"] --> runtime\n', '  codegen["codegen/"] --> state\n'));
  const imported = importedArrows(rooms);
  t.true(arrows.has('codegen --> state') && !imported.has('codegen --> state'));
  t.true(imported.has('codegen --> runtime') && !arrows.has('codegen --> runtime'));
});

test("docs/runtime.md's handler of Adding an operation is the GenerateSecret fixture's, which test/system/add-operation.test.ts serves", (t) => {
  const page = read('docs/runtime.md');
  const start = page.indexOf('\n## Adding an operation\n');
  t.true(start >= 0, 'docs/runtime.md has the section');
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  t.truthy(block, 'the section shows the handler');
  const code = (block ?? '').replace(/^ {3}/gm, '');
  t.true(code.includes('export function generateSecret('));
  t.true(
    read('test/fixtures/add-operation/src/service/handlers/generate-secret.ts').includes(code),
    'the fixture holds the example as shown',
  );
});

/**
 * The folders a repository path is rooted at: the top-level folders of the checkout that .gitignore does not
 * ignore (node_modules/, dist/, test-output/, .node/ are a run's, not the repository's).
 */
const IGNORED = read('.gitignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => line.replace(/^\/|\/$/g, ''));
const ROOTS = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== '.git' && !IGNORED.includes(entry.name))
  .map((entry) => entry.name);

/** The comments of a TypeScript (or JavaScript) file, as the compiler finds them. */
function tsComments(text: string): string[] {
  const file = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const found = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) found.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(file);
  return [...found.values()];
}

/** The comments of a template or of a client of another language: `//`, `/* … *\/`, `{{!-- … --}}`, and `#` in Python and shell. */
function otherComments(file: string, text: string): string[] {
  const hash = /\.(py|sh)$/.test(file) ? '|#.*' : '';
  return [...text.matchAll(new RegExp(`\\/\\*[\\s\\S]*?\\*\\/|\\/\\/.*|\\{\\{!--[\\s\\S]*?--\\}\\}|\\{\\{![^}]*\\}\\}${hash}`, 'g'))].map(
    (m) => m[0],
  );
}

/** The source files under `dir` whose comments are read: TypeScript and JavaScript, templates, the clients of other languages. */
function commentedFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? commentedFiles(join(dir, entry.name))
      : /\.([cm]?[jt]s|hbs|py|php|cs|sh)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The texts whose repository paths must exist: the comments of codegen/, src/, test/ and bench/, and README.md, docs/, .ci/run and the Makefile whole. */
function textsNamingPaths(): [string, string][] {
  const comments = ['codegen', 'src', 'test', 'bench'].flatMap(commentedFiles).map((file): [string, string] => {
    const text = read(file);
    return [file, (/\.[cm]?[jt]s$/.test(file) ? tsComments(text) : otherComments(file, text)).join('\n')];
  });
  return [...comments, ...['README.md', ...PAGES, '.ci/run', 'Makefile'].map((file): [string, string] => [file, read(file)])];
}

/** A path as written (without its anchor and the punctuation after it), the path, and the line it names. */
type NamedPath = { written: string; path: string; line?: number };

/**
 * The repository paths a text names: a run of path characters that starts with a top-level folder and a slash
 * (`src/runtime/host.ts`, `codegen/read/xsd/`, `test/fixtures/...`, `docs/codegen.md#codegens-stages`, `bench/run.ts:12`), not inside
 * a URL or another path (nothing of a path, a word or `:` before it). Markdown's `**` around it, an anchor, an ellipsis
 * and the sentence's punctuation after it are not the path's; `:N` is a line of the file.
 */
function namedPaths(text: string, roots = ROOTS): NamedPath[] {
  const escaped = roots.map((root) => root.replace(/[.]/g, '\\.')).join('|');
  const pattern = new RegExp(`(?<![\\w./@:~*\\\\-])(\\*\\*)?((?:${escaped})/[^\\s\`'"()\\[\\],;|]*)`, 'g');
  return [...text.matchAll(pattern)].map((m) => {
    let written = m[2];
    if (m[1] && written.endsWith('**')) written = written.slice(0, -2);
    written = written.replace(/#.*$/, '').replace(/[.,:…]+$/, '');
    const line = /:(\d+)$/.exec(written);
    return { written, path: line ? written.slice(0, line.index) : written, line: line ? Number(line[1]) : undefined };
  });
}

/**
 * Why a named path need not exist in the repository, if it need not:
 * - a pattern or placeholder: a glob (`test/system/redis-*.test.ts`), `<name>`, `{a,b}`, `$(VAR)`, or a segment of
 *   one capital letter (`src/X.ts`);
 * - a run's output that .gitignore names (bench/results.json, a package's dist/);
 * - a team's project: test/layout.test.ts holds src/ to runtime/ and service/, so any other folder under src/ is
 *   the src/ of a project that installed the package, as the docs' and tests' examples write it
 *   (`--out src/generated --handlers src/handlers`, src/temperature/handlers/);
 * - what the GenerateSecret fixture adds to a copy of the repository (test/fixtures/add-operation/ holds it at that
 *   path: src/service/handlers/generate-secret.ts).
 */
function exemption({ path }: NamedPath): string | undefined {
  if (/[*?<>{}$]/.test(path) || path.split('/').some((segment) => /^[A-Z](\.\w+)?$/.test(segment))) return 'a pattern';
  if (IGNORED.some((ignored) => ignored.includes('/') && (path === ignored || path.startsWith(`${ignored}/`)))) return 'an output';
  // A .gitignore name without a slash matches at any depth (dist/ of each package).
  if (path.split('/').some((segment) => IGNORED.some((ignored) => !ignored.includes('/') && ignored === segment))) return 'an output';
  const [top, second] = path.split('/');
  if (top === 'src' && second && !readdirSync(join(ROOT, 'src')).includes(second)) return "a team's project";
  if (existsSync(join(ROOT, 'test/fixtures/add-operation', path))) return "the added operation's";
  return undefined;
}

/** What is wrong with a named path: nothing (undefined), no such path, or no such line. */
function missing(named: NamedPath): string | undefined {
  if (exemption(named)) return undefined;
  const full = join(ROOT, named.path);
  if (!existsSync(full)) return 'no such path';
  if (named.line !== undefined) {
    const lines = statSync(full).isFile() ? read(named.path).split('\n').length : 0;
    if (named.line < 1 || named.line > lines) return `no line ${named.line} (${lines} lines)`;
  }
  return undefined;
}

test('every repository path a comment of codegen/, src/, test/ or bench/, the README, docs/, .ci/run or the Makefile names exists', (t) => {
  let checked = 0;
  const wrong: string[] = [];
  for (const [file, text] of textsNamingPaths()) {
    for (const named of namedPaths(text)) {
      const problem = missing(named);
      if (problem) wrong.push(`${file}: ${named.written}: ${problem}`);
      if (!exemption(named)) checked++;
    }
  }
  t.deepEqual(wrong, []);
  t.true(checked > 500, `${checked} paths checked`);
});

test('the path check sees a path that does not exist, and tells paths from URLs, patterns and a team’s project', (t) => {
  const text = [
    'See `src/runtime/host.ts:1` and (**generated/types.ts**), codegen/read/xsd/ and test/fixtures/...; then docs/runtime.md#the-handlers-door.',
    'Stale: src/runtime/no-such-door.ts, and src/runtime/host.ts:99999.',
    'Not paths of the repository: https://example.com/src/runtime/gone.ts, node_modules/x/src/gone.ts, test/system/redis-*.test.ts,',
    'src/service/handlers/<kebab-name>.ts, src/X.ts, bench/results.json, src/handlers/celsius-to-fahrenheit.ts, src/service/handlers/generate-secret.ts.',
  ].join('\n');
  const named = namedPaths(text);
  t.deepEqual(
    named.map((n) => n.path),
    [
      'src/runtime/host.ts',
      'generated/types.ts',
      'codegen/read/xsd/',
      'test/fixtures/',
      'docs/runtime.md',
      'src/runtime/no-such-door.ts',
      'src/runtime/host.ts',
      'test/system/redis-*.test.ts',
      'src/service/handlers/<kebab-name>.ts',
      'src/X.ts',
      'bench/results.json',
      'src/handlers/celsius-to-fahrenheit.ts',
      'src/service/handlers/generate-secret.ts',
    ],
  );
  t.deepEqual(
    named.filter((n) => missing(n)).map((n) => `${n.written}: ${missing(n)}`),
    [
      'src/runtime/no-such-door.ts: no such path',
      `src/runtime/host.ts:99999: no line 99999 (${read('src/runtime/host.ts').split('\n').length} lines)`,
    ],
  );
  t.deepEqual(
    named.slice(7).map((n) => exemption(n)),
    ['a pattern', 'a pattern', 'a pattern', 'an output', "a team's project", "the added operation's"],
  );
});
