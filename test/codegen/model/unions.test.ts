import test from 'ava';
import { unionsForDerivedTypes } from '../../../codegen/model/polymorphism';
import type { ElementModel } from '../../../codegen/model/model';
import { classModel, classRef, field, operationModel, TNS } from './by-hand';

test('a reference to a type with derived types holds any of them: fields, repeated ones, elements and results', (t) => {
  const base = classModel('Shape', { derived: ['Circle'] });
  const circle = classModel('Circle', { base: 'Shape' });
  const holder = classModel('Drawing', {
    fields: [field('main', classRef('Shape')), field('more', classRef('Shape'), { maxOccurs: 'unbounded', tsType: 'Shape[]' })],
  });
  const element: ElementModel = { name: 'Shape', namespace: TNS, type: classRef('Shape'), nillable: false };
  const op = operationModel('Draw', holder);
  op.result = { type: classRef('Shape'), mayBeAbsent: true, tsType: 'Shape | undefined' };
  unionsForDerivedTypes([base, circle, holder], [element], [op]);
  t.is(base.union, 'Shape | Circle');
  t.is(circle.union, undefined, 'a type derived from by none is itself');
  t.deepEqual(
    holder.fields.map((f) => f.tsType),
    ['Shape | Circle', '(Shape | Circle)[]'],
  );
  t.is(element.type.tsType, 'Shape | Circle');
  t.is(op.result?.tsType, 'Shape | Circle | undefined');
});

test("an abstract type's class is never made: its union is its derived types'", (t) => {
  const base = classModel('Shape', { derived: ['Circle', 'Square'], abstract: true });
  const holder = classModel('Drawing', { fields: [field('main', classRef('Shape'), { nillable: true, tsType: 'Shape | null' })] });
  unionsForDerivedTypes([base, classModel('Circle', { base: 'Shape' }), classModel('Square', { base: 'Shape' }), holder], [], []);
  t.is(base.union, 'Circle | Square');
  t.is(holder.fields[0].tsType, 'Circle | Square | null');
});
