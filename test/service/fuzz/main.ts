/**
 * `make fuzz`: the fuzz run at full budget. Settings by environment:
 * FUZZ_CASES (default 20000), FUZZ_SEED (default 1), FUZZ_CONCURRENCY (8),
 * FUZZ_TIMEOUT_MS (5000, per request), FUZZ_MAX_SECONDS (180). Prints the
 * counts; exits 1 on any failure or when fewer cases than asked ran.
 */
import { formatReport, runFuzz } from './runner';

const number = (name: string, fallback: number) => {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number`);
  return Number(text);
};

async function main(): Promise<void> {
  const report = await runFuzz({
    cases: number('FUZZ_CASES', 20_000),
    seed: number('FUZZ_SEED', 1),
    concurrency: number('FUZZ_CONCURRENCY', 8),
    timeoutMs: number('FUZZ_TIMEOUT_MS', 5000),
    maxSeconds: number('FUZZ_MAX_SECONDS', 180),
    log: (line) => console.log(line),
  });
  console.log(formatReport(report));
  const ok = report.failures.length === 0 && report.childAlive && report.afterRun === 'ok' && report.ran === report.requested;
  if (report.ran < report.requested) console.log(`fuzz: only ${report.ran} of ${report.requested} cases ran within FUZZ_MAX_SECONDS`);
  console.log(ok ? 'fuzz: passed' : 'fuzz: FAILED');
  process.exit(ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(`fuzz: ${(error as Error).stack ?? error}`);
  process.exit(1);
});
