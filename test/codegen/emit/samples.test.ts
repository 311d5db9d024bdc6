/**
 * emit/samples.ts writes a sample tree (model/samples/, test/codegen/model/samples/sample-tree.test.ts)
 * as the TypeScript expression that builds it, as generated/routes.ts holds it, and records in the
 * file's imports the classes and runtime functions it names.
 */
import test from 'ava';
import { join } from 'node:path';
import { emitFile } from '../../../codegen/emit/file';
import { sampleCode } from '../../../codegen/emit/samples';
import { buildContractModel } from '../../../codegen/model/build';
import type { ObjectSample } from '../../../codegen/model/samples/sample-tree';
import { objectSample } from '../../../codegen/model/samples/samples';
import { readContract } from '../../../codegen/read/contract';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const SAMPLES = join(__dirname, '..', '..', 'fixtures', 'samples', 'Samples.wsdl');
let model: ReturnType<typeof buildContractModel>;

test.before(async () => {
  await loadXmlEngine();
  model = buildContractModel(await readContract(SAMPLES), () => {});
});

/** The sample request of an operation. */
const request = (operation: string): ObjectSample =>
  objectSample(model, model.operations.find((op) => op.name === operation)!.request.type);

test("the emitter writes a sample as the expression that builds it, and records the classes it names in the file's imports", (t) => {
  const file = emitFile(model);
  t.is(sampleCode(file, request('Lookup')), "new Lookup({ code: 'AAA-0000', count: 10 })");
  t.deepEqual(file.imports.localOf('./types'), ['Lookup']);
  t.is(file.imports.localUse('./types', 'Lookup'), 'value');
  t.is(
    sampleCode(file, {
      kind: 'array',
      items: [
        { kind: 'bigint', value: -1n },
        { kind: 'bytes', length: 2 },
      ],
    }),
    '[-1n, new Uint8Array(2)]',
  );
  t.is(sampleCode(file, { kind: 'xml', pieces: [] }), "''");
  t.is(sampleCode(file, { kind: 'string', value: "it's" }), "'it\\'s'");
  t.is(
    sampleCode(file, { kind: 'lexical', type: { kind: 'primitive', primitive: 'int', tsType: 'number' }, text: '5' }),
    "parseXsdInteger('5', 'int')",
  );
  t.is(file.imports.runtimeDeclarations('../src/runtime'), "import { parseXsdInteger } from '../src/runtime/codec';");
});
