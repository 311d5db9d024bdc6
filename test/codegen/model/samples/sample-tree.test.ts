/**
 * Samples are model work: model/samples/ makes each as plain data (a tree of
 * strings, numbers, objects of the contract's classes and XML fragments, each
 * naming its class or enumeration), printable and testable without writing
 * a file (test/codegen/emit/samples.test.ts: emit/samples.ts writes that tree as
 * the TypeScript generated/routes.ts holds; test/codegen/model/samples/samples.test.ts
 * checks every sample against its schemas).
 */
import test from 'ava';
import { join } from 'node:path';
import { buildContractModel } from '../../../../codegen/model/build';
import type { ObjectSample, Sample } from '../../../../codegen/model/samples/sample-tree';
import { objectSample } from '../../../../codegen/model/samples/samples';
import { readContract } from '../../../../codegen/read/contract';
import { loadXmlEngine } from '../../../../src/runtime/xml/xml-engine';

const SAMPLES = join(__dirname, '..', '..', '..', 'fixtures', 'samples', 'Samples.wsdl');
let model: ReturnType<typeof buildContractModel>;

test.before(async () => {
  await loadXmlEngine();
  model = buildContractModel(await readContract(SAMPLES), () => {});
});

/** The sample request of an operation. */
const request = (operation: string): ObjectSample =>
  objectSample(model, model.operations.find((op) => op.name === operation)!.request.type);

/** The member of an object sample, by name. */
function member(sample: Sample, name: string): Sample {
  if (sample.kind !== 'object') throw new Error(`${sample.kind} is no object`);
  const found = sample.members.find((m) => m.name === name);
  if (!found) throw new Error(`no member ${name} in ${sample.class}`);
  return found.value;
}

test('a sample is plain data: objects name their class, strings their enumeration, and a structured clone is equal', (t) => {
  const sample = request('EchoEnumerations');
  t.is(sample.class, 'EchoEnumerations');
  const item = member(sample, 'item');
  t.like(item, { kind: 'object', class: 'Enumerations' });
  t.deepEqual(member(item, 'color'), { kind: 'string', value: 'red', enumeration: 'Color' });
  t.deepEqual(structuredClone(sample), sample);
});

test("a fixed value is its text, read where the sample is built; a wildcard's element is XML", (t) => {
  t.like(member(member(request('EchoValues'), 'item'), 'always'), { kind: 'lexical', text: 'constant' });
  const any = member(member(member(request('EchoWildcards'), 'item'), 'strictAny'), 'any');
  t.deepEqual(any, { kind: 'xml', pieces: [{ kind: 'markup', xml: '<Tag xmlns="urn:example:samples">AAA-0000</Tag>' }] });
});
