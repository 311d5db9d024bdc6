/**
 * XML Schema's regular expressions as samples read them (codegen/model/samples/xsd-regex.ts): a text made from a pattern,
 * of the lengths asked, is one libxml2 accepts under that pattern and those length facets, and the matcher agrees
 * with libxml2 on texts either side. The patterns are published contracts' (the corpus's) and XML Schema's classes.
 */
import test from 'ava';
import { generateXsdRegex, matchesXsdRegex, parseXsdRegex } from '../../../../codegen/model/samples/xsd-regex';
import { loadXmlEngine, safeParseOptions, xml } from '../../../../src/runtime/xml/xml-engine';
import { compileSchema } from '../../../../src/runtime/xml/xml-schema';

test.before(async () => {
  await loadXmlEngine();
});

const attribute = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const text = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Whether libxml2 takes the value under the pattern and length facets. */
function libxml2Accepts(pattern: string, value: string, facets = ''): boolean {
  const schema = compileSchema(
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="v"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="${attribute(pattern)}"/>${facets}</xs:restriction></xs:simpleType></xs:element></xs:schema>`,
  );
  const doc = xml().XmlDocument.fromString(`<v>${text(value)}</v>`, { option: safeParseOptions() });
  try {
    schema.validate(doc);
    return true;
  } catch {
    return false;
  } finally {
    doc.dispose();
  }
}

const PATTERNS: [string, number?, number?][] = [
  ['[A-Z]{3}-\\d{4}'],
  ['\\i\\c*', 3, 8],
  ['[a-z-[aeiou]]{4,6}'],
  ['[^a-z0-9]+x'],
  ['\\p{Lu}\\p{Ll}+'],
  ['\\P{L}{2}'],
  ['(ab|cd)+(\\.[0-9]{2})?', 5],
  ['\\$\\d+\\.\\d{2}'],
  ['[\\-+]\\d+'],
  ['[a-c]+', 12],
  ['\\p{IsBasicLatin}{3}'],
  ['\\w+@\\w+\\.\\w{2,3}'],
  ['\\I\\C\\s.[^\\s]'],
  ['[\\p{L}-[a-z]]+', 4, 4],
  ['\\-?P(\\d*D)?(T(\\d*H)?(\\d*M)?(\\d*(\\.\\d*)?S)?)?'],
  ['[\\da-fA-F]{8}-[\\da-fA-F]{4}-[\\da-fA-F]{4}-[\\da-fA-F]{4}-[\\da-fA-F]{12}'],
  ['[_a-zA-Z0-9\\-\\+\\.]+@[a-zA-Z0-9\\-]+(\\.[a-zA-Z0-9\\-]+)*(\\.[a-zA-Z]+)', 10],
  ['[A-Z]{2}\\-[1-9][0-9]?'],
  ['[A-Z,0-9]{32}'],
  ['[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89aAbB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}'],
  ['[0-9]{13,19}', 16],
  ['GET|POST|PUT|DELETE|HEAD|TRACE|OPTIONS', 5],
  ['(0[1-9]|1[012])'],
  ['\\d{3}( \\d{3})*', 11, 11],
  ['[^\\n\\r\\t]*\\|.', 1, 3],
  ['\\^\\.\\*\\{\\}\\(\\)\\[\\]'],
  ['x{0}y?z{2,}'],
];

for (const [pattern, min, max] of PATTERNS) {
  test(`a text made from ${pattern}${min === undefined ? '' : ` (length ${min} to ${max ?? '∞'})`} is one libxml2 takes`, (t) => {
    const node = parseXsdRegex(pattern);
    const made = generateXsdRegex(node, min, max);
    if (made === undefined) return t.fail('no text made');
    const facets = `${min === undefined ? '' : `<xs:minLength value="${min}"/>`}${max === undefined ? '' : `<xs:maxLength value="${max}"/>`}`;
    t.true(libxml2Accepts(pattern, made, facets), made);
    t.true(matchesXsdRegex(node, made), made);
  });
}

test("no text is made when the lengths asked are out of the pattern's reach, and a pattern outside XML Schema is refused", (t) => {
  t.is(generateXsdRegex(parseXsdRegex('\\d{3}'), 4), undefined);
  t.is(generateXsdRegex(parseXsdRegex('(ab)+'), 3, 3), undefined);
  t.throws(() => parseXsdRegex('(?:a)'));
  t.throws(() => parseXsdRegex('\\q'));
  t.throws(() => parseXsdRegex('[a'));
  t.throws(() => parseXsdRegex('\\p{IsNoSuchBlock}'));
});

const TEXTS: [string, string][] = [
  ['[a-z-[aeiou]]+', 'bcd'],
  ['[a-z-[aeiou]]+', 'bca'],
  ['\\i\\c*', 'a-1'],
  ['\\i\\c*', '1a'],
  ['\\I', ':'],
  ['\\I', '-'],
  ['\\C', '!'],
  ['\\C', '.'],
  ['\\w+', 'a_b'],
  ['\\w+', 'a-b'],
  ['\\d{2,3}', '1234'],
  ['(ab|cd)+', 'abcdab'],
  ['(ab|cd)+', 'abc'],
  ['.', '\n'],
  ['[^\\s]+', 'a b'],
  ['\\p{Nd}\\P{Nd}', '1a'],
  ['\\p{Lu}+', 'AbC'],
  ['^$', '^$'],
];

test('the matcher agrees with libxml2 on texts either side of a pattern', (t) => {
  for (const [pattern, value] of TEXTS) {
    t.is(matchesXsdRegex(parseXsdRegex(pattern), value), libxml2Accepts(pattern, value), `${pattern} ${JSON.stringify(value)}`);
  }
});
