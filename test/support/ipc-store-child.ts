/**
 * A stand-in worker for test/ipc-store.test.ts: an IpcStore (store timeout
 * from argv[2]) making the calls its parent asks for, all in one turn of the
 * event loop, and sending back what each answered.
 */
import { IpcStore } from '../../src/state/ipc-store';

const store = new IpcStore(Number(process.argv[2]));
process.on('message', (message: { kind?: string; keys?: string[] }) => {
  if (message.kind !== 'test-burst') return;
  const started = Date.now();
  const keys = message.keys ?? [];
  // Every call of the burst made before the first answer could come: they share a message.
  const calls = [
    ...keys.map((key) => store.acceptStep(key, 7, 60_000)),
    ...keys.map((key) => store.acceptStep(key, 7, 60_000)),
    ...keys.map((key) => store.countAttempt(key, 60_000, 5)),
  ];
  void Promise.allSettled(calls).then((settled) =>
    process.send?.({
      kind: 'test-result',
      ms: Date.now() - started,
      results: settled.map((r) =>
        r.status === 'fulfilled' ? { value: r.value } : { error: `${(r.reason as Error).name}: ${(r.reason as Error).message}` },
      ),
    }),
  );
});
process.send?.({ kind: 'test-ready' });
