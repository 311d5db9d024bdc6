/**
 * The request log line is built from a fixed template (src/observability/request-log.ts):
 * it must be the very line pino would write for the same fields.
 */
import test from 'ava';
import { createLogger } from '../src/observability/logger';
import { requestLogger, type RequestLogFields } from '../src/observability/request-log';

function capture(level: Parameters<typeof createLogger>[0] = 'info') {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const CASES: RequestLogFields[] = [
  { id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', method: 'GET', path: '/api.asmx/ValidatePin', variant: 'httpGet', operation: 'ValidatePin', status: 200, outcome: 'ok', ms: 0.412 },
  { id: 'caller.id:42-x', method: 'POST', path: '/api.asmx', variant: 'soap12', operation: 'Pair', status: 500, outcome: 'refused', ms: 12 },
  { id: 'abc', method: 'GET', path: '(other)', status: 404, outcome: 'refused', ms: 0 },
  { id: 'abc', method: 'GET', path: '/healthz', variant: undefined, operation: undefined, status: 200, outcome: 'ok', ms: 1e-3 },
  // Values outside the plain vocabulary are escaped as JSON.stringify does.
  { id: 'quote"back\\slash', method: 'M-SEARCH', path: '/é\u0001\u2028', variant: 'a b', operation: '<x>', status: 400, outcome: 'throttled', ms: 3.5 },
];

for (const [i, fields] of CASES.entries()) {
  test(`case ${i}: the same line as pino's, byte for byte apart from the time`, (t) => {
    const ours = capture();
    const pinos = capture();
    requestLogger(ours.logger)(fields);
    pinos.logger.info({ event: 'request', ...fields });
    t.is(ours.lines.length, 1);
    t.is(pinos.lines.length, 1);
    const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    t.is(withoutTime(ours.lines[0]), withoutTime(pinos.lines[0]));
    const parsed = JSON.parse(ours.lines[0]) as { time: string; level: number };
    t.true(Math.abs(Date.parse(parsed.time) - Date.now()) < 60_000, 'an ISO time of now');
    t.true(ours.lines[0].endsWith('}\n'));
  });
}

test('nothing is written below level info, and a line is written again once the level allows it', (t) => {
  const { logger, lines } = capture('warn');
  const log = requestLogger(logger);
  log(CASES[0]);
  t.deepEqual(lines, []);
  logger.level = 'debug';
  log(CASES[0]);
  t.is(lines.length, 1);
});

test('a duration that is not a finite number is written as null, as pino does', (t) => {
  const ours = capture();
  const pinos = capture();
  requestLogger(ours.logger)({ ...CASES[0], ms: Number.NaN });
  pinos.logger.info({ event: 'request', ...CASES[0], ms: Number.NaN });
  t.is(JSON.parse(ours.lines[0]).ms, null);
  t.is(JSON.parse(ours.lines[0]).ms, JSON.parse(pinos.lines[0]).ms);
});
