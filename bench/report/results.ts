/**
 * bench/RESULTS.md, section by section, each written by the file named after it: how the run was made (method.ts),
 * the figures (figures.ts), the goals (goals.ts), where the CPU goes (stages.ts). Three sections of the previous file
 * are kept as they were: the Analysis (written by a person), the Soak (written by bench/soak.ts) and the SOAP
 * signatures (written by bench/soap-signature.ts).
 */
import type { Measurement } from '../measure';
import type { StageProfile } from '../perf/profile';
import { summarize } from '../rounds';
import { comparisonsSection, resultsSection } from './figures';
import { goalsSection } from './goals';
import { methodSection, type RunInfo } from './method';
import { stagesSection } from './stages';

export type { RunInfo };

const KEPT = {
  analysis: '_Not written yet: a person writes here what the figures mean and why a goal is met or not; `make bench` keeps it._',
  soak: '_No soak run recorded yet (`make soak` writes this section; `make bench` keeps it)._',
  signatures: '_Not measured yet (`make bench-soap-signature` writes this section; `make bench` keeps it)._',
};

const markers = (name: keyof typeof KEPT) => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`] as const;

/** A section of the previous RESULTS.md, markers included, or an empty one. */
export function keptSection(previous: string, name: keyof typeof KEPT): string {
  const [start, end] = markers(name);
  const from = previous.indexOf(start);
  const to = previous.indexOf(end, from);
  return from >= 0 && to > from ? previous.slice(from, to + end.length) : `${start}\n${KEPT[name]}\n${end}`;
}

/** `text` with the section `name` replaced by `body` (added at the end when it has none). */
export function replaceSection(text: string, name: keyof typeof KEPT, body: string): string {
  const old = keptSection(text, name);
  const section = `${markers(name)[0]}\n${body}\n${markers(name)[1]}`;
  return text.includes(old) ? text.replace(old, () => section) : `${text.replace(/\n*$/, '\n\n')}${section}\n`;
}

export function renderResults(info: RunInfo, ms: Measurement[], previous: string, profiles: StageProfile[] = []): string {
  const summaries = summarize(ms);
  return [
    '# Benchmark results',
    '',
    '_Written by `make bench` (bench/run.ts); do not edit by hand, except the Analysis section, which `make bench` keeps as it is (and the Soak section, which `make soak` writes, and the SOAP signatures section, which `make bench-soap-signature` writes)._',
    '',
    ...methodSection(info),
    ...resultsSection(ms, summaries),
    ...goalsSection(info, ms, summaries),
    '## Analysis',
    '',
    keptSection(previous, 'analysis'),
    '',
    ...comparisonsSection(ms, summaries),
    ...stagesSection(profiles),
    '## Soak',
    '',
    keptSection(previous, 'soak'),
    '',
    '## SOAP signatures',
    '',
    keptSection(previous, 'signatures'),
    '',
  ].join('\n');
}
