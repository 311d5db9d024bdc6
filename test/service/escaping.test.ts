/**
 * The escapes of src/runtime/xml/xml-codec.ts and src/service/handlers/pair.ts: the same output
 * as a plain character-by-character escape, and XML that parses back to the
 * very text (end-of-line and attribute white space included).
 */
import test from 'ava';
import { escapeXmlAttribute, escapeXmlText } from '../../src/runtime/xml/xml-codec';
import { escapeHtml } from '../../src/service/handlers/pair';
import { attributeOf, loadReaders, readXml, textOf } from '../support/readers';

test.before(loadReaders);

const byChar = (table: Record<string, string>) => (text: string) => Array.from(text, (c) => table[c] ?? c).join('');
const TEXT = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTRIBUTE = { ...TEXT, '"': '&quot;', "'": '&apos;', '\n': '&#xA;', '\t': '&#x9;' };
const HTML = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Deterministic texts mixing every character that needs escaping with plain ones and entity look-alikes. */
function* texts(): Generator<string> {
  const pieces = ['&', '<', '>', '"', "'", '\r', '\n', '\t', 'a', 'é', '&amp;', '&#xD;', ' ', '€', ']]>'];
  let x = 12345;
  for (let n = 0; n < 400; n++) {
    let text = '';
    for (let i = 0; i < n % 40; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      text += pieces[x % pieces.length];
    }
    yield text;
  }
  yield `${'x'.repeat(10_000)}&<>\r${'y'.repeat(10_000)}`;
}

test('the same output as a character-by-character escape', (t) => {
  for (const text of texts()) {
    t.is(escapeXmlText(text), byChar(TEXT)(text));
    t.is(escapeXmlAttribute(text), byChar(ATTRIBUTE)(text));
    t.is(escapeHtml(text), byChar(HTML)(text));
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
  t.is(escapeHtml(plain), plain);
});
