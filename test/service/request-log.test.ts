/**
 * The request log line (src/runtime/request-log.ts): the keys, their
 * order and their values that log readers and the *Logs* section of docs/operations.md rely on.
 */
import test from 'ava';
import pino from 'pino';
import { createLogger } from '../../src/service/observability/logger';
import { requestLogger, type RequestLogFields } from '../../src/runtime/request-log';

function capture(level: Parameters<typeof createLogger>[0] = 'info') {
  const lines: string[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

const CASES: RequestLogFields[] = [
  {
    id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    method: 'GET',
    path: '/api.asmx/ValidatePin',
    variant: 'httpGet',
    operation: 'ValidatePin',
    status: 200,
    outcome: 'ok',
    ms: 0.412,
  },
  {
    id: 'caller.id:42-x',
    method: 'POST',
    path: '/api.asmx',
    variant: 'soap12',
    operation: 'Pair',
    status: 500,
    outcome: 'refused',
    ms: 12,
  },
  { id: 'abc', method: 'GET', path: '(other)', status: 404, outcome: 'refused', ms: 0 },
  { id: 'abc', method: 'GET', path: '/healthz', variant: undefined, operation: undefined, status: 200, outcome: 'ok', ms: 1e-3 },
  {
    id: 'quote"back\\slash',
    method: 'M-SEARCH',
    path: '/é\u0001\u2028',
    variant: 'a b',
    operation: '<x>',
    status: 400,
    outcome: 'throttled',
    ms: 3.5,
  },
];

for (const [i, fields] of CASES.entries()) {
  test(`case ${i}: one JSON line, level and time first, then event and the fields in order, absent ones left out`, (t) => {
    const { logger, lines } = capture();
    requestLogger(logger)(fields);
    t.is(lines.length, 1);
    t.true(lines[0].endsWith('}\n'));
    t.false(lines[0].slice(0, -1).includes('\n'), 'one line, whatever the values hold');
    const parsed = JSON.parse(lines[0]) as Record<string, unknown>;
    const present = Object.entries(fields).filter(([, value]) => value !== undefined);
    t.deepEqual(Object.keys(parsed), ['level', 'time', 'event', ...present.map(([key]) => key)]);
    t.is(parsed.level, 30);
    t.is(parsed.event, 'request');
    for (const [key, value] of present) t.is(parsed[key], value, key);
    t.true(Math.abs(Date.parse(parsed.time as string) - Date.now()) < 60_000, 'an ISO time of now');
    t.regex(parsed.time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
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

test('a duration that is not a finite number is written as null', (t) => {
  const { logger, lines } = capture();
  requestLogger(logger)({ ...CASES[0], ms: Number.NaN });
  t.is(JSON.parse(lines[0]).ms, null);
});

test("the logger's own settings apply to the request line: a redacted field is redacted", (t) => {
  const lines: string[] = [];
  const logger = pino({ base: undefined, redact: ['path'] }, { write: (line: string) => void lines.push(line) });
  requestLogger(logger)(CASES[0]);
  const parsed = JSON.parse(lines[0]) as Record<string, unknown>;
  t.is(parsed.path, '[Redacted]');
  t.is(parsed.operation, 'ValidatePin');
});
