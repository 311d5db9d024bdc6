/** A real redis-server for tests, on a free loopback port, without persistence. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Fails loudly when redis-server is missing: `make test-all` needs it (installed by .ci/run). */
export function requireRedisServer(): void {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (see .ci/run)');
  }
}

export async function startRedis(): Promise<TestRedis> {
  requireRedisServer();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100; i++) {
      const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
      if (ping.stdout?.trim() === 'PONG') return;
      await sleep(50);
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}
