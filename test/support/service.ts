/** Starts the service in-process on a free loopback port, with a fake clock and captured logs. */
import { Writable } from 'node:stream';
import { defaultConfig, type Config } from '../../src/service/config';
import { createLogger } from '../../src/service/observability/logger';
import { startService, type RunningService } from '../../src/service/server';

export interface TestService extends RunningService {
  config: Config;
  /** Every log line written so far, as text. */
  logs(): string;
  /** The service's clock, in milliseconds; tests may set it. */
  clock: { now: () => number; set(ms: number): void };
}

export async function startTestService(overrides: Partial<Config> = {}): Promise<TestService> {
  // The volatile store unless a test names another: in-process services never write a state directory.
  const config: Config = { ...defaultConfig(), host: '127.0.0.1', port: 0, logLevel: 'info', store: 'memory', ...overrides };
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  let nowMs = Date.now();
  const clock = {
    now: () => nowMs,
    set: (ms: number) => {
      nowMs = ms;
    },
  };
  const logger = createLogger(config.logLevel, sink);
  const service = await startService(config, logger, clock);
  return { ...service, config, clock, logs: () => lines.join('') };
}
