/** RESULTS.md's Goals: each goal of docs/performance.md, the figure that decides it, and whether it is met. */
import type { Measurement } from '../measure';
import { cpuRatio, type Summary } from '../rounds';
import { scenario, type ScenarioId } from '../workload';
import { range } from './figures';
import type { RunInfo } from './method';

interface Goal {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

type Row = [ScenarioId, string];

const SOAP_EFFICIENCY = "SOAP 1.1 ValidatePin: ours ≥ 1.0× the peer's efficiency (peer CPU ÷ ours; stretch 1.5×)";
const GET_EFFICIENCY = "HTTP GET ValidatePin: ours ≥ 60 % of the ceiling's efficiency (ceiling CPU ÷ ours)";
const FRESH_COST = "SOAP 1.1 ValidatePin: fresh secrets ≤ 1.10× the reused secrets' CPU per request";
const KEPT_COST = "SOAP 1.1 ValidatePin, fresh secrets: the kept store ≤ 1.05× the volatile store's CPU per request";
const P99_LIMIT_MS = 15;
const RSS_MARGIN_MB = 30;

export function goalsSection(info: RunInfo, ms: Measurement[], summaries: Summary[]): string[] {
  const find = (id: ScenarioId, label: string) => summaries.find((s) => s.scenario === id && s.label === label);
  const us = (id: ScenarioId, label: string) => {
    const s = find(id, label);
    return s ? `${s.median.serverCpuUsPerRequest.toFixed(0)} µs` : 'n/a';
  };
  /** A goal on the per-round ratio of a's CPU per request to b's, its median at least or at most `limit`. */
  const ratioGoal = (goal: string, a: Row, b: Row, bound: '≥' | '≤', limit: number, unit?: ' %'): Goal => {
    const r = cpuRatio(ms, a, b);
    const measured = r ? `${range(r, unit)}; ${us(...a)} against ${us(...b)}` : 'n/a';
    return { goal, measured, met: r && (bound === '≥' ? r.median >= limit : r.median <= limit) };
  };
  const workers = (id: ScenarioId) => `${scenario(id).title}: \`--workers 2\` ≤ 1.15× one process's CPU per request`;
  const goals: Goal[] = [
    ratioGoal(SOAP_EFFICIENCY, ['soap11-validate', 'peer'], ['soap11-validate', 'ours'], '≥', 1),
    ratioGoal(GET_EFFICIENCY, ['get-validate', 'ceiling'], ['get-validate', 'ours'], '≥', 0.6, ' %'),
    ratioGoal(FRESH_COST, ['soap11-validate-fresh', 'ours'], ['soap11-validate', 'ours'], '≤', 1.1),
    ratioGoal(workers('soap11-validate'), ['soap11-validate', 'ours --workers 2'], ['soap11-validate', 'ours'], '≤', 1.15),
    ratioGoal(workers('get-validate'), ['get-validate', 'ours --workers 2'], ['get-validate', 'ours'], '≤', 1.15),
    ratioGoal(KEPT_COST, ['soap11-validate-fresh', 'ours'], ['soap11-validate-fresh', 'ours --store memory'], '≤', 1.05),
  ];
  const validate = summaries.filter((x) => x.label === 'ours' && scenario(x.scenario).operation === 'ValidatePin');
  goals.push({
    goal: `p99 ≤ ${P99_LIMIT_MS} ms at 50 connections, every ValidatePin scenario of ours (median round; worst round in brackets)`,
    measured:
      validate.map((x) => `${scenario(x.scenario).title} ${x.median.p99} ms (${Math.max(...x.rounds.map((m) => m.p99))})`).join(', ') ||
      'n/a',
    met: validate.length === 0 || info.settings.connections !== 50 ? undefined : validate.every((x) => x.median.p99 <= P99_LIMIT_MS),
  });
  const rss = validate.flatMap((ours) => {
    const ceiling = find(ours.scenario, 'ceiling');
    return ceiling
      ? [{ title: scenario(ours.scenario).title, ours: ours.median.peakRssMb, over: ours.median.peakRssMb - ceiling.median.peakRssMb }]
      : [];
  });
  const worst = rss.reduce<(typeof rss)[number] | undefined>((a, b) => (a && a.over >= b.over ? a : b), undefined);
  goals.push({
    goal: `Peak RSS of ours ≤ the ceiling's peak + ${RSS_MARGIN_MB} MB (same scenario, median rounds)`,
    measured: worst
      ? `at most ${worst.over >= 0 ? '+' : ''}${worst.over.toFixed(0)} MB (${worst.title}: ${worst.ours.toFixed(0)} MB)`
      : 'n/a',
    met: worst && worst.over <= RSS_MARGIN_MB,
  });
  const withErrors = summaries.filter((x) => x.errors > 0);
  goals.push({
    goal: 'Zero errors (non-2xx, socket errors, wrong answers) in every measurement of every server, every round',
    measured:
      withErrors.map((x) => `${scenario(x.scenario).title} / ${x.label}: ${x.errors}`).join('; ') || `0 in ${ms.length} measurements`,
    met: ms.length ? withErrors.length === 0 : undefined,
  });
  const mark = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? '**met**' : '**NOT met**');
  return [
    '## Goals',
    '',
    'Each ratio is taken within each round, and given as its median (lowest–highest round).',
    '',
    '| goal | measured | |',
    '|---|---|---|',
    ...goals.map((g) => `| ${g.goal} | ${g.measured} | ${mark(g.met)} |`),
    '',
  ];
}
