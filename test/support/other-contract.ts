/**
 * Issue 28's "a whole other contract": a copy of the repository (its files,
 * and a link to this checkout's node_modules) whose schema/ holds a fixture
 * contract of test/fixtures/contracts/ instead of this service's, whose
 * src/handlers/ holds that fixture's handler modules instead of Pair's and
 * ValidatePin's (the operation modules of schema/), and nothing else
 * changed. The copy's generate step and type check (of what the service is
 * built from: src/ and generated/) must pass; its service is then started.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { XsdValidator } from '../../src/xml/xml-engine';
import { loadXmlEngine } from '../../src/xml/xml-engine';
import { compileSchema, firstLibxmlMessage } from '../../src/xml/xml-schema';
import { buildContractModel } from '../../codegen/build-model';
import { theWsdlOf } from '../../codegen/main';
import { readContract } from '../../codegen/read/contract';
import { REPO, startChildService, type ChildService } from './child-service';
import { elementAt, loadReaders, readXml, standaloneXml, type XmlElement } from './readers';
import { repositoryFiles, run } from './repository-copy';

export const CONTRACTS = join(REPO, 'test', 'fixtures', 'contracts');

/** This service's operation modules, which a copy serving another contract leaves out. */
const OWN_OPERATION_MODULES = ['pair.ts', 'validate-pin.ts'];

export interface OtherContract {
  copy: string;
  service: ChildService;
  url: string;
  /** The contract's schema (codegen's model of the copy's schema/), compiled by libxml2. */
  schema: XsdValidator;
  /** libxml2's first message when `element` (a SOAP body's child, an HTTP answer's root) is invalid; [] when valid. */
  schemaErrors(element: XmlElement): string[];
  /** The same for the first child of a SOAP envelope's Body (`envelope`: the envelope's text). */
  bodyErrors(envelope: string): string[];
  /** Runs a TypeScript file in the copy (node --import=tsx), `input` on its stdin as JSON; its stdout parsed as JSON. */
  runInCopy<T>(file: string, input: unknown): Promise<T>;
  close(): Promise<void>;
}

async function inCopy(copy: string, args: string[], timeoutMs: number): Promise<string> {
  const ran = await run(process.execPath, args, copy, timeoutMs);
  if (ran.status !== 0) throw new Error(`${args.join(' ')} failed in the copy (exit ${ran.status}):\n${ran.output.slice(-8000)}`);
  return ran.output;
}

/**
 * Makes the copy for the fixture folder `name` (its WSDL and schema files
 * into schema/, its handlers/ into src/handlers/), generates, type-checks and
 * starts the copy's service. On any failure, what was made is removed.
 */
export async function startOtherContract(name: string): Promise<OtherContract> {
  const fixture = join(CONTRACTS, name);
  const copy = mkdtempSync(join(tmpdir(), `pin-contract-${name}-`));
  let service: ChildService | undefined;
  const close = async () => {
    await service?.kill();
    rmSync(copy, { recursive: true, force: true });
  };
  try {
    const files = repositoryFiles().filter((file) => !/^(node_modules|\.node)(\/|$)/.test(file));
    for (const file of files) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(REPO, file), join(copy, file));
    }
    symlinkSync(realpathSync(join(REPO, 'node_modules')), join(copy, 'node_modules'));

    // The contract: schema/ is the fixture's WSDL and schema files, src/handlers/ its operations' modules.
    rmSync(join(copy, 'schema'), { recursive: true });
    mkdirSync(join(copy, 'schema'));
    for (const file of readdirSync(fixture).filter((f) => /\.(wsdl|xsd)$/i.test(f)))
      cpSync(join(fixture, file), join(copy, 'schema', file));
    for (const module of OWN_OPERATION_MODULES) rmSync(join(copy, 'src', 'handlers', module));
    cpSync(join(fixture, 'handlers'), join(copy, 'src', 'handlers'), { recursive: true });

    await inCopy(copy, ['--import=tsx', 'codegen/main.ts'], 120_000); // npm run generate
    await inCopy(copy, [join('node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.build.json'], 300_000);

    await Promise.all([loadXmlEngine(), loadReaders()]);
    service = await startChildService({ repo: copy, args: ['--store', 'memory'], readyTimeoutMs: 60_000 });
    const generatedRoutes = readFileSync(join(copy, 'generated', 'routes.ts'), 'utf8');
    const endpoint = /export const ENDPOINT_PATH = "([^"]+)"/.exec(generatedRoutes)?.[1];
    if (!endpoint) throw new Error("the copy's generated/routes.ts names no ENDPOINT_PATH");
    // The contract's whole schema, as codegen models it from the copy's schema/ (the service validates against the same).
    const schema = compileSchema(buildContractModel(await readContract(theWsdlOf(join(copy, 'schema')))).schema);
    const schemaErrors = (element: XmlElement): string[] =>
      readXml(standaloneXml(element), (doc) => {
        try {
          schema.validate(doc);
          return [];
        } catch (error) {
          return [firstLibxmlMessage(error)];
        }
      });
    const bodyErrors = (envelope: string): string[] =>
      readXml(envelope, (doc) => {
        const body = elementAt(doc, '/*[local-name()="Envelope"]/*[local-name()="Body"]/*[1]');
        return body ? schemaErrors(body) : [`no SOAP body in ${envelope.slice(0, 200)}`];
      });
    const runInCopy = async <T>(file: string, input: unknown): Promise<T> => {
      const target = join(copy, 'contract-client.ts');
      cpSync(file, target);
      const ran = await new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
        const { spawn } = require('node:child_process') as typeof import('node:child_process');
        const child = spawn(process.execPath, ['--import=tsx', target], { cwd: copy, timeout: 120_000, killSignal: 'SIGKILL' });
        let out = '';
        let err = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
        child.on('close', (status) => resolve({ status, out, err }));
        child.stdin.end(JSON.stringify(input));
      });
      if (ran.status !== 0) throw new Error(`${file} failed in the copy (exit ${ran.status}): ${ran.err.slice(-4000)}`);
      return JSON.parse(ran.out) as T;
    };
    return { copy, service, url: `${service.url}${endpoint}`, schema, schemaErrors, bodyErrors, runInCopy, close };
  } catch (error) {
    await close();
    throw error;
  }
}
