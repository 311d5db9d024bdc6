import test from 'ava';
import { drain } from '../../../codegen/model/classes';
import { createContext } from '../../../codegen/model/context';
import { derivedTypes } from '../../../codegen/model/derivations';
import { claimTypeNames } from '../../../codegen/model/type-names';
import { complexRef } from '../../../codegen/model/type-refs';
import { complexType, facts, sequence, TNS } from './by-hand';

const shape = complexType('Shape', { particle: sequence({ id: 'string' }) });
const circle = complexType('Circle', {
  base: { namespace: TNS, name: 'Shape' },
  derivation: 'extension',
  particle: sequence({ r: 'int' }),
});
const ring = complexType('Ring', {
  base: { namespace: TNS, name: 'Circle' },
  derivation: 'extension',
  particle: sequence({ inner: 'int' }),
});
const other = complexType('Other', { particle: sequence({ x: 'int' }) });

test('the types derived from a reached one are reached too, and each base lists its derived classes, nearest first', (t) => {
  const context = createContext(facts([shape, circle, ring, other]), TNS);
  claimTypeNames(context);
  complexRef(context, shape, 'Shape');
  drain(context);
  const all = derivedTypes(context);
  t.deepEqual(all.map((c) => c.name).sort(), ['Circle', 'Ring', 'Shape']);
  const byName = new Map(all.map((c) => [c.name, c]));
  t.deepEqual(byName.get('Shape')?.derived, ['Circle', 'Ring']);
  t.deepEqual(byName.get('Circle')?.derived, ['Ring']);
  t.deepEqual(
    byName.get('Ring')?.fields.map((f) => f.name),
    ['id', 'r', 'inner'],
    "an extension's base content comes first",
  );
});

test('a type derived from one that is not reached is not reached either', (t) => {
  const context = createContext(facts([shape, circle, other]), TNS);
  claimTypeNames(context);
  complexRef(context, other, 'Other');
  t.deepEqual(
    derivedTypes(context).map((c) => c.name),
    ['Other'],
  );
});
