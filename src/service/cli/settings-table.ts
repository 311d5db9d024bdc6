/**
 * docs/operations.md's table of settings, written from src/service/config.ts's
 * SETTINGS, the one table that parsing and `--help` read too: `make
 * generate` writes it between the markers (`npm run generate:settings`),
 * `make check-generated` and test/docs.test.ts fail when it is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS } from '../config';

export const TABLE_START = '<!-- settings:start: written by `make generate` from src/service/config.ts; edit the settings there -->';
export const TABLE_END = '<!-- settings:end -->';

const cell = (text: string) => text.replaceAll('|', '\\|');

export function settingsTable(): string {
  const rows = SETTINGS.map((s) => {
    const fallback = s.default === undefined ? '—' : `\`${s.default}\``;
    return `| \`${s.flag}\` | ${s.env ? `\`${s.env}\`` : '—'} | ${fallback} | ${cell(s.values)} | ${cell(s.help)} |`;
  });
  return ['| flag | variable | default | values | meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** `markdown` with the text between the markers replaced by the table. */
export function withSettingsTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the settings table's markers are missing (${TABLE_START} … ${TABLE_END})`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${markdown.slice(end)}`;
}

export function writeSettingsTable(file: string): void {
  writeFileSync(file, withSettingsTable(readFileSync(file, 'utf8')));
}

if (require.main === module) writeSettingsTable(process.argv[2] ?? 'docs/operations.md');
