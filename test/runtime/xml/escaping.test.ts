/**
 * The runtime's XML escapes (src/runtime/xml/xml-escape.ts): the
 * same output as a plain character-by-character escape, and XML that parses
 * back to the very text (end-of-line and attribute white space included).
 */
import test from 'ava';
import { escapeXmlAttribute, escapeXmlText } from '../../../src/runtime/xml/xml-escape';
import { escapeTexts as texts } from '../../support/escape-texts';
import { attributeOf, loadReaders, readXml, textOf } from '../../support/readers';

test.before(loadReaders);

const byChar = (table: Record<string, string>) => (text: string) => Array.from(text, (c) => table[c] ?? c).join('');
const TEXT = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTRIBUTE = { ...TEXT, '"': '&quot;', "'": '&apos;', '\n': '&#xA;', '\t': '&#x9;' };

test('the same output as a character-by-character escape', (t) => {
  for (const text of texts()) {
    t.is(escapeXmlText(text), byChar(TEXT)(text));
    t.is(escapeXmlAttribute(text), byChar(ATTRIBUTE)(text));
  }
});

test('escaped text and attribute values parse back to the very text', (t) => {
  for (const text of texts()) {
    const [content, attribute] = readXml(`<e a="${escapeXmlAttribute(text)}">${escapeXmlText(text)}</e>`, (doc) => [
      textOf(doc.root),
      attributeOf(doc.root, 'a'),
    ]);
    t.is(content, text);
    t.is(attribute, text);
  }
});

test('a text with nothing to escape comes back as it is', (t) => {
  const plain = `data:image/svg+xml;base64,${'QUJD'.repeat(1000)}`;
  t.is(escapeXmlText(plain), plain);
  t.is(escapeXmlAttribute(plain), plain);
});
