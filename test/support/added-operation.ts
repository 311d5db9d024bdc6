/**
 * Issue 28's set-up: a copy of the repository (its files, as
 * test/support/repository-copy.ts lists them, and a link to this checkout's
 * node_modules) with GenerateSecret added to schema/api.xsd and every port of
 * schema/api.wsdl (test/fixtures/add-operation/schema.ts) and ONE new file,
 * src/handlers/generate-secret.ts (test/fixtures/add-operation/src/); the
 * copy's generate step and type check run, and its service is started
 * (--store memory). Used by test/system/add-operation.test.ts (every variant)
 * and test/system/add-operation-clients.test.ts (real clients).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { XsdValidator } from '../../src/xml/xml-engine';
import { loadXmlEngine } from '../../src/xml/xml-engine';
import { compileSchema, firstLibxmlMessage } from '../../src/xml/xml-schema';
import { addToWsdl, addToXsd } from '../fixtures/add-operation/schema';
import { REPO, startChildService, type ChildService } from './child-service';
import { elementAt, loadReaders, readXml, standaloneXml, type XmlElement } from './readers';
import { repositoryFiles, run } from './repository-copy';

export const NS = 'http://authenticatorapi.com/';
const HANDLER = join(REPO, 'test', 'fixtures', 'add-operation', 'src', 'handlers', 'generate-secret.ts');

export interface AddedOperation {
  /** The copy's folder (removed by close()). */
  copy: string;
  /** The copy's service, started; its address is `service.url`. */
  service: ChildService;
  url: string;
  /** The copy's schema/api.xsd (with GenerateSecret), compiled by libxml2. */
  schema: XsdValidator;
  /** libxml2's first message when `element` (a SOAP body's child, an HTTP answer's root) is invalid against the copy's schema; [] when valid. */
  schemaErrors(element: XmlElement): string[];
  /** The same for the first child of a SOAP envelope's Body (`envelope`: the envelope's text). */
  bodyErrors(envelope: string): string[];
  /** Kills the service and removes the copy. */
  close(): Promise<void>;
}

/** A command in the copy, bounded; throws with its output when it fails. */
async function inCopy(copy: string, args: string[], timeoutMs: number): Promise<void> {
  const ran = await run(process.execPath, args, copy, timeoutMs);
  if (ran.status !== 0) throw new Error(`${args.join(' ')} failed in the copy (exit ${ran.status}):\n${ran.output.slice(-8000)}`);
}

/**
 * Makes the copy, adds GenerateSecret, generates, type-checks, and starts the
 * copy's service (allow it some minutes: the type check is the long part).
 * On any failure, what was made is removed before the error is thrown.
 */
export async function startAddedOperation(): Promise<AddedOperation> {
  const copy = mkdtempSync(join(tmpdir(), 'pin-add-operation-'));
  let service: ChildService | undefined;
  const close = async () => {
    await service?.kill();
    rmSync(copy, { recursive: true, force: true });
  };
  try {
    // This checkout's node_modules (and a work tree's .node) may be links git does not ignore: never copied.
    const files = repositoryFiles().filter((file) => !/^(node_modules|\.node)(\/|$)/.test(file));
    for (const file of files) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      copyFileSync(join(REPO, file), join(copy, file));
    }
    symlinkSync(realpathSync(join(REPO, 'node_modules')), join(copy, 'node_modules'));

    // schema/ and one handler module: the whole change.
    const wsdl = join(copy, 'schema', 'api.wsdl');
    const xsd = join(copy, 'schema', 'api.xsd');
    writeFileSync(wsdl, addToWsdl(readFileSync(wsdl, 'utf8')));
    writeFileSync(xsd, addToXsd(readFileSync(xsd, 'utf8')));
    copyFileSync(HANDLER, join(copy, 'src', 'handlers', 'generate-secret.ts'));

    await inCopy(copy, ['--import=tsx', 'codegen/main.ts'], 120_000); // npm run generate
    await inCopy(copy, [join('node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'], 300_000); // npm run typecheck

    await Promise.all([loadXmlEngine(), loadReaders()]);
    const schema = compileSchema(readFileSync(xsd, 'utf8'));
    service = await startChildService({ repo: copy, args: ['--store', 'memory'], readyTimeoutMs: 60_000 });
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
    return { copy, service, url: service.url, schema, schemaErrors, bodyErrors, close };
  } catch (error) {
    await close();
    throw error;
  }
}
