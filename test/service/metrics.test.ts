/**
 * The operations surface: /healthz, /readyz, /metrics (Prometheus text,
 * prom-client, on the management port; on the public port only when asked)
 * and request ids in answers and logs. Counters move as expected after
 * accepted, wrong, refused, throttled and replayed calls and after a store
 * error; no label value ever holds a secret or a PIN.
 */
import test from 'ava';
import { freePort } from '../support/ports';
import { call, pinFor, wrongPinFor } from '../support/requests';
import { SOAP_CONTENT_TYPES } from '../support/xml-assertions';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
test.before(async () => {
  service = await startTestService({ managementPort: 0 });
});
test.after.always(async () => {
  await service?.close({ idleGraceMs: 0 });
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (the subset prom-client writes). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

async function scrape(s: TestService = service): Promise<{ text: string; samples: Sample[]; contentType: string }> {
  const response = await fetch(`${s.managementUrl}/metrics`);
  const text = await response.text();
  return { text, samples: parseExposition(text), contentType: response.headers.get('content-type') ?? '' };
}

/** The value of one sample (0 when absent): labels must match exactly those given. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels);
  const found = samples.find(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).filter((k) => k !== 'le').length === want.length &&
      want.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { headers });

test.serial('/metrics is Prometheus text with every metric of the service, described', async (t) => {
  const { text, contentType } = await scrape();
  t.regex(contentType, /^text\/plain; version=0\.0\.4/);
  for (const [name, type] of [
    ['pin_requests_total', 'counter'],
    ['pin_request_duration_seconds', 'histogram'],
    ['pin_replay_rejections_total', 'counter'],
    ['pin_throttled_total', 'counter'],
    ['pin_store_errors_total', 'counter'],
    ['pin_store_entries', 'gauge'],
    ['pin_store_evictions_total', 'counter'],
    ['pin_store_refusals_total', 'counter'],
    ['pin_audit_events_total', 'counter'],
    ['pin_audit_file_failures_total', 'counter'],
    ['pin_audit_lines_dropped_total', 'counter'],
  ]) {
    t.regex(text, new RegExp(`^# HELP ${name} \\S`, 'm'), `${name} has a HELP line`);
    t.regex(text, new RegExp(`^# TYPE ${name} ${type}$`, 'm'), `${name} is a ${type}`);
  }
  // prom-client's process metrics, under the service's prefix.
  t.regex(text, /^pin_process_resident_memory_bytes \d+/m);
  t.regex(text, /^pin_nodejs_eventloop_lag_seconds /m);
});

test.serial('an ok call, a client error and an unknown path count by operation, variant and outcome; latency is observed', async (t) => {
  const before = (await scrape()).samples;
  t.is((await get('/api.asmx/Pair?appName=Shop&appInfo=a%40example.com&secretCode=metrics-secret-0001')).status, 200);
  t.is((await get('/api.asmx/ValidatePin?pin=123456')).status, 400);
  t.is((await get('/no/such/page')).status, 404);
  const after = (await scrape()).samples;
  const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);

  t.is(delta('pin_requests_total', { operation: 'Pair', variant: 'httpGet', outcome: 'ok' }), 1);
  t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpGet', outcome: 'client' }), 1);
  t.is(delta('pin_requests_total', { operation: 'none', variant: 'none', outcome: 'refused' }), 1);
  t.is(delta('pin_request_duration_seconds_count', { operation: 'Pair', variant: 'httpGet' }), 1);
  t.true(delta('pin_request_duration_seconds_sum', { operation: 'Pair', variant: 'httpGet' }) > 0);
  const infBucket = after.find(
    (s) =>
      s.name === 'pin_request_duration_seconds_bucket' &&
      s.labels.operation === 'Pair' &&
      s.labels.variant === 'httpGet' &&
      s.labels.le === '+Inf',
  );
  t.is(infBucket?.value, value(after, 'pin_request_duration_seconds_count', { operation: 'Pair', variant: 'httpGet' }));
});

test.serial('/metrics is on the management port only, unless --metrics-on-public-port; /healthz and /readyz on both', async (t) => {
  t.is((await get('/metrics')).status, 404, 'not on the public port');
  for (const path of ['/healthz', '/readyz']) t.is((await fetch(`${service.managementUrl}${path}`)).status, 200, path);
  t.is((await fetch(`${service.managementUrl}/admin/secrets/0123456789abcdef01`)).status, 404, 'no admin endpoints without a token file');
  const both = await startTestService({ metricsOnPublicPort: true });
  try {
    t.is(both.managementUrl, undefined, 'no management port unless asked');
    const answer = await fetch(`${both.url}/metrics`);
    t.is(answer.status, 200);
    t.regex(await answer.text(), /^# TYPE pin_requests_total counter$/m);
  } finally {
    await both.close({ idleGraceMs: 0 });
  }
});

test.serial(
  'a replayed PIN moves pin_replay_rejections_total; throttled calls move pin_throttled_total and outcome="throttled"',
  async (t) => {
    const before = (await scrape()).samples;
    const replayed = 'metrics-replay-secret-01';
    const pin = pinFor(service, replayed);
    const first = await get(`/api.asmx/ValidatePin?pin=${pin}&secretCode=${replayed}`);
    t.regex(await first.text(), />true</);
    const second = await get(`/api.asmx/ValidatePin?pin=${pin}&secretCode=${replayed}`);
    t.regex(await second.text(), />false</);

    const throttled = 'metrics-throttle-secret-1';
    const wrong = wrongPinFor(service, throttled);
    for (let i = 0; i < 5; i++) t.is((await get(`/api.asmx/ValidatePin?pin=${wrong}&secretCode=${throttled}`)).status, 200);
    const refused = await call(service, 'httpPost', 'ValidatePin', { pin: pinFor(service, throttled), secretCode: throttled });
    t.is(refused.status, 429);

    const after = (await scrape()).samples;
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    t.is(delta('pin_replay_rejections_total'), 1);
    t.is(delta('pin_throttled_total'), 1);
    t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpPost', outcome: 'throttled' }), 1);
    t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpGet', outcome: 'accepted' }), 1);
    t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpGet', outcome: 'replay' }), 1);
    t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpGet', outcome: 'wrong' }), 5);
    t.is(
      delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpGet', outcome: 'ok' }),
      0,
      'a ValidatePin answer says which',
    );
    for (const [outcome, count] of [
      ['accepted', 1],
      ['replay', 1],
      ['wrong', 5],
      ['locked', 1],
      ['throttled', 1],
    ] as const) {
      t.is(delta('pin_audit_events_total', { outcome }), count, `audit lines ${outcome}`);
    }
    t.is(delta('pin_store_errors_total'), 0);
  },
);

test.serial('no label value holds a secret, a PIN or anything else from a request', async (t) => {
  const secret = 'metrics-label-secret-77';
  const pin = pinFor(service, secret);
  await get(`/api.asmx/ValidatePin?pin=${pin}&secretCode=${secret}`);
  await get(`/api.asmx/${secret}?pin=${pin}`);
  await fetch(`${service.url}/api.asmx`, {
    method: 'POST',
    headers: { 'Content-Type': `text/xml; charset=utf-8`, SOAPAction: secret },
    body: `<${secret}/>`,
  });
  await get(`/${secret}/${pin}`, { 'X-Request-Id': secret });
  const { samples, text } = await scrape();
  t.false(text.includes(secret));
  t.false(text.includes('metrics-replay-secret') || text.includes('metrics-throttle-secret'));
  const allowed: Record<string, RegExp> = {
    operation: /^(Pair|ValidatePin|none)$/,
    variant: /^(soap11|soap12|httpGet|httpPost|json|page|none)$/,
    outcome:
      /^(ok|accepted|wrong|replay|refused|client|throttled|unavailable|server|too-large|unsupported-media-type|not-found|method-not-allowed|version-mismatch|must-understand)$/,
  };
  for (const s of samples.filter((x) => x.name.startsWith('pin_request'))) {
    for (const [label, v] of Object.entries(s.labels)) {
      if (label === 'le') continue;
      t.regex(v, allowed[label] ?? /^$/, `${s.name}{${label}} comes from the service's own vocabulary`);
      t.false(v.includes(pin));
    }
  }
});

test.serial('X-Request-Id: a plain token is echoed, anything else replaced by a new id; the id is in the request log line', async (t) => {
  const given = await get('/healthz', { 'X-Request-Id': 'req-1234.abc:XYZ_9' });
  t.is(given.headers.get('x-request-id'), 'req-1234.abc:XYZ_9');

  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const absent = await get('/healthz');
  t.regex(absent.headers.get('x-request-id') ?? '', uuid);
  for (const bad of ['has space', 'x'.repeat(65), 'semi;colon', 'quote"d', 'pin=123456&secretCode=abc']) {
    const answer = await get('/healthz', { 'X-Request-Id': bad });
    const id = answer.headers.get('x-request-id') ?? '';
    t.regex(id, uuid, `${JSON.stringify(bad)} is replaced`);
  }
  const secret = 'metrics-log-secret-555';
  const traced = await get(`/api.asmx/ValidatePin?pin=000000&secretCode=${secret}`, { 'X-Request-Id': 'trace-me-42' });
  t.is(traced.headers.get('x-request-id'), 'trace-me-42');
  const soapFault = await fetch(`${service.url}/api.asmx`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml; charset=utf-8', 'X-Request-Id': 'trace-me-43' },
    body: '<not-soap/>',
  });
  t.is(soapFault.status, 500);
  t.is(soapFault.headers.get('x-request-id'), 'trace-me-43');

  const lines = service
    .logs()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const line = lines.find((l) => l.event === 'request' && l.id === 'trace-me-42');
  t.truthy(line, 'the request log line carries the caller id');
  t.like(line, {
    method: 'GET',
    path: '/api.asmx/:operation',
    variant: 'httpGet',
    operation: 'ValidatePin',
    status: 200,
    outcome: 'wrong',
  });
  t.is(typeof line?.ms, 'number');
  t.truthy(
    lines.find((l) => l.event === 'refused' && l.id === 'trace-me-43'),
    'an error log line carries the id too',
  );
  t.truthy(lines.find((l) => l.event === 'request' && l.id === 'trace-me-43' && l.outcome === 'client'));
  t.true(
    lines
      .filter((l) => l.event === 'request')
      .every((l) => typeof l.id === 'string' && typeof l.time === 'string' && typeof l.level === 'number'),
  );
  const all = service.logs();
  t.false(all.includes(secret), 'no secret in the logs');
  t.false(all.includes('secretCode='), 'no query string in the logs');
});

test.serial('the path logged is the route that matched, or (other): a secret sent in the path stays out of the logs', async (t) => {
  const secret = 'metrics-path-secret-31';
  t.is((await get(`/api.asmx/ValidatePin&secretCode=${secret}`, { 'X-Request-Id': 'path-1' })).status, 404);
  t.is((await get(`/${secret}`, { 'X-Request-Id': 'path-2' })).status, 404);
  t.is((await get('/API.ASMX/validatepin/?pin=1', { 'X-Request-Id': 'path-3' })).status, 400);
  t.is((await fetch(`${service.url}/Healthz`, { method: 'POST', headers: { 'X-Request-Id': 'path-4' } })).status, 405);
  const lines = service
    .logs()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const pathOf = (id: string) => lines.find((l) => l.event === 'request' && l.id === id)?.path;
  t.is(pathOf('path-1'), '/api.asmx/:operation', 'the route, not the path');
  t.is(pathOf('path-2'), '(other)');
  t.is(pathOf('path-3'), '/api.asmx/:operation', 'any spelling the router takes');
  t.is(pathOf('path-4'), '/healthz', 'a route whose path matched, by another method');
  t.false(service.logs().includes(secret));
});

test.serial('/healthz and /readyz answer 200 with the embedded store, never cached', async (t) => {
  for (const path of ['/healthz', '/readyz']) {
    const answer = await get(path);
    t.is(answer.status, 200, path);
    t.is(answer.headers.get('cache-control'), 'no-store');
  }
});

test('a store that cannot be reached: ValidatePin fails closed, pin_store_errors_total and outcome="unavailable" move, /readyz 503, /healthz 200', async (t) => {
  const closedPort = await freePort(); // nothing listens there
  const broken = await startTestService({ store: `redis://127.0.0.1:${closedPort}`, managementPort: 0 });
  try {
    const before = (await scrape(broken)).samples;
    const secret = 'metrics-store-secret-9';
    const answer = await fetch(`${broken.url}/api.asmx/ValidatePin?pin=${pinFor(broken, secret)}&secretCode=${secret}`);
    t.is(answer.status, 503);
    t.false((await answer.text()).includes(secret));
    const soap = await call(
      broken,
      'soap12',
      'ValidatePin',
      { pin: '123456', secretCode: secret },
      { contentType: SOAP_CONTENT_TYPES['1.2'] },
    );
    t.is(soap.status, 500);
    t.regex(soap.body, /soap:Receiver/);
    for (const url of [broken.url, broken.managementUrl]) {
      t.is((await fetch(`${url}/readyz`)).status, 503);
      t.is((await fetch(`${url}/healthz`)).status, 200);
    }
    const after = (await scrape(broken)).samples;
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    t.is(delta('pin_store_errors_total'), 2);
    t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'httpGet', outcome: 'unavailable' }), 1);
    t.is(delta('pin_requests_total', { operation: 'ValidatePin', variant: 'soap12', outcome: 'unavailable' }), 1);
    t.regex(broken.logs(), /"event":"store-unreachable"/);
    // Each fail-closed error line names its cause.
    const errors = broken
      .logs()
      .split('\n')
      .filter((line) => line.includes('"kind":"unavailable"'));
    t.is(errors.length, 2);
    for (const line of errors) t.regex(line, /"cause":"not connected to the Redis store \((connecting|reconnecting|close|end|wait)\)"/);
    t.false(broken.logs().includes(secret));
  } finally {
    await broken.close({ idleGraceMs: 0 });
  }
});
