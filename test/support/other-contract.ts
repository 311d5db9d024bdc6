/**
 * Other contracts served as a team serving its own serves them: the runtime
 * and codegen packages installed into a project of the team's
 * (test/support/installed-package.ts: `npm pack` of each workspace of a fresh
 * copy of the repository, `npm install` of both tarballs into a new project in
 * a temporary folder), where, for each fixture contract
 * of test/fixtures/contracts/ (its WSDL and schema files copied to
 * contracts/<name>/), the package's `contract-codegen` writes the contract
 * into src/<name>/generated/ and the handler skeleton's index.ts
 * beside the fixture's handler modules (its handlers/, copied to
 * src/<name>/handlers/), with the typed-client runner (typed-client.ts) in
 * src/<name>/. The project's own tsc compiles it all; each contract is served
 * by its compiled skeleton (dist/<name>/handlers/index.js, the runtime's host).
 */
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { XsdValidator } from '../../src/runtime/xml/xml-engine';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { compileSchemaSet } from '../../src/runtime/xml/xml-schema';
import { contractModel, theWsdlOf } from '../../codegen/main';
import { readContract } from '../../codegen/read/contract';
import { REPO } from './child-service';
import { runJsonClient } from '../system/clients/harness';
import { makeProject, packWorkspaces, projectBin, type Served, serve, succeed } from './installed-package';
import { loadReaders } from './readers';
import { schemaChecks, type SchemaChecks } from './xml-assertions';

export const CONTRACTS = join(REPO, 'test', 'fixtures', 'contracts');

/** The team's project: the installed package, and the fixture contracts it generated and compiled. */
export interface TeamProject {
  folder: string;
  /** Starts the compiled skeleton of contract `name`. */
  serve(name: string): Promise<OtherContract>;
}

export interface OtherContract extends SchemaChecks {
  /** The contract's folder in the project: src/<name>/. */
  folder: string;
  service: Served;
  /** The server's origin, `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** The endpoint, at the path of the WSDL's address. */
  url: string;
  /** The contract's schema (codegen's model of the fixture's WSDL), compiled by libxml2. */
  schema: XsdValidator;
  /** Runs the contract's compiled typed-client runner, `input` on its stdin as JSON; its stdout parsed as JSON. */
  runTypedClient<T>(input: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Packs the runtime and codegen packages into `work`, makes the team's project in `work`/project with typescript, and for each contract
 * of `names` generates it with the installed codegen beside the fixture's handlers; then compiles the project. On any
 * failure, what was made is left in `work`, which the caller removes.
 */
export async function makeTeamProject(work: string, names: readonly string[]): Promise<TeamProject> {
  const folder = join(work, 'project');
  const packed = await packWorkspaces(work);
  await makeProject(
    folder,
    packed.map(({ tarball }) => tarball),
    ['typescript@5.9', '@types/node@24'],
  );
  for (const name of names) {
    const fixture = join(CONTRACTS, name);
    const contract = join(folder, 'contracts', name);
    mkdirSync(contract, { recursive: true });
    for (const file of readdirSync(fixture).filter((f) => /\.(wsdl|xsd)$/i.test(f))) cpSync(join(fixture, file), join(contract, file));
    const own = join(folder, 'src', name);
    mkdirSync(own, { recursive: true });
    cpSync(join(fixture, 'handlers'), join(own, 'handlers'), { recursive: true });
    cpSync(join(CONTRACTS, 'typed-client.ts'), join(own, 'typed-client.ts'));
    // contract-codegen --wsdl FILE --out src/<name>/generated --handlers src/<name>/handlers: index.ts (the modules are the fixture's).
    await succeed(
      projectBin(folder, 'contract-codegen'),
      [
        '--wsdl',
        relative(folder, theWsdlOf(contract)),
        '--out',
        join('src', name, 'generated'),
        '--handlers',
        join('src', name, 'handlers'),
      ],
      folder,
      120_000,
    );
  }
  await succeed(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], folder, 300_000);
  await Promise.all([loadXmlEngine(), loadReaders()]);
  return { folder, serve: (name) => serveContract(folder, name) };
}

async function serveContract(project: string, name: string): Promise<OtherContract> {
  const service = await serve(process.execPath, [join('dist', name, 'handlers', 'index.js')], project);
  try {
    // The contract's whole schema, as codegen models it from the fixture's WSDL (the service validates against the same).
    const schema = compileSchemaSet(contractModel(await readContract(theWsdlOf(join(CONTRACTS, name)))).schemas.map((s) => s.text));
    const runTypedClient = <T>(input: unknown): Promise<T> =>
      runJsonClient<T>(process.execPath, [join(project, 'dist', name, 'typed-client.js')], input, 120_000);
    const close = async () => {
      await service.stop(0);
    };
    return {
      folder: join(project, 'src', name),
      service,
      baseUrl: new URL(service.url).origin,
      url: service.url,
      schema,
      ...schemaChecks(schema),
      runTypedClient,
      close,
    };
  } catch (error) {
    await service.stop(0);
    throw error;
  }
}
