/**
 * `make generate`: schema/ → contract model → generated/, and the settings
 * table of docs/operations.md from src/config.ts.
 *   node --import=tsx codegen/main.ts [--schema schema/api.wsdl] [--out generated]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadXmlEngine } from '../src/xml/xml-engine';
import { buildContractModel } from './build-model';
import { emitTypes } from './emit/types';
import { emitClient } from './emit/client';
import { emitJson } from './emit/json';
import { emitDocuments } from './emit/documents';
import { emitRoutes } from './emit/routes';
import { readContract } from './read/contract';
import { writeSettingsTable } from './settings-table';

export async function generate(wsdlPath: string, outDir: string): Promise<string[]> {
  await loadXmlEngine(); // libxml2-wasm is an ES module: loaded once, before any schema/ file is read
  const model = buildContractModel(await readContract(wsdlPath));
  const files: Record<string, string> = {
    'types.ts': emitTypes(model),
    'routes.ts': emitRoutes(model),
    'documents.ts': emitDocuments(model),
    'client.ts': emitClient(model),
    'json.ts': emitJson(model),
  };
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(outDir, name), text.endsWith('\n') ? text : `${text}\n`);
  }
  return Object.keys(files).map((name) => join(outDir, name));
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

if (require.main === module) {
  const root = resolve(__dirname, '..');
  generate(option('--schema', join(root, 'schema', 'api.wsdl')), option('--out', join(root, 'generated'))).then(
    (written) => {
      const docs = join(root, 'docs', 'operations.md');
      writeSettingsTable(docs);
      console.log([...written, docs].map((f) => `wrote ${f}`).join('\n'));
    },
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
