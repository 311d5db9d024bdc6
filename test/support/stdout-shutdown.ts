/**
 * SIGTERM to the service as a child process whose stdout is a closed pipe or
 * a pipe nobody reads, under a bounded load of GET ValidatePin calls: shared
 * by test/service/log-output.test.ts and the Redis suite.
 */
import type { ExecutionContext } from 'ava';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildService, type ChildService } from './child-service';

/** Concurrent callers of the load. */
const CLIENTS = 8;

/** GET ValidatePin calls from `clients` keep-alive-less loops until `total` have been answered; resolves with the statuses. */
export async function load(port: number, total: number, clients = CLIENTS): Promise<{ statuses: Map<number | string, number> }> {
  const statuses = new Map<number | string, number>();
  let started = 0;
  const one = (i: number) =>
    new Promise<number | string>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: `/api.asmx/ValidatePin?pin=000000&secretCode=log-output-secret-${i}`, timeout: 10_000 },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      req.end();
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (started < total) {
        const status = await one(started++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return { statuses };
}

export async function sigtermWithStdout(t: ExecutionContext, stdout: 'closed' | 'unread', args: string[] = []): Promise<void> {
  const service: ChildService = await startChildService({ args: [...args, '--log-level', 'info'], stdout });
  try {
    // Enough request lines to fill a pipe many times over (about 200 bytes each).
    const first = await load(service.port, 2000);
    t.deepEqual([...first.statuses], [[200, 2000]], 'every call before SIGTERM was answered');
    t.true(service.alive());
    const during = load(service.port, 3000);
    await sleep(200);
    const sigtermAt = Date.now();
    service.child.kill('SIGTERM');
    const exit = await Promise.race([service.exited, sleep(12_000).then(() => undefined)]);
    const exitedAfterMs = Date.now() - sigtermAt;
    const last = await during;
    t.log(
      `exit ${JSON.stringify(exit)} ${exitedAfterMs} ms after SIGTERM; calls during it: ${JSON.stringify([...last.statuses])}; stderr: ${JSON.stringify(service.output())}`,
    );
    t.deepEqual(exit, { code: 0, signal: null }, 'SIGTERM ended the process, exit 0');
    t.true(exitedAfterMs < 10_000, 'within the grace period');
    // With --workers each worker thread closes its own listener, and a connection made after SIGTERM
    // that the kernel had queued on it is reset (no call was in flight on it): at most one per client,
    // as in test/service/shutdown.test.ts.
    const resetsAllowed = args.includes('--workers') ? CLIENTS : 0;
    const unexpected = [...last.statuses].filter(
      ([status, count]) => status !== 200 && status !== 'ECONNREFUSED' && !(status === 'ECONNRESET' && count <= resetsAllowed),
    );
    t.deepEqual(unexpected, [], 'calls during the stop were answered or refused, never broken');
    const notices = service
      .output()
      .split('\n')
      .filter((l) => l.startsWith('pin-service: '));
    // Once per logger: the main thread and each worker thread write their own log lines.
    const loggers = args.includes('--workers') ? Number(args[args.indexOf('--workers') + 1]) + 1 : 1;
    t.true(notices.length <= loggers, `stderr says it at most once per logger (${loggers})`);
    if (stdout === 'closed') t.regex(notices[0] ?? '', /^pin-service: cannot write the log \(EPIPE\); log lines are dropped/);
    t.notRegex(service.output(), /Error|at \w+ \(/, 'no error or stack trace on stderr');
  } finally {
    await service.kill();
  }
}
