/**
 * A worker thread of test/service/shared-store.test.ts that ends while it holds the
 * shared table's lock, as a thread killed inside a store operation does.
 */
import { workerData } from 'node:worker_threads';
import { MemoryStore } from '../../src/service/state/memory-store';

const store = new MemoryStore(workerData.maxEntries, Date.now, { share: workerData.table });
// The lock an operation takes first (private: only a test holds it on its own).
(store as unknown as { lock(): void }).lock();
process.exit(0);
