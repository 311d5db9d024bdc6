import test from 'ava';
import { createContext } from '../../../codegen/model/context';
import { modelOperations } from '../../../codegen/model/operations';
import { reachEverything } from '../../../codegen/model/reach';
import { claimTypeNames } from '../../../codegen/model/type-names';
import { complexType, element, facts, operation, sequence, TNS } from './by-hand';

const read = () =>
  facts(
    [
      complexType('Order', { particle: sequence({ id: 'string', to: 'Address' }) }),
      complexType('Address', { particle: sequence({ city: 'string' }) }),
      complexType('Unused', { particle: sequence({ x: 'int' }) }),
    ],
    [element('PlaceOrder', 'Order'), element('PlaceOrderResponse', 'string'), element('Lonely', 'Unused')],
  );

test("only the types an operation's messages reach get classes", (t) => {
  const context = createContext(read(), TNS);
  claimTypeNames(context);
  const [op] = modelOperations(context, [operation('PlaceOrder', 'PlaceOrder', 'PlaceOrderResponse')]);
  t.deepEqual([...context.types.values()].map((c) => c.name).sort(), ['Address', 'Order']);
  t.is(op.request.type.name, 'Order');
  t.like(op.result, { type: { kind: 'primitive', primitive: 'string' } });
});

test('an operation that names an element no schema declares is skipped with one line; none left is refused', (t) => {
  const context = createContext(read(), TNS);
  claimTypeNames(context);
  const lines: string[] = [];
  const ops = modelOperations(
    context,
    [operation('Missing', 'NoSuchElement'), operation('PlaceOrder', 'PlaceOrder', 'PlaceOrderResponse')],
    (line) => lines.push(line),
  );
  t.deepEqual(
    ops.map((o) => o.name),
    ['PlaceOrder'],
  );
  t.is(lines.length, 1);
  t.regex(lines[0], /^codegen: warning: operation Missing is not served: .*NoSuchElement/);
  t.throws(() => modelOperations(createContext(read(), TNS), [operation('Missing', 'NoSuchElement')]), { message: /NoSuchElement/ });
});

test('a bare schema set reaches every global type and element', (t) => {
  const context = createContext(read(), TNS);
  claimTypeNames(context);
  const elements = reachEverything(context);
  t.deepEqual(
    elements.map((e) => e.name),
    ['PlaceOrder', 'PlaceOrderResponse', 'Lonely'],
  );
  t.deepEqual(context.pending.map((type) => type.name).sort(), ['Address', 'Order', 'Unused'], 'each queued for its class');
});
