#!/usr/bin/env node
/**
 * A mock of any contract, in one command: generates the WSDL into a
 * temporary folder and serves it with handlers that answer each operation's
 * schema-valid sample (the help pages' samples), so that a client can be
 * pointed at a contract whose service does not exist yet.
 *   npm run mock -- --wsdl FILE [--service NAME] [--schemas DIR] [--port N] [the host's other settings]
 * The contract-codegen package runs the same as `contract-mock` (its dist/harness/mock.js).
 */
import { runContractServer } from 'contract-runtime/host';
import { loadXmlEngine } from 'contract-runtime/xml';
import { loadContract, sampleHandlers } from './load-generated';

/** Takes `--name VALUE` out of argv; undefined when absent. */
function take(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = argv.splice(i, 2);
  if (value === undefined || value.startsWith('--')) throw new Error(`mock: ${name} needs a value`);
  return value;
}

export async function mock(argv: string[]): Promise<number> {
  const rest = [...argv];
  let wsdl: string | undefined;
  let service: string | undefined;
  let schemas: string | undefined;
  try {
    wsdl = take(rest, '--wsdl');
    service = take(rest, '--service');
    schemas = take(rest, '--schemas');
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (!wsdl) {
    process.stderr.write(
      'Usage: mock --wsdl FILE [--service NAME] [--schemas DIR] [--port N] …\nServes the contract with sample answers; --help after --wsdl FILE lists the other settings.\n',
    );
    return rest.includes('--help') ? 0 : 2;
  }
  await loadXmlEngine();
  let loaded: Awaited<ReturnType<typeof loadContract>>;
  try {
    loaded = await loadContract(wsdl, { service, schemas });
  } catch (error) {
    const message = (error as Error).message;
    process.stderr.write(`${message.startsWith('codegen: ') ? message : `codegen: ${message}`}\n`);
    return 1;
  }
  process.once('exit', loaded.remove);
  const served = await runContractServer(loaded.definition, sampleHandlers(loaded.definition), rest);
  if (!served) loaded.remove();
  return process.exitCode === undefined ? 0 : Number(process.exitCode);
}

if (require.main === module) {
  mock(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exitCode = code;
    },
    (error: Error) => {
      process.stderr.write(`mock: ${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
