/** The command line: `pin-service [serve|secret|pair] [options]`, run once src/service/main.ts has checked the runtime. */
import { parentPort } from 'node:worker_threads';
import { describeFailure, runCommand } from './commands';
import { serve, workerThread } from './serve';
import type { FromWorkerThread } from './workers';

async function main(argv: string[]): Promise<void> {
  const io = { out: (t: string) => console.log(t), err: (t: string) => console.error(t) };
  const code = await runCommand(argv, io);
  if (code !== undefined) process.exit(code);
  await serve(argv[0] === 'serve' ? argv.slice(1) : argv, process.argv[1]);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = describeFailure(error);
  // Start-up failures (a port in use, say) hold no request data: their message is safe to show.
  const text = `pin-service: ${usage ?? (error as Error)?.message ?? 'failed to start'}`;
  const code = usage ? 2 : 1;
  // A worker thread's main thread says it and stops the process (this thread's stderr might not reach it before exit).
  if (workerThread && parentPort) parentPort.postMessage({ kind: 'pin-start-failed', text, code } satisfies FromWorkerThread);
  else console.error(text);
  process.exit(code);
});
