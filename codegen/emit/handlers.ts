/**
 * `--handlers DIR`: a compiling skeleton of the hand-written side, one module
 * per operation (src/runtime/handler-modules.ts's convention) exporting its
 * handler, `async (request, call) => result`, that throws "not implemented"
 * until it is written, and index.ts, which gathers them and serves the
 * contract when run. Only what does not exist yet is written: a
 * module already there is the team's.
 */
import { type HandlerModule, handlerModules } from 'contract-runtime/handler';
import { propertyKey } from './render';
import type { ContractModel, OperationModel } from '../model/model';
import { runtimeImport } from './header';

/** What the handlers' imports name: the generated folder (its path from theirs) and the runtime's front door (as Output's `runtime`). */
export interface SkeletonPaths {
  generated: string;
  runtime: string;
  /** The folder as messages name it (relative to the checkout, say). */
  folder: string;
}

/** The files of the skeleton, by name: `<operation>.ts` for each operation and `index.ts`. */
export function emitHandlerSkeleton(model: ContractModel, paths: SkeletonPaths): Record<string, string> {
  const files: Record<string, string> = { 'index.ts': indexModule(model, paths) };
  const modules = handlerModules(model.operations.map((op) => op.name));
  for (const [i, op] of model.operations.entries()) files[`${modules[i].file}.ts`] = operationModule(op, modules[i], paths);
  return files;
}

const comment = (text: string) => text.replaceAll('*/', '*\\/');

function operationModule(op: OperationModel, { name }: HandlerModule, { generated, runtime }: SkeletonPaths): string {
  const headers = op.soap?.headers.length ?? 0;
  const faults = op.soap?.faults ?? [];
  const notes = [
    ...(headers
      ? [
          `Its SOAP headers: \`call.headers.in\` (${
            op
              .soap!.headers.filter((h) => h.direction === 'in')
              .map((h) => h.name)
              .join(', ') || 'none'
          }) as the call carried them; set \`call.headers.out\` (${
            op
              .soap!.headers.filter((h) => h.direction === 'out')
              .map((h) => h.name)
              .join(', ') || 'none'
          }) to answer them.`,
        ]
      : []),
    ...(faults.length ? [`Its declared faults, thrown as errors: ${faults.map((f) => f.className).join(', ')} (generated/types.ts).`] : []),
  ];
  return `/**
 * ${comment(op.documentation || `The ${op.name} operation.`)}${notes.map((n) => `\n * ${comment(n)}`).join('')}
 */
import type { Operations } from '${generated}/routes';
${runtimeImport([...(headers ? ['type Call', 'type HeadersOf'] : []), 'ServiceError'], runtime)}

export async function ${name}(
  _request: Operations['${op.name}']['request'],${headers ? `\n  _call: Call<HeadersOf<Operations['${op.name}']>>,` : ''}
): Promise<Operations['${op.name}']['result']> {
  throw new ServiceError('server', '${op.name} is not implemented yet.');
}

declare module './index' {
  interface HandlerModules {
    ${propertyKey(op.name)}: typeof ${name};
  }
}
`;
}

function indexModule(model: ContractModel, { generated, runtime, folder }: SkeletonPaths): string {
  return `/**
 * The handlers of ${comment(model.service)}: one module per operation in this folder, found by
 * convention (src/runtime/handler-modules.ts). Each module names itself in
 * HandlerModules below by declaration merging, so that this file compiles only
 * when every operation has its handler, of its operation's type. Run this file
 * to serve the contract (\`--help\` lists the settings).
 */
import { CONTRACT } from '${generated}/contract';
import type { Operations } from '${generated}/routes';
${runtimeImport(['type Handlers', 'loadHandlerModules', 'runContractServer'], runtime)}

/** One member per handler module, each added by the module itself. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the handler modules' declaration merging
export interface HandlerModules {}

/** Every operation's handler, loaded from this folder by its conventional path. */
export function createHandlers(
  modules: HandlerModules = loadHandlerModules<HandlerModules>(CONTRACT.operationNames, (file) => require(file), ${JSON.stringify(folder)}),
): Handlers<Operations> {
  return modules;
}

if (require.main === module) void runContractServer(CONTRACT, createHandlers());
`;
}
