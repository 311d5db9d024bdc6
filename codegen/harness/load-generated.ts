/**
 * A contract generated and loaded at run time, for the mock and the corpus
 * check: codegen writes the folder, TypeScript's transpileModule turns each
 * file into CommonJS beside it (no type check, no tsx: the built package runs
 * it on plain Node.js), and the folder's contract is required. The generated
 * files import the runtime's doors this module runs with by path
 * (codegen/main.ts's RUNTIME_FOLDER: src/runtime/ in a checkout, the
 * installed contract-runtime's dist/ beside the built package, whose name
 * would not resolve from a temporary folder).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ts } from 'ts-morph';
import type { ContractDefinition } from 'contract-runtime/codec';
import type { Handlers, SoapHeaders } from 'contract-runtime/handler';
import { generate } from '../main';

// biome-ignore lint/suspicious/noExplicitAny: a contract loaded at run time has no static types
export type AnyOperations = any;

export interface LoadedContract {
  folder: string;
  definition: ContractDefinition<AnyOperations>;
  /** Removes the folder. */
  remove(): void;
}

/** Generates `wsdl` into `folder` (a new temporary one by default) and loads its contract. */
export async function loadContract(
  wsdl: string,
  options: { folder?: string; service?: string; schemas?: string; catalog?: string; note?: (line: string) => void } = {},
): Promise<LoadedContract> {
  const folder = options.folder ?? mkdtempSync(join(tmpdir(), 'contract-'));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    await generate(wsdl, folder, {
      runtime: 'path',
      service: options.service,
      schemas: options.schemas,
      note: options.note,
      ...(options.catalog ? { catalog: options.catalog } : {}),
    });
    return { folder, definition: requireGenerated(folder), remove };
  } catch (error) {
    if (!options.folder) remove();
    throw error;
  }
}

/** Transpiles a generated folder to CommonJS beside its TypeScript and requires its contract. */
export function requireGenerated(folder: string): ContractDefinition<AnyOperations> {
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.ts'))) {
    const source = readFileSync(join(folder, name), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: name,
    });
    writeFileSync(join(folder, name.replace(/\.ts$/, '.js')), outputText);
  }
  return (require(join(folder, 'contract.js')) as { CONTRACT: ContractDefinition<AnyOperations> }).CONTRACT;
}

/** Handlers that answer each operation's sample result (and sample out headers): a contract's mock. */
export function sampleHandlers(definition: ContractDefinition<AnyOperations>): Handlers<AnyOperations> {
  const handlers: Handlers<AnyOperations> = {};
  for (const name of definition.operationNames) {
    const route = definition.routes[name];
    handlers[name] = async (_request, call) => {
      const sample = route.sampleHeaders?.();
      if (sample) Object.assign(call.headers.out, (sample as SoapHeaders).out);
      return route.sampleResult();
    };
  }
  return handlers;
}
