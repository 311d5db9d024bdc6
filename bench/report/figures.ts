/** RESULTS.md's figures: every server's median round, the ratios between servers, and the comparisons of settings. */
import type { Measurement } from '../measure';
import { cpuRatio, type RatioStat, type Summary } from '../rounds';
import { SCENARIOS, scenario, type ScenarioId } from '../workload';

/** Median (lowest–highest), the unit written once at the end of each: "0.80× (0.72–0.85×)", or "43 % (40–47 %)". */
export function range(r: RatioStat | undefined, unit: '×' | ' %' = '×'): string {
  if (r === undefined) return 'n/a';
  const f = (v: number) => (unit === '×' ? v.toFixed(2) : (v * 100).toFixed(0));
  return r.rounds > 1 ? `${f(r.median)}${unit} (${f(r.min)}–${f(r.max)}${unit})` : `${f(r.median)}${unit}`;
}

export const cpuCell = (s: Summary) => `${s.median.serverCpuUsPerRequest.toFixed(0)} (${s.minCpu.toFixed(0)}–${s.maxCpu.toFixed(0)})`;

export function resultsSection(ms: Measurement[], summaries: Summary[]): string[] {
  const out = [
    '## Results (median round)',
    '',
    '| scenario | server | rounds | server CPU µs/request, median (lowest–highest) | req/s | p99 ms | peak RSS MB | CPU, cores (server / load generator) | errors, all rounds | answers checked (true), all rounds |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const x of summaries) {
    const m = x.median;
    const answers =
      x.server === 'ceiling' ? '— (fixed answer)' : scenario(x.scenario).operation === 'Pair' ? x.checked : `${x.checked} (${x.trues})`;
    out.push(
      `| ${scenario(x.scenario).title} | ${x.label} | ${x.rounds.length} | ${cpuCell(x)} | ${m.rps.toFixed(0)} | ${m.p99} | ${m.peakRssMb.toFixed(0)} | ` +
        `${m.serverCpuShare.toFixed(2)} / ${m.loadGeneratorCpuShare.toFixed(2)} | ${x.errors} | ${answers} |`,
    );
  }
  out.push('');
  for (const x of summaries.filter((y) => y.problems.length))
    out.push(`- ${scenario(x.scenario).title} / ${x.label}: ${x.problems.join('; ')}`);
  const accidental = summaries.reduce((n, x) => n + x.accidentalMatches, 0);
  if (accidental)
    out.push(`- ${accidental} "wrong" PIN(s) happened to be the right one (about 1 in 10^6 per step) and were rightly answered true.`);
  out.push(
    '',
    '## Ratios (within each round)',
    '',
    "The other server's CPU per request ÷ ours, in each round, then the median over the rounds (lowest–highest): above 1× ours needs less CPU per request. " +
      'With the same code on both sides, "before ÷ ours" shows the noise of the machine; with BENCH_BEFORE and BENCH_OURS, it is the A/B of docs/performance.md.',
    '',
    '| scenario | peer ÷ ours | ceiling ÷ ours | before ÷ ours |',
    '|---|---:|---:|---:|',
  );
  for (const s of SCENARIOS.filter((x) => summaries.some((y) => y.scenario === x.id && y.label === 'ours'))) {
    const ratio = (other: string, unit?: '×' | ' %') => range(cpuRatio(ms, [s.id, other], [s.id, 'ours']), unit);
    out.push(`| ${s.title} | ${ratio('peer')} | ${ratio('ceiling', ' %')} | ${ratio('ours (before)')} |`);
  }
  out.push('');
  return out;
}

/** Each comparison: a measurement, another, and what changes between them. */
const COMPARISONS: Array<[from: [ScenarioId, string], to: [ScenarioId, string], what: string]> = [
  [['soap11-validate', 'ours'], ['soap11-validate-fresh', 'ours'], 'reused → fresh secrets (ours)'],
  [['soap11-validate', 'ceiling'], ['soap11-validate-fresh', 'ceiling'], 'reused → fresh secrets (the ceiling: the machine alone)'],
  ...(['soap11-validate', 'get-validate'] as const).flatMap((id): typeof COMPARISONS => [
    [[id, 'ours'], [id, 'ours --workers 2'], '1 → 2 worker threads'],
    [[id, 'ceiling'], [id, 'ceiling --workers 2'], 'the ceiling: 1 → 2 threads (no service work)'],
  ]),
  ...(['soap11-validate', 'get-validate', 'soap11-validate-fresh'] as const).map((id): (typeof COMPARISONS)[number] => [
    [id, 'ours --store memory'],
    [id, 'ours'],
    'volatile store (--store memory) → kept in the state directory (the default)',
  ]),
];

export function comparisonsSection(ms: Measurement[], summaries: Summary[]): string[] {
  const find = ([id, label]: [ScenarioId, string]) => summaries.find((s) => s.scenario === id && s.label === label);
  const rows = COMPARISONS.flatMap(([from, to, what]) => {
    const [a, b] = [find(from), find(to)];
    if (!a || !b) return [];
    const pair = (f: (m: Measurement) => number | string) => `${f(a.median)} → ${f(b.median)}`;
    return [
      `| ${scenario(from[0]).title} | ${what} | ${pair((m) => m.serverCpuUsPerRequest.toFixed(0))} | ${range(cpuRatio(ms, to, from))} | ` +
        `${pair((m) => m.rps.toFixed(0))} | ${pair((m) => m.p99)} | ${pair((m) => m.peakRssMb.toFixed(0))} |`,
    ];
  });
  if (rows.length === 0) return [];
  return [
    '## Fresh secrets, several threads and the kept store',
    '',
    '| scenario | comparison | server CPU µs/request (median rounds) | CPU per request after ÷ before, per round | req/s | p99 ms | peak RSS MB |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    "`--workers 2`: two worker threads of one process listen on the port (SO_REUSEPORT) and share the embedded store's table in memory, each operation " +
      "under the table's lock, so replay protection and throttling stay exact (the answers are checked the same way); the main thread writes the table " +
      'behind to the state file. Each thread is a V8 isolate with its own heap, modules and libxml2 instance. The ceiling with two threads is what two ' +
      'event loops cost here with no service work. The kept store writes every changed secret behind the calls (every 50 ms, node:sqlite).',
    '',
  ];
}
