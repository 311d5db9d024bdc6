import test from 'ava';
import { expandSubstitutionGroups } from '../../../codegen/model/substitution-groups';
import type { XsdParticle } from '../../../codegen/read/xsd';
import { complexType, element, facts, TNS } from './by-hand';

const headRef: XsdParticle = {
  kind: 'element',
  element: { name: 'Shape', namespace: TNS, ref: { namespace: TNS, name: 'Shape' }, nillable: false, at: 'by-hand.xsd:2' },
  min: 0,
  max: 'unbounded',
};
const group = { namespace: TNS, name: 'Shape' };

test('a reference to a head is a choice of the head and every member not abstract, members of members too, with its occurrences', (t) => {
  const drawing = complexType('Drawing', { particle: { kind: 'sequence', min: 1, max: 1, particles: [headRef] } });
  const read = facts(
    [drawing],
    [
      element('Shape', 'string'),
      element('Circle', 'string', { substitutionGroup: group }),
      element('Polygon', 'string', { substitutionGroup: group, abstract: true }),
      element('Square', 'string', { substitutionGroup: { namespace: TNS, name: 'Polygon' } }),
    ],
  );
  const expanded = expandSubstitutionGroups(read);
  const particle = expanded.complexTypes.get(`{${TNS}}Drawing`)!.particle!;
  t.is(particle.kind, 'sequence');
  const [choice] = (particle as { particles: XsdParticle[] }).particles;
  t.like(choice, { kind: 'choice', min: 0, max: 'unbounded' });
  const names = (choice as { particles: XsdParticle[] }).particles.map((p) => (p.kind === 'element' ? p.element.name : p.kind));
  t.deepEqual(names, ['Shape', 'Circle', 'Square']);
  t.is(drawing.particle!.kind, 'sequence', 'the facts read are not changed');
  t.is((drawing.particle as { particles: XsdParticle[] }).particles[0], headRef);
});

test('an abstract head stands only for its members; an anonymous type holding a reference is expanded where it is used', (t) => {
  const anonymous = complexType(undefined, { particle: { kind: 'sequence', min: 1, max: 1, particles: [headRef] } });
  const read = facts(
    [],
    [
      element('Shape', 'string', { abstract: true }),
      element('Circle', 'string', { substitutionGroup: group }),
      element('Drawing', anonymous),
    ],
  );
  const drawing = expandSubstitutionGroups(read).elements.get(`{${TNS}}Drawing`)!;
  t.is(drawing.type.kind, 'complex');
  const sequence = (drawing.type as { type: { particle: { particles: XsdParticle[] } } }).type.particle;
  t.deepEqual(
    (sequence.particles[0] as { particles: XsdParticle[] }).particles.map((p) => (p.kind === 'element' ? p.element.name : p.kind)),
    ['Circle'],
  );
});

test('facts without substitution groups are handed on as they are', (t) => {
  const read = facts(
    [complexType('Plain', { particle: { kind: 'sequence', min: 1, max: 1, particles: [] } })],
    [element('Plain', 'Plain')],
  );
  t.is(expandSubstitutionGroups(read), read);
});
