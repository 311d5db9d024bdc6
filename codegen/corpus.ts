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
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import pino from 'pino';
import type { ContractDefinition } from '../src/runtime/definition';
import { createContractApp } from '../src/runtime/host';
import { listen } from '../src/runtime/listener';
import { SOAP11, SOAP12, soapEnvelope, type SoapVersion } from '../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../src/runtime/xml/xml-codec';
import { loadXmlEngine, safeParseOptions, xml, type XmlElement, type XsdValidator } from '../src/runtime/xml/xml-engine';
import { compileSchemaSet, firstLibxmlMessage } from '../src/runtime/xml/xml-schema';
import { type AnyOperations, RUNTIME, requireGenerated, sampleHandlers } from './load-generated';
import { generate } from './main';

/** The contracts of a folder, by name: each top-level WSDL, and each sub-folder's WSDL that no other there imports. */
export function contractsOf(dir: string): { name: string; wsdl: string }[] {
  const out: { name: string; wsdl: string }[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      const wsdls = readdirSync(path).filter((f) => /\.wsdl$/i.test(f));
      const imported = new Set(
        wsdls.flatMap((f) =>
          [...readFileSync(join(path, f), 'utf8').matchAll(/<(?:\w+:)?import\b[^>]*\blocation="([^"]+)"/g)].map((m) => m[1]),
        ),
      );
      const mains = wsdls.filter((f) => !imported.has(f));
      if (mains.length >= 1) out.push({ name: entry, wsdl: join(path, mains[0]) });
    } else if (/\.wsdl$/i.test(entry)) out.push({ name: entry.replace(/\.wsdl$/i, ''), wsdl: path });
  }
  return out;
}

export interface ContractOutcome {
  name: string;
  /** 'pass', or the stage that failed. */
  outcome: 'pass' | 'refused' | 'type-check' | 'serve' | 'call';
  /** One line: what was called, or why not. */
  line: string;
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
  const typeRoots = resolve(__dirname, '..', 'node_modules', '@types');
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
      const headerText = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : '';
      const request = soapEnvelope(version, route.encodeSoapRequest(route.sampleRequest(), ns), headerText || undefined);
      const where = `${name} over ${port.name} (${version === SOAP11 ? 'SOAP 1.1' : 'SOAP 1.2'})`;
      const requestProblem = checkEnvelope(request, version, schemas);
      if (requestProblem) throw new Error(`${where}: the sample request is not valid: ${requestProblem}`);
      const action = route.soapActions?.[port.variant as 'soap11' | 'soap12'] ?? definition.targetNamespace + route.soapActionSuffix;
      const answer = await fetch(`${base}${port.path ?? definition.endpointPath}`, {
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
      const problem = checkEnvelope(text, version, schemas);
      if (problem) throw new Error(`${where}: the answer is not valid: ${problem}`);
    }
  }
  return `${definition.operationNames.length} operations × ${ports.length} SOAP port${ports.length === 1 ? '' : 's'}, ${calls} calls`;
}

/** What is wrong with an envelope: its shape (the version's Envelope, an optional Header, one Body, no Fault), or a block or body element the schemas refuse. */
export function checkEnvelope(text: string, version: SoapVersion, schemas: XsdValidator): string | undefined {
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
          schemas.validate(child);
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

export async function checkCorpus(dir: string, print: (line: string) => void, keep = false): Promise<ContractOutcome[]> {
  await loadXmlEngine();
  const work = mkdtempSync(join(tmpdir(), 'corpus-'));
  const outcomes: ContractOutcome[] = [];
  const generated: { name: string; folder: string; choice?: string }[] = [];
  try {
    for (const { name, wsdl } of contractsOf(dir)) {
      const folder = join(work, name.replace(/[^A-Za-z0-9._-]/g, '_'));
      mkdirSync(folder);
      let choice: string | undefined;
      try {
        await generate(wsdl, folder, { runtime: RUNTIME, note: (line) => (choice = line) });
        generated.push({ name, folder, ...(choice ? { choice } : {}) });
      } catch (error) {
        outcomes.push({ name, outcome: 'refused', line: (error as Error).message.split('\n')[0] });
      }
    }
    const checked = generated.length
      ? typeCheckFolders(
          generated.map((g) => g.folder),
          work,
        )
      : new Map<string, string>();
    for (const { name, folder, choice } of generated) {
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
        const line = await callEveryOperation(definition, served.url);
        outcomes.push({ name, outcome: 'pass', line: choice ? `${line} (${choice.replace(/^codegen: /, '')})` : line });
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
  for (const o of outcomes) print(`${o.outcome === 'pass' ? 'pass' : `FAIL (${o.outcome})`}  ${o.name}: ${o.line}`);
  const passed = outcomes.filter((o) => o.outcome === 'pass').length;
  print(
    `${passed} of ${outcomes.length} contracts generate, type-check and answer every operation on every SOAP port with a schema-valid answer`,
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
