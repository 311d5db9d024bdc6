/**
 * Codegen's XSD mode (`--xsd FILE --out DIR`): the classes of every global
 * element and type of a schema set, and each element's reader and writer. Each
 * test is one construct of XML Schema, read into its generated value, written
 * back, and checked: the value a handler sees, and the XML written.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSchemaTexts } from '../../codegen/main';
import { readCatalog } from '../../codegen/read/catalog';
import { loadModules } from '../../codegen/harness/xsts/run-set';
import { AnyType, type DeclaredElement, type KeptElement, type WildcardElement } from '../../src/runtime/xml/any-type';
import { type ElementCodec, type TypedRoot, XsiTyped } from '../../src/runtime/xml/xml-codec';
import { loadXmlEngine, safeParseOptions, xml } from '../../src/runtime/xml/xml-engine';

const ROOT = join(__dirname, '..', '..');
const XS = 'xmlns:xs="http://www.w3.org/2001/XMLSchema"';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

test.before(async () => {
  await loadXmlEngine();
});

/** Generates a schema (and the other files named) in a folder of its own, and answers its elements' codecs and types' module. */
async function generated(schema: string, files: Record<string, string> = {}, catalog?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'xsd-mode-'));
  try {
    writeFileSync(join(dir, 'main.xsd'), schema);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const warnings: string[] = [];
    const { model, files: texts } = await generateSchemaTexts([join(dir, 'main.xsd')], {
      note: (line) => warnings.push(line),
      ...(catalog ? { catalog: readCatalog(join(dir, catalog)) } : {}),
    });
    const load = loadModules(texts);
    const elements = (load('./elements') as { ELEMENTS: Record<string, ElementCodec<unknown>> }).ELEMENTS;
    return { model, texts, elements, types: load('./types') as Record<string, unknown>, warnings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads a document with the codec of its root element and writes the value back. */
function roundTrip(elements: Record<string, ElementCodec<unknown>>, key: string, text: string): { value: unknown; written: string } {
  const codec = elements[key];
  if (!codec) throw new Error(`no codec for ${key}: ${Object.keys(elements).join(', ')}`);
  const value = codec.read(text);
  return { value, written: codec.write(value as never) };
}

/** The root element of a written document, parsed by libxml2 (the caller reads it before the next parse). */
function rootOf(text: string) {
  return xml().XmlDocument.fromString(text, { option: safeParseOptions() }).root;
}

test('--xsd FILE --out DIR writes types.ts, elements.ts and a tsconfig.json under which the folder type-checks on its own', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'xsd-mode-cli-'));
  try {
    writeFileSync(
      join(dir, 'order.xsd'),
      `<xs:schema ${XS} targetNamespace="urn:order" xmlns="urn:order" elementFormDefault="qualified">
        <xs:element name="order"><xs:complexType><xs:sequence>
          <xs:element name="id" type="xs:long"/><xs:element name="when" type="xs:dateTime"/>
          <xs:element name="line" maxOccurs="unbounded" type="Line"/></xs:sequence></xs:complexType></xs:element>
        <xs:complexType name="Line"><xs:sequence><xs:element name="sku" type="xs:token"/></xs:sequence>
          <xs:attribute name="qty" type="xs:positiveInteger" use="required"/></xs:complexType>
      </xs:schema>`,
    );
    const out = join(dir, 'out');
    const run = spawnSync(
      process.execPath,
      ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--xsd', join(dir, 'order.xsd'), '--out', out],
      {
        encoding: 'utf8',
      },
    );
    t.is(run.status, 0, run.stderr);
    t.deepEqual(readdirSync(out).sort(), ['elements.ts', 'tsconfig.json', 'types.ts']);
    t.notThrows(() => execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', out], { encoding: 'utf8' }));
    const missing = spawnSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--xsd', join(dir, 'order.xsd')], {
      encoding: 'utf8',
    });
    t.is(missing.stderr, 'codegen: --xsd FILE needs --out DIR\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('built-in values: an integer in its value space, a dateTime as its text (with no time zone, or a year past 9999), a float at single precision', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS}><xs:element name="v"><xs:complexType><xs:sequence>
      <xs:element name="i" type="xs:integer"/><xs:element name="d" type="xs:dateTime" maxOccurs="2"/>
      <xs:element name="f" type="xs:float"/><xs:element name="t" type="xs:token"/>
    </xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const { value, written } = roundTrip(
    elements,
    '{}v',
    '<v><i> +007 </i><d>2001-02-03T04:05:06</d><d>12345-01-01T00:00:00.1234567+05:30</d><f>1.0e-2</f><t>  a   b </t></v>',
  );
  t.like(value, { i: 7n, d: ['2001-02-03T04:05:06', '12345-01-01T00:00:00.1234567+05:30'], t: 'a b' });
  t.regex(written, /<i>7<\/i><d>2001-02-03T04:05:06<\/d><d>12345-01-01T00:00:00\.1234567\+05:30<\/d><f>0\.01<\/f><t>a b<\/t>/);
});

test('QName and NOTATION values are {namespace}local, read where written, and written with a prefix their element declares', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} xmlns:k="urn:kinds">
      <xs:simpleType name="kind"><xs:restriction base="xs:QName"><xs:enumeration value="k:big"/><xs:enumeration value="k:small"/></xs:restriction></xs:simpleType>
      <xs:element name="q"><xs:complexType><xs:sequence>
        <xs:element name="name" type="xs:QName"/><xs:element name="names"><xs:simpleType><xs:list itemType="xs:QName"/></xs:simpleType></xs:element>
        <xs:element name="kind" type="kind"/></xs:sequence><xs:attribute name="ref" type="xs:QName"/></xs:complexType></xs:element></xs:schema>`,
  );
  const { value, written } = roundTrip(
    elements,
    '{}q',
    '<q xmlns:a="urn:a" xmlns:z="urn:kinds" ref="a:r"><name>a:one</name><names>a:x z:y bare</names><kind>z:small</kind></q>',
  );
  t.like(value, { name: '{urn:a}one', names: ['{urn:a}x', '{urn:kinds}y', 'bare'], kind: '{urn:kinds}small', ref: '{urn:a}r' });
  const root = rootOf(written);
  const [name, names, kind] = root.find('*');
  const resolve = (node: typeof root, text: string) => `{${node.namespaceForPrefix(text.split(':')[0])}}${text.split(':')[1]}`;
  t.is(resolve(name as typeof root, (name as typeof root).content), '{urn:a}one');
  t.deepEqual(
    (names as typeof root).content
      .split(' ')
      .slice(0, 2)
      .map((n) => resolve(names as typeof root, n)),
    ['{urn:a}x', '{urn:kinds}y'],
  );
  t.is(resolve(kind as typeof root, (kind as typeof root).content), '{urn:kinds}small');
  t.is(resolve(root, root.attr('ref')!.value), '{urn:a}r', 'an attribute declares its own prefix on its element');
});

test('a number, boolean or binary value restricted by a pattern is its type’s value, its pattern checked when read and kept to when written', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS}>
      <xs:simpleType name="sci"><xs:restriction base="xs:double"><xs:pattern value="\\d\\.\\dE\\d"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="three"><xs:restriction base="xs:int"><xs:pattern value="[+]?\\d{3}"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="signed"><xs:restriction base="three"><xs:pattern value="\\+.*"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="digit"><xs:restriction base="xs:boolean"><xs:pattern value="[01]"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="lower"><xs:restriction base="xs:hexBinary"><xs:pattern value="[0-9a-f]*"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="ints"><xs:list itemType="xs:int"/></xs:simpleType>
      <xs:simpleType name="shaped"><xs:restriction base="ints"><xs:pattern value="\\d{2} \\+\\d{1}"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="either"><xs:restriction base="xs:long"><xs:pattern value="0\\d"/><xs:pattern value="\\d{4}"/></xs:restriction></xs:simpleType>
      <xs:element name="n"><xs:complexType><xs:sequence>
        <xs:element name="s" type="sci"/><xs:element name="i" type="three"/><xs:element name="j" type="signed"/>
        <xs:element name="b" type="digit"/><xs:element name="h" type="lower"/><xs:element name="l" type="shaped"/>
        <xs:element name="e" type="either" maxOccurs="2"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const { value, written } = roundTrip(
    elements,
    '{}n',
    '<n><s>1.5E2</s><i> 007 </i><j>+012</j><b>1</b><h>0aff</h><l>05 +3</l><e>07</e><e>1234</e></n>',
  );
  t.like(value, { s: 150, i: 7, j: 12, b: true, l: [5, 3], e: [7n, 1234n] });
  t.deepEqual([...(value as { h: Uint8Array }).h], [0x0a, 0xff]);
  t.regex(written, /<s>1\.5E2<\/s><i>007<\/i><j>\+012<\/j><b>1<\/b><h>0aff<\/h><l>05 \+3<\/l><e>07<\/e><e>1234<\/e>/);
  const codec = elements['{}n']!;
  const refused = (i: string, why: string) =>
    t.throws(
      () => codec.read(`<n><s>1.5E2</s><i>${i}</i><j>+012</j><b>1</b><h>00</h><l>05 +3</l><e>07</e></n>`),
      { name: 'DecodeError' },
      why,
    );
  refused('7', 'a value its pattern does not match');
  refused('abc', 'a text that is no number, though three characters');
  // A value no form of which the pattern admits is written in its canonical form (which validation then refuses).
  (value as { i: number }).i = 1234;
  t.regex(codec.write(value as never), /<i>1234<\/i>/);
});

test('a union’s value is the first member’s whose lexical space and facets hold its text; written by the first member whose values it is of', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS}>
      <xs:simpleType name="outcome"><xs:restriction base="xs:token"><xs:enumeration value="valid"/><xs:enumeration value="invalid"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="expected"><xs:union memberTypes="outcome"><xs:simpleType><xs:restriction base="xs:token"><xs:enumeration value="indeterminate"/></xs:restriction></xs:simpleType></xs:union></xs:simpleType>
      <xs:simpleType name="sy"><xs:union memberTypes="xs:short xs:gYear"/></xs:simpleType>
      <xs:simpleType name="small"><xs:restriction base="xs:int"><xs:maxInclusive value="10"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="nested"><xs:union memberTypes="small sy xs:duration xs:decimal"/></xs:simpleType>
      <xs:simpleType name="digits"><xs:restriction base="sy"><xs:pattern value="d+"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="years"><xs:list itemType="sy"/></xs:simpleType>
      <xs:simpleType name="named"><xs:union memberTypes="xs:QName xs:int"/></xs:simpleType>
      <xs:element name="r"><xs:complexType><xs:sequence>
        <xs:element name="e" type="expected" maxOccurs="unbounded"/><xs:element name="n" type="nested" maxOccurs="unbounded"/>
        <xs:element name="p" type="digits"/><xs:element name="l" type="years"/><xs:element name="q" type="named"/>
      </xs:sequence><xs:attribute name="a" type="sy"/></xs:complexType></xs:element></xs:schema>`,
  );
  const { value, written } = roundTrip(
    elements,
    '{}r',
    '<r a="1990"><e> valid </e><e>indeterminate</e><n>7</n><n>+0050</n><n>40000</n><n>P1Y</n><n>1.50</n><n>2001Z</n><p>12</p><l> 5 2001 70000</l><q>x</q></r>',
  );
  // An enumeration's token collapsed; 50 above small's bound, so a short; 40000 beyond a short, so a gYear (its text).
  t.like(value, { a: 1990, e: ['valid', 'indeterminate'], n: [7, 50, '40000', 'P1Y', '1.50', '2001Z'], p: 12, l: [5, 2001, '70000'] });
  t.is((value as { q: unknown }).q, 'x', 'a union with a QName member is its text');
  t.regex(
    written,
    /<r a="1990"><e>valid<\/e><e>indeterminate<\/e><n>7<\/n><n>50<\/n><n>40000<\/n><n>P1Y<\/n><n>1\.50<\/n><n>2001Z<\/n><p>12<\/p><l>5 2001 70000<\/l>/,
  );
  const codec = elements['{}r']!;
  t.throws(() => codec.read('<r><e>maybe</e><n>1</n><p>1</p><l/><q>x</q></r>'), {
    name: 'DecodeError',
    message: /none of the union's member types/,
  });
  t.throws(() => codec.read('<r><e>valid</e><n>P1Q</n><p>1</p><l/><q>x</q></r>'), { name: 'DecodeError' }, 'no member’s lexical space');
  // A value of none of the members' types is not written.
  (value as { n: unknown[] }).n = [true];
  t.throws(() => codec.write(value as never), { instanceOf: RangeError });
});

test('an enumeration matches in its base type’s value space; an enumeration of lists is a list', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS}>
      <xs:simpleType name="small"><xs:restriction base="xs:int"><xs:enumeration value="1"/><xs:enumeration value="2"/></xs:restriction></xs:simpleType>
      <xs:simpleType name="pairs"><xs:restriction><xs:simpleType><xs:list itemType="xs:int"/></xs:simpleType><xs:enumeration value="1 2"/></xs:restriction></xs:simpleType>
      <xs:element name="n"><xs:complexType><xs:sequence><xs:element name="e" type="small"/><xs:element name="p" type="pairs"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const { value, written } = roundTrip(elements, '{}n', '<n><e>+02</e><p> 1   2 </p></n>');
  t.like(value, { e: '2', p: [1, 2] });
  t.regex(written, /<e>2<\/e><p>1 2<\/p>/);
});

test('an empty element holds its default or fixed value; a nillable one xsi:nil; an anyType one keeps xsi:nil as an attribute', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS}><xs:element name="r"><xs:complexType><xs:sequence>
      <xs:element name="a" type="xs:int" default="5"/><xs:element name="b" type="xs:boolean" fixed="true"/>
      <xs:element name="c" type="xs:int" nillable="true"/><xs:element name="d" nillable="true"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
  const { value, written } = roundTrip(elements, '{}r', `<r ${xsi}><a/><b></b><c xsi:nil="true"/><d xsi:nil="true" e="1"/></r>`);
  t.like(value, { a: 5, b: true, c: null });
  t.true((value as { d: unknown }).d instanceof AnyType);
  t.deepEqual((value as { d: AnyType }).d.attributes, [
    { name: 'nil', namespace: XSI, value: 'true' },
    { name: 'e', namespace: '', value: '1' },
  ]);
  t.deepEqual((value as { d: AnyType }).d.content, []);
  t.regex(
    written,
    /<a>5<\/a><b>true<\/b><c xsi:nil="true" xmlns:xsi="[^"]+" \/><d xmlns:a0="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance" a0:nil="true" e="1"><\/d>/,
  );
  const again = rootOf(written);
  t.is((again.get('d') as typeof again | null)?.attrs.find((a) => a.name === 'nil')?.namespaceUri, XSI);
});

test('an element of anyType is read lax: its text, an element a global declaration describes as that type’s value, any other kept as XML', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:t" xmlns:t="urn:t" elementFormDefault="qualified">
      <xs:element name="doc"><xs:complexType><xs:sequence><xs:element name="a" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="price" type="xs:int"/>
      <xs:element name="item"><xs:complexType><xs:attribute name="id" type="xs:int"/></xs:complexType></xs:element>
      <xs:element name="free" type="xs:anyType"/></xs:schema>`,
  );
  const instance =
    '<t:doc xmlns:t="urn:t" xmlns:o="urn:o" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
    '<t:a/><t:a>testing &amp; more</t:a><t:a o:at="1" xsi:type="xsd:int">5</t:a>' +
    '<t:a>x<t:price> +07 </t:price><t:item id="8"/><o:unknown q="2">y<t:price>3</t:price></o:unknown><t:free>in<t:price>9</t:price></t:free>z</t:a></t:doc>';
  const { value, written } = roundTrip(elements, '{urn:t}doc', instance);
  const a = (value as { a: AnyType[] }).a;
  t.true(a.every((v) => v instanceof AnyType));
  t.deepEqual(a[0].content, []);
  t.is(a[1].text, 'testing & more');
  // xsi:type names a QName: kept as the one it names, written with a prefix of its own.
  t.deepEqual(a[2].attributes, [
    { name: 'at', namespace: 'urn:o', value: '1' },
    { name: 'type', namespace: XSI, value: '{http://www.w3.org/2001/XMLSchema}int' },
  ]);
  const [x, price, item, unknown, free, z] = a[3].content as [
    string,
    DeclaredElement,
    DeclaredElement,
    KeptElement,
    DeclaredElement,
    string,
  ];
  t.deepEqual([x, z], ['x', 'z']);
  t.like(price, { name: 'price', namespace: 'urn:t', value: 7 });
  t.like(item, { name: 'item', namespace: 'urn:t', value: { id: 8 } });
  t.regex(unknown.xml, /^<o:unknown xmlns:o="urn:o" xmlns:t="urn:t" q="2">y<t:price>3<\/t:price><\/o:unknown>$/);
  t.true(free.value instanceof AnyType);
  t.like((free.value as AnyType).content[1], { name: 'price', value: 9 });
  t.deepEqual(
    a[3].elements.map((e) => e.name),
    ['price', 'item', 'free'],
  );
  // Written back: the same elements, attributes and text (a declared element by its own writer).
  const root = rootOf(written);
  const parts = root.find('*') as ReturnType<typeof rootOf>[];
  t.is(parts.length, 4);
  t.is(parts[1].content, 'testing & more');
  t.is(parts[2].attrs.find((attribute) => attribute.name === 'type')?.value.replace(/^[^:]*:/, ''), 'int');
  t.is(parts[2].attrs.find((attribute) => attribute.name === 'at')?.namespaceUri, 'urn:o');
  t.regex(
    written,
    /x<tns:price[^>]*>7<\/tns:price><tns:item[^>]*id="8"[^>]*><\/tns:item><o:unknown [^>]*q="2">y<t:price>3<\/t:price><\/o:unknown><tns:free[^>]*>in<tns:price[^>]*>9<\/tns:price><\/tns:free>z/,
  );
  // A declared element inside is refused as its type refuses it; a value made by hand is written the same way.
  t.throws(() => elements['{urn:t}doc']!.read('<t:doc xmlns:t="urn:t"><t:a><t:price>seven</t:price></t:a></t:doc>'), {
    name: 'DecodeError',
  });
  const made = new AnyType(['a < b', { name: 'price', namespace: 'urn:t', value: 1 }]);
  t.regex(elements['{urn:t}free']!.write(made as never), /<tns:free[^>]*>a &lt; b<tns:price[^>]*>1<\/tns:price><\/tns:free>/);
});

test('redefine: the redefinition takes the name, and its reference to its own name is the original', async (t) => {
  const { elements, model } = await generated(
    `<xs:schema ${XS}><xs:redefine schemaLocation="base.xsd">
      <xs:complexType name="T"><xs:complexContent><xs:extension base="T"><xs:sequence><xs:element name="added" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:group name="G"><xs:sequence><xs:group ref="G"/><xs:element name="more" type="xs:string"/></xs:sequence></xs:group>
      <xs:attributeGroup name="A"><xs:attributeGroup ref="A"/><xs:attribute name="extra" type="xs:string"/></xs:attributeGroup>
    </xs:redefine><xs:element name="t" type="T"/></xs:schema>`,
    {
      'base.xsd': `<xs:schema ${XS}><xs:complexType name="T"><xs:sequence><xs:element name="old" type="xs:int"/><xs:group ref="G"/></xs:sequence><xs:attributeGroup ref="A"/></xs:complexType>
        <xs:group name="G"><xs:sequence><xs:element name="g" type="xs:string"/></xs:sequence></xs:group>
        <xs:attributeGroup name="A"><xs:attribute name="a" type="xs:string"/></xs:attributeGroup></xs:schema>`,
    },
  );
  const t2 = model.types.find((type) => type.xmlName === 'T')!;
  t.deepEqual(
    t2.fields.map((f) => f.xmlName),
    ['old', 'g', 'more', 'added'],
  );
  t.deepEqual(
    t2.attributes.map((a) => a.xmlName),
    ['a', 'extra'],
  );
  const { written } = roundTrip(elements, '{}t', '<t a="1" extra="2"><old>1</old><g>x</g><more>y</more><added>3</added></t>');
  t.regex(written, /<t a="1" extra="2"><old>1<\/old><g>x<\/g><more>y<\/more><added>3<\/added><\/t>/);
});

test('order: an all group is written in the order it was read; a content model fields cannot order is an array of items', async (t) => {
  const { elements, model } = await generated(
    `<xs:schema ${XS}>
      <xs:element name="all"><xs:complexType><xs:all><xs:element name="x" type="xs:int"/><xs:element name="y" type="xs:int"/></xs:all></xs:complexType></xs:element>
      <xs:element name="seq"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int" maxOccurs="unbounded"/><xs:element name="b" type="xs:int"/>
        <xs:element name="a" type="xs:int" maxOccurs="unbounded" minOccurs="0"/><xs:any namespace="##other" processContents="lax" minOccurs="0"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  t.is(roundTrip(elements, '{}all', '<all><y>2</y><x>1</x></all>').written.replace(/^<\?xml[^>]*>/, ''), '<all><y>2</y><x>1</x></all>');
  t.true(model.types.find((type) => type.xmlName === 'all')?.allOrder === true);
  const { value, written } = roundTrip(elements, '{}seq', '<seq><a>1</a><a>2</a><b>3</b><a>4</a><o:x xmlns:o="urn:o">z</o:x></seq>');
  const items = (value as { items: object[] }).items.map((item) =>
    Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)),
  );
  // The lax wildcard's element, which no declaration describes, kept as XML.
  t.deepEqual(items, [{ a: 1 }, { a: 2 }, { b: 3 }, { a: 4 }, { any: [{ xml: '<o:x xmlns:o="urn:o">z</o:x>' }] }]);
  t.regex(written, /<seq><a>1<\/a><a>2<\/a><b>3<\/b><a>4<\/a><o:x xmlns:o="urn:o">z<\/o:x><\/seq>/);
});

test('derived types: a reference holds the union of the classes, xsi:type names the one an element holds, an abstract type is never made', async (t) => {
  const { elements, model } = await generated(
    `<xs:schema ${XS}><xs:complexType name="Shape" abstract="true"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
      <xs:complexType name="Square"><xs:complexContent><xs:extension base="Shape"><xs:sequence><xs:element name="side" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:complexType name="Dot"><xs:complexContent><xs:restriction base="Shape"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>
      <xs:element name="shape" type="Shape"/></xs:schema>`,
  );
  t.is(model.elements.find((e) => e.name === 'shape')?.type.tsType, 'Square | Dot');
  const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
  const { value, written } = roundTrip(elements, '{}shape', `<shape ${xsi} xsi:type="Square"><id>1</id><side>2</side></shape>`);
  t.is((value as object).constructor.name, 'Square');
  t.regex(written, /<shape xsi:type="Square" xmlns:xsi="[^"]+"><id>1<\/id><side>2<\/side><\/shape>/);
  t.throws(() => elements['{}shape'].read('<shape><id>1</id></shape>'), {
    message: /Shape is abstract: its element names a type derived from it with xsi:type/,
  });
});

test('a strict or lax wildcard’s element that a global declaration describes is read into its type and written from it; an undeclared one, or a skip wildcard’s, kept as XML', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:w" xmlns:w="urn:w" elementFormDefault="qualified">
      <xs:import namespace="urn:o" schemaLocation="other.xsd"/>
      <xs:element name="price" type="xs:int"/>
      <xs:element name="r"><xs:complexType><xs:sequence>
        <xs:element name="lax"><xs:complexType><xs:sequence><xs:any processContents="lax" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="skip"><xs:complexType><xs:sequence><xs:any processContents="skip" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="strict"><xs:complexType><xs:sequence><xs:any namespace="##other"/></xs:sequence></xs:complexType></xs:element>
      </xs:sequence></xs:complexType></xs:element></xs:schema>`,
    { 'other.xsd': `<xs:schema ${XS} targetNamespace="urn:o"><xs:element name="n" type="xs:boolean"/></xs:schema>` },
  );
  const { value, written } = roundTrip(
    elements,
    '{urn:w}r',
    '<w:r xmlns:w="urn:w" xmlns:o="urn:o" xmlns:x="urn:x"><w:lax><w:price> +07 </w:price><x:free a="1">t</x:free><o:n>1</o:n></w:lax>' +
      '<w:skip><w:price>+08</w:price></w:skip><w:strict><o:n>0</o:n></w:strict></w:r>',
  );
  const r = value as { lax: { any: WildcardElement[] }; skip: { any: WildcardElement[] }; strict: { any: WildcardElement[] } };
  t.deepEqual(r.lax.any, [
    { name: 'price', namespace: 'urn:w', value: 7 },
    { xml: '<x:free xmlns:x="urn:x" a="1">t</x:free>' },
    { name: 'n', namespace: 'urn:o', value: true },
  ]);
  t.deepEqual(r.skip.any, [{ xml: '<w:price xmlns:w="urn:w">+08</w:price>' }], 'not assessed: kept as it came');
  t.deepEqual(r.strict.any, [{ name: 'n', namespace: 'urn:o', value: false }]);
  const root = rootOf(written);
  const texts = (root.find('*/*') as (typeof root)[]).map((e) => `{${e.namespaceUri}}${e.name}=${e.content}`);
  t.deepEqual(texts, ['{urn:w}price=7', '{urn:x}free=t', '{urn:o}n=true', '{urn:w}price=+08', '{urn:o}n=false']);
  t.throws(
    () =>
      elements['{urn:w}r']!.read(
        '<w:r xmlns:w="urn:w" xmlns:o="urn:o"><w:lax><w:price>x</w:price></w:lax><w:skip/><w:strict><o:n>0</o:n></w:strict></w:r>',
      ),
    { name: 'DecodeError' },
    'a declared element its type refuses',
  );
});

test('a skip wildcard’s elements are kept as XML that reads back the same, relative namespace URIs and xsi:type prefixes with it', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="rel" xmlns="rel" elementFormDefault="qualified"><xs:element name="w"><xs:complexType><xs:sequence>
      <xs:any processContents="skip" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const input =
    '<w xmlns="rel" xmlns:p="other-relative" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><p:a b="1">t<!-- c --><p:c/></p:a><v xsi:type="xs:int">2</v></w>';
  const { value, written } = roundTrip(elements, '{rel}w', input);
  t.deepEqual((value as { any: KeptElement[] }).any, [
    { xml: '<p:a xmlns:p="other-relative" b="1">t<p:c></p:c></p:a>' },
    {
      xml: '<v xmlns="rel" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:int">2</v>',
    },
  ]);
  const again = roundTrip(elements, '{rel}w', written);
  t.deepEqual(again.value, value, 'what is written reads back the same');
});

test('an OASIS XML Catalog maps a schema named by URL to a local file; without one, the URL is refused with the way forward', async (t) => {
  const importing = `<xs:schema ${XS} xmlns:c="urn:common"><xs:import namespace="urn:common" schemaLocation="http://example.com/schemas/common/v2/common.xsd"/>
    <xs:element name="e" type="c:Code"/></xs:schema>`;
  const common = `<xs:schema ${XS} targetNamespace="urn:common"><xs:simpleType name="Code"><xs:restriction base="xs:string"/></xs:simpleType></xs:schema>`;
  const catalog = `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><group xml:base="local/"><rewriteSystem systemIdStartString="http://example.com/schemas/" rewritePrefix="mirror/"/></group></catalog>`;
  const { model } = await generated(importing, { 'local/mirror/common/v2/common.xsd': common, 'catalog.xml': catalog }, 'catalog.xml');
  t.truthy(model.elements.find((e) => e.name === 'e'));
  await t.throwsAsync(generated(importing), {
    message:
      /schemaLocation http:\/\/example\.com\/schemas\/common\/v2\/common\.xsd: codegen never fetches a schema; map the URL to a file with --catalog FILE/,
  });
});

test('a standard schema published with a DOCTYPE is read, its DTD ignored; an entity used is refused', async (t) => {
  const doctype = `<!DOCTYPE xs:schema PUBLIC "-//W3C//DTD XMLSchema 200102//EN" "XMLSchema.dtd" [<!ENTITY dsig 'urn:dsig'>]>`;
  const { model } = await generated(`${doctype}<xs:schema ${XS}><xs:element name="sig" type="xs:base64Binary"/></xs:schema>`);
  t.is(model.elements[0].name, 'sig');
  await t.throwsAsync(
    generated(`${doctype}<xs:schema ${XS} targetNamespace="&dsig;"><xs:element name="sig" type="xs:string"/></xs:schema>`),
    {
      message: /references the entity &dsig; that its DTD defines: codegen reads no DTD/,
    },
  );
});

test('an import whose file is missing, or of a namespace no schema declares, is said in a warning line and read past', async (t) => {
  const { warnings, model } = await generated(
    `<xs:schema ${XS}><xs:import namespace="urn:gone" schemaLocation="gone.xsd"/><xs:import namespace="urn:nowhere"/>
      <xs:import namespace="http://www.w3.org/2001/XMLSchema-instance"/><xs:element name="e" type="xs:string"/></xs:schema>`,
  );
  t.is(model.elements.length, 1);
  t.is(warnings.length, 2);
  t.regex(
    warnings[0],
    /^codegen: warning: .*main\.xsd:1: schemaLocation gone\.xsd is not there; the components of urn:gone it would declare are missing$/,
  );
  t.regex(warnings[1], /^codegen: warning: .*main\.xsd:1: imports namespace urn:nowhere, which no schema of the contract declares$/);
});

test('an xsi:type naming a simple type is kept on the value (XsiTyped) and written back, the value of the declared type', async (t) => {
  const fixture = join(ROOT, 'test', 'fixtures', 'xsd-mode');
  const { elements } = await generated(readFileSync(join(fixture, 'xsi-type-simple.xsd'), 'utf8'));
  const { value, written } = roundTrip(elements, '{urn:xsi-type-simple}values', readFileSync(join(fixture, 'xsi-type-simple.xml'), 'utf8'));
  const XSD = 'http://www.w3.org/2001/XMLSchema';
  const { any, number } = value as { any: unknown[]; number: unknown };
  t.true(any[0] instanceof XsiTyped);
  t.deepEqual({ ...(any[0] as XsiTyped<string>) }, { xsiType: `{${XSD}}decimal`, value: '3.0' });
  t.is(any[1], 'plain', 'a value without xsi:type is its plain value');
  t.deepEqual({ ...(any[2] as XsiTyped<string>) }, { xsiType: '{urn:xsi-type-simple}small', value: '7' });
  t.deepEqual({ ...(number as XsiTyped<bigint>) }, { xsiType: `{${XSD}}short`, value: 41n }, 'read as the declared integer');
  const root = rootOf(written);
  const named = root.find('*').map((node) => {
    const element = node as typeof root;
    const type = element.attrs.find((a) => a.name === 'type')?.value;
    return type === undefined ? undefined : `{${element.namespaceForPrefix(type.split(':')[0])}}${type.split(':')[1]}`;
  });
  t.deepEqual(named, [`{${XSD}}decimal`, undefined, '{urn:xsi-type-simple}small', `{${XSD}}short`]);
  t.regex(written, /<any [^>]*>3\.0<\/any><any>plain<\/any><any [^>]*>7<\/any><number [^>]*>41<\/number>/);
  const one = roundTrip(
    elements,
    '{urn:xsi-type-simple}one',
    `<one xmlns="urn:xsi-type-simple" xmlns:xsi="${XSI}" xmlns:x="${XSD}" xsi:type="x:integer">5</one>`,
  );
  t.deepEqual({ ...(one.value as XsiTyped<string>) }, { xsiType: `{${XSD}}integer`, value: '5' });
  t.regex(one.written, /xsi:type="xsit:integer"[^>]*>5<\/tns:one>$/);
});

test('a wildcard beside a field of its name takes the element it must take first, and those the field holds already', async (t) => {
  const fixture = join(ROOT, 'test', 'fixtures', 'xsd-mode');
  const { elements } = await generated(readFileSync(join(fixture, 'wildcard-beside-field.xsd'), 'utf8'));
  const { value, written } = roundTrip(elements, '{}r', readFileSync(join(fixture, 'wildcard-beside-field.xml'), 'utf8'));
  // The wildcard's elements, of the global declaration item, are read into its type (anyType) as the field's is:
  // each shown here as the element it reads.
  const shown = (x: unknown) => `<item>${(x as AnyType).text}</item>`;
  const fields = (v: unknown) =>
    Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => Array.isArray(x) || x instanceof AnyType)
      .map(([name, x]) => [name, Array.isArray(x) ? x.map((e: DeclaredElement) => shown(e.value)).join('') : shown(x)]);
  const { before, after } = value as { before: object; after: object };
  t.deepEqual(
    fields(before).map(([, x]) => x),
    ['<item>w</item>', '<item>f</item>'],
    'the wildcard first, then the field',
  );
  t.deepEqual(
    fields(after).map(([, x]) => x),
    ['<item>f</item>', '<item>w1</item><item>w2</item>'],
    'the field, then the wildcard',
  );
  t.regex(written, /<before><item>w<\/item><item>f<\/item><\/before><after><item>f<\/item><item>w1<\/item><item>w2<\/item><\/after>/);
});

test('a root no global element declares is read and written by the global type its xsi:type names (readByType, writeByType)', async (t) => {
  const fixture = join(ROOT, 'test', 'fixtures', 'xsd-mode');
  const dir = mkdtempSync(join(tmpdir(), 'xsd-mode-'));
  try {
    writeFileSync(join(dir, 'main.xsd'), readFileSync(join(fixture, 'root-by-type.xsd'), 'utf8'));
    const { files } = await generateSchemaTexts([join(dir, 'main.xsd')], { note: () => {} });
    const module = loadModules(files)('./elements') as { readByType(text: string): unknown; writeByType(root: unknown): string };
    const pair = module.readByType(readFileSync(join(fixture, 'root-by-type-complex.xml'), 'utf8')) as TypedRoot;
    t.like(pair, { name: 'anything', namespace: 'urn:root-by-type', xsiType: '{urn:root-by-type}Pair', value: { first: 1, id: 7 } });
    const written = rootOf(module.writeByType(pair));
    t.is(written.name, 'anything');
    t.is(written.namespaceUri, 'urn:root-by-type');
    const type = written.attrs.find((a) => a.name === 'type')!.value;
    t.is(written.namespaceForPrefix(type.split(':')[0]), 'urn:root-by-type');
    t.is(type.split(':')[1], 'Pair');
    t.is(written.attr('id')?.value, '7');
    t.is((written.find('*')[0] as typeof written).namespaceUri, 'urn:root-by-type', 'its content in the namespace it had');
    const code = module.readByType(readFileSync(join(fixture, 'root-by-type-simple.xml'), 'utf8')) as TypedRoot;
    t.deepEqual({ ...code }, { name: 'code', namespace: '', xsiType: '{urn:root-by-type}Code', value: 'ABC' });
    t.regex(module.writeByType(code), /<code xsi:type="xsit:Code" [^>]*xmlns:xsit="urn:root-by-type"[^>]*>ABC<\/code>$/);
    t.throws(() => module.readByType('<code/>'), { message: /names no type with xsi:type/ });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a value equal to its declaration’s fixed or default value is written as the schema writes that value', async (t) => {
  const fixture = join(ROOT, 'test', 'fixtures', 'xsd-mode');
  const { elements } = await generated(readFileSync(join(fixture, 'fixed-lexical.xsd'), 'utf8'));
  const ratio = roundTrip(elements, '{}ratio', '<ratio/>');
  t.is(ratio.value, Math.fround(0.01), 'a float at single precision');
  t.regex(ratio.written, /<ratio>1\.0e-2<\/ratio>$/);
  const flags = roundTrip(elements, '{}r', '<r><flag>true</flag><flag>false</flag></r>');
  t.deepEqual((flags.value as { flag: boolean[] }).flag, [true, false]);
  t.regex(flags.written, /<flag>1<\/flag><flag>false<\/flag>/);
});

test('a reader’s error names the path of the element it was found in and its line', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:pay" xmlns="urn:pay" elementFormDefault="qualified">
      <xs:complexType name="Party"><xs:sequence><xs:element name="Nm" type="xs:string"/><xs:element name="Age" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType>
      <xs:element name="Document"><xs:complexType><xs:sequence>
        <xs:element name="Pmt" maxOccurs="unbounded"><xs:complexType><xs:sequence><xs:element name="Dbtr" type="Party"/></xs:sequence></xs:complexType></xs:element>
      </xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const codec = elements['{urn:pay}Document']!;
  const pmt = (party: string) => `<Pmt><Dbtr>${party}</Dbtr></Pmt>`;
  const missing = t.throws(() => codec.read(`<Document xmlns="urn:pay">${pmt('<Nm>a</Nm>')}\n${pmt('<Age>3</Age>')}</Document>`), {
    name: 'DecodeError',
  });
  t.is(missing.message, 'Nm is required (at /Document/Pmt[2]/Dbtr, line 2)');
  t.like(missing, { at: '/Document/Pmt[2]/Dbtr', line: 2 });
  const notNumber = t.throws(() => codec.read(`<Document xmlns="urn:pay">${pmt('<Nm>a</Nm><Age>old</Age>')}</Document>`), {
    name: 'DecodeError',
  });
  t.regex(notNumber.message, / \(at \/Document\/Pmt\/Dbtr, line 1\)$/);
});

test('a mixed type extending a mixed type (HL7’s ED of BIN) has one content, read and written whole', async (t) => {
  const { elements, types } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:m" xmlns="urn:m" elementFormDefault="qualified">
      <xs:complexType name="BIN" abstract="true" mixed="true"><xs:attribute name="representation" type="xs:string"/></xs:complexType>
      <xs:complexType name="ED" mixed="true"><xs:complexContent><xs:extension base="BIN">
        <xs:sequence><xs:element name="reference" type="xs:string" minOccurs="0"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:element name="text" type="ED"/></xs:schema>`,
  );
  const text = '<text xmlns="urn:m" representation="TXT">before <reference>r</reference> after</text>';
  const { value, written } = roundTrip(elements, '{urn:m}text', text);
  t.deepEqual(Object.keys(value as object).sort(), ['content', 'representation']);
  t.regex(
    written,
    /representation="TXT">before <tns:reference>r<\/tns:reference> after<\/tns:text>$|representation="TXT">before <reference[^>]*>r<\/reference> after<\/tns:text>$/,
  );
  t.false(written.includes('undefined'));
  t.truthy(types.ED);
});

test('a repeated choice beside a wildcard of other namespaces keeps the order its elements came in (NewsML-G2)', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:n" xmlns="urn:n" elementFormDefault="qualified">
      <xs:element name="meta"><xs:complexType><xs:sequence>
        <xs:element name="urgency" type="xs:int" minOccurs="0"/>
        <xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="creator" type="xs:string"/><xs:element name="infoSource" type="xs:string"/></xs:choice>
        <xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const { value, written } = roundTrip(
    elements,
    '{urn:n}meta',
    '<meta xmlns="urn:n"><urgency>3</urgency><creator>a</creator><infoSource>b</infoSource><creator>c</creator><x:ext xmlns:x="urn:x">e</x:ext></meta>',
  );
  t.deepEqual(
    ((value as { group: { creator?: string; infoSource?: string }[] }).group ?? []).map((g) => g.creator ?? g.infoSource),
    ['a', 'b', 'c'],
  );
  t.regex(written, /<tns:creator>a<\/tns:creator><tns:infoSource>b<\/tns:infoSource><tns:creator>c<\/tns:creator><x:ext/);
});

test('a repeated group that may hold no element may be absent (NeTEx’s sequences of optional members)', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:g" xmlns="urn:g" elementFormDefault="qualified">
      <xs:group name="G"><xs:choice><xs:element name="a" type="xs:string" minOccurs="0"/><xs:element name="b" type="xs:string" minOccurs="0"/></xs:choice></xs:group>
      <xs:element name="p"><xs:complexType><xs:sequence maxOccurs="unbounded"><xs:group ref="G"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  );
  const empty = roundTrip(elements, '{urn:g}p', '<p xmlns="urn:g">\n</p>');
  t.regex(empty.written, /<tns:p xmlns:tns="urn:g"\/>$|<tns:p xmlns:tns="urn:g"><\/tns:p>$/);
  const full = roundTrip(elements, '{urn:g}p', '<p xmlns="urn:g"><b>x</b><a>y</a></p>');
  t.regex(full.written, /<tns:b>x<\/tns:b><tns:a>y<\/tns:a>/);
});

test('an abstract type no concrete type derives from is no member of its base’s reader (SIRI), and the code type-checks', async (t) => {
  const schema = `<xs:schema ${XS} targetNamespace="urn:s" xmlns="urn:s" elementFormDefault="qualified">
      <xs:complexType name="Item" abstract="true"><xs:sequence><xs:element name="at" type="xs:string"/></xs:sequence></xs:complexType>
      <xs:complexType name="RequiredItem" abstract="true"><xs:complexContent><xs:extension base="Item"/></xs:complexContent></xs:complexType>
      <xs:complexType name="Arrival"><xs:complexContent><xs:extension base="Item"><xs:sequence><xs:element name="stop" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
      <xs:element name="item" type="Item"/></xs:schema>`;
  const { elements, texts } = await generated(schema);
  t.false(/case 'RequiredItem'/.test(texts['types.ts']));
  const { value } = roundTrip(
    elements,
    '{urn:s}item',
    `<item xmlns="urn:s" xmlns:xsi="${XSI}" xsi:type="Arrival"><at>1</at><stop>s</stop></item>`,
  );
  t.like(value, { at: '1', stop: 's' });
  const dir = mkdtempSync(join(tmpdir(), 'xsd-mode-abstract-'));
  try {
    writeFileSync(join(dir, 'main.xsd'), schema);
    const out = join(dir, 'out');
    execFileSync(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'main.ts'), '--xsd', join(dir, 'main.xsd'), '--out', out], {
      stdio: 'pipe',
    });
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '-p', out], { stdio: 'pipe' });
    t.pass();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an extension of a mixed type that does not say mixed is mixed (BPMN’s tExpression): its text kept', async (t) => {
  const { elements } = await generated(
    `<xs:schema ${XS} targetNamespace="urn:b" xmlns="urn:b" elementFormDefault="qualified">
      <xs:complexType name="tBaseElementWithMixedContent" abstract="true" mixed="true">
        <xs:sequence><xs:element name="documentation" type="xs:string" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
        <xs:attribute name="id" type="xs:ID"/></xs:complexType>
      <xs:complexType name="tExpression"><xs:complexContent><xs:extension base="tBaseElementWithMixedContent"/></xs:complexContent></xs:complexType>
      <xs:element name="condition" type="tExpression"/></xs:schema>`,
  );
  const { written } = roundTrip(
    elements,
    '{urn:b}condition',
    '<condition xmlns="urn:b" id="c1">x &gt; 1<documentation>d</documentation></condition>',
  );
  t.regex(written, /id="c1">x &gt; 1<documentation[^>]*>d<\/documentation><\/tns:condition>$/);
});
