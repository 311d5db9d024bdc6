/**
 * `--workers 2`: /metrics answers for the whole service, whichever worker
 * thread takes the scrape (on the management port, where each listens): the main thread sums every worker thread's
 * registry (prom-client's AggregatorRegistry), so counters never jump
 * between one thread's share and another's, and the store's table, which
 * they share, is counted once.
 */
import test from 'ava';
import { Agent, request } from 'node:http';
import { startChildService } from '../support/child-service';
import { freePort } from '../support/ports';

function get(port: number, path: string, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer')));
    req.on('error', reject);
    req.end();
  });
}

const pairCount = (text: string) =>
  Number(/^pin_requests_total\{operation="Pair",variant="httpGet",outcome="ok"\} (\d+)/m.exec(text)?.[1] ?? 'NaN');

test('with --workers 2, every scrape counts the calls of both workers', async (t) => {
  const managementPort = await freePort();
  const service = await startChildService({
    args: ['--workers', '2', '--log-level', 'info', '--management-port', String(managementPort)],
    listening: 2,
  });
  const agents: Agent[] = [];
  try {
    // A fresh connection per call: the kernel spreads connections over the threads' listeners (SO_REUSEPORT).
    const CALLS = 40;
    for (let i = 0; i < CALLS; i++) {
      const agent = new Agent({ keepAlive: false });
      agents.push(agent);
      const answer = await get(service.port, `/api.asmx/Pair?appName=C&appInfo=a%40b.c&secretCode=cluster-metrics-secret-${i}`, agent);
      t.is(answer.status, 200);
      // A wrong PIN for a secret of its own: one entry in the store per call.
      const wrong = await get(service.port, `/api.asmx/ValidatePin?pin=000000&secretCode=cluster-metrics-secret-${i}`, agent);
      t.is(wrong.status, 200);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const threads = new Set([...service.output().matchAll(/"thread":(\d+).*"operation":"Pair"/g)].map((match) => match[1]));
    t.is(threads.size, 2, 'both worker threads answered calls');
    for (let scrape = 0; scrape < 6; scrape++) {
      const agent = new Agent({ keepAlive: false });
      agents.push(agent);
      // The management port, on which both worker threads listen too.
      const answer = await get(managementPort, '/metrics', agent);
      t.is(answer.status, 200);
      t.is(pairCount(answer.text), CALLS, `scrape ${scrape} sums both workers`);
      t.regex(answer.text, /^# TYPE pin_store_errors_total counter$/m);
      // The embedded store's own metrics: once, and its size that of the one table.
      t.is(answer.text.match(/^# TYPE pin_store_entries gauge$/gm)?.length, 1);
      t.regex(answer.text, new RegExp(`^pin_store_entries ${CALLS}$`, 'm'));
      t.regex(answer.text, /^pin_nodejs_version_info\{version="v24\./m, 'the process metrics, once for the process');
      t.is(answer.text.match(/^# TYPE pin_process_cpu_seconds_total counter$/gm)?.length, 1);
      t.regex(answer.text, /^pin_store_evictions_total\{kind="protective"\} 0$/m);
    }
  } finally {
    for (const agent of agents) agent.destroy();
    await service.kill();
  }
});
