/**
 * bench/cpu-per-request.svg: for each scenario, the median server CPU µs per
 * request of ours (before), ours, the peer and the ceiling, as horizontal
 * bars with the spread over the rounds (min–max) as a whisker. Plain SVG
 * text (no dependency), readable in a browser and on GitHub. ValidatePin
 * scenarios share one scale; Pair, several times dearer, has its own panel
 * so that the ValidatePin bars are not squeezed.
 */
import type { Summary } from './rounds';
import { SCENARIOS, type ScenarioId } from './workload';

/** The servers drawn, in the order of their bars, with their colours (colour-blind safe, distinct in grey too). */
const SERIES = [
  { label: 'ours (before)', colour: '#a6a6a6' },
  { label: 'ours', colour: '#0072b2' },
  { label: 'peer', colour: '#e69f00' },
  { label: 'ceiling', colour: '#009e73' },
] as const;

const WIDTH = 980;
const LEFT = 130; // server names
const RIGHT = 190; // value labels
const BAR = 15;
const GAP = 4;
const FONT = 'font-family="DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (us: number) => (us >= 10 || Number.isInteger(us) ? us.toFixed(0) : us.toFixed(1));

/** A round step (1, 2 or 5 × 10^k) giving about `count` ticks up to `max`. */
function tickStep(max: number, count = 6): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

interface Group {
  id: ScenarioId;
  title: string;
  bars: { label: string; colour: string; summary: Summary }[];
}

export function renderChart(summaries: readonly Summary[], rounds: number, subtitle: string): string {
  const groupsOf = (pair: boolean): Group[] =>
    SCENARIOS.filter((s) => (s.operation === 'Pair') === pair)
      .map((s) => ({
        id: s.id,
        title: s.title,
        bars: SERIES.flatMap((series) => {
          const summary = summaries.find((x) => x.scenario === s.id && x.label === series.label);
          return summary ? [{ ...series, summary }] : [];
        }),
      }))
      .filter((g) => g.bars.length > 0);
  const panels = [
    { title: 'ValidatePin scenarios (one scale)', groups: groupsOf(false) },
    { title: 'Pair (a scale of its own)', groups: groupsOf(true) },
  ].filter((p) => p.groups.length > 0);

  const out: string[] = [];
  let y = 0;
  const text = (x: number, ty: number, content: string, extra = '') =>
    out.push(`<text x="${x}" y="${ty}" ${extra}>${escapeXml(content)}</text>`);

  y += 28;
  text(16, y, 'Server CPU per request (µs, lower is better)', 'font-size="18" font-weight="bold"');
  y += 20;
  text(
    16,
    y,
    `${subtitle}; bar: median of ${rounds} round${rounds === 1 ? '' : 's'}, whisker: lowest–highest round`,
    'font-size="12" fill="#444"',
  );
  y += 22;
  let lx = 16;
  for (const s of SERIES) {
    out.push(`<rect x="${lx}" y="${y - 11}" width="14" height="14" fill="${s.colour}"/>`);
    text(lx + 20, y, s.label, 'font-size="13"');
    lx += 20 + s.label.length * 8 + 24;
  }
  y += 14;

  const plotWidth = WIDTH - LEFT - RIGHT;
  for (const panel of panels) {
    const max = Math.max(...panel.groups.flatMap((g) => g.bars.map((b) => b.summary.maxCpu)));
    const step = tickStep(max);
    const top = Math.ceil(max / step) * step;
    const scale = (us: number) => LEFT + (us / top) * plotWidth;
    y += 26;
    text(16, y, panel.title, 'font-size="14" font-weight="bold"');
    y += 8;
    const panelTop = y;
    const gridAt = out.length; // grid lines go before the bars, so that the bars cover them
    for (const group of panel.groups) {
      y += 20;
      text(16, y, group.title, 'font-size="13" font-weight="bold" fill="#222"');
      y += 6;
      for (const bar of group.bars) {
        const m = bar.summary;
        const mid = y + BAR / 2;
        text(LEFT - 8, mid + 4, bar.label, 'font-size="12" text-anchor="end" fill="#333"');
        out.push(
          `<rect x="${LEFT}" y="${y}" width="${(scale(m.median.serverCpuUsPerRequest) - LEFT).toFixed(1)}" height="${BAR}" fill="${bar.colour}"/>`,
        );
        if (m.rounds.length > 1) {
          const [x1, x2] = [scale(m.minCpu).toFixed(1), scale(m.maxCpu).toFixed(1)];
          out.push(
            `<path d="M${x1} ${mid}H${x2}M${x1} ${y + 3}V${y + BAR - 3}M${x2} ${y + 3}V${y + BAR - 3}" stroke="#000" stroke-width="1.4" fill="none"/>`,
          );
        }
        const spread = m.rounds.length > 1 ? ` (${fmt(m.minCpu)}–${fmt(m.maxCpu)})` : '';
        text(scale(m.maxCpu) + 6, mid + 4, `${fmt(m.median.serverCpuUsPerRequest)} µs${spread}`, 'font-size="12" fill="#111"');
        y += BAR + GAP;
      }
    }
    y += 6;
    const grid: string[] = [];
    for (let t = 0; t <= top + 1e-9; t += step) {
      const x = scale(t).toFixed(1);
      grid.push(`<line x1="${x}" y1="${panelTop}" x2="${x}" y2="${y}" stroke="#e3e3e3"/>`);
      grid.push(`<text x="${x}" y="${y + 14}" font-size="11" text-anchor="middle" fill="#555">${fmt(t)}</text>`);
    }
    grid.push(`<line x1="${LEFT}" y1="${y}" x2="${scale(top)}" y2="${y}" stroke="#888"/>`);
    grid.push(`<text x="${scale(top)}" y="${y + 28}" font-size="11" text-anchor="end" fill="#555">µs of server CPU per request</text>`);
    out.splice(gridAt, 0, ...grid);
    y += 32;
  }
  y += 8;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y}" viewBox="0 0 ${WIDTH} ${y}" ${FONT}>`,
    `<rect width="${WIDTH}" height="${y}" fill="#fff"/>`,
    ...out,
    '</svg>',
    '',
  ].join('\n');
}
