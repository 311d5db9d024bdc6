/**
 * docs/moving-from-the-original.md as its tests read it: the one snippet
 * under each client's heading, the rows of the departures table, and the
 * `code` values of a cell. The tests run what the page shows, so the page
 * and the tests cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PAGE_PATH = 'docs/moving-from-the-original.md';
const PAGE = readFileSync(join(__dirname, '..', '..', PAGE_PATH), 'utf8');

/** The address the page's snippets use for this service; a test puts its own service's there. */
export const PAGE_ADDRESS = 'https://pins.example.com';

/** The page's text. */
export const migrationPage = (): string => PAGE;

/** The section under `heading` (any level), up to the next heading outside a code block. */
function section(heading: string): string {
  const lines = PAGE.split('\n');
  const start = lines.findIndex((line) => /^#{2,3} /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`${PAGE_PATH} has no heading "${heading}"`);
  const body: string[] = [];
  let inCode = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) inCode = !inCode;
    if (!inCode && /^#{1,3} /.test(line)) break;
    body.push(line);
  }
  return body.join('\n');
}

/** The one fenced code block of the section under `heading`, with its language. */
export function snippet(heading: string): { language: string; code: string } {
  const blocks = [...section(heading).matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1) throw new Error(`"${heading}" of ${PAGE_PATH} has ${blocks.length} code blocks, not one`);
  return { language: blocks[0][1], code: blocks[0][2] };
}

/** A snippet with this service's address (`https://pins.example.com`) replaced by `baseUrl`. */
export function atAddress(code: string, baseUrl: string): string {
  if (!code.includes(PAGE_ADDRESS)) throw new Error(`the snippet names no ${PAGE_ADDRESS}:\n${code}`);
  return code.replaceAll(PAGE_ADDRESS, baseUrl);
}

export interface Departure {
  /** The bold words that open the first cell. */
  label: string;
  original: string;
  /** What an application sees here: its `code` values are what the answers must show. */
  here: string;
  todo: string;
}

/** The rows of the table under "Departures from the original". */
export function departures(): Departure[] {
  const rows = section('Departures from the original')
    .split('\n')
    .filter((line) => line.startsWith('| **'));
  return rows.map((row) => {
    const cells = row.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, ''));
    if (cells.length !== 4) throw new Error(`a departures row of ${cells.length} cells, not 4: ${row}`);
    const label = /^\*\*(.+?)\*\*/.exec(cells[0])?.[1];
    if (!label) throw new Error(`a departures row without its bold label: ${row}`);
    return { label, original: cells[1], here: cells[2], todo: cells[3] };
  });
}

/** The `code` values of a piece of Markdown, in order. */
export const codeSpans = (markdown: string): string[] => [...markdown.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
