/**
 * The corpus check: for each contract of a folder (a `.wsdl` file, or a
 * folder holding one WSDL that no other WSDL there imports), generate it,
 * type-check every generated folder in one TypeScript program, serve it with
 * sample answers (the mock), and call every operation over every declared
 * SOAP port with the schema-valid sample request; the answer must be a SOAP
 * envelope of the port's version whose body and headers are valid against
 * the contract's schemas. One line per contract, then the total.
 *   npm run corpus -- DIR [--keep]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import pino from 'pino';
import type { ContractDefinition } from 'contract-runtime/codec';
import {
  createContractApp,
  encodedCall,
  encodedHeaders,
  listen,
  literalAnswer,
  literalCall,
  literalHeader,
  requestAddressingHeaders,
  SOAP11,
  SOAP12,
  soapEnvelope,
  type SoapVersion,
} from 'contract-runtime/host';
import {
  compileSchemaSet,
  escapeXmlAttribute,
  firstLibxmlMessage,
  loadXmlEngine,
  safeParseOptions,
  xml,
  type XmlElement,
  type XsdValidator,
} from 'contract-runtime/xml';
import { type AnyOperations, requireGenerated, sampleHandlers } from './load-generated';
import { generate } from '../main';
import type { WsdlCoverage } from '../read/wsdl';

/**
 * The contracts of a folder, by name: each top-level WSDL, and for each sub-folder the WSDL that contract's tree
 * (wherever in it) serves: one that no other WSDL there imports (any, when they import each other), one with a
 * service first, the shallowest first.
 * A sub-folder's `catalog.xml` (an OASIS XML Catalog) maps the URLs its documents are named by.
 */
/** The names of a folder's contracts, as contractsOf names them, without reading any (the XML engine need not be loaded). */
export function contractNames(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return filesUnder(path, /\.wsdl$/i).length > 0 ? [entry] : [];
      return /\.wsdl$/i.test(entry) ? [entry.replace(/\.wsdl$/i, '')] : [];
    });
}

export function contractsOf(dir: string): { name: string; wsdl: string; catalog?: string }[] {
  const out: { name: string; wsdl: string; catalog?: string }[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      const wsdls = filesUnder(path, /\.wsdl$/i);
      const imported = new Set<string>();
      const withService = new Set<string>();
      for (const file of wsdls) {
        const facts = wsdlFacts(file);
        for (const location of facts.imports) if (!/^[a-z][a-z0-9+.-]*:/i.test(location)) imported.add(resolve(dirname(file), location));
        if (facts.service) withService.add(file);
      }
      const depth = (file: string) => relative(path, file).split(sep).length;
      // WSDLs that import each other (WCF's `?wsdl` and `?wsdl=wsdl0`) are each imported: the contract is one of them.
      const unimported = wsdls.filter((f) => !imported.has(f));
      const mains = (unimported.length ? unimported : wsdls)
        .slice()
        .sort((a, b) => Number(withService.has(b)) - Number(withService.has(a)) || depth(a) - depth(b) || (a < b ? -1 : 1));
      const catalog = join(path, 'catalog.xml');
      if (mains.length >= 1) out.push({ name: entry, wsdl: mains[0], ...(existsSync(catalog) ? { catalog } : {}) });
    } else if (/\.wsdl$/i.test(entry)) out.push({ name: entry.replace(/\.wsdl$/i, ''), wsdl: path });
  }
  return out;
}

/** The files under a folder whose names match, depth first, in name order. */
function filesUnder(folder: string, name: RegExp): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(join(folder, entry.name), name) : name.test(entry.name) ? [join(folder, entry.name)] : [],
    );
}

/** A WSDL's import locations and whether it declares a service (one that is no XML says neither). */
function wsdlFacts(file: string): { imports: string[]; service: boolean } {
  const { XmlDocument } = xml(); // the engine loaded (loadXmlEngine) first: what cannot be parsed is what is read past
  try {
    const doc = XmlDocument.fromString(readFileSync(file, 'utf8'), { option: safeParseOptions() });
    try {
      const ns = { wsdl: 'http://schemas.xmlsoap.org/wsdl/' };
      const imports = doc.root.find('/wsdl:definitions/wsdl:import/@location', ns).map((a) => (a as unknown as { value: string }).value);
      return { imports, service: doc.root.find('/wsdl:definitions/wsdl:service', ns).length > 0 };
    } finally {
      doc.dispose();
    }
  } catch {
    return { imports: [], service: false };
  }
}

export interface ContractOutcome {
  name: string;
  /**
   * 'pass': every operation of every SOAP or HTTP port of every service served and answering; 'partial': what is
   * served answers, but some operations or ports are not served (each said in codegen's warnings); else the stage
   * that failed.
   */
  outcome: 'pass' | 'partial' | 'refused' | 'type-check' | 'serve' | 'call';
  /** One line: what was called, or why not. */
  line: string;
}

/** Generated TypeScript a type-check program takes at most: a contract of a thousand operations is one on its own. */
const BATCH_BYTES = 12 << 20;

/** Type-checks generated folders in programs of at most BATCH_BYTES of code each: the messages by folder. */
export function typeCheckInBatches(folders: string[], work: string): Map<string, string> {
  const checked = new Map<string, string>();
  const size = (folder: string) =>
    readdirSync(folder)
      .filter((f) => f.endsWith('.ts'))
      .reduce((sum, f) => sum + statSync(join(folder, f)).size, 0);
  let batch: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (batch.length) for (const [folder, errors] of typeCheckFolders(batch, work)) checked.set(folder, errors);
    batch = [];
    bytes = 0;
  };
  for (const folder of folders) {
    const own = size(folder);
    if (batch.length && bytes + own > BATCH_BYTES) flush();
    batch.push(folder);
    bytes += own;
  }
  flush();
  return checked;
}

/** Type-checks generated folders in one program: the compiler's messages by folder ('' when it passes). */
export function typeCheckFolders(folders: string[], work: string): Map<string, string> {
  const files = folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => relative(work, join(folder, f)).split(sep).join('/')),
  );
  const config = JSON.parse(readFileSync(join(folders[0], 'tsconfig.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };
  const typeRoots = resolve(__dirname, '..', '..', 'node_modules', '@types');
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...config.compilerOptions, typeRoots: [typeRoots] }, files }, null, 2),
  );
  let output = '';
  try {
    // Run in the folder, so that the compiler names each file from it, as the folders are matched below.
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', '.'], {
      cwd: work,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    output = `${stdout}${stderr}`;
  }
  const byFolder = new Map<string, string>(folders.map((f) => [f, '']));
  let unplaced = '';
  for (const line of output.split('\n')) {
    if (line === '' || line.startsWith(' ')) continue; // a message's continuation lines
    const folder = folders.find((f) => line.startsWith(`${relative(work, f).split(sep).join('/')}/`));
    if (folder) byFolder.set(folder, `${byFolder.get(folder)}${line}\n`);
    else unplaced += `${line}\n`;
  }
  // An error in no generated folder (the runtime, the configuration) fails them all: none is shown to type-check.
  if (unplaced !== '') for (const folder of folders) byFolder.set(folder, `${unplaced}${byFolder.get(folder)}`);
  return byFolder;
}

/** Calls every operation over every SOAP port of a served contract; throws the first failure, in a line. */
async function callEveryOperation(definition: ContractDefinition<AnyOperations>, base: string): Promise<string> {
  const schemas: XsdValidator = compileSchemaSet(
    definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)],
  );
  const ns = escapeXmlAttribute(definition.targetNamespace);
  const ports = definition.ports.filter((p) => p.variant === 'soap11' || p.variant === 'soap12');
  let calls = 0;
  for (const port of ports) {
    const version = port.variant === 'soap11' ? SOAP11 : SOAP12;
    for (const name of definition.operationNames) {
      const route = definition.routes[name];
      const headers = route.sampleHeaders?.();
      const literalHeaders = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : '';
      const url = `${base}${port.path ?? definition.endpointPath}`;
      // Where the binding's WS-Policy asks for WS-Addressing, the call carries its headers, as a client of it would.
      const addressed = route.addressingActions && route.policies?.[port.variant as 'soap11' | 'soap12']?.addressing;
      const addressing = addressed ? requestAddressingHeaders(route.addressingActions!.input, url) : '';
      // An rpc/encoded operation is called SOAP-encoded, as its clients call it; its answer read back into literal form.
      const literal = route.encodeSoapRequest(route.sampleRequest(), ns);
      const encoding = route.soapEncoding;
      const body = encoding ? encodedCall(literal, encoding, version.envelopeNamespace) : literal;
      const headerText = encoding && literalHeaders ? encodedHeaders(literalHeaders, encoding, version.envelopeNamespace) : literalHeaders;
      const encodedBlock = encoding?.headers && ((block: XmlElement, envelope: XmlElement) => literalHeader(block, envelope, encoding));
      const request = soapEnvelope(version, body, addressing + headerText || undefined);
      const where = `${name} over ${port.name} (${version === SOAP11 ? 'SOAP 1.1' : 'SOAP 1.2'})`;
      const requestProblem = checkEnvelope(request, version, schemas, encoding && ((w, b) => literalCall(w, b, encoding)), encodedBlock);
      if (requestProblem) throw new Error(`${where}: the sample request is not valid: ${requestProblem}`);
      const action = route.soapActions?.[port.variant as 'soap11' | 'soap12'] ?? definition.targetNamespace + route.soapActionSuffix;
      const answer = await fetch(url, {
        method: 'POST',
        headers:
          version === SOAP11
            ? { 'Content-Type': version.contentType, SOAPAction: `"${action}"` }
            : { 'Content-Type': `${version.contentType}; action="${action}"` },
        body: request,
      });
      const text = await answer.text();
      calls++;
      if (route.oneWay) {
        if (answer.status !== 202) throw new Error(`${where}: a one-way operation answered ${answer.status}, not 202`);
        continue;
      }
      if (answer.status !== 200) {
        const reason = /<faultstring>([^<]*)<|<soap:Text[^>]*>([^<]*)</.exec(text);
        throw new Error(`${where}: HTTP ${answer.status}: ${(reason?.[1] ?? reason?.[2] ?? text).replace(/\s+/g, ' ').slice(0, 400)}`);
      }
      const problem = checkEnvelope(text, version, schemas, encoding && ((w, b) => literalAnswer(w, b, encoding)), encodedBlock);
      if (problem) throw new Error(`${where}: the answer is not valid: ${problem}`);
    }
  }
  return `${definition.operationNames.length} operations × ${ports.length} SOAP port${ports.length === 1 ? '' : 's'}, ${calls} calls`;
}

/** The namespaces of the header blocks the runtime's SOAP stack reads and writes (WS-Addressing 1.0). */
const STACK_NAMESPACES: ReadonlySet<string> = new Set(['http://www.w3.org/2005/08/addressing']);
let stackValidator: XsdValidator | undefined;

/** WS-Addressing 1.0's schema (codegen/standard/'s copy): the stack's header blocks are valid against it, not the contract's. */
function stackSchemas(): XsdValidator {
  stackValidator ??= compileSchemaSet([
    readFileSync(join(__dirname, '..', 'standard', 'www.w3.org', '2005', '08', 'addressing', 'ws-addr.xsd'), 'utf8'),
  ]);
  return stackValidator;
}

/** What is wrong with an envelope: its shape (the version's Envelope, an optional Header, one Body, no Fault), or a block or body element the schemas refuse. */
export function checkEnvelope(
  text: string,
  version: SoapVersion,
  schemas: XsdValidator,
  literalOf?: (element: XmlElement, body: XmlElement) => string,
  /** A header block's literal form where it is bound encoded (undefined: it is literal). */
  headerLiteralOf?: (block: XmlElement, envelope: XmlElement) => string | undefined,
): string | undefined {
  let doc: InstanceType<ReturnType<typeof xml>['XmlDocument']>;
  try {
    doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  } catch (error) {
    return `not well-formed XML (${firstLibxmlMessage(error)})`;
  }
  try {
    const env = doc.root;
    if (env.name !== 'Envelope' || env.namespaceUri !== version.envelopeNamespace) return `the root is {${env.namespaceUri}}${env.name}`;
    const children = env.find('*') as XmlElement[];
    const names = children.map((c) => (c.namespaceUri === version.envelopeNamespace ? c.name : `{${c.namespaceUri}}${c.name}`));
    if (!(names.join() === 'Body' || names.join() === 'Header,Body')) return `the envelope holds ${names.join(', ')}`;
    for (const part of children) {
      for (const child of part.find('*') as XmlElement[]) {
        if (child.name === 'Fault' && child.namespaceUri === version.envelopeNamespace) {
          return `a fault: ${child.content.replace(/\s+/g, ' ').trim().slice(0, 300)}`;
        }
        try {
          if (literalOf && part.name === 'Body') {
            // An encoded body: its element's literal form is what the schemas describe.
            if (child !== (part.find('*') as XmlElement[])[0]) continue;
            validateLiteral(literalOf(child, part), schemas);
          } else if (part.name === 'Header' && headerLiteralOf?.(child, env) !== undefined) {
            validateLiteral(headerLiteralOf(child, env)!, schemas);
          } else (STACK_NAMESPACES.has(child.namespaceUri) ? stackSchemas() : schemas).validate(child);
        } catch (error) {
          return `${child.name}: ${firstLibxmlMessage(error).slice(0, 300)}`;
        }
      }
    }
    return undefined;
  } finally {
    doc.dispose();
  }
}

function validateLiteral(text: string, schemas: XsdValidator): void {
  const doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  try {
    schemas.validate(doc.root);
  } finally {
    doc.dispose();
  }
}

export async function checkCorpus(dir: string, print: (line: string) => void, keep = false): Promise<ContractOutcome[]> {
  await loadXmlEngine();
  const work = mkdtempSync(join(tmpdir(), 'corpus-'));
  const outcomes: ContractOutcome[] = [];
  const generated: { name: string; folder: string; choice?: string; coverage?: WsdlCoverage }[] = [];
  try {
    for (const { name, wsdl, catalog } of contractsOf(dir)) {
      const folder = join(work, name.replace(/[^A-Za-z0-9._-]/g, '_'));
      mkdirSync(folder);
      const notes: string[] = [];
      let coverage: WsdlCoverage | undefined;
      try {
        await generate(wsdl, folder, {
          runtime: 'path',
          note: (line) => notes.push(line),
          coverage: (c) => {
            coverage = c;
          },
          ...(catalog ? { catalog } : {}),
        });
        // What was chosen, and how many ports and operations were skipped (each said in a warning line).
        const warnings = notes.filter((line) => line.startsWith('codegen: warning:') && line.includes(' is not served: ')).length;
        const chosen = notes.filter((line) => !line.startsWith('codegen: warning:'));
        const said = [...chosen, ...(warnings ? [`${warnings} skipped: see codegen's warnings`] : [])].join('; ');
        generated.push({ name, folder, ...(said ? { choice: said } : {}), ...(coverage ? { coverage } : {}) });
      } catch (error) {
        outcomes.push({ name, outcome: 'refused', line: (error as Error).message.split('\n')[0] });
      }
    }
    const checked = typeCheckInBatches(
      generated.map((g) => g.folder),
      work,
    );
    for (const { name, folder, choice, coverage } of generated) {
      const errors = checked.get(folder) ?? '';
      if (errors !== '') {
        outcomes.push({
          name,
          outcome: 'type-check',
          line: `${errors.split('\n').filter(Boolean).length} tsc errors, the first: ${errors.split('\n')[0].slice(relative(work, folder).length + 1)}`,
        });
        continue;
      }
      let served: Awaited<ReturnType<typeof listen>> | undefined;
      try {
        let definition: ContractDefinition<AnyOperations>;
        try {
          definition = requireGenerated(folder);
          const app = createContractApp(
            definition,
            sampleHandlers(definition),
            { namespace: undefined, publicUrl: undefined, trustProxy: false, maxBodyBytes: 16 << 20 },
            pino({ level: 'silent' }),
          );
          const handle = app.callback();
          served = await listen((req, res) => void handle(req, res), {
            port: 0,
            host: '127.0.0.1',
            headersTimeoutMs: 10_000,
            requestTimeoutMs: 30_000,
            keepAliveTimeoutMs: 5_000,
            inactivityTimeoutMs: 30_000,
          } as Parameters<typeof listen>[1]);
        } catch (error) {
          outcomes.push({ name, outcome: 'serve', line: (error as Error).message.split('\n')[0] });
          continue;
        }
        const called = await callEveryOperation(definition, served.url);
        const line = choice ? `${called} (${choice.replace(/^codegen: /, '')})` : called;
        const whole = !coverage || (coverage.servedOperations === coverage.operations && coverage.completePorts === coverage.ports);
        outcomes.push(
          whole
            ? { name, outcome: 'pass', line }
            : {
                name,
                outcome: 'partial',
                line: `${coverage!.servedOperations} of ${coverage!.operations} operations, ${coverage!.completePorts} of ${coverage!.ports} ports served whole; ${line}`,
              },
        );
      } catch (error) {
        outcomes.push({ name, outcome: 'call', line: (error as Error).message.split('\n')[0] });
      } finally {
        await served?.close();
      }
    }
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
    else print(`kept ${work}`);
  }
  const order = contractsOf(dir).map((c) => c.name);
  outcomes.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  for (const o of outcomes)
    print(`${o.outcome === 'pass' || o.outcome === 'partial' ? o.outcome : `FAIL (${o.outcome})`}  ${o.name}: ${o.line}`);
  const passed = outcomes.filter((o) => o.outcome === 'pass').length;
  const partial = outcomes.filter((o) => o.outcome === 'partial').length;
  print(
    `${passed} of ${outcomes.length} contracts generate, type-check and answer every operation on every SOAP port with a schema-valid answer, every operation of every port of every service served${partial ? ` (${partial} more served in part)` : ''}`,
  );
  return outcomes;
}

if (require.main === module) {
  const [dir, ...flags] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write('Usage: npm run corpus -- DIR [--keep]\n');
    process.exit(2);
  }
  checkCorpus(resolve(dir), (line) => console.log(line), flags.includes('--keep')).then(
    () => process.exit(0),
    (error: Error) => {
      console.error(`corpus: ${error.message}`);
      process.exit(1);
    },
  );
}

export { basename };
