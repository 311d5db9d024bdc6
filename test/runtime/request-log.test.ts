/**
 * The request log line (src/runtime/request-log.ts), through a logger set as
 * the runtime's host sets it: the keys, their order and their values that
 * log readers and the *Logs* section of docs/operations.md rely on; and the
 * line a call of the temperature fixture contract gets from the middleware
 * (its request id, the route's pattern and never the path asked for).
 */
import test from 'ava';
import pino from 'pino';
import { requestLogger, type RequestLogFields } from '../../src/runtime/request-log';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../support/fixture-contract';

function capture(level: pino.Level = 'info') {
  const lines: string[] = [];
  const logger = pino(
    { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    { write: (line: string) => void lines.push(line) },
  );
  return { logger, lines };
}

const CASES: RequestLogFields[] = [
  {
    id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    method: 'GET',
    path: '/TempConvert.asmx/:operation',
    variant: 'httpGet',
    operation: 'CelsiusToFahrenheit',
    status: 200,
    outcome: 'ok',
    ms: 0.412,
  },
  {
    id: 'caller.id:42-x',
    method: 'POST',
    path: '/TempConvert.asmx',
    variant: 'soap12',
    operation: 'FahrenheitToCelsius',
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
  t.is(parsed.operation, 'CelsiusToFahrenheit');
});

let temperature: FixtureContract;
let served: ServedFixture;
test.before(async () => {
  temperature = await generateFixture('temperature');
  served = await serveFixture(temperature.definition);
});
test.after.always(async () => {
  await served?.close();
  temperature?.remove();
});

const requestLines = () => served.lines().filter((l) => l.event === 'request');

test('a call’s line: the route’s pattern, never the path or query asked for; the caller’s request id when it is a plain token', async (t) => {
  const answer = await fetch(`${served.endpoint}/CelsiusToFahrenheit?Celsius=37`, { headers: { 'X-Request-Id': 'caller.id:42-x' } });
  t.is(answer.status, 200);
  t.is(answer.headers.get('x-request-id'), 'caller.id:42-x');
  const line = requestLines().find((l) => l.id === 'caller.id:42-x');
  t.like(line, {
    method: 'GET',
    path: '/TempConvert.asmx/:operation',
    variant: 'httpGet',
    operation: 'CelsiusToFahrenheit',
    status: 200,
    outcome: 'ok',
  });
  t.false(JSON.stringify(line).includes('Celsius=37'), 'no query string');
  t.is(typeof line?.ms, 'number');
});

test('a request id that is no plain token is replaced by a new one, sent back; a path no route takes is `(other)`', async (t) => {
  const answer = await fetch(`${served.url}/no/such/path?Celsius=37`, { headers: { 'X-Request-Id': 'not a token' } });
  t.is(answer.status, 404);
  const id = answer.headers.get('x-request-id') ?? '';
  t.regex(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.like(
    requestLines().find((l) => l.id === id),
    { method: 'GET', path: '(other)', status: 404, outcome: 'refused' },
  );
  t.false(
    served.lines().some((l) => JSON.stringify(l).includes('no/such')),
    'the path asked for is in no line',
  );
});
