/**
 * OASIS XML Catalogs 1.1 (the format libxml2, CXF's and JAX-WS's
 * `jax-ws-catalog.xml` read): a URL a contract names is mapped to a local
 * file, so that nothing is ever fetched. Read: `system` and `uri` (one URL to
 * one file), `rewriteSystem` and `rewriteURI` (a URL prefix to a folder, the
 * longest prefix winning), `systemSuffix` and `uriSuffix`, `group` and
 * `xml:base`, and `nextCatalog` (consulted when this one maps nothing).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { xml, type XmlElement } from 'contract-runtime/xml';
import { readXmlFile, XML_NAMESPACE } from './documents';

const CATALOG_NS = 'urn:oasis:names:tc:entity:xmlns:xml:catalog';

export interface Catalog {
  /** The file a URL maps to (an absolute path), or undefined when no entry maps it. */
  resolve(url: string): string | undefined;
  /** The catalog files read, the first one first. */
  readonly files: readonly string[];
}

interface Entry {
  kind: 'exact' | 'prefix' | 'suffix';
  /** The URL, its prefix or its suffix. */
  key: string;
  /** The file (exact, suffix) or the folder URL the rest is appended to (prefix). */
  target: string;
}

/** Reads a catalog file and the catalogs it chains to (nextCatalog). */
export function readCatalog(path: string, seen = new Set<string>()): Catalog {
  const file = resolve(path);
  const entries: Entry[] = [];
  const next: string[] = [];
  const doc = readXmlFile(path);
  try {
    if (doc.root.name !== 'catalog' || doc.root.namespaceUri !== CATALOG_NS) {
      throw new Error(
        `codegen: ${path}:${doc.root.line}: <${doc.root.name}> is not an OASIS XML Catalog (its root is ${CATALOG_NS}'s catalog)`,
      );
    }
    const walk = (element: XmlElement, base: string) => {
      const here = new URL(attribute(element, 'base', XML_NAMESPACE) ?? '.', base).href;
      for (const entry of element.find('*')) {
        if (!(entry instanceof xml().XmlElement) || entry.namespaceUri !== CATALOG_NS) continue;
        const at = new URL(attribute(entry, 'base', XML_NAMESPACE) ?? '.', here).href;
        const target = (name: string) => {
          const value = attribute(entry, name);
          if (value === undefined) throw new Error(`codegen: ${path}:${entry.line}: <${entry.name}> has no ${name}`);
          return new URL(value, at).href;
        };
        switch (entry.name) {
          case 'system':
            entries.push({ kind: 'exact', key: required(entry, 'systemId', path), target: target('uri') });
            break;
          case 'uri':
            entries.push({ kind: 'exact', key: required(entry, 'name', path), target: target('uri') });
            break;
          case 'rewriteSystem':
            entries.push({ kind: 'prefix', key: required(entry, 'systemIdStartString', path), target: target('rewritePrefix') });
            break;
          case 'rewriteURI':
            entries.push({ kind: 'prefix', key: required(entry, 'uriStartString', path), target: target('rewritePrefix') });
            break;
          case 'systemSuffix':
            entries.push({ kind: 'suffix', key: required(entry, 'systemIdSuffix', path), target: target('uri') });
            break;
          case 'uriSuffix':
            entries.push({ kind: 'suffix', key: required(entry, 'uriSuffix', path), target: target('uri') });
            break;
          case 'nextCatalog':
            next.push(fileURLToPath(target('catalog')));
            break;
          case 'group':
            // Its own xml:base is applied by walk.
            walk(entry, here);
            break;
          // public, delegate*: identifiers a contract's locations never are.
        }
      }
    };
    walk(doc.root, pathToFileURL(file).href);
  } finally {
    doc.dispose();
  }
  seen.add(file);
  const chained = next.filter((p) => !seen.has(resolve(p)) && existsSync(p)).map((p) => readCatalog(p, seen));
  const exact = (url: string) => entries.find((e) => e.kind === 'exact' && e.key === url)?.target;
  const longest = (url: string, kind: 'prefix' | 'suffix') =>
    entries
      .filter((e) => e.kind === kind && (kind === 'prefix' ? url.startsWith(e.key) : url.endsWith(e.key)))
      .sort((a, b) => b.key.length - a.key.length)[0];
  return {
    files: [file, ...chained.flatMap((c) => c.files)],
    resolve(url) {
      const found =
        exact(url) ??
        (() => {
          const prefix = longest(url, 'prefix');
          if (prefix) return new URL(url.slice(prefix.key.length), prefix.target.endsWith('/') ? prefix.target : `${prefix.target}/`).href;
          return longest(url, 'suffix')?.target;
        })();
      if (found !== undefined) return found.startsWith('file:') ? fileURLToPath(found) : undefined;
      for (const catalog of chained) {
        const mapped = catalog.resolve(url);
        if (mapped !== undefined) return mapped;
      }
      return undefined;
    },
  };
}

function attribute(element: XmlElement, name: string, namespace = ''): string | undefined {
  return element.attrs.find((a) => a.name === name && (a.namespaceUri ?? '') === namespace)?.value;
}

function required(element: XmlElement, name: string, path: string): string {
  const value = attribute(element, name);
  if (value === undefined) throw new Error(`codegen: ${path}:${element.line}: <${element.name}> has no ${name}`);
  return value;
}

/** The folder of standard schemas and WSDLs codegen carries (W3C, OASIS, xmlsoap.org), with its catalog. */
export const STANDARD_FOLDER = resolve(__dirname, '..', 'standard');

let standard: Catalog | undefined;

/**
 * The catalog of codegen/standard/: consulted last, for a URL that neither the user's catalog nor a document beside
 * the contract resolves (read once).
 */
export function standardCatalog(): Catalog {
  standard ??= readCatalog(join(STANDARD_FOLDER, 'catalog.xml'));
  return standard;
}
