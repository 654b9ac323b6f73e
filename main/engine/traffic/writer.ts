/**
 * Where the traffic log's rows get written. With a data dir, SQLite's share of capture (page
 * writes to the WAL, checkpoints: most of what capture costs on disk) runs on a writer thread with
 * its own connection to the same database, away from the thread that serves requests; WAL lets the
 * engine's connection read what it committed. In memory (`--ephemeral`) a second connection
 * cannot see the database, so the engine's own connection writes. The statements are built by the
 * repository either way (`insertOps`, `trimOp`); a writer only runs them, in order, one
 * transaction per call. If the thread cannot start or dies, its work falls back to the engine's
 * connection: capture never stops for it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import type { TrafficOp, TrafficOpResult, TrafficRepository } from '../store/repositories/traffic.js';

export interface TrafficWriter {
  run(ops: TrafficOp[]): Promise<TrafficOpResult[]>;
  close(): Promise<void>;
}

/** Writes on the engine's own connection. */
export function engineWriter(repo: Pick<TrafficRepository, 'run'>): TrafficWriter {
  return {
    run: async (ops) => repo.run(ops),
    close: async () => undefined,
  };
}

/**
 * The writer thread: plain JavaScript, so it runs the same under Node, tsx and the Electron build.
 * It prepares each statement once and answers `[lastInsertRowid, changes]` per statement.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
const statements = new Map();
const runAll = db.transaction((ops) => ops.map(({ sql, args }) => {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  const { lastInsertRowid, changes } = statement.run(...args);
  return [Number(lastInsertRowid), changes];
}));
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, results: runAll(message.ops) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
});
`;

export interface ThreadWriterOptions {
  /** The database file (WAL) the engine's connection has open. */
  file: string;
  /** better_sqlite3.node for the running ABI (Electron). */
  nativeBinding?: string;
  /** Where work goes when the thread is gone. */
  fallback: TrafficWriter;
  log: Logger;
}

interface Pending {
  ops: TrafficOp[];
  resolve(results: TrafficOpResult[]): void;
  reject(error: Error): void;
}

export function threadWriter({ file, nativeBinding, fallback, log }: ThreadWriterOptions): TrafficWriter {
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let worker: Worker | null = null;
  let closing = false;

  /** From now on the engine's connection writes; what the thread had not done is done there. */
  const fallBack = (reason: string) => {
    if (!worker) return;
    if (!closing) log.warn(`traffic writer thread stopped (${reason}); the engine writes the traffic log itself`);
    worker = null;
    for (const [id, work] of pending) {
      pending.delete(id);
      fallback.run(work.ops).then(work.resolve, work.reject);
    }
  };

  try {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { file, nativeBinding, sqlite } });
    worker.unref();
    worker.on('message', ({ id, results, error }: { id: number; results?: TrafficOpResult[]; error?: string }) => {
      const work = pending.get(id);
      if (!work) return;
      pending.delete(id);
      if (error === undefined) work.resolve(results!);
      else work.reject(new Error(`traffic log write failed: ${error}`));
    });
    worker.on('error', (error) => fallBack(error.message));
    worker.on('exit', (code) => fallBack(`exit code ${code}`));
  } catch (error) {
    log.warn(`traffic writer thread did not start (${(error as Error).message}); the engine writes the traffic log itself`);
    worker = null;
  }

  /** The latest work handed out: closing waits for it (the thread handles messages in order). */
  let last: Promise<unknown> = Promise.resolve();
  const viaThread = (thread: Worker, ops: TrafficOp[]) =>
    new Promise<TrafficOpResult[]>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { ops, resolve, reject });
      thread.postMessage({ id, ops });
    });

  return {
    run(ops) {
      const done = worker ? viaThread(worker, ops) : fallback.run(ops);
      last = done.catch(() => undefined);
      return done;
    },
    async close() {
      closing = true;
      await last;
      const thread = worker;
      if (!thread) return;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.postMessage('close');
      await exited;
    },
  };
}
