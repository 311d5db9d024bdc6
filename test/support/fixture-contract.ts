/**
 * A fixture contract of test/fixtures/contracts/ for the runtime's own tests:
 * generated into a temporary folder and loaded as the mock loads a contract
 * (codegen/harness/load-generated.ts), then served by the runtime's host
 * (src/runtime/host.ts) on a free loopback port with handlers of the test's
 * own, every log line kept. Nothing of the PIN service is involved.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { type AnyOperations, loadContract } from '../../codegen/harness/load-generated';
import type { ContractDefinition, Handlers } from '../../src/runtime/definition';
import { type ContractAppOptions, HOST_SETTINGS, type HostSettings, serveContract } from '../../src/runtime/host';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';

export const FIXTURE_CONTRACTS = join(__dirname, '..', 'fixtures', 'contracts');

/** The classes of a generated folder (generated/types.ts), by name. */
export type GeneratedClasses = Record<string, new (...args: never[]) => object>;

export interface FixtureContract {
  definition: ContractDefinition<AnyOperations>;
  types: GeneratedClasses;
  /** The generated folder, each file beside its CommonJS (`client.js`: the typed client). */
  folder: string;
  /** Removes the generated folder. */
  remove(): void;
}

/** Generates the fixture folder `name`'s WSDL (its only .wsdl, or `wsdl`) and loads its contract; the XML engine is loaded too. */
export async function generateFixture(name: string, wsdl?: string): Promise<FixtureContract> {
  await loadXmlEngine();
  const fixture = join(FIXTURE_CONTRACTS, name);
  const file = wsdl ?? readdirSync(fixture).find((f) => f.toLowerCase().endsWith('.wsdl'));
  if (!file) throw new Error(`${fixture} holds no WSDL`);
  const folder = mkdtempSync(join(tmpdir(), `fixture-${name}-`));
  const { definition, remove } = await loadContract(join(fixture, file), { folder });
  return { definition, types: require(join(folder, 'types.js')) as GeneratedClasses, folder, remove };
}

export interface ServedFixture {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The endpoint's address: url + the contract's endpoint path. */
  endpoint: string;
  /** Every log line written so far, parsed. */
  lines(): Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Serves `definition` with `handlers` (each operation not given answers its sample result) on the host's defaults,
 * on a free loopback port, `settings` over them, with the host's `options` (the authenticate hook); its log at level info, kept.
 */
export async function serveFixture(
  definition: ContractDefinition<AnyOperations>,
  handlers: Partial<Handlers<AnyOperations>> = {},
  settings: Partial<HostSettings> = {},
  options: ContractAppOptions<AnyOperations> = {},
): Promise<ServedFixture> {
  const all: Record<string, unknown> = {};
  for (const name of definition.operationNames) all[name] = async () => definition.routes[name].sampleResult();
  Object.assign(all, handlers);
  const written: string[] = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void written.push(line) });
  const served = await serveContract(
    definition,
    all as Handlers<AnyOperations>,
    { ...HOST_SETTINGS.defaults(), port: 0, ...settings },
    logger,
    options,
  );
  return {
    url: served.url,
    endpoint: served.endpoint,
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
    close: () => served.close({ idleGraceMs: 0 }),
  };
}
