/**
 * One schema set of the suite, and the cases that use it: the schema is
 * generated once (in memory, as `--xsd` would write it) and loaded; then each
 * instance is read into the class of its root element, written back,
 * validated against the schema with libxml2, and compared with the instance
 * by value.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ts } from 'ts-morph';
import type { ElementCodec } from 'contract-runtime/codec';
import { escapeXmlAttribute, firstLibxmlMessage, safeParseOptions, xml, type XmlDocument, type XsdValidator } from 'contract-runtime/xml';
import { GENERATED } from '../../emit/header';
import { generateSchemaTexts, outputFor, RUNTIME_FOLDER, standaloneTsconfig } from '../../main';
import type { SchemaModel } from '../../model/model';
import type { Catalog } from '../../read/catalog';
import type { XstsCase } from './cases';
import { firstDifference, typedValues } from './compare';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

export type Step = 'generate' | 'load' | 'schema' | 'instance' | 'read' | 'write' | 'validate' | 'compare';

export interface CaseResult {
  case: XstsCase;
  outcome: 'pass' | 'fail' | 'skip';
  step?: Step;
  /** The first message of the step that failed, or why the case was skipped (a limit of libxml2 or of XML Schema 1.0). */
  message?: string;
  /** The document written (for --save-output). */
  output?: string;
  /**
   * The messages libxml2 gives the instance the suite calls valid (a limit of libxml2's): the case is judged all the
   * same, the written document validated as drawing no message from libxml2 the instance does not draw.
   */
  refused?: string[];
  /** Of a case that passes: its element and attribute values, and those read into a typed field (typed.ts). */
  values?: { all: number; typed: number };
}

/** Runs every case of one schema set (all share `cases[0].schemas`). */
export async function runSchemaSet(suite: string, cases: XstsCase[], catalog?: Catalog, writeTo?: string): Promise<CaseResult[]> {
  letLibxml2ReadSuite(suite, catalog);
  const schemas = cases[0].schemas.map((path) => join(suite, path));
  let validator: XsdValidator;
  try {
    validator = compileFromFiles(schemas);
  } catch (error) {
    return cases.map((c) => ({
      case: c,
      outcome: 'skip',
      step: 'schema',
      message: `libxml2 cannot compile the schema: ${oneLine(error)}`,
    }));
  }
  try {
    // The suite says each instance is valid; where libxml2 disagrees, its validation cannot judge the case.
    const results = new Map<XstsCase, CaseResult>();
    const refusals = new Map<XstsCase, string[]>();
    for (const c of cases) {
      if (!existsSync(join(suite, c.instance))) {
        results.set(c, { case: c, outcome: 'fail', step: 'instance', message: `${c.instance} is not in the suite` });
        continue;
      }
      const refused = instanceRefused(suite, c, validator);
      if (typeof refused === 'string') results.set(c, { case: c, outcome: 'skip', step: 'instance', message: refused });
      else if (refused) refusals.set(c, refused);
    }
    const judged = cases.filter((c) => !results.has(c));
    const fail = (step: Step, error: unknown) => {
      for (const c of judged) results.set(c, { case: c, outcome: 'fail', step, message: oneLine(error) });
    };
    let generated: { model: SchemaModel; files: Record<string, string> } | undefined;
    let elements: Record<string, ElementCodec<unknown>> | undefined;
    let byType: ElementCodec<unknown> | undefined;
    if (judged.length > 0) {
      try {
        // As --xsd writes it into writeTo, for the type check of the generated folders (npm run xsts -- --typecheck).
        const output = writeTo === undefined ? GENERATED : outputFor(schemas[0], writeTo, 'path');
        generated = await generateSchemaTexts(schemas, { note: () => {}, output, ...(catalog ? { catalog } : {}) });
        if (writeTo !== undefined) {
          mkdirSync(writeTo, { recursive: true });
          for (const [name, text] of Object.entries(generated.files)) writeFileSync(join(writeTo, name), text);
          writeFileSync(join(writeTo, 'tsconfig.json'), standaloneTsconfig(writeTo, [], Object.keys(generated.files)));
        }
        try {
          const module = loadModules(generated.files, output.runtime)('./elements') as {
            ELEMENTS: Record<string, ElementCodec<unknown>>;
            readByType?: (text: string) => unknown;
            writeByType?: (root: never) => string;
          };
          elements = module.ELEMENTS;
          if (module.readByType && module.writeByType)
            byType = { name: '', namespace: '', read: module.readByType, write: module.writeByType };
        } catch (error) {
          fail('load', error);
        }
      } catch (error) {
        fail('generate', error);
      }
    }
    if (generated && elements)
      for (const c of judged) {
        const refused = refusals.get(c);
        const result = runCase(suite, c, generated.model, elements, validator, refused, byType);
        results.set(c, refused ? { ...result, refused } : result);
      }
    else for (const [c, refused] of refusals) results.set(c, { ...results.get(c)!, refused });
    return cases.map((c) => results.get(c)!);
  } finally {
    validator.dispose();
  }
}

/**
 * Where libxml2 cannot judge a case as the suite does: a string when it cannot parse the instance (the case is
 * skipped), its messages when it finds valid an instance the suite calls valid (the case is judged against them);
 * undefined when it finds the instance valid.
 */
function instanceRefused(suite: string, c: XstsCase, validator: XsdValidator): string | string[] | undefined {
  const path = join(suite, c.instance);
  const input = parse(readFileSync(path, 'utf8'), pathToFileURL(path).href);
  if (typeof input === 'string') return `libxml2 cannot parse the instance: ${input}`;
  try {
    const messages = validationMessages(validator, input);
    return messages.length > 0 ? messages : undefined;
  } finally {
    input.dispose();
  }
}

function runCase(
  suite: string,
  c: XstsCase,
  model: SchemaModel,
  elements: Record<string, ElementCodec<unknown>>,
  validator: XsdValidator,
  refused?: string[],
  byType?: ElementCodec<unknown>,
): CaseResult {
  const path = join(suite, c.instance);
  const text = readFileSync(path, 'utf8');
  const input = parse(text, pathToFileURL(path).href);
  if (typeof input === 'string') return { case: c, outcome: 'fail', step: 'instance', message: input };
  let output: string | undefined;
  try {
    const root = input.root;
    // A root no global element declares is read by the global type its xsi:type names, if it names one.
    const codec =
      elements[`{${root.namespaceUri ?? ''}}${root.name}`] ??
      (root.attrs.some((a) => a.name === 'type' && a.namespaceUri === XSI) ? byType : undefined);
    if (!codec)
      return { case: c, outcome: 'fail', step: 'read', message: `no reader for the root element {${root.namespaceUri ?? ''}}${root.name}` };
    let value: unknown;
    try {
      value = codec.read(text);
    } catch (error) {
      // An instance libxml2 and the generated reader both refuse is not one either can judge the suite by.
      if (refused)
        return {
          case: c,
          outcome: 'skip',
          step: 'read',
          message: `libxml2 refuses the instance the suite calls valid (${refused[0]}), and so does the generated reader: ${oneLine(error)}`,
        };
      return { case: c, outcome: 'fail', step: 'read', message: oneLine(error) };
    }
    try {
      output = codec.write(value as never);
    } catch (error) {
      return { case: c, outcome: 'fail', step: 'write', message: oneLine(error) };
    }
    const written = parse(output, pathToFileURL(path).href);
    if (typeof written === 'string') return { case: c, outcome: 'fail', step: 'write', message: `not well-formed: ${written}`, output };
    try {
      // Where libxml2 refuses the instance itself, the written document may draw the messages the instance drew.
      const invalid = validationMessages(validator, written).find((message) => !refused?.includes(message));
      if (invalid) return { case: c, outcome: 'fail', step: 'validate', message: invalid, output };
      const difference = firstDifference(model, input.root, written.root);
      if (difference) return { case: c, outcome: 'fail', step: 'compare', message: difference, output };
    } finally {
      written.dispose();
    }
    return { case: c, outcome: 'pass', output, values: typedValues(model, input.root) };
  } finally {
    input.dispose();
  }
}

/** A document parsed as the suite's files are (their DTDs, if any, neither loaded nor expanded); a string says why not. */
function parse(text: string, url: string): XmlDocument | string {
  try {
    return xml().XmlDocument.fromString(text, { option: safeParseOptions(), url });
  } catch (error) {
    return oneLine(error);
  }
}

/** libxml2's messages on a document (none when it is valid), each on one line. */
function validationMessages(validator: XsdValidator, doc: XmlDocument): string[] {
  try {
    validator.validate(doc);
    return [];
  } catch (error) {
    const details = (error as { details?: { message?: string }[] }).details ?? [];
    const messages = details.map((d) => (d.message ?? '').replace(/\s+/g, ' ').trim()).filter(Boolean);
    return messages.length > 0 ? messages : [oneLine(error)];
  }
}

let readsSuite: string | undefined;

/**
 * Lets libxml2 read the suite's files (`file:` URLs inside `suite`), and the files a catalog maps URLs to, nothing
 * else: a schema it compiles reads what it imports and includes as the suite lays them out.
 */
export function letLibxml2ReadSuite(suite: string, catalog?: Catalog): void {
  if (readsSuite !== undefined) return;
  readsSuite = resolve(suite);
  const inside = (name: string) => {
    const mapped = catalog?.resolve(name);
    if (mapped !== undefined) return existsSync(mapped) ? mapped : undefined;
    if (!name.startsWith('file:')) return undefined;
    const path = fileURLToPath(name);
    return relative(readsSuite!, path).startsWith('..') ? undefined : path;
  };
  xml().xmlRegisterInputProvider({
    match: (name) => inside(name) !== undefined,
    open: (name) => {
      try {
        return openSync(inside(name)!, 'r');
      } catch {
        return undefined;
      }
    },
    read: (fd, buf) => {
      try {
        return readSync(fd, buf, 0, buf.byteLength, null);
      } catch {
        return -1;
      }
    },
    close: (fd) => {
      closeSync(fd);
      return true;
    },
  });
}

let wrappers: InstanceType<ReturnType<typeof xml>['XmlBufferInputProvider']> | undefined;
let wrapperSets = 0;

/**
 * The schema compiled by libxml2 from its documents' files (it reads what they import and include from the
 * suite). Several documents are one schema: a document made here imports each namespace's, and includes those
 * of no namespace; a namespace of several documents is a document of that namespace that includes them.
 */
function compileFromFiles(paths: readonly string[]): XsdValidator {
  const { XmlDocument, XsdValidator, XmlBufferInputProvider, xmlRegisterInputProvider } = xml();
  const compile = (text: string, url: string) => {
    const doc = XmlDocument.fromString(text, { option: safeParseOptions(), url });
    try {
      return XsdValidator.fromDoc(doc);
    } finally {
      doc.dispose();
    }
  };
  // The XML namespace's schema, which a document may import by namespace alone (every processor knows its
  // attributes; libxml2 reads it, as the catalog maps its URL, when the set's root imports it first).
  const xmlNamespace = paths.some((path) => importsXmlNamespaceAlone(path));
  if (paths.length === 1 && !xmlNamespace) return compile(readFileSync(paths[0], 'utf8'), pathToFileURL(paths[0]).href);
  if (!wrappers) {
    wrappers = new XmlBufferInputProvider({});
    xmlRegisterInputProvider(wrappers);
  }
  const byNamespace = new Map<string, string[]>();
  for (const path of paths) {
    const namespace = targetNamespaceOf(path);
    byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), pathToFileURL(path).href]);
  }
  const folder = `xsts-schema-set:/${++wrapperSets}`;
  const encoder = new TextEncoder();
  const added: string[] = [];
  let root = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">';
  if (xmlNamespace) root += `<xs:import namespace="${XML_NAMESPACE}" schemaLocation="${XML_NAMESPACE_SCHEMA}"/>`;
  for (const [namespace, urls] of byNamespace) {
    if (namespace === '') {
      for (const url of urls) root += `<xs:include schemaLocation="${escapeXmlAttribute(url)}"/>`;
      continue;
    }
    let location = urls[0];
    if (urls.length > 1) {
      location = `${folder}/${added.length}.xsd`;
      const includes = urls.map((url) => `<xs:include schemaLocation="${escapeXmlAttribute(url)}"/>`).join('');
      wrappers.addBuffer(
        location,
        encoder.encode(
          `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${escapeXmlAttribute(namespace)}">${includes}</xs:schema>`,
        ),
      );
      added.push(location);
    }
    root += `<xs:import namespace="${escapeXmlAttribute(namespace)}" schemaLocation="${escapeXmlAttribute(location)}"/>`;
  }
  try {
    return compile(`${root}</xs:schema>`, `${folder}/root.xsd`);
  } finally {
    for (const location of added) wrappers.removeBuffer(location);
  }
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XML_NAMESPACE_SCHEMA = 'http://www.w3.org/2001/xml.xsd';

/** Whether a schema document imports the XML namespace without saying where its schema is. */
function importsXmlNamespaceAlone(path: string): boolean {
  const doc = xml().XmlDocument.fromString(readFileSync(path, 'utf8'), { option: safeParseOptions() });
  try {
    return (
      doc.root.find(`xs:import[@namespace="${XML_NAMESPACE}" and not(@schemaLocation)]`, { xs: 'http://www.w3.org/2001/XMLSchema' })
        .length > 0
    );
  } finally {
    doc.dispose();
  }
}

function targetNamespaceOf(path: string): string {
  const doc = xml().XmlDocument.fromString(readFileSync(path, 'utf8'), { option: safeParseOptions() });
  try {
    return doc.root.attr('targetNamespace')?.value ?? '';
  } finally {
    doc.dispose();
  }
}

function oneLine(error: unknown): string {
  return (firstLibxmlMessage(error) || String(error)).replace(/^codegen: /, '').slice(0, 300);
}

/**
 * The generated files, turned into CommonJS by TypeScript's transpileModule and run from memory: `./x` is the
 * generated file x.ts, `runtime` (the module of the runtime's front door, below which they import its doors) this
 * checkout's runtime.
 */
export function loadModules(files: Record<string, string>, runtime = GENERATED.runtime): (name: string) => unknown {
  const modules = new Map<string, { exports: object }>();
  const load = (name: string): unknown => {
    if (name === runtime || name.startsWith(`${runtime}/`)) return require(RUNTIME_FOLDER + name.slice(runtime.length));
    if (!name.startsWith('./')) throw new Error(`a generated file imports ${name}`);
    const file = `${name.slice(2)}.ts`;
    const known = modules.get(file);
    if (known) return known.exports;
    const source = files[file];
    if (source === undefined) throw new Error(`a generated file imports ${name}, which was not generated`);
    const module = { exports: {} };
    modules.set(file, module);
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
    });
    new Function('exports', 'require', 'module', outputText)(module.exports, load, module);
    return module.exports;
  };
  return load;
}
