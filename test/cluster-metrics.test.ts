/**
 * `--workers 2`: /metrics answers for the whole service, whichever worker
 * takes the scrape: the primary sums every worker's registry (prom-client's
 * AggregatorRegistry), so counters never jump between one worker's share
 * and another's.
 */
import test from 'ava';
import { Agent, request } from 'node:http';
import { startChildService } from './support/child-service';

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
  const service = await startChildService({ args: ['--workers', '2', '--log-level', 'info'], listening: 2 });
  const agents: Agent[] = [];
  try {
    // A fresh connection per call: the primary hands connections to the workers in turn.
    const CALLS = 40;
    for (let i = 0; i < CALLS; i++) {
      const agent = new Agent({ keepAlive: false });
      agents.push(agent);
      const answer = await get(service.port, `/api.asmx/Pair?appName=C&appInfo=a%40b.c&secretCode=cluster-metrics-secret-${i}`, agent);
      t.is(answer.status, 200);
    }
    for (let scrape = 0; scrape < 6; scrape++) {
      const agent = new Agent({ keepAlive: false });
      agents.push(agent);
      const answer = await get(service.port, '/metrics', agent);
      t.is(answer.status, 200);
      t.is(pairCount(answer.text), CALLS, `scrape ${scrape} sums both workers`);
      t.regex(answer.text, /^# TYPE pin_store_errors_total counter$/m);
      // The embedded store's own metrics come from the primary that holds it, once.
      t.is(answer.text.match(/^# TYPE pin_store_entries gauge$/gm)?.length, 1);
      t.regex(answer.text, /^pin_store_evictions_total\{kind="protective"\} 0$/m);
    }
  } finally {
    for (const agent of agents) agent.destroy();
    await service.kill();
  }
});
