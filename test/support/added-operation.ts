/**
 * Issue 28's set-up: a copy of the repository (its files, as
 * test/support/repository-copy.ts lists them, and a link to this checkout's
 * node_modules) with GenerateSecret added to schema/api.xsd and every port of
 * schema/api.wsdl (test/fixtures/add-operation/schema.ts) and ONE new file,
 * src/service/handlers/generate-secret.ts (test/fixtures/add-operation/src/service/); the
 * copy's generate step and type check run, and its service is started
 * (--store memory). Used by test/system/add-operation.test.ts (every variant)
 * and test/system/add-operation-clients.test.ts (real clients).
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { XsdValidator } from '../../src/runtime/xml/xml-engine';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { compileSchema } from '../../src/runtime/xml/xml-schema';
import { addToWsdl, addToXsd } from '../fixtures/add-operation/schema';
import { REPO, startChildService, type ChildService } from './child-service';
import { loadReaders } from './readers';
import { makeRepositoryCopy, nodeInCopy } from './repository-copy';
import { schemaChecks, type SchemaChecks } from './xml-assertions';

export const NS = 'http://authenticatorapi.com/';
const HANDLER = join(REPO, 'test', 'fixtures', 'add-operation', 'src', 'service', 'handlers', 'generate-secret.ts');

export interface AddedOperation extends SchemaChecks {
  /** The copy's folder (removed by close()). */
  copy: string;
  /** The copy's service, started; its address is `service.url`. */
  service: ChildService;
  url: string;
  /** The copy's schema/api.xsd (with GenerateSecret), compiled by libxml2. */
  schema: XsdValidator;
  /** Kills the service and removes the copy. */
  close(): Promise<void>;
}

/**
 * Makes the copy, adds GenerateSecret, generates, type-checks, and starts the
 * copy's service (allow it some minutes: the type check is the long part).
 * On any failure, what was made is removed before the error is thrown.
 */
export async function startAddedOperation(): Promise<AddedOperation> {
  const copy = makeRepositoryCopy('pin-add-operation-');
  let service: ChildService | undefined;
  const close = async () => {
    await service?.kill();
    rmSync(copy, { recursive: true, force: true });
  };
  try {
    // schema/ and one handler module: the whole change.
    const wsdl = join(copy, 'schema', 'api.wsdl');
    const xsd = join(copy, 'schema', 'api.xsd');
    writeFileSync(wsdl, addToWsdl(readFileSync(wsdl, 'utf8')));
    writeFileSync(xsd, addToXsd(readFileSync(xsd, 'utf8')));
    copyFileSync(HANDLER, join(copy, 'src', 'service', 'handlers', 'generate-secret.ts'));

    await nodeInCopy(copy, ['--import=tsx', 'codegen/main.ts'], 120_000); // npm run generate
    await nodeInCopy(copy, [join('node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], 300_000); // npm run typecheck

    await Promise.all([loadXmlEngine(), loadReaders()]);
    const schema = compileSchema(readFileSync(xsd, 'utf8'));
    service = await startChildService({ repo: copy, args: ['--store', 'memory'], readyTimeoutMs: 60_000 });
    return { copy, service, url: service.url, schema, ...schemaChecks(schema), close };
  } catch (error) {
    await close();
    throw error;
  }
}
