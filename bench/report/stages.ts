/** RESULTS.md's "Where ours spends its CPU": the stage shares of ours under perf (bench/perf/). */
import type { StageProfile } from '../perf/profile';
import { scenario } from '../workload';

export function stagesSection(profiles: StageProfile[]): string[] {
  if (profiles.length === 0) return [];
  const row = (name: string, cell: (p: StageProfile) => string) => `| ${name} | ${profiles.map(cell).join(' | ')} |`;
  return [
    '## Where ours spends its CPU (perf)',
    '',
    `After the measurements, ours runs once more under \`node --perf-basic-prof\` with the same load, and \`perf record -F 999 -g\` samples it for ${profiles[0].seconds} s ` +
      'after a 5 s warm-up. Each sample (any thread of the process) is put in a stage by the first frame of its call chain, from the leaf up, that a rule of ' +
      'bench/perf/stages.ts matches; kernel time counts as "kernel" when it came through a system call. Perf slows the service a little (CPU per request under perf below).',
    '',
    `| stage | ${profiles.map((p) => scenario(p.scenario).title).join(' | ')} |`,
    `|---|${profiles.map(() => '---:').join('|')}|`,
    ...profiles[0].report.shares.map(({ stage }, i) => row(stage, (p) => `${(p.report.shares[i].share * 100).toFixed(1)} %`)),
    row('samples', (p) => String(p.report.samples)),
    row('req/s, server CPU µs/request under perf', (p) => `${p.rps.toFixed(0)}, ${p.cpuUsPerRequest.toFixed(0)}`),
    '',
  ];
}
