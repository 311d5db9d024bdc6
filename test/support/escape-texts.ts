/** Deterministic texts mixing every character markup escapes with plain ones and entity look-alikes, and one long text. */
export function* escapeTexts(): Generator<string> {
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
