/** `--help`: the settings table as text, from src/service/config.ts's SETTINGS. */
import { SETTINGS } from '../config';

/** Terminal width the help text keeps to. */
export const HELP_COLUMNS = 80;

/** `words` on lines of at most `columns` characters (a longer word alone), each starting with `indent`. */
function wrap(words: string[], columns: number, indent: string): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    if (line !== indent && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = indent;
    }
    line += line === indent ? word : ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

export function helpText(): string {
  const flags = SETTINGS.map((s) => `${s.flag} <${s.values}>`);
  const width = Math.max(...flags.map((f) => f.length)) + 2;
  const rows = SETTINGS.map((s, i) => {
    // The default stays whole on one line, so that it reads (and is found) as one phrase.
    const words = [...s.help.split(' '), ...(s.default === undefined ? [] : [`(default: ${s.default})`])];
    return `  ${flags[i].padEnd(width)}${s.env ?? ''}\n${wrap(words, HELP_COLUMNS, '      ')}`;
  });
  return [
    'Usage: pin-service [serve] [options]',
    '',
    'Settings (flag, or environment variable):',
    ...rows,
    '',
    '  --help  print this and exit',
  ].join('\n');
}
