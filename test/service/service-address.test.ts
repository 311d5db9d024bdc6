/**
 * Where is the service? `/` sends a person to the service page, and the
 * start-up line gives the address to open.
 */
import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressToOpen } from '../../src/service/cli/commands';
import { startChildService } from '../support/child-service';
import { startTestService, type TestService } from '../support/service';

let plain: TestService;
let published: TestService; // behind a public URL with a path prefix

test.before(async () => {
  [plain, published] = await Promise.all([startTestService(), startTestService({ publicUrl: 'https://pins.example.com/auth' })]);
});

test.after.always(async () => {
  await Promise.all([plain, published].filter(Boolean).map((s) => s.close()));
});

test('GET / redirects to the service page, relative, so that it works under any path prefix', async (t) => {
  const answer = await fetch(`${plain.url}/`, { redirect: 'manual' });
  t.is(answer.status, 302);
  t.is(answer.headers.get('location'), 'api.asmx');
  t.is(new URL(answer.headers.get('location')!, 'https://proxy.example.com/pins/').href, 'https://proxy.example.com/pins/api.asmx');
  const followed = await fetch(`${plain.url}/`);
  t.is(followed.url, `${plain.url}/api.asmx`);
  t.is(followed.status, 200);
  t.regex(followed.headers.get('content-type') ?? '', /^text\/html/);
  t.true((await followed.text()).includes('ValidatePin'), 'the service page lists the operations');
});

test('GET / with a public URL redirects to the public service page', async (t) => {
  const answer = await fetch(`${published.url}/`, { redirect: 'manual' });
  t.is(answer.status, 302);
  t.is(answer.headers.get('location'), 'https://pins.example.com/auth/api.asmx');
});

test('GET / is logged as its own path, not as an unserved one', async (t) => {
  await fetch(`${plain.url}/`, { redirect: 'manual', headers: { 'X-Request-Id': 'root-redirect-1' } });
  const line = plain
    .logs()
    .split('\n')
    .find((l) => l.includes('"root-redirect-1"'));
  t.truthy(line);
  t.like(JSON.parse(line!), { path: '/', status: 302 });
});

test('the address to open is localhost when listening on every interface, else the address itself', (t) => {
  t.is(addressToOpen('http://0.0.0.0:8080'), 'http://localhost:8080');
  t.is(addressToOpen('http://[::]:9000'), 'http://localhost:9000');
  t.is(addressToOpen('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  t.is(addressToOpen('http://[::1]:8080'), 'http://[::1]:8080');
});

test('the start-up line gives the service page to open, and that page answers', async (t) => {
  const service = await startChildService({ args: ['--log-level', 'info'] });
  t.teardown(() => service.kill());
  // Logs are written asynchronously: wait (bounded) for the line.
  const listeningLine = () =>
    service
      .output()
      .split('\n')
      .find((l) => l.includes('"event":"listening"'));
  for (let i = 0; i < 100 && !listeningLine(); i++) await sleep(50);
  const line = listeningLine();
  t.truthy(line, service.output());
  const entry = JSON.parse(line!) as { url: string; msg: string };
  t.is(entry.url, `http://127.0.0.1:${service.port}/api.asmx`);
  t.true(entry.msg.includes(entry.url), 'the message says it too');
  const page = await fetch(entry.url);
  t.is(page.status, 200);
  t.true((await page.text()).includes('Pair'));
});
