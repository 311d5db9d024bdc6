/**
 * The embedded store, kept: the in-memory table (memory-store.ts) stays the
 * authority every call reads and writes, and each changed secret is written
 * behind it into a SQLite database in the state directory (node:sqlite, WAL),
 * in one transaction every FLUSH_INTERVAL_MS and at close; repeated changes
 * of one secret within a batch are written once. Rows are appended to a log
 * (a rowid table, no index, up to 64 rows an INSERT), because an upsert into
 * a keyed table costs several times as much a row, more than a call can
 * spare (the measurements: docs/state-file.md, *The embedded store's state
 * file*); the log is folded into a snapshot of the live entries a chunk per
 * flush once it has grown past twice the entries, so the file stays bounded
 * by the store's bound.
 * At start the snapshot, then the log, are replayed into the table in
 * order, dropping what has expired. A crash loses at most the batch not yet
 * written; a batch torn mid-write is rolled back by SQLite, whole (the
 * batches before it are kept). The file says whether its last run closed it:
 * a start after one that did not (a crash, SIGKILL, a power cut) says so
 * in one warning line, with what may be missing and what was loaded.
 */
import { createHmac } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ENTRY_FIELDS, type MemoryStore } from './memory-store';
import { type AttemptCount, type RecordView, type StateStore, StoreFullError, StoreUnavailableError } from './store';

export const FLUSH_INTERVAL_MS = 50;
/** Live entries copied into the next snapshot per flush, while the log is folded. */
const SNAPSHOT_CHUNK = 5000;
/** The log is folded once it holds this many rows and more than twice the live entries. */
const MIN_ROWS_TO_FOLD = 10_000;
const FORMAT = '1';
const SQLITE_BUSY = 5;
/** Rows appended by one INSERT (a statement run costs about as much as the row it writes). */
const ROWS_PER_INSERT = 64;
/** A row's values: the key, then the entry's fields. */
const ROW_VALUES = 1 + ENTRY_FIELDS;
/** Rows read at a time at start. */
const LOAD_CHUNK = 10_000;

/** The state directory cannot be used: start-up stops with this one line. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

/** What the persistent store tells its observer about its file. */
export interface PersistenceEvents {
  /** Writing a batch failed (a full disk, say): new protective records are refused until a write succeeds. */
  writeFailed(reason: string): void;
  /** A write succeeded again after failing. */
  writeRecovered(): void;
}

/** A check value of the state key, kept in the file, so that a file is never read under another key. */
function keyCheckOf(stateKey: string): string {
  return createHmac('sha256', stateKey).update('pin-service state file').digest('base64url');
}

const COLUMNS = 'key TEXT NOT NULL, step REAL, stepEnd REAL, attempts REAL, attemptEnd REAL, lockEnd REAL';

/**
 * The kept store's request path: the shared table, whose changes the file's
 * writer (PersistentStore, in the thread that owns the file) takes and
 * writes behind. A worker thread of `--workers` uses this over the table it
 * shares with the main thread; while the writer cannot write, new protective
 * records are refused in every thread.
 */
export class KeptStore implements StateStore {
  constructor(
    protected readonly memory: MemoryStore,
    protected readonly path: string,
  ) {}

  async acceptStep(key: string, step: number, ttlMs: number): Promise<boolean> {
    this.refuseWhileFailing();
    return this.memory.acceptStepNow(key, step, ttlMs);
  }

  async countAttempt(key: string, windowMs: number, lockAt: number): Promise<AttemptCount> {
    this.refuseWhileFailing();
    return this.memory.countAttemptNow(key, windowMs, lockAt);
  }

  async clearAttempts(key: string): Promise<void> {
    this.memory.clearAttemptsNow(key);
  }

  async inspect(key: string): Promise<RecordView | undefined> {
    return this.memory.inspectNow(key);
  }

  async keysStartingWith(prefix: string): Promise<string[]> {
    return this.memory.keysStartingWithNow(prefix);
  }

  async ping(): Promise<void> {
    this.refuseWhileFailing();
  }

  async warnings(): Promise<string[]> {
    return [];
  }

  async waitUntilReady(): Promise<boolean> {
    return !this.memory.refusing;
  }

  /** The thread that owns the file closes it; a worker thread's view has nothing to close. */
  async close(): Promise<void> {}

  /** Why the file cannot be written, when this thread knows (the writer's does). */
  protected failureReason(): string | undefined {
    return undefined;
  }

  private refuseWhileFailing(): void {
    if (this.memory.refusing) {
      const reason = this.failureReason();
      throw new StoreUnavailableError(`the state file ${this.path} cannot be written${reason ? ` (${reason})` : ''}`);
    }
  }
}

export class PersistentStore extends KeptStore {
  /** The slots of the changed entries being written. */
  private readonly taken: Int32Array;
  private readonly fields = new Float64Array(ENTRY_FIELDS);
  private readonly append: StatementSync;
  /** ROWS_PER_INSERT rows in one statement: half the cost of a row by itself. */
  private readonly appendMany: StatementSync;
  /** The values of the rows being gathered for appendMany. */
  private readonly rows: (string | number)[] = new Array(ROWS_PER_INSERT * ROW_VALUES).fill(0);
  private readonly timer: NodeJS.Timeout;
  private logRows: number;
  /** While the log is being folded: the next slot to copy, and the last log row the snapshot replaces. */
  private folding: { slot: number; upToRow: number } | undefined;
  private failing: string | undefined;
  private closed = false;
  /** The last run did not close the file: its last batch may be missing. */
  private readonly uncleanStop: boolean;
  /** Entries in memory once the file was loaded. */
  private loaded = 0;

  /**
   * Opens (or creates) the state file at `path` and loads it into `memory`.
   * Throws StateFileError, with the path and what to do, when it cannot.
   */
  constructor(
    memory: MemoryStore,
    path: string,
    stateKey: string,
    private readonly events: PersistenceEvents = { writeFailed() {}, writeRecovered() {} },
  ) {
    super(memory, path);
    if (!memory.tracksChanges) throw new TypeError('a kept store needs a table that lists its changes');
    this.taken = new Int32Array(memory.bound);
    const { DatabaseSync } = require('node:sqlite') as typeof import('node:sqlite');
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path);
    } catch (error) {
      throw new StateFileError(
        `cannot open the state file ${path}: ${oneLine(error)}; make its directory writable, or name another with --state-dir`,
      );
    }
    try {
      // One process a file, held from the open to the close: a second instance on the same directory stops at start.
      // NORMAL in WAL mode: a commit survives the process's crash; only the machine's may lose the last ones.
      db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; BEGIN IMMEDIATE; COMMIT');
      db.exec(`CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS snapshot (${COLUMNS});
        CREATE TABLE IF NOT EXISTS log (${COLUMNS});
        DROP TABLE IF EXISTS next_snapshot;`);
    } catch (error) {
      db.close();
      if ((error as { errcode?: number }).errcode === SQLITE_BUSY) {
        throw new StateFileError(
          `the state file ${path} is in use by another process: give each instance its own --state-dir, or share a Redis store (--store redis://…)`,
        );
      }
      throw new StateFileError(
        `cannot open the state file ${path}: ${oneLine(error)}; if it is damaged or not ours, move it away (a new one starts empty and every replay window reopens)`,
      );
    }
    this.db = db;
    const meta = new Map(
      (db.prepare('SELECT name, value FROM meta').all() as { name: string; value: string }[]).map((row) => [row.name, row.value]),
    );
    const check = keyCheckOf(stateKey);
    if (meta.size === 0) {
      db.prepare('INSERT INTO meta VALUES (?, ?), (?, ?)').run('format', FORMAT, 'key-check', check);
    } else if (meta.get('format') !== FORMAT) {
      this.db.close();
      throw new StateFileError(
        `the state file ${path} has format ${meta.get('format')}, not ${FORMAT}: run the version that wrote it, or move the file away`,
      );
    } else if (meta.get('key-check') !== check) {
      this.db.close();
      throw new StateFileError(
        `the state file ${path} was written under another state key: start with that key (--state-key, or the state-key file beside it), or move the file away`,
      );
    }
    this.uncleanStop = meta.get('open') === '1';
    this.load();
    this.loaded = memory.size;
    // Until close() sets it back: a run that ends without closing leaves it set for the next start to see.
    try {
      db.prepare('INSERT OR REPLACE INTO meta VALUES (?, ?)').run('open', '1');
    } catch (error) {
      db.close();
      throw new StateFileError(
        `cannot write the state file ${path}: ${oneLine(error)}; make room on its disk, or name another with --state-dir`,
      );
    }
    this.logRows = (db.prepare('SELECT count(*) AS n FROM log').get() as { n: number }).n;
    this.append = db.prepare('INSERT INTO log VALUES (?, ?, ?, ?, ?, ?)');
    this.appendMany = db.prepare(`INSERT INTO log VALUES ${Array(ROWS_PER_INSERT).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`);
    this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  private readonly db: DatabaseSync;

  override async warnings(): Promise<string[]> {
    if (!this.uncleanStop) return [];
    return [
      `the state file ${this.path} was not closed by the run before this one (a crash, SIGKILL or power cut): ` +
        `what that run answered in its last ${FLUSH_INTERVAL_MS} ms may be missing, a batch torn mid-write was dropped whole ` +
        `and those before it kept; ${this.loaded} entries were loaded`,
    ];
  }

  protected override failureReason(): string | undefined {
    return this.failing;
  }

  /** Writes what is left and closes the file: a graceful stop loses nothing. */
  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.flush();
    // Only once everything is written: the next start knows nothing is missing.
    try {
      if (this.failing === undefined) this.db.prepare('INSERT OR REPLACE INTO meta VALUES (?, ?)').run('open', '0');
    } catch {
      // Left set: the next start says the last batch may be missing, which is then true.
    }
    this.db.close();
    await this.memory.close();
  }

  /** Entries held in memory (the metrics' gauge). */
  get size(): number {
    return this.memory.size;
  }

  /**
   * Writes the changed secrets in one transaction, and a chunk of the next
   * snapshot while the log is folded. On failure nothing is lost from
   * memory: the batch's entries are listed as changed again and written on
   * the next tick.
   */
  flush(): void {
    const memory = this.memory;
    const taken = this.taken;
    const changes = memory.takeChanges(taken);
    if (changes === 0 && this.folding === undefined && this.failing === undefined) return;
    const logRows = this.logRows;
    try {
      this.db.exec('BEGIN');
      const rows = this.rows;
      let held = 0;
      let written = 0;
      for (let i = 0; i < changes; i++) {
        // An entry gone since (evicted, or expired and its slot freed) has nothing to add to what the file holds.
        const key = memory.changedEntry(taken[i], this.fields);
        if (key === undefined) continue;
        const at = held * ROW_VALUES;
        rows[at] = key;
        for (let f = 0; f < ENTRY_FIELDS; f++) rows[at + 1 + f] = this.fields[f];
        written++;
        if (++held === ROWS_PER_INSERT) {
          this.appendMany.run(...rows);
          held = 0;
        }
      }
      for (let row = 0; row < held; row++) this.append.run(...rows.slice(row * ROW_VALUES, (row + 1) * ROW_VALUES));
      // Counted before folding, which counts the log again when it ends.
      this.logRows += written;
      this.foldChunk();
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      this.logRows = logRows;
      this.folding = undefined;
      memory.putBackChanges(taken, changes);
      if (this.failing === undefined) {
        this.failing = oneLine(error);
        memory.refusing = true;
        this.events.writeFailed(this.failing);
      }
      return;
    }
    if (this.failing !== undefined) {
      this.failing = undefined;
      memory.refusing = false;
      this.events.writeRecovered();
    }
  }

  /** One step of folding the log into a new snapshot (inside the flush's transaction). */
  private foldChunk(): void {
    if (this.folding === undefined) {
      if (this.logRows < MIN_ROWS_TO_FOLD || this.logRows < 2 * this.memory.size) return;
      const last = this.db.prepare('SELECT max(rowid) AS row FROM log').get() as { row: number | null };
      this.db.exec(`CREATE TABLE next_snapshot (${COLUMNS})`);
      this.folding = { slot: 0, upToRow: last.row ?? 0 };
    }
    const insert = this.db.prepare('INSERT INTO next_snapshot VALUES (?, ?, ?, ?, ?, ?)');
    const folding = this.folding;
    const end = Math.min(this.memory.slots, folding.slot + SNAPSHOT_CHUNK);
    for (; folding.slot < end; folding.slot++) {
      const key = this.memory.entryAt(folding.slot, this.fields);
      if (key === undefined) continue;
      const [step, stepEnd, attempts, attemptEnd, lockEnd] = this.fields;
      insert.run(key, step, stepEnd, attempts, attemptEnd, lockEnd);
    }
    if (folding.slot < this.memory.slots) return;
    // Every entry live when folding began is in next_snapshot, or in a log row written after it began.
    this.db.prepare('DELETE FROM log WHERE rowid <= ?').run(folding.upToRow);
    this.db.exec('DROP TABLE snapshot; ALTER TABLE next_snapshot RENAME TO snapshot');
    this.logRows = (this.db.prepare('SELECT count(*) AS n FROM log').get() as { n: number }).n;
    this.folding = undefined;
  }

  /** Replays the snapshot, then the log, into memory; a full store makes room by its own rules. */
  private load(): void {
    try {
      for (const table of ['snapshot', 'log']) {
        // In chunks of rows (all() of a chunk is several times faster than iterate() row by row).
        const rows = this.db.prepare(
          `SELECT rowid, key, step, stepEnd, attempts, attemptEnd, lockEnd FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ${LOAD_CHUNK}`,
        );
        rows.setReturnArrays(true);
        const fields = this.fields;
        for (let after = 0; ; ) {
          const chunk = rows.all(after) as unknown as [number, string, number, number, number, number, number][];
          for (const row of chunk) {
            for (let i = 0; i < ENTRY_FIELDS; i++) fields[i] = row[i + 2] as number;
            try {
              this.memory.restore(row[1], fields);
            } catch (error) {
              // A store full of protective records with --store-when-full refuse keeps those it already holds.
              if (!(error instanceof StoreFullError)) throw error;
            }
          }
          if (chunk.length < LOAD_CHUNK) break;
          after = chunk[chunk.length - 1][0];
        }
      }
    } catch (error) {
      this.db.close();
      throw new StateFileError(
        `cannot read the state file ${this.path}: ${oneLine(error)}; if it is damaged, move it away (a new one starts empty and every replay window reopens)`,
      );
    }
  }
}

function oneLine(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]
    .trim();
}
