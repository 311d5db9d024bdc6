/**
 * Interleaved rounds: in each round every server of a scenario is measured
 * once, back to back, the order rotating from round to round, so that a
 * server is not always the one measured first (or last) after another
 * scenario. On a shared machine a single measurement moves by tens of
 * percent; ratios between servers of the same round move much less, so
 * ratios are taken per round, then summarised by their median and range.
 */
import { errorsOf, type Measurement, type Plan } from './measure';
import type { ScenarioId } from './workload';

/** `items` rotated left by `round` places. */
export function rotate<T>(items: readonly T[], round: number): T[] {
  const k = items.length ? round % items.length : 0;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** What each round measures, in order: the scenarios in their order, each one's servers rotated by the round's number. */
export function schedule(plansByScenario: readonly Plan[][], rounds: number): Plan[][] {
  return Array.from({ length: rounds }, (_, round) => plansByScenario.flatMap((plans) => rotate(plans, round)));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One server of one scenario over the rounds. */
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
  /** Over every round. */
  errors: number;
  checked: number;
  trues: number;
  accidentalMatches: number;
  problems: string[];
}

export function medianRound(rounds: readonly Measurement[]): Measurement {
  const sorted = [...rounds].sort((a, b) => a.serverCpuUsPerRequest - b.serverCpuUsPerRequest);
  return sorted[(sorted.length - 1) >> 1];
}

/** One summary per scenario and server label, in the order the labels first appear. */
export function summarize(ms: readonly Measurement[]): Summary[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of ms) {
    const key = `${m.scenario}\u0000${m.label}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].map((rounds) => {
    const cpu = rounds.map((m) => m.serverCpuUsPerRequest);
    const sum = (f: (m: Measurement) => number) => rounds.reduce((n, m) => n + f(m), 0);
    return {
      scenario: rounds[0].scenario,
      label: rounds[0].label,
      server: rounds[0].server,
      rounds: [...rounds].sort((a, b) => a.round - b.round),
      median: medianRound(rounds),
      minCpu: Math.min(...cpu),
      maxCpu: Math.max(...cpu),
      errors: sum(errorsOf),
      checked: sum((m) => m.checked),
      trues: sum((m) => m.trues),
      accidentalMatches: sum((m) => m.accidentalMatches),
      problems: [...new Set(rounds.flatMap((m) => m.problems))],
    };
  });
}

/** A ratio over the rounds: its median, lowest and highest, and how many rounds had both servers. */
export interface RatioStat {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

/**
 * Server `a`'s CPU per request ÷ server `b`'s, in each round that measured
 * both in `scenario`: with a = the peer and b = ours, how many times more
 * efficient ours is than the peer.
 */
export function cpuRatio(ms: readonly Measurement[], scenario: ScenarioId, a: string, b: string): RatioStat | undefined {
  const ratios: number[] = [];
  for (const x of ms) {
    if (x.scenario !== scenario || x.label !== a) continue;
    const y = ms.find((m) => m.scenario === scenario && m.label === b && m.round === x.round);
    if (y && y.serverCpuUsPerRequest > 0) ratios.push(x.serverCpuUsPerRequest / y.serverCpuUsPerRequest);
  }
  if (ratios.length === 0) return undefined;
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), rounds: ratios.length };
}
