import test from 'ava';
import { choosePrefixes, schemaSetPrefixes } from '../../../codegen/model/prefixes';
import { classModel, field, operationModel, TNS } from './by-hand';

test('every element qualified in the target namespace: no prefixes (it is the default namespace, as ASMX writes it)', (t) => {
  const request = classModel('Add', { fields: [field('a'), field('b')] });
  t.is(choosePrefixes(TNS, [TNS], [request], [operationModel('Add', request)]), undefined);
});

test('an element of another namespace, or an unqualified one: a prefix per namespace, tns for the target one', (t) => {
  const request = classModel('Add', { fields: [field('a'), field('b', undefined, { namespace: 'urn:other' })] });
  t.deepEqual(choosePrefixes(TNS, [TNS, 'urn:other'], [request], [operationModel('Add', request)]), { [TNS]: 'tns', 'urn:other': 'ns1' });
  const unqualified = classModel('Add', { fields: [field('a', undefined, { namespace: '' })] });
  t.deepEqual(choosePrefixes(TNS, [TNS], [unqualified], [operationModel('Add', unqualified)]), { [TNS]: 'tns' });
});

test("a schema set's prefixes: every namespace used, tns for the first schema's, none for no namespace or xml:", (t) => {
  const type = classModel('Item', {
    fields: [field('id', undefined, { namespace: 'urn:ids' }), field('note', undefined, { namespace: '' })],
  });
  const element = { name: 'Item', namespace: TNS, type: { kind: 'complex' as const, typeName: 'Item', tsType: 'Item' }, nillable: false };
  t.deepEqual(schemaSetPrefixes(TNS, [TNS, 'http://www.w3.org/XML/1998/namespace'], [element], [type]), { [TNS]: 'tns', 'urn:ids': 'ns1' });
  t.is(schemaSetPrefixes('', [''], [], []), undefined);
});
