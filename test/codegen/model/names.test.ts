/**
 * The names generated code reserves (codegen/model/names.ts's
 * GENERATED_FILE_NAMES) hold every name of the runtime's doors for generated
 * code, read from their export lists (src/runtime/codec.ts's CODEC_EXPORTS,
 * src/runtime/client/index.ts's CLIENT_EXPORTS): a contract type of such a
 * name is renamed, so that it never clashes with what a generated file
 * imports.
 */
import test from 'ava';
import { GENERATED_FILE_NAMES, NameRegistry } from '../../../codegen/model/names';
import { CLIENT_EXPORTS } from '../../../src/runtime/client';
import { CODEC_EXPORTS } from '../../../src/runtime/codec';

const doors = { CODEC_EXPORTS, CLIENT_EXPORTS };

for (const [list, door] of Object.entries(doors)) {
  const names = [...door.values, ...door.types];

  test(`every name of ${list} is reserved`, (t) => {
    t.true(names.length > 10, `${list}: ${names.length} names`);
    t.deepEqual(
      names.filter((name) => !GENERATED_FILE_NAMES.has(name)),
      [],
    );
  });

  test(`a contract type named after a name of ${list} gets another name`, (t) => {
    const registry = new NameRegistry();
    t.deepEqual(
      names.filter((name) => registry.claim(name) === name),
      [],
    );
  });
}

test('a name of no door and of nothing generated code declares is the type’s own', (t) => {
  const registry = new NameRegistry();
  for (const name of ['PinRequest', 'exchangeRate', 'Decoders']) {
    t.false(GENERATED_FILE_NAMES.has(name), name);
    t.is(registry.claim(name), name);
  }
});
