/**
 * Run as a child process (node --expose-gc --import=tsx) by hardening.test.ts:
 * starts the service, makes SOAP calls with garbage collections between
 * them, and prints `done <answered>` on stdout. libxml2 reports invalid frees
 * on stderr, which only a separate process lets the test read.
 */
import { startTestService } from './service';
import { pinFor, validatePin, type Variant } from './requests';

const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const service = await startTestService({ throttleAttempts: 0, logLevel: 'silent' });
  let answered = 0;
  for (let round = 0; round < 10; round++) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const variant: Variant = i % 2 === 0 ? 'soap11' : 'soap12';
        const secret = `gc-child-secret-${round}-${i}`;
        return validatePin(service.url, variant, pinFor(service, secret), secret);
      }),
    );
    answered += answers.filter((a) => a.status === 200).length;
    gc();
  }
  await service.close();
  gc();
  process.stdout.write(`done ${answered}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
