/**
 * Another contract served as a team serving its own would serve it: a copy
 * of the repository (its files, and a link to this checkout's node_modules)
 * with nothing of the PIN service in src/ but the runtime (src/runtime/),
 * whose schema/ holds a fixture contract of test/fixtures/contracts/ and
 * whose src/handlers/ holds that fixture's handler modules, with the
 * index.ts that codegen's `--handlers` skeleton writes beside them. The
 * copy's generate step and its build (of src/ and generated/) must pass
 * with no file of the PIN service in it; the contract is then served by
 * src/handlers/index.ts (the runtime's host).
 */
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { XsdValidator } from '../../src/runtime/xml/xml-engine';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../src/runtime/xml/xml-schema';
import { buildContractModel } from '../../codegen/model/build';
import { theWsdlOf } from '../../codegen/main';
import { readContract } from '../../codegen/read/contract';
import { REPO, startChildService, type ChildService } from './child-service';
import { runJsonClient } from '../system/clients/harness';
import { loadReaders } from './readers';
import { makeRepositoryCopy, nodeInCopy } from './repository-copy';
import { schemaChecks, type SchemaChecks } from './xml-assertions';

export const CONTRACTS = join(REPO, 'test', 'fixtures', 'contracts');

/** What of src/ a copy serving another contract keeps: the runtime, which serves any contract. */
const RUNTIME = join('src', 'runtime');

export interface OtherContract extends SchemaChecks {
  copy: string;
  service: ChildService;
  url: string;
  /** The contract's schema (codegen's model of the copy's schema/), compiled by libxml2. */
  schema: XsdValidator;
  /** Runs a TypeScript file in the copy (node --import=tsx), `input` on its stdin as JSON; its stdout parsed as JSON. */
  runInCopy<T>(file: string, input: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Makes the copy for the fixture folder `name` (its WSDL and schema files
 * into schema/, its handlers/ into src/handlers/), generates, type-checks and
 * starts the copy's service. On any failure, what was made is removed.
 */
export async function startOtherContract(name: string): Promise<OtherContract> {
  const fixture = join(CONTRACTS, name);
  const copy = makeRepositoryCopy(`pin-contract-${name}-`);
  let service: ChildService | undefined;
  const close = async () => {
    await service?.kill();
    rmSync(copy, { recursive: true, force: true });
  };
  try {
    // The contract: schema/ is the fixture's WSDL and schema files, src/handlers/ its operations' modules.
    rmSync(join(copy, 'schema'), { recursive: true });
    mkdirSync(join(copy, 'schema'));
    for (const file of readdirSync(fixture).filter((f) => /\.(wsdl|xsd)$/i.test(f)))
      cpSync(join(fixture, file), join(copy, 'schema', file));
    // Nothing of the PIN service: src/ is the runtime and the contract's handlers.
    for (const entry of readdirSync(join(copy, 'src'))) {
      if (join('src', entry) !== RUNTIME) rmSync(join(copy, 'src', entry), { recursive: true });
    }
    cpSync(join(fixture, 'handlers'), join(copy, 'src', 'handlers'), { recursive: true });

    // npm run generate -- --handlers src/handlers: generated/, and the handlers' index.ts (the modules are the fixture's).
    await nodeInCopy(copy, ['--import=tsx', 'codegen/main.ts', '--handlers', 'src/handlers'], 120_000);
    // npm run build: the compiler, then the help pages' templates beside the compiled runtime.
    await nodeInCopy(copy, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], 300_000);
    const templates = join(RUNTIME, 'help', 'templates');
    cpSync(join(copy, templates), join(copy, 'dist', templates), { recursive: true });

    await Promise.all([loadXmlEngine(), loadReaders()]);
    service = await startChildService({ repo: copy, entry: join('dist', 'src', 'handlers', 'index.js'), readyTimeoutMs: 60_000 });
    const generatedRoutes = readFileSync(join(copy, 'generated', 'routes.ts'), 'utf8');
    const endpoint = /export const ENDPOINT_PATH = "([^"]+)"/.exec(generatedRoutes)?.[1];
    if (!endpoint) throw new Error("the copy's generated/routes.ts names no ENDPOINT_PATH");
    // The contract's whole schema, as codegen models it from the copy's schema/ (the service validates against the same).
    const schema = compileSchemaSet(buildContractModel(await readContract(theWsdlOf(join(copy, 'schema')))).schemas.map((s) => s.text));
    const runInCopy = async <T>(file: string, input: unknown): Promise<T> => {
      const target = join(copy, 'contract-client.ts');
      cpSync(file, target);
      // Its imports are the copy's (./generated/…); tsx comes from node_modules, which the copy links.
      return runJsonClient<T>(process.execPath, ['--import=tsx', target], input, 120_000);
    };
    return { copy, service, url: `${service.url}${endpoint}`, schema, ...schemaChecks(schema), runInCopy, close };
  } catch (error) {
    await close();
    throw error;
  }
}
