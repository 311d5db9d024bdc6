import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../src/config';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

test('the README settings table lists every setting with its flag, variable and default', (t) => {
  for (const s of SETTINGS) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${s.flag}\` | \`${s.env}\` |`));
    t.truthy(row, `${s.flag} is missing from the README table`);
    if (s.default !== undefined) t.true(row!.includes(`\`${s.default}\``), `${s.flag}: the README default differs`);
  }
});

test('the README shows the two commands', (t) => {
  t.regex(readme, /^make run\b/m);
  t.regex(readme, /^make test\b/m);
});
