import test from 'ava';
import { checkIdentifiers } from '../../../codegen/model/identifiers';
import { classModel, field } from './by-hand';

test('classes whose members are identifiers pass', (t) => {
  t.notThrows(() => checkIdentifiers([classModel('Holder', { fields: [field('value'), field('$name'), field('ñandú')] })]));
});

test('a member name that is no identifier is refused, naming its class', (t) => {
  t.throws(() => checkIdentifiers([classModel('Holder', { fields: [field('ok'), field('not-one')] })]), {
    message: 'codegen: Holder: not-one is not a JavaScript identifier',
  });
  t.throws(
    () =>
      checkIdentifiers([
        classModel('Tagged', { attributes: [{ name: '1st', xmlName: '1st', namespace: '', type: field('x').type, required: false }] }),
      ]),
    { message: 'codegen: Tagged: 1st is not a JavaScript identifier' },
  );
});
