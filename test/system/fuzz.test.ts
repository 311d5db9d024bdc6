/**
 * `make test-all`: the fuzzer at a small budget (`make fuzz` runs the full
 * one): 1 500 mutated SOAP envelopes, random bodies, mutated query strings
 * and forms, and raw malformed HTTP at the service running as a child
 * process. Every answer is a designed status, SOAP 500s are Fault
 * envelopes, nothing holds a stack trace or a secret, the child never dies
 * or hangs, and valid calls work after the run.
 */
import test from 'ava';
import { DESIGNED_STATUSES, formatReport, runFuzz } from '../service/fuzz/runner';

test('1 500 fuzz cases: designed answers only, the service alive and working after', async (t) => {
  const report = await runFuzz({
    cases: 1500,
    seed: Number(process.env.FUZZ_SEED ?? 20_240_601),
    concurrency: 8,
    timeoutMs: 5000,
    maxSeconds: 90,
  });
  t.log(formatReport(report));
  t.is(report.ran, 1500, 'every case ran');
  t.deepEqual(
    report.failures.map((f) => `#${f.index} ${f.kind} [${f.mutations.join(', ')}]: ${f.problem}`),
    [],
  );
  for (const status of Object.keys(report.byStatus)) {
    t.true(status === 'closed' || DESIGNED_STATUSES.has(Number(status)), `status ${status} is designed`);
  }
  t.true(
    (report.byStatus['200'] ?? 0) > 0 && (report.byStatus['500'] ?? 0) > 0 && (report.byStatus['400'] ?? 0) > 0,
    'the cases reach success, faults and refusals',
  );
  t.true(Object.values(report.faults).reduce((a, b) => a + b, 0) > 0, 'SOAP faults were checked');
  t.true(report.childAlive, 'the service is alive');
  t.is(report.afterRun, 'ok', 'a valid Pair and ValidatePin succeed after the run');
});
