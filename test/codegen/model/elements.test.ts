import test from 'ava';
import { createContext } from '../../../codegen/model/context';
import { globalElements } from '../../../codegen/model/elements';
import { claimTypeNames } from '../../../codegen/model/type-names';
import { complexType, element, facts, sequence, TNS } from './by-hand';

test('the global elements of simple types or of types with classes are kept, with their values; the others are not', (t) => {
  const context = createContext(
    facts(
      [complexType('Order', { particle: sequence({ id: 'string' }) }), complexType('Unreached', { particle: sequence({ x: 'int' }) })],
      [element('Note', 'string', { default: 'none' }), element('Order', 'Order'), element('Stray', 'Unreached')],
    ),
    TNS,
  );
  claimTypeNames(context);
  const lines: string[] = [];
  const elements = globalElements(context, new Set(['Order']), (line) => lines.push(line));
  t.deepEqual(
    elements.map((e) => [e.name, e.type.tsType, e.default]),
    [
      ['Note', 'string', 'none'],
      ['Order', 'Order', undefined],
    ],
  );
  t.deepEqual(lines, []);
});

test('an element whose type cannot be modelled is skipped with one line naming it and why', (t) => {
  const context = createContext(facts([], [element('Broken', 'NoSuchType'), element('Fine', 'int')]), TNS);
  const lines: string[] = [];
  const elements = globalElements(context, new Set(), (line) => lines.push(line));
  t.deepEqual(
    elements.map((e) => e.name),
    ['Fine'],
  );
  t.is(lines.length, 1);
  t.regex(lines[0], new RegExp(`^codegen: warning: element Broken of ${TNS} gets no reader or writer: .*NoSuchType`));
});
