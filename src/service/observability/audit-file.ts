/**
 * The audit file (--audit-file): audit lines appended to a file of their
 * own. sonic-boom (pino's destination) writes it: opened with O_APPEND, so
 * that the worker threads of `--workers`, each with its own descriptor,
 * append whole lines to the one file, and written synchronously, a batch at
 * a time (a regular file: a write never waits for a reader). `reopen()`
 * (SIGHUP) opens the path again: logrotate renames the file, then the
 * service writes to a new one by the old name.
 *
 * By default lines are gathered for up to 10 ms and written together, as
 * the log is (one write costs far more than the bytes of one line): the
 * gathering is here, as sonic-boom's `periodicFlush` writes every period
 * even when nothing waits. With `sync` (--audit-required) each line is
 * written before the call that made it is answered, and a line that cannot
 * be written throws, so that the call fails instead of being answered
 * without its audit. A file that cannot be opened or written is `failure`;
 * it is opened again at most once a second (then the next write says
 * whether it works), and what could not be written is dropped (and
 * counted). `failed` and `recovered` are told once an episode: from the
 * first failure to the next write that succeeds.
 */
import SonicBoom from 'sonic-boom';

/** Lines are gathered this long before they are written (not with `sync`). */
const BATCH_MS = 10;
/** A file that failed is opened again no sooner than this. */
const RETRY_MS = 1000;
/** Lines waiting to be written at most (a file that is failing): about 2 000 audit lines. */
const MAX_WAITING_BYTES = 512 * 1024;

/** A line could not be written to the audit file (with `sync`). */
export class AuditFileError extends Error {
  override name = 'AuditFileError';
}

export interface AuditFileEvents {
  /** The file could not be opened or written: `reason` names the path and the system's error code. */
  failed(reason: string): void;
  /** A write succeeded after a failure. */
  recovered(): void;
  /** Lines dropped because they could not be written. */
  dropped(lines: number): void;
}

export class AuditFile {
  private file: SonicBoom | undefined;
  /** The error the open file met in its last write (sonic-boom tells it as an event, synchronously when `sync`). */
  private writeError: unknown;
  private waiting: string[] = [];
  private waitingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Why the file does not work now; cleared when it is opened again, for the next write to try. */
  private failing: string | undefined;
  /** A failure not yet followed by a write that succeeded. */
  private unhealthy = false;
  private lastTry = 0;

  constructor(
    readonly path: string,
    private readonly options: { sync: boolean; events: AuditFileEvents; now?: () => number },
  ) {
    this.open();
  }

  /** Why the file cannot be written, while it cannot; undefined when it is open (a failed one is opened again when due). */
  get failure(): string | undefined {
    this.writable();
    return this.failing;
  }

  /**
   * Appends one line (its newline included). With `sync`, it is written
   * now, or AuditFileError is thrown; else within BATCH_MS.
   */
  write(line: string): void {
    if (this.options.sync) {
      this.writeNow([line]);
      return;
    }
    const bytes = Buffer.byteLength(line);
    if (this.waitingBytes + bytes > MAX_WAITING_BYTES) {
      this.options.events.dropped(1);
      return;
    }
    this.waiting.push(line);
    this.waitingBytes += bytes;
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS).unref();
  }

  /** Writes what is waiting now; never throws (a failure is `failure`, the lines are dropped). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0) return;
    const lines = this.waiting;
    this.waiting = [];
    this.waitingBytes = 0;
    try {
      this.writeNow(lines);
    } catch {
      // Said by writeNow (failed, dropped).
    }
  }

  /** SIGHUP: what is waiting goes to the file as it was, then the path is opened anew (after a rotation, a new file). */
  reopen(): void {
    this.flush();
    this.closeFile();
    this.lastTry = 0;
    this.open();
  }

  close(): void {
    this.flush();
    this.closeFile();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Whether a line can be written now; a file that failed is opened again once RETRY_MS have passed. */
  writable(): boolean {
    if (this.file === undefined && this.now() - this.lastTry >= RETRY_MS) this.open();
    return this.file !== undefined;
  }

  private writeNow(lines: string[]): void {
    const file = this.writable() ? this.file : undefined;
    if (file === undefined) {
      this.options.events.dropped(lines.length);
      throw new AuditFileError(this.failing ?? `the audit file ${this.path} is not open`);
    }
    this.writeError = undefined;
    // sonic-boom writes the whole batch now (sync), however many writes it takes; an error is its `error` event.
    file.write(lines.length === 1 ? lines[0] : lines.join(''));
    if (this.writeError !== undefined) {
      this.fail(this.writeError);
      // What it could not write goes with it: a failed batch is dropped, not written later.
      this.closeFile();
      this.options.events.dropped(lines.length);
      throw new AuditFileError(this.failing as string);
    }
    if (this.unhealthy) {
      this.unhealthy = false;
      this.options.events.recovered();
    }
  }

  private open(): void {
    this.lastTry = this.now();
    let file: SonicBoom;
    try {
      // With sync, sonic-boom opens the file now and throws when it cannot.
      file = new SonicBoom({ dest: this.path, append: true, mode: 0o640, sync: true });
    } catch (error) {
      this.file = undefined;
      this.fail(error);
      return;
    }
    file.on('error', (error: unknown) => {
      if (file === this.file) this.writeError = error;
    });
    this.file = file;
    this.failing = undefined;
  }

  private fail(error: unknown): void {
    const reason = `the audit file ${this.path} cannot be written (${(error as NodeJS.ErrnoException)?.code ?? 'error'})`;
    this.failing = reason;
    if (this.unhealthy) return;
    this.unhealthy = true;
    this.options.events.failed(reason);
  }

  /** Closes the file; what sonic-boom still holds (a batch that failed) is dropped. */
  private closeFile(): void {
    const file = this.file;
    if (file === undefined) return;
    this.file = undefined;
    file.destroy();
  }
}
