/**
 * Interleaved rounds: in each round every server of a scenario is measured once, back to back, in an order that
 * rotates from round to round. One measurement moves by tens of percent on a shared machine; a ratio between two
 * servers of the same round moves much less, so ratios are taken per round, then given as their median and range.
 */
import type { Measurement, Plan } from './measure';
import type { ScenarioId } from './workload';

/** What each round measures, in order: the scenarios in their order, each one's servers rotated by the round's number. */
export function schedule(plansByScenario: readonly Plan[][], rounds: number): Plan[][] {
  return Array.from({ length: rounds }, (_, round) =>
    plansByScenario.flatMap((plans) => [...plans.slice(round % plans.length), ...plans.slice(0, round % plans.length)]),
  );
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One server of one scenario over the rounds; errors and answers summed over them. */
export interface Summary {
  scenario: ScenarioId;
  label: string;
  server: Measurement['server'];
  rounds: Measurement[];
  /** The round whose server CPU per request is the median (the cheaper of the two middle ones when the count is even). */
  median: Measurement;
  /** The lowest and highest server CPU µs/request over the rounds. */
  minCpu: number;
  maxCpu: number;
  errors: number;
  checked: number;
  trues: number;
  accidentalMatches: number;
  problems: string[];
}

/** One summary per scenario and server label, in the order the labels first appear. */
export function summarize(ms: readonly Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of ms) groups.set(`${m.scenario} ${m.label}`, [...(groups.get(`${m.scenario} ${m.label}`) ?? []), m]);
  return [...groups.values()].map((rounds) => {
    const byCpu = [...rounds].sort((a, b) => a.serverCpuUsPerRequest - b.serverCpuUsPerRequest);
    const sum = (f: (m: Measurement) => number) => rounds.reduce((n, m) => n + f(m), 0);
    return {
      scenario: rounds[0].scenario,
      label: rounds[0].label,
      server: rounds[0].server,
      rounds,
      median: byCpu[(byCpu.length - 1) >> 1],
      minCpu: byCpu[0].serverCpuUsPerRequest,
      maxCpu: byCpu[byCpu.length - 1].serverCpuUsPerRequest,
      errors: sum((m) => m.errors),
      checked: sum((m) => m.checked),
      trues: sum((m) => m.trues),
      accidentalMatches: sum((m) => m.accidentalMatches),
      problems: [...new Set(rounds.flatMap((m) => m.problems))],
    };
  });
}

/** A ratio over the rounds: its median, lowest and highest, and how many rounds had both servers. */
export type RatioStat = { median: number; min: number; max: number; rounds: number };

/** Server `a`'s CPU per request ÷ server `b`'s, in each round that measured both (with a = the peer, b = ours: ours' efficiency). */
export function cpuRatio(ms: readonly Measurement[], a: [ScenarioId, string], b: [ScenarioId, string]): RatioStat | undefined {
  const ratios: number[] = [];
  for (const x of ms) {
    if (x.scenario !== a[0] || x.label !== a[1]) continue;
    const y = ms.find((m) => m.scenario === b[0] && m.label === b[1] && m.round === x.round);
    if (y && y.serverCpuUsPerRequest > 0) ratios.push(x.serverCpuUsPerRequest / y.serverCpuUsPerRequest);
  }
  if (ratios.length === 0) return undefined;
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), rounds: ratios.length };
}
