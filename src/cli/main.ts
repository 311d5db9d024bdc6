/** The command line: `pin-service [serve|secret|pair] [options]`, run once src/main.ts has checked the runtime. */
import { describeFailure, runCommand } from './commands';
import { serve } from './serve';

async function main(argv: string[]): Promise<void> {
  const io = { out: (t: string) => console.log(t), err: (t: string) => console.error(t) };
  const code = await runCommand(argv, io);
  if (code !== undefined) process.exit(code);
  await serve(argv[0] === 'serve' ? argv.slice(1) : argv);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = describeFailure(error);
  // Start-up failures (a port in use, say) hold no request data: their message is safe to show.
  console.error(`pin-service: ${usage ?? (error as Error)?.message ?? 'failed to start'}`);
  process.exit(usage ? 2 : 1);
});
