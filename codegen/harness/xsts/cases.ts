/**
 * The cases of the W3C XML Schema Test Suite that hold for XML Schema 1.0,
 * counted as the suite's metadata says: an instanceTest expected valid, in a
 * testGroup whose schemaTest is expected valid, where neither expectation is
 * limited to versions that exclude 1.0 (an `expected`'s `version`, or that of
 * the instanceTest, schemaTest, testGroup or testSet around it). The NIST
 * datatype set's metadata is not published with the suite: its cases are
 * found by NIST's file names (`NISTXML-SV-IV-<name>-<n>.xml` valid against
 * `NISTSchema-SV-IV-<name>.xsd` beside it).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { safeParseOptions, xml, type XmlElement } from 'contract-runtime/xml';

const TS = 'http://www.w3.org/XML/2004/xml-schema-test-suite/';
const XLINK = 'http://www.w3.org/1999/xlink';
const NIST_SET = 'nistMeta/NISTXMLSchemaDatatypes.testSet';

export interface XstsCase {
  /** The test set, as suite.xml names its file (`msMeta/Particles_w3c.xml`). */
  set: string;
  /** The instance test's name (NIST: the instance's file name). */
  name: string;
  /** The schema documents, paths within the suite; the first is the one the instance's root is declared in (or all, together). */
  schemas: string[];
  /** The instance document, its path within the suite. */
  instance: string;
}

/** Every case that counts for XML Schema 1.0, in suite order. */
export function xstsCases(suite: string): XstsCase[] {
  const root = resolve(suite);
  const suiteFile = join(root, 'suite.xml');
  if (!existsSync(suiteFile)) throw new Error(`xsts: ${suite} holds no suite.xml: name the folder of the W3C XML Schema Test Suite`);
  const cases: XstsCase[] = [];
  for (const href of links(suiteFile, '//ts:testSetRef')) {
    const set = relative(root, href);
    if (set === NIST_SET && !existsSync(href)) cases.push(...nistCases(root));
    else cases.push(...testSetCases(root, href));
  }
  return cases;
}

/** The cases of one testSet file. */
function testSetCases(root: string, file: string): XstsCase[] {
  return withDocument(file, (testSet) => {
    const set = relative(root, file);
    const cases: XstsCase[] = [];
    for (const group of children(testSet, 'testGroup')) {
      const [schemaTest] = children(group, 'schemaTest');
      if (!schemaTest || !validFor10(schemaTest, [group, testSet])) continue;
      const schemas = children(schemaTest, 'schemaDocument').map((d) => relative(root, href(d, file)));
      if (schemas.length === 0) continue;
      for (const instanceTest of children(group, 'instanceTest')) {
        if (!validFor10(instanceTest, [group, testSet])) continue;
        const [document] = children(instanceTest, 'instanceDocument');
        if (!document) continue;
        cases.push({ set, name: instanceTest.attr('name')?.value ?? '', schemas, instance: relative(root, href(document, file)) });
      }
    }
    return cases;
  });
}

/**
 * A test expected valid for XML Schema 1.0: one of its `expected` says valid, and the versions it holds for name
 * 1.0. Those are the nearest `version` of the expectation, the test, its group and its set (none: every version).
 */
function validFor10(test: XmlElement, around: XmlElement[]): boolean {
  return children(test, 'expected').some((expected) => {
    const version = [expected, test, ...around].map((e) => e.attr('version')?.value).find((v) => v !== undefined);
    return expected.attr('validity')?.value === 'valid' && (version === undefined || version.trim().split(/\s+/).includes('1.0'));
  });
}

/** NIST's datatype cases, by their file names: each Schema+Instance folder's valid (SV-IV) instances. */
function nistCases(root: string): XstsCase[] {
  const cases: XstsCase[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const match = /^NISTXML-SV-IV-(.+)-(\d+)\.xml$/.exec(name);
        if (!match || !dir.endsWith('Schema+Instance')) continue;
        const schema = join(dir, `NISTSchema-SV-IV-${match[1]}.xsd`);
        if (!existsSync(schema)) continue;
        cases.push({ set: NIST_SET, name: name.replace(/\.xml$/, ''), schemas: [relative(root, schema)], instance: relative(root, path) });
      }
    }
  };
  walk(join(root, 'nistData'));
  return cases;
}

function withDocument<T>(file: string, use: (root: XmlElement) => T): T {
  const doc = xml().XmlDocument.fromString(readFileSync(file, 'utf8'), { option: safeParseOptions() });
  try {
    return use(doc.root);
  } finally {
    doc.dispose();
  }
}

/** The files the elements at `xpath` link to (xlink:href, relative to `file`). */
function links(file: string, xpath: string): string[] {
  return withDocument(file, (root) =>
    root.find(xpath, { ts: TS }).flatMap((node) => (node instanceof xml().XmlElement ? [href(node, file)] : [])),
  );
}

function href(element: XmlElement, file: string): string {
  const value = element.attrs.find((a) => a.name === 'href' && a.namespaceUri === XLINK)?.value;
  if (value === undefined) throw new Error(`xsts: ${file}: <${element.name}> has no xlink:href`);
  return resolve(dirname(file), value);
}

function children(element: XmlElement, name: string): XmlElement[] {
  return element.find(`ts:${name}`, { ts: TS }).filter((n): n is XmlElement => n instanceof xml().XmlElement);
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * The schema documents a case is run with: its test's, and those its instance names by xsi:schemaLocation or
 * xsi:noNamespaceSchemaLocation (a validator that reads hints takes them) for namespaces no document of the
 * test declares; a hint to a file the suite does not hold is left out, as a validator would leave it.
 */
export function schemasWithHints(suite: string, c: XstsCase): string[] {
  try {
    return withHints(resolve(suite), c);
  } catch {
    // A document libxml2 cannot parse: the case says so when it is run.
    return c.schemas;
  }
}

function withHints(root: string, c: XstsCase): string[] {
  const instance = join(root, c.instance);
  if (!existsSync(instance)) return c.schemas;
  const declared = new Set(c.schemas.map((path) => targetNamespaceOf(join(root, path))));
  const hinted: string[] = [];
  withDocument(instance, (element) => {
    const add = (namespace: string, location: string) => {
      const path = resolve(dirname(instance), location);
      if (declared.has(namespace) || !existsSync(path) || relative(root, path).startsWith('..')) return;
      declared.add(namespace);
      hinted.push(relative(root, path));
    };
    for (const node of element.find('//@xsi:schemaLocation | //@xsi:noNamespaceSchemaLocation', { xsi: XSI })) {
      const value = (node as unknown as { value: string; name: string }).value.trim();
      if ((node as unknown as { name: string }).name === 'noNamespaceSchemaLocation') add('', value);
      else {
        const words = value.split(/\s+/);
        for (let i = 0; i + 1 < words.length; i += 2) add(words[i], words[i + 1]);
      }
    }
  });
  return [...c.schemas, ...hinted];
}

function targetNamespaceOf(path: string): string {
  return existsSync(path) ? withDocument(path, (schema) => schema.attr('targetNamespace')?.value ?? '') : '';
}
