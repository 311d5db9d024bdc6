import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The SOAP binding validates the body element in a document of its own. It once moved the element there:
// once the binding was optimized nothing held that document while the element was decoded, and a garbage
// collection at that moment freed it (a use-after-free: SIGSEGV within 50 000 calls, every time). The
// binding now validates a copy and decodes the original.
test('the SOAP binding survives 50 000 calls back to back (garbage collections in its libxml2 work)', (t) => {
  const child = spawnSync(process.execPath, ['--import=tsx', join(__dirname, 'support', 'soap-binding-gc-child.ts'), '50000'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.is(child.signal, null, `the child ended with ${child.signal}: ${child.stderr}`);
  t.is(child.status, 0, child.stderr);
  t.is(child.stdout.trim(), 'done 50000');
});
