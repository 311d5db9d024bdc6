import test from 'ava';
import { requestElementsOf } from '../../../codegen/model/request-schemas';
import { classModel, classRef, field, operationModel, TNS } from './by-hand';

test('a request element that names nothing beyond what it holds gets a schema of its own; one that may hold anything does not', (t) => {
  const address = classModel('Address', { fields: [field('city')] });
  const order = classModel('Order', { fields: [field('id'), field('to', classRef('Address'))] });
  const open = classModel('Open', { fields: [field('any', { kind: 'any', tsType: 'XmlFragment' })] });
  const shape = classModel('Shape', { derived: ['Circle'] });
  const draw = classModel('Draw', { fields: [field('shape', classRef('Shape'))] });
  const ops = [operationModel('Order', order), operationModel('Open', open), operationModel('Draw', draw)];
  t.deepEqual(requestElementsOf(TNS, [address, order, open, shape, draw], ops), { Order: 'Order' });
});

test("a request element of another namespace, or an operation's parts, get none", (t) => {
  const order = classModel('Order', { fields: [field('id')] });
  const parts = operationModel('ByParts', order);
  parts.soap!.input = { style: 'parts', type: order };
  t.deepEqual(requestElementsOf(TNS, [order], [operationModel('Other', order, 'urn:other'), parts]), {});
});
