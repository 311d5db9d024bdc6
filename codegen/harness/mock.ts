#!/usr/bin/env node
/**
 * A mock of any contract, in one command: generates the WSDL into a
 * temporary folder and serves it with handlers that answer each operation's
 * schema-valid sample (the help pages' samples), so that a client can be
 * pointed at a contract whose service does not exist yet.
 *   npm run mock -- --wsdl FILE [--service NAME] [--schemas DIR] [--trust CERTS.pem] [--port N] [the host's other settings]
 * Where the contract's WS-Policy asks for WS-Security tokens, the mock takes any username and password (the token's
 * form, nonce and timestamp are checked as the runtime checks them) and any certificate that --trust's PEM file holds.
 * The contract-codegen package runs the same as `contract-mock` (its dist/harness/mock.js).
 */
import { readFileSync } from 'node:fs';
import type { ContractDefinition } from 'contract-runtime/codec';
import { type Authenticate, runContractServer } from 'contract-runtime/host';
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
  let trust: string | undefined;
  try {
    wsdl = take(rest, '--wsdl');
    service = take(rest, '--service');
    schemas = take(rest, '--schemas');
    trust = take(rest, '--trust');
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (!wsdl) {
    process.stderr.write(
      'Usage: mock --wsdl FILE [--service NAME] [--schemas DIR] [--trust CERTS.pem] [--port N] …\nServes the contract with sample answers; --help after --wsdl FILE lists the other settings.\n',
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
  let trustedCertificates: string[] = [];
  try {
    trustedCertificates = trust ? pemCertificates(readFileSync(trust, 'utf8')) : [];
  } catch (error) {
    process.stderr.write(`mock: --trust ${trust}: ${(error as Error).message}\n`);
    return 2;
  }
  if (asksForTokens(loaded.definition) && !rest.includes('--help')) {
    process.stderr.write("mock: the contract's WS-Policy asks for WS-Security tokens: any username and password is taken\n");
  }
  const served = await runContractServer(loaded.definition, sampleHandlers(loaded.definition), rest, {
    authenticate: anyone,
    soapSecurity: { trustedCertificates },
  });
  if (!served) loaded.remove();
  return process.exitCode === undefined ? 0 : Number(process.exitCode);
}

/** The mock's hook: every well-formed token is a caller (its username, or its certificate's subject). */
const anyone: Authenticate = (credential) =>
  credential.kind === 'usernameToken' ? { username: credential.username } : { subject: credential.certificate.subject };

/** Whether some operation's policy asks for a UsernameToken or an X.509 signature. */
// biome-ignore lint/suspicious/noExplicitAny: any contract's definition
function asksForTokens(definition: ContractDefinition<any>): boolean {
  return definition.operationNames.some((name) => {
    const policies = definition.routes[name].policies ?? {};
    return Object.values(policies).some((p) => p?.usernameToken !== undefined || p?.signature !== undefined);
  });
}

/** The certificates of a PEM text, each its own PEM block. */
function pemCertificates(text: string): string[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate in it');
  return blocks;
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
