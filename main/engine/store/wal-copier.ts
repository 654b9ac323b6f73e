/**
 * Copies the bulk of the console database's WAL into its file from a thread of its own, on a second
 * connection, before the engine's own checkpoint (checkpoints.ts says what that cost alone).
 *
 * The thread only copies (PASSIVE), pass after pass while commits keep coming: it never waits for a
 * commit, and a commit never waits for it (SQLite's PASSIVE takes the write lock only to recover an
 * index header torn by a writer that died mid-commit), nor does it begin the WAL again itself. The
 * engine's checkpoint then finds little left to copy and truncates the WAL as before, in one turn
 * with the generation and its record, so what a start checks after a kill is as before (a RESTART
 * or TRUNCATE here held the write lock for up to 0.77 s, and a WAL begun again over itself made a
 * torn last frame read as a lost commit). One thing is new: between a copy that caught up and the
 * checkpoint after it (a message's way), a commit of the engine's may begin the WAL again over
 * the old frames, and a kill that tears that commit's last frame (microseconds, about one kill in
 * a million under heavy writes, measured by the review) is refused as damage.
 *
 * better-sqlite3 builds SQLite for two threads (SQLITE_THREADSAFE=2: each connection used by one
 * thread), and both connections share the one library in the process, so their locks are one
 * file's locks. The thread starts with the first checkpoint (most runs never write 16 MiB), and its
 * connection closes before the engine's, which must be the last one open: SQLite deletes the WAL
 * only at the close of the last connection, and a clean stop leaves no WAL.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How long a close waits for the thread to end a copy under way and close its connection. */
export const CLOSE_WAIT_MS = 30_000;

/**
 * The copy goes on pass after pass until one takes less than SHORT_PASS_MS (at most MAX_PASSES):
 * under a steady stream of commits each pass leaves what was committed during it, a fraction of
 * what it copied (here about 100 MB/s copied against a generation of a million items writing
 * 30 MB/s). It has caught up when its last pass was short and copied all it saw.
 */
const MAX_PASSES = 8;
const SHORT_PASS_MS = 15;

/** What the thread runs: plain JavaScript, evaluated (the bundles carry no second entry for it). */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const closed = new Int32Array(workerData.closed);
let db = null;
try {
  const Database = require(workerData.module);
  db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: String(error && error.message) });
}
parentPort.on('message', (message) => {
  if (message.type === 'copy') {
    let caughtUp = false;
    try {
      for (let pass = 0; db && !caughtUp && pass < workerData.passes; pass++) {
        const started = performance.now();
        const [result] = db.pragma('wal_checkpoint(PASSIVE)');
        // log is -1 when the connection is not in WAL mode: nothing of this was copied.
        caughtUp =
          Boolean(result) && result.busy === 0 && result.log >= 0 && result.log === result.checkpointed &&
          performance.now() - started < workerData.shortPassMs;
      }
    } catch {
      // A full disk: the engine's own checkpoint meets it too, and says so as before.
    }
    parentPort.postMessage({ type: 'done', seq: message.seq, caughtUp });
  } else if (message.type === 'close') {
    try {
      if (db) db.close();
    } finally {
      Atomics.store(closed, 0, 1);
      Atomics.notify(closed, 0);
      parentPort.close();
    }
  }
});
`;

type FromThread = { type: 'done'; seq: number; caughtUp: boolean } | { type: 'failed'; message: string };

/** What the checkpoints need of a copier (tests give their own). */
export type Copier = Pick<WalCopier, 'copy' | 'close' | 'failure'>;

export class WalCopier {
  private worker: Worker | null = null;
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting = new Map<number, (caughtUp: boolean) => void>();
  private seq = 0;
  /** Why the thread cannot copy (it did not start, or its connection did not open); then `copy` answers false. */
  failure: string | null = null;

  constructor(
    private readonly file: string,
    private readonly nativeBinding?: string,
  ) {}

  /**
   * Copies what it can of the WAL into the database file: true when it caught up with the commits
   * (its last pass was short and copied all it saw); false when they came faster, SQLite could not
   * copy (a full disk), or the thread cannot run.
   */
  copy(): Promise<boolean> {
    if (this.failure !== null) return Promise.resolve(false);
    const worker = this.start();
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      worker.postMessage({ type: 'copy', seq });
    });
  }

  /**
   * Waits (blocking, at most CLOSE_WAIT_MS) for a copy under way to end and the thread's
   * connection to close. Synchronous, as the store's close is: the engine's connection closes next.
   */
  close(): void {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    if (this.failure === null) {
      worker.postMessage({ type: 'close' });
      Atomics.wait(this.closed, 0, 0, CLOSE_WAIT_MS);
    }
    void worker.terminate();
    this.settle();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD, {
      eval: true,
      name: 'wal copy',
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: this.file,
        nativeBinding: this.nativeBinding,
        closed: this.closed.buffer,
        passes: MAX_PASSES,
        shortPassMs: SHORT_PASS_MS,
      },
    });
    worker.unref();
    worker.on('message', (message: FromThread) => {
      if (message.type === 'done') {
        this.waiting.get(message.seq)?.(message.caughtUp);
        this.waiting.delete(message.seq);
      } else this.fail(message.message);
    });
    worker.once('error', (error) => this.fail(error.message));
    worker.once('exit', () => this.fail('the copying thread ended'));
    this.worker = worker;
    return worker;
  }

  private fail(message: string): void {
    if (this.worker === null) return;
    this.failure ??= message;
    this.settle();
  }

  /** Answers every copy asked for as not caught up (the thread closed or failed). */
  private settle(): void {
    for (const resolve of this.waiting.values()) resolve(false);
    this.waiting.clear();
  }
}
