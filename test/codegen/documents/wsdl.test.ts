/**
 * The WSDL codegen serves (codegen/documents/wsdl.ts), written from schema/:
 * the schema inline, each port's address the marker the runtime fills in,
 * and the namespace the authored one.
 */
import test from 'ava';
import { join } from 'node:path';
import { ADDRESS_MARKER } from '../../../codegen/documents/wsdl';
import { contractModel } from '../../../codegen/main';
import type { ContractModel } from '../../../codegen/model/model';
import { readContract } from '../../../codegen/read/contract';

const wsdl = join(__dirname, '..', '..', '..', 'schema', 'api.wsdl');
let model: ContractModel;

test.before(async () => {
  model = contractModel(await readContract(wsdl));
});

test('the served WSDL inlines the schema, its four addresses the marker and its namespace the authored one', (t) => {
  const text = model.wsdl;
  t.is(text.split(ADDRESS_MARKER).length - 1, 4);
  t.notRegex(text, /localhost/);
  t.true(text.split(model.authoredNamespace).length - 1 >= 7); // tns, targetNamespace ×2, 4 soapActions
  t.regex(text, /<wsdl:types>\s*<s:schema[^>]*elementFormDefault="qualified"/);
  t.notRegex(text, /s:import|schemaLocation|<!--/);
});
