/**
 * The XSD reader (codegen/read/xsd.ts) on small schemas written here: the
 * order and occurrences it keeps, what it refuses in one line, and what it
 * reads past.
 */
import test from 'ava';
import { parseXmlText, withDocument } from '../../../codegen/read/documents';
import { readXsd, type XsdFacts } from '../../../codegen/read/xsd';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

test.before(async () => {
  await loadXmlEngine();
});

const XSD = 'http://www.w3.org/2001/XMLSchema';

/** Reads a schema with `body` inside its root, as codegen reads schema/api.xsd. */
function readSchema(body: string, rootAttributes = 'elementFormDefault="qualified"'): XsdFacts {
  const text = `<s:schema xmlns:s="${XSD}" xmlns:tns="urn:t" targetNamespace="urn:t" ${rootAttributes}>${body}</s:schema>`;
  return withDocument(parseXmlText(text, 'fixture.xsd'), (doc) => readXsd([{ schema: doc.root, file: 'fixture.xsd' }]));
}

test('the XSD reader keeps each sequence in document order, not by name, and reads nillable', (t) => {
  const facts = readSchema(`
    <s:complexType name="Order">
      <s:sequence>
        <s:element name="zeta" type="s:string" />
        <s:element minOccurs="0" maxOccurs="1" name="alpha" type="s:boolean" />
        <s:element name="mu" type="tns:Inner" />
      </s:sequence>
    </s:complexType>
    <s:complexType name="Inner"><s:sequence /></s:complexType>
    <s:element name="Plain">
      <s:complexType><s:sequence><s:element name="c" type="s:string" /><s:element name="b" type="s:string" /><s:element name="a" type="s:string" /></s:sequence></s:complexType>
    </s:element>
    <s:element name="Order" nillable="true" type="tns:Order" />
    <s:element name="Flag" type="s:boolean" />`);
  const type = (name: string) => facts.complexTypes.get(`{urn:t}${name}`) ?? anonymousOf(name);
  const anonymousOf = (name: string) => {
    const use = facts.elements.get(`{urn:t}${name}`)!.type;
    if (use.kind !== 'complex') throw new Error(`${name} has no anonymous type`);
    return use.type;
  };
  const members = (name: string) => {
    const particle = type(name).particle;
    if (particle?.kind !== 'sequence') return [];
    return particle.particles.map((p) =>
      p.kind === 'element'
        ? { name: p.element.name, type: p.element.type, minOccurs: p.min, maxOccurs: p.max, nillable: p.element.nillable }
        : p,
    );
  };
  t.deepEqual(members('Order'), [
    { name: 'zeta', type: { kind: 'builtin', name: 'string' }, minOccurs: 1, maxOccurs: 1, nillable: false },
    { name: 'alpha', type: { kind: 'builtin', name: 'boolean' }, minOccurs: 0, maxOccurs: 1, nillable: false },
    { name: 'mu', type: { kind: 'named', qname: { name: 'Inner', namespace: 'urn:t' } }, minOccurs: 1, maxOccurs: 1, nillable: false },
  ]);
  t.deepEqual(members('Inner'), []);
  t.deepEqual([type('Plain').name, members('Plain').map((m) => ('name' in m ? m.name : ''))], [undefined, ['c', 'b', 'a']]);
  t.deepEqual(
    [...facts.elements.values()].map((e) => [e.name, e.type.kind === 'complex' ? 'anonymous' : e.type, e.nillable]),
    [
      ['Plain', 'anonymous', false],
      ['Order', { kind: 'named', qname: { name: 'Order', namespace: 'urn:t' } }, true],
      ['Flag', { kind: 'builtin', name: 'boolean' }, false],
    ],
  );
});

test('the XSD reader refuses, in one line naming it, what changes the wire and is not read, and what is not XML Schema', (t) => {
  const sequenceOf = (member: string) =>
    `<s:element name="E"><s:complexType><s:sequence>${member}</s:sequence></s:complexType></s:element>`;
  const refused: [body: string, message: RegExp, rootAttributes?: string][] = [
    [
      sequenceOf(`<s:element name="a" type="s:string" substitutionGroup="tns:b" />`),
      /element E\/a: attribute substitutionGroup is not supported/,
    ],
    [`<s:complexType name="T" ordered="true"><s:sequence /></s:complexType>`, /complex type T: attribute ordered is not supported/],
    [sequenceOf(`<s:element maxOccurs="many" name="a" type="s:string" />`), /element E\/a: maxOccurs="many" is not a number or unbounded/],
    [sequenceOf(`<s:group ref="tns:Missing" />`), /complex type E: group tns:Missing is not declared/],
    [`<s:complexType name="T"><s:attributeGroup ref="tns:Missing" /></s:complexType>`, /attribute group tns:Missing is not declared/],
    [`<s:complexType name="T"><s:attribute ref="tns:missing" /></s:complexType>`, /attribute tns:missing is not declared/],
    [`<s:element name="E" type="x:T" />`, /element E: x:T has a prefix that is not declared/],
    [`<s:element name="E" nillable="maybe" type="s:string" />`, /element E: nillable: "maybe" is not an xs:boolean/],
    [`<s:simpleType name="S" />`, /simple type S: must hold one restriction, list or union/],
    [`<s:complexType name="T"><s:sequence /><s:choice /></s:complexType>`, /complex type T: holds more than one content model/],
    [`<s:element name="E" type="s:string"><s:complexType /></s:element>`, /element E: has both a type and an anonymous type/],
    [`<s:complexType name="T">text</s:complexType>`, /complex type T: holds text, which XML Schema does not allow there/],
  ];
  for (const [body, message, rootAttributes] of refused) {
    const error = t.throws(() => readSchema(body, rootAttributes), { message }, body);
    t.regex(error?.message ?? '', /^codegen: fixture\.xsd:\d+: /);
    t.false(error?.message.includes('\n'), error?.message);
  }
});

test('the XSD reader reads past annotations, identity constraints and extension attributes, and reads the schema attributes that do not change the wire', (t) => {
  const facts = readSchema(
    `<s:annotation><s:documentation>the schema</s:documentation></s:annotation>
    <s:element name="E" x:note="n" xmlns:x="urn:x"><s:annotation><s:appinfo><x:y /></s:appinfo></s:annotation>
      <s:complexType><s:sequence><s:element name="a" type="s:string" /></s:sequence></s:complexType>
      <s:unique name="u"><s:selector xpath="." /><s:field xpath="a" /></s:unique>
    </s:element>`,
    'elementFormDefault="qualified" attributeFormDefault="unqualified" version="1.0" id="s"',
  );
  t.deepEqual([...facts.elements.keys()], ['{urn:t}E']);
});
