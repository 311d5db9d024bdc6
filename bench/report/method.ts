/** RESULTS.md's opening and its Run section: how the figures below were measured, on what, with what. */

export interface RunInfo {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; platform: string };
  settings: { connections: number; duration: number; freshDuration: number; warmup: number; rounds: number };
  loadBefore: number[];
  loadAfter: number[];
  wallSeconds: number;
  subset: boolean;
  /** The revision measured as "ours" when it was not this checkout (BENCH_OURS). */
  ours?: { revision: string; commit: string };
  /** What "ours (before)" was, when there was one: a revision or this build, and the Node.js that ran it. */
  before?: { revision?: string; commit?: string; node: string };
}

export function methodSection(info: RunInfo): string[] {
  const { settings: s, machine: m, before } = info;
  const rounds = `${s.rounds} round${s.rounds === 1 ? '' : 's'}`;
  const averages = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  return [
    `Every scenario runs in ${rounds}: in each round every server of the scenario is measured once, back to back, in an order that rotates from round to round. ` +
      'One measurement of one server moves by tens of percent on a shared machine, so a figure below is the **median round** of its server ' +
      '(the round whose server CPU per request is the median) with the **spread** (lowest–highest over the rounds), and every ratio between two measurements is taken **within each round** and given as its median (lowest–highest). ' +
      '"Server CPU µs/request" (CPU time of the server\'s processes, all threads, over the measured seconds, per answered request) does not depend on how the cores were shared.',
    '',
    '## Run',
    '',
    `- Date: ${info.date}${info.subset ? ' (a part of the scenarios or servers)' : ''}; the run took ${(info.wallSeconds / 60).toFixed(0)} min`,
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb.toFixed(1)} GB, ${m.platform}; load average (1/5/15 min) ${averages(info.loadBefore)} before, ${averages(info.loadAfter)} after`,
    `- Runtime: Node.js ${m.node} (ours, the peer, the ceiling and the load generator)${before ? `; ours (before): Node.js ${before.node}` : ''}`,
    `- Settings, the same for every server: ${s.connections} connections, keep-alive, loopback; each measurement ${s.warmup} s of warm-up (times N with --workers N: ` +
      `each event loop, with a JIT of its own, sees as many warm-up requests as one process), then ${s.duration} s measured (${s.freshDuration} s with fresh secrets).`,
    '- Load generator: autocannon in the bench process (one thread); each server in its own child process, started fresh for each measurement on a free port. ' +
      'Nothing is pinned: the two share the machine\'s cores. "CPU, cores" gives how much of a core each side used.',
    '- Ours: `node dist/src/service/main.js` with default settings: a JSON log line per request, metrics, every SOAP body validated against the schema by libxml2, ' +
      'replay protection and throttling, the embedded store kept in a state directory (100 000 entries; `--store memory`: the volatile one). ' +
      "Its stdout and stderr are pipes the bench reads and discards, as systemd's journal does (the peer and the ceiling get the same pipes). " +
      'Replay protection and throttling are checked to work before ours is measured.',
    info.ours
      ? `- Ours in this run: revision \`${info.ours.revision}\` (commit ${info.ours.commit.slice(0, 12)}, BENCH_OURS), built by the bench with its own production dependencies.`
      : '- Ours in this run: the build (dist/) of the checkout the bench ran in.',
    !before
      ? '- Ours (before): not measured in this run.'
      : before.revision
        ? `- Ours (before): revision \`${before.revision}\` (commit ${before.commit?.slice(0, 12)}), built by the bench with its own production dependencies, run as ours.`
        : `- Ours (before): the same build, run by Node.js ${before.node}, the runtime it left (from dist/src/service/cli/main.js, past the entry point's version check), with \`--store memory\` (Node.js 20 has no node:sqlite).`,
    "- Peer: the npm `soap` package's server hosting our WSDL, with ValidatePin of the same semantics (the same TOTP, field checks, " +
      'replay and throttle logic, an in-memory store of the same bound). It speaks SOAP only, validates nothing against the schema and writes no logs.',
    '- Ceiling: a bare Koa app answering one fixed ValidatePin SOAP 1.1 response to every request: the best this HTTP stack and load generator reach here.',
    '- Requests: with reused secrets, each secret is used 4 times (below the 5-failure throttle), mostly with wrong PINs, every 5th secret twice with its correct PIN ' +
      '(one call accepted, one refused as a replay); with fresh secrets, every request a new secret, half with its right PIN, so that the store fills within seconds and then evicts. ' +
      "Every answer of ours, before and the peer is checked (a Pair answer must carry the secret's ManualSetupCode and an inline SVG QR code): a wrong answer counts as an error, like a non-2xx status or a socket error.",
    '',
  ];
}
