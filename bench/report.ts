/**
 * bench/RESULTS.md: the run, the median-round table, the per-round ratios,
 * fresh against reused secrets, the goals, and where the CPU goes. Two
 * sections of the previous file are kept as they were: the analysis (written
 * by a person) and the soak (written by bench/soak.ts).
 */
import type { Measurement } from './measure';
import type { StageProfile } from './perf-profile';
import { cpuRatio, summarize, type RatioStat, type Summary } from './rounds';
import { reusedCounterpart, scenario as scenarioOf, SCENARIOS, type ScenarioId } from './workload';

export interface RunInfo {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; platform: string };
  settings: { connections: number; duration: number; freshDuration: number; warmup: number; pipelining: number; rounds: number };
  loadBefore: number[];
  loadAfter: number[];
  wallSeconds: number;
  subset: boolean;
  /** What "ours (before)" was, when there was one: a revision, or this checkout; and the Node.js that ran it. */
  before?: { revision?: string; commit?: string; node?: string };
  /** The revision measured as "ours" when it was not this checkout (BENCH_OURS). */
  ours?: { revision: string; commit: string };
  /** Extra settings given to ours and before (BENCH_OURS_ARGS, subsets only). */
  oursArgs: string[];
}

export const CHART_FILE = 'cpu-per-request.svg';

const SECTIONS = {
  analysis: {
    start: '<!-- analysis:start -->',
    end: '<!-- analysis:end -->',
    empty:
      '_Not written yet. A person writes here what the figures above mean and why a goal is or is not met; `make bench` keeps this section as it is._',
  },
  soak: {
    start: '<!-- soak:start -->',
    end: '<!-- soak:end -->',
    empty: '_No soak run recorded yet (the soak script fills this section; make bench keeps it)._',
  },
};

/** A section of the previous RESULTS.md, markers included, or an empty one. */
export function keptSection(previous: string, name: keyof typeof SECTIONS): string {
  const { start, end, empty } = SECTIONS[name];
  const from = previous.indexOf(start);
  const to = previous.indexOf(end, from);
  if (from >= 0 && to > from) return previous.slice(from, to + end.length);
  return `${start}\n${empty}\n${end}`;
}

const P99_LIMIT_MS = 15;
const RSS_MARGIN_MB = 30;
const FRESH_LIMIT = 1.1;
/** --workers 2 against one process, CPU per request. */
const WORKERS_LIMIT = 1.15;

const title = (id: ScenarioId) => scenarioOf(id).title;
const fx = (r: number | undefined, digits = 2) => (r === undefined ? 'n/a' : `${r.toFixed(digits)}×`);
/** A ratio written as a number and its unit, e.g. 0.80 and ×, or 43 and %. */
const times = (v: number): [string, string] => [v.toFixed(2), '×'];
const percent = (v: number): [string, string] => [(v * 100).toFixed(0), ' %'];
/** Median (lowest–highest), the unit written once at the end of each: "0.80× (0.72–0.85×)". */
const range = (r: RatioStat | undefined, f: (v: number) => [string, string] = times) => {
  if (r === undefined) return 'n/a';
  const [median, unit] = f(r.median);
  return r.rounds > 1 ? `${median}${unit} (${f(r.min)[0]}–${f(r.max)[0]}${unit})` : `${median}${unit}`;
};
const cpuCell = (s: Summary) => `${s.median.serverCpuUsPerRequest.toFixed(0)} (${s.minCpu.toFixed(0)}–${s.maxCpu.toFixed(0)})`;
const mark = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? '**met**' : '**NOT met**');

interface Goal {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

export function renderResults(info: RunInfo, ms: Measurement[], previous: string, profiles: StageProfile[] = []): string {
  const summaries = summarize(ms);
  const find = (scenario: ScenarioId, label: string) => summaries.find((s) => s.scenario === scenario && s.label === label);
  const usOf = (s: Summary | undefined) => (s ? `${s.median.serverCpuUsPerRequest.toFixed(0)} µs` : 'n/a');
  const rounds = info.settings.rounds;
  const out: string[] = [];

  out.push('# Benchmark results', '');
  out.push(
    '_Written by `make bench` (bench/run.ts); do not edit by hand, except the Analysis section, which `make bench` keeps as it is (and the Soak section, which `make soak` writes)._',
    '',
    `Every scenario runs in ${rounds} interleaved round${rounds === 1 ? '' : 's'}: in each round every server of the scenario is measured once, back to back, in an order that rotates from round to round. ` +
      'This machine is shared and one measurement of one server moves by up to ±40 %, so a figure below is the **median round** of its server ' +
      '(the round whose server CPU per request is the median) with the **spread** (lowest–highest over the rounds), and every ratio between two servers is taken **within each round** and given as its median (lowest–highest). ' +
      '"Server CPU µs/request" (CPU time of the server\'s processes, all threads, over the measured seconds, per answered request) is the steadiest figure: it does not depend on how the cores were shared.',
    '',
    `![Server CPU per request, median round with the spread over the rounds](${CHART_FILE})`,
    '',
  );

  out.push('## Run', '');
  out.push(`- Date: ${info.date}${info.subset ? ' (a subset of the scenarios or servers)' : ''}`);
  out.push(
    `- Machine: ${info.machine.cpu}, ${info.machine.cores} cores (/proc/cpuinfo), ${info.machine.memoryGb.toFixed(1)} GB, ${info.machine.platform}`,
    `- Runtime: Node.js ${info.machine.node} (ours, the peer, the ceiling and the load generator)${info.before ? `; ours (before): Node.js ${info.before.node ?? info.machine.node}` : ''}`,
  );
  out.push(
    `- Load average (1/5/15 min): ${info.loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${info.loadAfter.map((l) => l.toFixed(2)).join(' / ')} after`,
  );
  out.push(
    `- Settings, the same for every server: ${info.settings.connections} connections, pipelining ${info.settings.pipelining}, keep-alive, loopback (127.0.0.1); ` +
      `each measurement ${info.settings.warmup} s of warm-up (times N with --workers N: each of the N event loops, with a JIT of its own, sees as many warm-up requests as one process), then ${info.settings.duration} s measured (${info.settings.freshDuration} s for the fresh-secrets workload); ` +
      `${rounds} round${rounds === 1 ? '' : 's'}; the whole run took ${(info.wallSeconds / 60).toFixed(0)} min`,
  );
  out.push(
    '- Load generator: autocannon in the bench process (one thread), the server in its own child process, started fresh for each measurement on a free port. ' +
      "Nothing is pinned: the two share the machine's cores (with 2 cores, roughly one each; `--workers 2` means 3 busy processes on 2 cores). " +
      'The "CPU, cores" column gives how much of a core each side used. `--workers 2` and `--drift-window 10` run with the reused secrets only, in every round.',
  );
  out.push(
    '- Ours: `node dist/src/main.js --host 127.0.0.1 --port P` with default settings — logging on (one JSON line per request at level info), ' +
      'metrics on, schema validation of every SOAP body, replay protection and throttling (5 failures / 5 min) on, embedded store (100 000 entries). ' +
      "Its stdout and stderr are pipes that the bench reads and discards, as systemd's journal does, so writing the log is part of its cost (the peer and the ceiling get the same pipes)." +
      (info.oursArgs.length ? ` This run added \`${info.oursArgs.join(' ')}\` to ours and before.` : ''),
  );
  out.push(
    info.ours
      ? `- Ours in this run: revision \`${info.ours.revision}\` (commit ${info.ours.commit.slice(0, 12)}, BENCH_OURS), built by the bench into a temporary folder with its own production dependencies (from its lockfile), as \`make build\` builds this checkout.`
      : '- Ours in this run: the build (dist/) of the checkout the bench ran in.',
  );
  out.push(
    !info.before
      ? '- Ours (before): not measured in this run (BENCH_BEFORE was empty).'
      : info.before.revision
        ? `- Ours (before): revision \`${info.before.revision}\` (commit ${info.before.commit?.slice(0, 12)}) on Node.js ${info.before.node ?? info.machine.node}, ` +
          'built by the bench into a temporary folder with its own production dependencies (from its lockfile) and run with the same settings as ours, in the same rounds, for every ValidatePin scenario.'
        : `- Ours (before): the same build as ours, run by Node.js ${info.before.node} (the runtime before Node.js 24; from dist/src/cli/main.js, past the entry point's check of the version), ` +
          'with the same settings as ours, in the same rounds, for every ValidatePin scenario.',
  );
  out.push(
    "- Peer: the npm `soap` package's server (`soap.listen`) hosting our WSDL, with Pair and ValidatePin of the same semantics (the same TOTP, field checks, " +
      "replay/throttle logic and an in-memory store of the same bound); Pair renders its QR code with `qrcode`'s SVG output. " +
      'It speaks SOAP only, so the HTTP GET and POST rows compare ours with the ceiling only. For SOAP 1.2 it runs with `forceSoap12Headers`. It validates nothing against the schema and writes no logs.',
  );
  out.push(
    '- Ceiling: a bare Koa app answering one fixed, pre-built ValidatePin SOAP 1.1 response to every request (for the GET, POST and Pair rows too): ' +
      'the best this HTTP stack and load generator reach here.',
  );
  out.push(
    '- Requests, reused secrets (the scenarios without "fresh"): every request is generated at send time; each secret is used 4 times (below the 5-failure throttle), mostly with wrong PINs, ' +
      'and every 5th secret twice with its correct PIN (computed at send time), so that one call is accepted and one refused as a replay.',
  );
  out.push(
    '- Requests, fresh secrets: every request a secret never sent before, half with its right PIN, half with a wrong one, so that the embedded store (100 000 entries) fills within seconds and then evicts for the rest of the measurement.',
  );
  out.push(
    "- Every answer of ours, before and the peer is checked: a wrong PIN must be false, a right PIN on a fresh secret true, of the two calls with one correct PIN on a reused secret exactly one true; a Pair answer must carry the secret's ManualSetupCode and an inline SVG QR code. " +
      'A wrong answer counts as an error, like a non-2xx status (a throttled call would be a SOAP fault, HTTP 500) or a socket error.',
  );
  const verified = ms.find((m) => m.verified)?.verified;
  if (verified) out.push(`- Protections checked on ours before measuring it in SOAP 1.1 ValidatePin: ${verified}.`);
  out.push('');

  out.push('## Results (median round)', '');
  out.push(
    '| scenario | server | rounds | server CPU µs/request, median (lowest–highest) | req/s | p50 ms | p99 ms | peak RSS MB | CPU, cores (server / load generator) | errors, all rounds | answers checked (true), all rounds |',
  );
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of SCENARIOS) {
    for (const x of summaries.filter((y) => y.scenario === s.id)) {
      const m = x.median;
      const rss =
        m.processes > 1
          ? `${m.peakRssMb.toFixed(0)} (${m.processes} processes, largest ${m.peakRssPerProcessMb.toFixed(0)})`
          : m.peakRssMb.toFixed(0);
      const answers = x.server === 'ceiling' ? '— (fixed answer)' : s.operation === 'Pair' ? `${x.checked}` : `${x.checked} (${x.trues})`;
      out.push(
        `| ${s.title} | ${x.label} | ${x.rounds.length} | ${cpuCell(x)} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${rss} | ` +
          `${m.serverCpuShare.toFixed(2)} / ${m.loadGeneratorCpuShare.toFixed(2)} | ${x.errors} | ${answers} |`,
      );
    }
  }
  out.push('');
  for (const x of summaries.filter((y) => y.problems.length)) out.push(`- ${title(x.scenario)} / ${x.label}: ${x.problems.join('; ')}`);
  const accidental = summaries.reduce((n, x) => n + x.accidentalMatches, 0);
  if (accidental)
    out.push(
      `- ${accidental} "wrong" PIN(s) happened to be the right one (about 1 in 10^6 per step in the window) and were rightly answered true.`,
    );
  if (summaries.some((x) => x.problems.length) || accidental) out.push('');

  out.push('## Ratios (within each round)', '');
  out.push(
    "Efficiency: the other server's CPU per request ÷ ours, in each round, then the median over the rounds (lowest–highest). " +
      'Above 1× ours needs less CPU per request than the other. "Before ÷ ours" is the same with the before row in place of the other server: with the same code on both sides it shows the noise of the machine.',
    '',
  );
  out.push('| scenario | peer ÷ ours | ceiling ÷ ours | before ÷ ours |', '|---|---:|---:|---:|');
  for (const s of SCENARIOS) {
    if (!find(s.id, 'ours')) continue;
    out.push(
      `| ${s.title} | ${range(cpuRatio(ms, s.id, 'peer', 'ours'))} | ${range(cpuRatio(ms, s.id, 'ceiling', 'ours'), percent)} | ${range(cpuRatio(ms, s.id, 'ours (before)', 'ours'))} |`,
    );
  }
  out.push('');

  const freshRows: string[] = [];
  const freshRatio = (id: ScenarioId, label: string) => {
    const reused = reusedCounterpart(id);
    const a = find(id, label);
    const b = reused ? find(reused, label) : undefined;
    return a && b ? { fresh: a, reused: b, ratio: a.median.serverCpuUsPerRequest / b.median.serverCpuUsPerRequest } : undefined;
  };
  for (const s of SCENARIOS.filter((x) => x.secrets === 'fresh')) {
    for (const label of ['ours (before)', 'ours', 'peer', 'ceiling']) {
      const r = freshRatio(s.id, label);
      if (r)
        freshRows.push(`| ${title(reusedCounterpart(s.id)!)} | ${label} | ${cpuCell(r.reused)} | ${cpuCell(r.fresh)} | ${fx(r.ratio)} |`);
    }
  }
  if (freshRows.length) {
    out.push('## Fresh secrets against reused secrets', '');
    out.push(
      'Server CPU µs/request of the median rounds (lowest–highest), and fresh ÷ reused. With fresh secrets every call writes a new entry in a full store, which evicts the oldest; ' +
        'the ceiling answers both the same way and shows what the load generator and the machine alone change.',
      '',
    );
    out.push('| scenario | server | reused secrets | fresh secrets | fresh ÷ reused |', '|---|---|---:|---:|---:|', ...freshRows, '');
  }

  const goals: Goal[] = [];
  const soapVsPeer = cpuRatio(ms, 'soap11-validate', 'peer', 'ours');
  goals.push({
    goal: "SOAP 1.1 ValidatePin: ours ≥ 1.0× the peer's efficiency (peer CPU ÷ ours; stretch 1.5×)",
    measured: soapVsPeer
      ? `${range(soapVsPeer)}; ${usOf(find('soap11-validate', 'ours'))} against ${usOf(find('soap11-validate', 'peer'))}${soapVsPeer.median >= 1.5 ? '; stretch met' : ''}`
      : 'n/a',
    met: soapVsPeer && soapVsPeer.median >= 1.0,
  });
  const getVsCeiling = cpuRatio(ms, 'get-validate', 'ceiling', 'ours');
  goals.push({
    goal: "HTTP GET ValidatePin: ours ≥ 60 % of the ceiling's efficiency (ceiling CPU ÷ ours)",
    measured: getVsCeiling
      ? `${range(getVsCeiling, percent)}; ${usOf(find('get-validate', 'ours'))} against ${usOf(find('get-validate', 'ceiling'))}`
      : 'n/a',
    met: getVsCeiling && getVsCeiling.median >= 0.6,
  });
  for (const s of SCENARIOS.filter((x) => x.secrets === 'fresh')) {
    const r = freshRatio(s.id, 'ours');
    goals.push({
      goal: `${title(reusedCounterpart(s.id)!)}: fresh secrets ≤ ${FRESH_LIMIT.toFixed(2)}× the reused secrets' CPU per request (ours, median rounds)`,
      measured: r ? `${fx(r.ratio)} (${usOf(r.fresh)} against ${usOf(r.reused)})` : 'n/a',
      met: r && r.ratio <= FRESH_LIMIT,
    });
  }
  for (const id of ['soap11-validate', 'get-validate'] as const) {
    const workers = cpuRatio(ms, id, 'ours --workers 2', 'ours');
    const floor = cpuRatio(ms, id, 'ceiling --workers 2', 'ceiling');
    goals.push({
      goal: `${title(id)}: \`--workers 2\` ≤ ${WORKERS_LIMIT.toFixed(2)}× one process's CPU per request (per-round ratio)`,
      measured: workers
        ? `${range(workers)}; ${usOf(find(id, 'ours --workers 2'))} against ${usOf(find(id, 'ours'))}${floor ? `; the ceiling with two threads ${range(floor)}` : ''}`
        : 'n/a',
      met: workers && workers.median <= WORKERS_LIMIT,
    });
  }
  const validateOurs = summaries.filter((x) => x.label === 'ours' && scenarioOf(x.scenario).operation === 'ValidatePin');
  goals.push({
    goal: `p99 ≤ ${P99_LIMIT_MS} ms at 50 connections, every ValidatePin scenario of ours (median round; worst round in brackets)`,
    measured:
      validateOurs.map((x) => `${title(x.scenario)} ${x.median.p99} ms (${Math.max(...x.rounds.map((m) => m.p99))})`).join(', ') || 'n/a',
    met:
      validateOurs.length === 0 || info.settings.connections !== 50 ? undefined : validateOurs.every((x) => x.median.p99 <= P99_LIMIT_MS),
  });
  const rssRows = SCENARIOS.flatMap((s) => {
    const ours = find(s.id, 'ours');
    const ceiling = find(s.id, 'ceiling');
    return ours && ceiling ? [{ id: s.id, over: ours.median.peakRssMb - ceiling.median.peakRssMb, ours, ceiling }] : [];
  });
  const worstRss = rssRows.length ? rssRows.reduce((a, b) => (b.over > a.over ? b : a)) : undefined;
  goals.push({
    goal: `Peak RSS of ours ≤ the ceiling's peak + ${RSS_MARGIN_MB} MB (same scenario, median rounds)`,
    measured: worstRss
      ? `at most ${worstRss.over >= 0 ? '+' : ''}${worstRss.over.toFixed(0)} MB (${title(worstRss.id)}: ${worstRss.ours.median.peakRssMb.toFixed(0)} against ${worstRss.ceiling.median.peakRssMb.toFixed(0)} MB); ` +
        `ours ${Math.min(...rssRows.map((r) => r.ours.median.peakRssMb)).toFixed(0)}–${Math.max(...rssRows.map((r) => r.ours.median.peakRssMb)).toFixed(0)} MB over the scenarios`
      : 'n/a',
    met: worstRss && worstRss.over <= RSS_MARGIN_MB,
  });
  const withErrors = summaries.filter((x) => x.errors > 0);
  goals.push({
    goal: 'Zero errors (non-2xx, socket errors, wrong answers) in every measurement of every server, every round',
    measured: withErrors.length
      ? withErrors.map((x) => `${title(x.scenario)} / ${x.label}: ${x.errors}`).join('; ')
      : `0 in ${ms.length} measurements`,
    met: ms.length ? withErrors.length === 0 : undefined,
  });
  out.push('## Goals', '');
  out.push('| goal | measured: median (lowest–highest round) | |', '|---|---|---|');
  for (const g of goals) out.push(`| ${g.goal} | ${g.measured} | ${mark(g.met)} |`);
  out.push('');

  out.push('## Analysis', '');
  out.push(keptSection(previous, 'analysis'), '');

  const comparisons: string[] = [];
  const compare = (id: ScenarioId, label: string, what: string, baseLabel = 'ours') => {
    const base = find(id, baseLabel);
    const other = find(id, label);
    if (!base || !other) return;
    const [b, o] = [base.median, other.median];
    comparisons.push(
      `| ${title(id)} | ${what} | ${b.rps.toFixed(0)} → ${o.rps.toFixed(0)} | ${b.serverCpuUsPerRequest.toFixed(0)} → ${o.serverCpuUsPerRequest.toFixed(0)} | ` +
        `${range(cpuRatio(ms, id, label, baseLabel))} | ${b.p99} → ${o.p99} | ${b.peakRssMb.toFixed(0)} → ${o.peakRssMb.toFixed(0)} |`,
    );
  };
  for (const s of SCENARIOS) {
    compare(s.id, 'ours --workers 2', '1 → 2 worker threads');
    compare(s.id, 'ceiling --workers 2', 'ceiling: 1 → 2 threads (no service work)', 'ceiling');
  }
  compare('soap11-validate', 'ours --drift-window 10', 'drift window 1 → 10');
  compare('soap11-validate', 'ours over HTTPS', 'plain HTTP → HTTPS (--tls-cert), connections kept alive');
  for (const id of ['soap11-validate', 'get-validate', 'soap11-validate-fresh'] as const)
    compare(id, 'ours --store memory', 'embedded store kept on disk (the default) → volatile (--store memory)');
  if (comparisons.length) {
    out.push('## Several cores, the drift window, HTTPS and the kept store', '');
    out.push(
      '| scenario | comparison | req/s (median rounds) | server CPU µs/request (median rounds) | CPU per request after ÷ before, per round | p99 ms | peak RSS MB (all processes) |',
      '|---|---|---:|---:|---:|---:|---:|',
      ...comparisons,
      '',
    );
    out.push(
      "`--workers 2`: two worker threads of one process listen on the port (SO_REUSEPORT) and share the embedded store's table in memory, each operation " +
        "under the table's lock, so replay protection and throttling stay exact (the answers above are checked the same way); the main thread writes the table " +
        'behind to the state file. On this 2-core machine the load generator needs part of a core itself, so two threads gain where a request is CPU-heavy for ' +
        'the server (SOAP, Pair) and little where the load generator is already near its limit (HTTP GET). The ceiling with two threads is what two event ' +
        'loops cost here with no service work. RSS: each thread is a V8 isolate with its own heap, modules and libxml2 instance. ' +
        'Over HTTPS the service encrypts every answer itself (TLS 1.3, an ECDSA P-256 test certificate); autocannon keeps its connections open, so handshakes ' +
        'are few and the figure is the cost of the record layer: a figure, not a goal. The kept store writes every changed secret behind the calls (every ' +
        '50 ms, node:sqlite); with a new secret on every call it writes a record per call, so its cost shows as the volatile store needing less CPU per request.',
      '',
    );
  }

  if (profiles.length) {
    out.push('## Where ours spends its CPU (perf)', '');
    out.push(
      'After the measurements, ours (dist/) runs once more under `node --perf-basic-prof`, with the same load, and `perf record -F 999 -g -p PID` samples it for ' +
        `${profiles[0].seconds} s after a 5 s warm-up. Each sample (any thread of the process: the main thread, V8's compiler and collector threads) is put in a stage by walking its call chain from the leaf upward ` +
        'and taking the first frame that a rule matches (the rules, by file path and symbol, are STAGE_RULES in bench/perf-stages.ts): kernel time entered through a system call is "kernel"; ' +
        "a page fault or an interrupt goes to the code it interrupted. Shares are of all the process's samples. Perf slows the service a little (CPU per request under perf below).",
      '',
    );
    out.push(`| stage | ${profiles.map((p) => title(p.scenario)).join(' | ')} |`, `|---|${profiles.map(() => '---:').join('|')}|`);
    for (const [i, stage] of profiles[0].report.stages.entries()) {
      out.push(`| ${stage.stage} | ${profiles.map((p) => `${(p.report.stages[i].share * 100).toFixed(1)} %`).join(' | ')} |`);
    }
    out.push(
      `| samples | ${profiles.map((p) => p.report.samples).join(' | ')} |`,
      `| req/s, server CPU µs/request under perf | ${profiles.map((p) => `${p.rps.toFixed(0)}, ${p.cpuUsPerRequest.toFixed(0)}`).join(' | ')} |`,
      '',
    );
    for (const p of profiles) {
      const list = (xs: { name: string; share: number }[]) =>
        xs.map((x) => `${x.name} ${(x.share * 100).toFixed(1)} %`).join('; ') || 'nothing';
      out.push(
        `- ${title(p.scenario)}: "other" is ${list(p.report.other.slice(0, 5))}. "kernel", by system call: ${list(p.report.syscalls.slice(0, 5))}.`,
      );
    }
    out.push('');
  }

  out.push('## Soak', '');
  out.push(keptSection(previous, 'soak'));
  out.push('');
  return out.join('\n');
}
