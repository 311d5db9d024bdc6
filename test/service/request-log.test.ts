/**
 * The runtime's request log line (test/runtime/request-log.test.ts) written
 * through the service's own logger (src/service/observability/logger.ts,
 * its time formatted once a millisecond): the same keys in the same order,
 * as the *Logs* section of docs/operations.md shows them.
 */
import test from 'ava';
import { requestLogger } from '../../src/runtime/request-log';
import { createLogger } from '../../src/service/observability/logger';

test('level and time first, then event and the fields in order; an ISO time of now', (t) => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const fields = {
    id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
    method: 'GET',
    path: '/api.asmx/:operation',
    variant: 'httpGet',
    operation: 'ValidatePin',
    status: 200,
    outcome: 'wrong',
    ms: 0.412,
  };
  requestLogger(logger)(fields);
  t.is(lines.length, 1);
  const parsed = JSON.parse(lines[0]) as Record<string, unknown>;
  t.deepEqual(Object.keys(parsed), ['level', 'time', 'event', ...Object.keys(fields)]);
  t.like(parsed, { level: 30, event: 'request', ...fields });
  t.regex(parsed.time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.true(Math.abs(Date.parse(parsed.time as string) - Date.now()) < 60_000);
});
