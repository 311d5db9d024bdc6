import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The SOAP binding (on the calculator fixture contract) validates and decodes the body element in place, in the
// request's document, which it frees only when it is done: no garbage collection may free a libxml2 document whose
// nodes are still read.
// A use-after-free shows as SIGSEGV once the binding is optimized and collections fall inside its libxml2
// work, which 50 000 calls back to back make happen.
test('the SOAP binding survives 50 000 SOAP 1.1 and 1.2 calls back to back (garbage collections in its libxml2 work), with no libxml2 memory report', (t) => {
  const child = spawnSync(process.execPath, ['--import=tsx', join(__dirname, '..', '..', 'support', 'soap-binding-gc-child.ts'), '50000'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.is(child.signal, null, `the child ended with ${child.signal}: ${child.stderr}`);
  t.is(child.status, 0, child.stderr);
  t.is(child.stdout.trim(), 'done 50000');
  // libxml2 reports a bad free (a document freed twice, a node apart from its document) on stderr.
  t.is(child.stderr.slice(0, 300), '', 'nothing on stderr: no libxml2 memory report');
});
