/**
 * The OASIS XML Catalog reader (codegen/read/catalog.ts), on catalogs written here.
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCatalog } from '../../../codegen/read/catalog';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

test.before(async () => {
  await loadXmlEngine();
});

test('a catalog reads system, uri, the rewrite and suffix entries (the longest prefix winning), groups, xml:base and nextCatalog', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
  try {
    const ns = 'xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"';
    writeFileSync(
      join(dir, 'catalog.xml'),
      `<!DOCTYPE catalog PUBLIC "-//OASIS//DTD XML Catalogs V1.1//EN" "http://www.oasis-open.org/committees/entity/release/1.1/catalog.dtd">
      <catalog ${ns}><system systemId="http://a/x.xsd" uri="one/x.xsd"/><uri name="urn:b" uri="b.xsd"/>
        <rewriteURI uriStartString="http://c/" rewritePrefix="c/"/><rewriteURI uriStartString="http://c/deep/" rewritePrefix="deeper/"/>
        <systemSuffix systemIdSuffix="/d.xsd" uri="d.xsd"/><nextCatalog catalog="more/next.xml"/></catalog>`,
    );
    mkdirSync(join(dir, 'more'));
    writeFileSync(join(dir, 'more', 'next.xml'), `<catalog ${ns}><system systemId="http://e/e.xsd" uri="e.xsd"/></catalog>`);
    const catalog = readCatalog(join(dir, 'catalog.xml'));
    t.is(catalog.resolve('http://a/x.xsd'), join(dir, 'one', 'x.xsd'));
    t.is(catalog.resolve('urn:b'), join(dir, 'b.xsd'));
    t.is(catalog.resolve('http://c/p/q.xsd'), join(dir, 'c', 'p', 'q.xsd'));
    t.is(catalog.resolve('http://c/deep/q.xsd'), join(dir, 'deeper', 'q.xsd'), 'the longest prefix wins');
    t.is(catalog.resolve('http://anything/else/d.xsd'), join(dir, 'd.xsd'));
    t.is(catalog.resolve('http://e/e.xsd'), join(dir, 'more', 'e.xsd'), 'nextCatalog, relative to its own file');
    t.is(catalog.resolve('http://nowhere/'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
