/**
 * `npm run schemas -- DIR [--jobs N] [--filter REGEX]`: codegen's XSD mode measured on published schema sets and the
 * sample instances their publishers ship. Each sub-folder of DIR is a set: its `.xsd` files (at the layout their
 * imports and includes need) and its instance documents (every other XML document in it, whatever its name ends in,
 * a catalog excepted). Each sample is run as the W3C suite's cases are (xsts/run-set.ts): the schema document that
 * declares its root element generated (in XSD mode, type-checked), the sample read into the root's class, written
 * back, validated with libxml2 and compared with the sample by value. A set's `catalog.xml` (or another catalog
 * document it holds) maps the URLs its schemas import by; codegen/standard/'s catalog maps the W3C and OASIS
 * standards otherwise. One line per set, then the table by set and `schemas: N of N sets, N of N samples
 * round-trip (N skipped); typed share S %`; exit 1 when a sample fails. A sample libxml2 refuses, or a set whose
 * schema libxml2 cannot compile, is skipped: it judges no reader.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { loadXmlEngine, safeParseOptions, xml, type XmlElement } from 'contract-runtime/xml';
import type { XstsCase } from './xsts/cases';
import { runXsts, share, tableBySet, typedShare } from './xsts/main';
import type { CaseResult } from './xsts/run-set';

const XS = 'http://www.w3.org/2001/XMLSchema';
const CATALOG_NS = 'urn:oasis:names:tc:entity:xmlns:xml:catalog';
/** codegen/standard/'s catalog: the W3C and OASIS schemas sets import by URL, mapped to the copies codegen ships. */
export const STANDARD_CATALOG = resolve(__dirname, '..', 'standard', 'catalog.xml');

/** A schema document's target namespace, the names of its global elements, and the local documents it reaches. */
interface SchemaDocument {
  path: string;
  namespace: string;
  elements: Set<string>;
  references: string[];
}

/** The schema sets of a folder: each sub-folder holding a schema document. */
export function schemaSetsOf(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .filter((entry) => statSync(join(dir, entry)).isDirectory() && filesUnder(join(dir, entry), /\.xsd$/i).length > 0);
}

/**
 * The cases of one set (paths relative to `root`, the folder of every set): each sample, with the schema document
 * that declares its root element (the one its xsi:schemaLocation names; of several, the one whose documents reach
 * the most of the sample's namespaces, then the shallowest). A sample no document of the set declares the root of
 * is a case of no schema: it fails when run.
 */
export function setCases(root: string, set: string): { cases: XstsCase[]; undeclared: XstsCase[] } {
  const dir = join(root, set);
  const schemas: SchemaDocument[] = [];
  const samples: { path: string; top: DocumentFacts }[] = [];
  for (const path of filesUnder(dir, /./)) {
    // A document of the set is XML: a schema, a catalog, or a sample of any name (`.xml`, DMN's `.dmn`, `.bpmn`).
    if (/\.(md|txt)$|(^|\/)LICEN[CS]E[^/]*$/i.test(path)) continue;
    const top = documentOf(path);
    if (!top) continue; // not well-formed: not a document of the set
    if (top.namespace === XS && top.name === 'schema')
      schemas.push({ path, namespace: top.targetNamespace, elements: top.elements, references: top.references });
    else if (top.namespace !== CATALOG_NS) samples.push({ path, top });
  }
  const reached = new Map<string, SchemaDocument[]>();
  const reachedFrom = (schema: SchemaDocument) => {
    if (!reached.has(schema.path)) reached.set(schema.path, documentsReached(schema, schemas));
    return reached.get(schema.path)!;
  };
  const cases: XstsCase[] = [];
  const undeclared: XstsCase[] = [];
  for (const { path: sample, top } of samples) {
    // A document declares the root if it or a document it includes or imports does: FpML's fpml-main-5-11.xsd,
    // which its samples name, declares requestConfirmation through fpml-confirmation-processes-5-11.xsd, and only
    // it reaches the products (fpml-bond-option-5-11.xsd...) that substitute for the trade's abstract product.
    const declaring = schemas
      .filter((s) => s.namespace === top.namespace && reachedFrom(s).some((d) => d.namespace === top.namespace && d.elements.has(top.name)))
      .sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1));
    const hinted = declaring.find((s) => top.hints.some((hint) => resolve(join(sample, '..'), hint) === s.path));
    // Of several, the one whose documents declare the most of the namespaces the sample's elements are in (HL7's
    // CDA.xsd and CDA_SDTC.xsd both declare ClinicalDocument; a sample with sdtc: elements needs the second), then
    // the one that reaches the most documents (a document that includes another is the larger schema: the members of
    // a substitution group are declared where the group is used, not where the root is).
    const covered = (s: SchemaDocument) =>
      new Set(
        reachedFrom(s)
          .map((d) => d.namespace)
          .filter((ns) => top.namespaces.has(ns)),
      ).size;
    const better = (s: SchemaDocument, best: SchemaDocument) =>
      covered(s) > covered(best) || (covered(s) === covered(best) && reachedFrom(s).length > reachedFrom(best).length);
    const schema = hinted ?? declaring.reduce<SchemaDocument | undefined>((best, s) => (!best || better(s, best) ? s : best), undefined);
    const c = { set, name: relative(dir, sample), schemas: schema ? [relative(root, schema.path)] : [], instance: relative(root, sample) };
    (schema ? cases : undeclared).push(c);
  }
  return { cases, undeclared };
}

/**
 * A document's root element: its name, namespace, xsi:schemaLocation hints and the namespaces of its elements;
 * a schema's targetNamespace, global elements and the local documents it imports, includes or redefines.
 */
interface DocumentFacts {
  name: string;
  namespace: string;
  targetNamespace: string;
  elements: Set<string>;
  references: string[];
  hints: string[];
  namespaces: Set<string>;
}

/** The facts of a document (read once); undefined for a file that is not well-formed XML. */
function documentOf(path: string): DocumentFacts | undefined {
  let doc: ReturnType<ReturnType<typeof xml>['XmlDocument']['fromString']>;
  try {
    doc = xml().XmlDocument.fromString(readFileSync(path, 'utf8'), { option: safeParseOptions() });
  } catch {
    return undefined;
  }
  try {
    const root = doc.root;
    const isSchema = root.namespaceUri === XS && root.name === 'schema';
    const elements = new Set<string>();
    const references: string[] = [];
    if (isSchema) {
      for (const child of root.find('xs:element', { xs: XS })) elements.add((child as XmlElement).attr('name')?.value ?? '');
      for (const node of root.find('xs:import | xs:include | xs:redefine', { xs: XS })) {
        const location = (node as XmlElement).attr('schemaLocation')?.value;
        if (location && !/^[a-z][a-z0-9+.-]*:/i.test(location)) references.push(resolve(join(path, '..'), location));
      }
    }
    const hints: string[] = [];
    for (const a of root.attrs) {
      if (a.namespaceUri !== 'http://www.w3.org/2001/XMLSchema-instance') continue;
      const words = a.value.trim().split(/\s+/);
      if (a.name === 'noNamespaceSchemaLocation') hints.push(...words);
      else if (a.name === 'schemaLocation') for (let i = 1; i < words.length; i += 2) hints.push(words[i]);
    }
    const namespaces = isSchema ? new Set<string>() : new Set(root.find('//*').map((e) => (e as XmlElement).namespaceUri ?? ''));
    return {
      name: root.name,
      namespace: root.namespaceUri ?? '',
      targetNamespace: root.attr('targetNamespace')?.value ?? '',
      elements,
      references,
      hints,
      namespaces,
    };
  } finally {
    doc.dispose();
  }
}

/** A schema document and the documents of the set it reaches (by import, include or redefine), itself first. */
function documentsReached(schema: SchemaDocument, schemas: SchemaDocument[]): SchemaDocument[] {
  const byPath = new Map(schemas.map((s) => [s.path, s]));
  const reached: SchemaDocument[] = [];
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const own = byPath.get(file);
    if (!own) return;
    reached.push(own);
    for (const reference of own.references) visit(reference);
  };
  visit(schema.path);
  return reached;
}

/** A set's own OASIS XML Catalog (its `catalog.xml`, or the first catalog document it holds), if it has one. */
export function catalogOf(dir: string): string | undefined {
  const named = join(dir, 'catalog.xml');
  if (existsSync(named)) return named;
  return filesUnder(dir, /\.xml$/i).find((path) => documentOf(path)?.namespace === CATALOG_NS);
}

function depth(path: string): number {
  return path.split(sep).length;
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return filesUnder(path, pattern);
      return pattern.test(entry) ? [path] : [];
    });
}

/** One line of a set: how many of its samples round-trip, and the first failure's step and message. */
export function setLine(set: string, results: CaseResult[]): string {
  const passed = results.filter((r) => r.outcome === 'pass').length;
  const skipped = results.filter((r) => r.outcome === 'skip').length;
  const { all, typed } = typedShare(results);
  const first = results.find((r) => r.outcome === 'fail') ?? results.find((r) => r.outcome === 'skip');
  // A sample libxml2 itself finds invalid (or a schema it cannot compile) is skipped: it judges no reader.
  const verdict = passed > 0 && !results.some((r) => r.outcome === 'fail') ? 'pass' : 'FAIL';
  return `${verdict} ${set}: ${passed} of ${results.length} samples round-trip${skipped ? ` (${skipped} skipped)` : ''}; typed share ${share(typed, all)}${
    first ? ` (first: ${first.case.name} [${first.step}] ${first.message})` : ''
  }`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { jobs: { type: 'string' }, filter: { type: 'string' } },
  });
  if (positionals.length !== 1) {
    console.error('schemas: usage: npm run schemas -- DIR [--jobs N] [--filter REGEX]');
    process.exit(2);
  }
  const root = resolve(positionals[0]);
  const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  const filter = values.filter === undefined ? undefined : new RegExp(values.filter);
  await loadXmlEngine();
  const sets = schemaSetsOf(root).filter((set) => !filter || filter.test(set));
  console.log(`schemas: ${sets.length} schema sets in ${root}`);
  const started = Date.now();
  const all: CaseResult[] = [];
  for (const set of sets) {
    const { cases, undeclared } = setCases(root, set);
    const own = catalogOf(join(root, set));
    const work = mkdtempSync(join(tmpdir(), 'schemas-typecheck-'));
    try {
      const { results } = cases.length
        ? await runXsts(root, cases, { jobs, catalog: own ?? STANDARD_CATALOG, typecheck: work })
        : { results: [] };
      const none = undeclared.map(
        (c): CaseResult => ({ case: c, outcome: 'fail', step: 'read', message: 'no schema document of the set declares its root element' }),
      );
      const setResults = [...results, ...none];
      console.log(setLine(set, setResults));
      for (const r of setResults)
        if (r.outcome !== 'pass') console.log(`  ${r.outcome === 'fail' ? 'FAIL' : 'SKIP'} ${r.case.name} [${r.step}] ${r.message}`);
      all.push(...setResults);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const passedSets = sets.filter((set) => {
    const rs = all.filter((r) => r.case.set === set);
    return rs.some((r) => r.outcome === 'pass') && !rs.some((r) => r.outcome === 'fail');
  }).length;
  const passed = all.filter((r) => r.outcome === 'pass').length;
  const skipped = all.filter((r) => r.outcome === 'skip').length;
  const { all: values_, typed } = typedShare(all);
  console.log(`\n${tableBySet(all)}\n`);
  console.log(
    `schemas: ${passedSets} of ${sets.length} sets, ${passed} of ${all.length} samples round-trip (${skipped} skipped: libxml2 refuses them); typed share ${share(typed, values_)} ` +
      `(${typed} of ${values_} values) (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  process.exitCode = all.some((r) => r.outcome === 'fail') || sets.length === 0 ? 1 : 0;
}

if (require.main === module) void main();
