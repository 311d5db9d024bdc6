/**
 * The runtime's HTML escape (src/runtime/escape.ts, which Pair's fragment
 * uses, on escapeEach): the same output as a plain character-by-character escape.
 */
import test from 'ava';
import { escapeHtml } from '../../src/runtime/escape';
import { escapeTexts } from '../support/escape-texts';

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const byChar = (text: string) => Array.from(text, (c) => HTML[c] ?? c).join('');

test('the same output as a character-by-character escape', (t) => {
  for (const text of escapeTexts()) t.is(escapeHtml(text), byChar(text));
});

test('a text with nothing to escape comes back as it is', (t) => {
  const plain = `data:image/svg+xml;base64,${'QUJD'.repeat(1000)}`;
  t.is(escapeHtml(plain), plain);
});
