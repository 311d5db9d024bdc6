import test from 'ava';
import { createContext } from '../../../codegen/model/context';
import { claimTypeNames } from '../../../codegen/model/type-names';
import { complexType, facts, TNS } from './by-hand';

test('named types claim their names first, in document order; a name generated code uses, or one taken, gives way', (t) => {
  const item = complexType('Item');
  const error = complexType('Error');
  const context = createContext(facts([item, error]), TNS);
  claimTypeNames(context);
  t.is(context.complexNames.get(item), 'Item');
  t.is(context.complexNames.get(error), 'Error_', 'the built-in Error class keeps its name');
  t.is(context.names.claim('Item'), 'Item2', 'an anonymous type named after an element takes what is left');
  t.is(context.names.claim('ItemFields'), 'ItemFields2', "a class's companion is taken with it");
});

test('a type of a name that is no identifier is named as TypeScript allows', (t) => {
  const dotted = complexType('Ver1.0');
  const context = createContext(facts([dotted]), TNS);
  claimTypeNames(context);
  t.is(context.complexNames.get(dotted), 'Ver1_0');
});
