/**
 * The bulk of the console database's WAL is copied into its file in a thread of its own
 * (wal-copier.ts) before the engine's checkpoint, which then has little left: what a start checks
 * after a kill is as before, a stop waits for the thread, and a thread that cannot run or falls
 * behind leaves the engine's thread to checkpoint alone.
 */
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { addQueues, snapshotInto } from './testing.js';
import { WalCopier, type Copier } from './wal-copier.js';
import { LOOK_EVERY_MS, MAX_LOOKS_BEHIND, keepCheckpointing } from './checkpoints.js';
import { DATABASE_FILE, closeDatabase, openDatabase } from './database.js';
import { readLastStop } from './last-stop.js';
import { WAL_END_FILE, keepWalEnd } from './wal-end.js';
import { openStore, type Store } from './store.js';

const tempDir = tempDirs('cqc-wal-copier-');
const WAL = `${DATABASE_FILE}-wal`;

/** A store in a data dir that has had one clean stop (the marker at generation 1). */
function reopened(): { dir: string; store: Store } {
  const dir = tempDir();
  openStore({ dataDir: dir }).close();
  return { dir, store: openStore({ dataDir: dir }) };
}

/** The data dir's files as a kill -9 now would leave them, in a new folder. */
const killedNow = (dir: string): string => snapshotInto(dir, tempDir());

/** How many queues the database file alone holds, without its WAL. */
function queuesInFileAlone(dir: string): number {
  const alone = join(tempDir(), DATABASE_FILE);
  copyFileSync(join(dir, DATABASE_FILE), alone);
  const reader = new Database(alone, { readonly: true });
  try {
    return (reader.prepare('SELECT count(*) AS n FROM queues').get() as { n: number }).n;
  } finally {
    reader.close();
  }
}

/** A copier that answers as told, counting its copies. */
function fakeCopier(copy: () => Promise<boolean>): Copier & { copies: number } {
  const fake = {
    copies: 0,
    failure: null,
    copy: () => {
      fake.copies++;
      return copy();
    },
    close: () => undefined,
  };
  return fake;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the WAL copied in a thread of its own, then checkpointed', () => {
  it('copies the bulk, and the engine checkpoints and records the new generation', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const copier = new WalCopier(join(dir, DATABASE_FILE));
    const running = keepCheckpointing(store.db, dir, { walBytes: 64 * 1024, copier });
    addQueues(store, 0, 100);
    expect(statSync(join(dir, WAL)).size).toBeGreaterThan(64 * 1024);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    // Nothing on this thread yet: the thread copies first.
    expect(readLastStop(dir)).toMatchObject({ generation: 1 });
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2 }), {
      timeout: 10_000,
    });
    expect(copier.failure).toBeNull();
    expect(statSync(join(dir, WAL)).size).toBe(0);
    expect(queuesInFileAlone(dir)).toBe(100);
    // A kill now: the start has every queue, and says nothing.
    addQueues(store, 100, 5);
    const killed = killedNow(dir);
    running.stop();
    store.close();
    // The thread's connection closed first: the engine's close was the last, and deleted the WAL.
    expect(existsSync(join(dir, WAL))).toBe(false);
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 3 });
    const again = openStore({ dataDir: killed });
    expect(again.queues.list()).toHaveLength(105);
    again.close();
  });

  it('a stop while the thread copies waits for it, and the clean stop is whole', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const running = keepCheckpointing(store.db, dir, {
      walBytes: 64 * 1024,
      copier: new WalCopier(join(dir, DATABASE_FILE)),
    });
    addQueues(store, 0, 2_000);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    running.stop();
    store.close();
    expect(existsSync(join(dir, WAL))).toBe(false);
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped' });
    const again = openStore({ dataDir: dir });
    expect(again.queues.list()).toHaveLength(2_000);
    again.close();
  });

  it('a thread that cannot open the database: the engine checkpoints on its own thread, as before', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const copier = new WalCopier(join(tempDir(), 'missing', DATABASE_FILE));
    const running = keepCheckpointing(store.db, dir, { walBytes: 64 * 1024, copier });
    addQueues(store, 0, 100);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2 }), {
      timeout: 10_000,
    });
    expect(copier.failure).toMatch(/Cannot open database/);
    expect(statSync(join(dir, WAL)).size).toBe(0);
    running.stop();
    store.close();
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 3 });
  });

  it('a copier that throws at once (no thread could be made): the engine checkpoints, and the looks go on', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const copier = fakeCopier(() => {
      throw new Error('no thread');
    });
    const running = keepCheckpointing(store.db, dir, { walBytes: 64 * 1024, copier });
    addQueues(store, 0, 100);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2 }));
    expect(statSync(join(dir, WAL)).size).toBe(0);
    // The next looks are not held by a copy that never ended.
    addQueues(store, 100, 100);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 3 }));
    expect(copier.copies).toBe(2);
    running.stop();
    store.close();
  });

  it('a copy that falls behind: the record is left as it was, and the fifth look checkpoints anyway', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const copier = fakeCopier(() => Promise.resolve(false));
    const running = keepCheckpointing(store.db, dir, { walBytes: 64 * 1024, copier });
    addQueues(store, 0, 100);
    const record = readLastStop(dir);
    for (let look = 1; look < MAX_LOOKS_BEHIND; look++) {
      vi.advanceTimersByTime(LOOK_EVERY_MS);
      await vi.waitFor(() => expect(copier.copies).toBe(look));
      await Promise.resolve();
      // Nothing checkpointed on this thread, nothing recorded: the WAL is as it was.
      expect(readLastStop(dir)).toEqual(record);
      expect(statSync(join(dir, WAL)).size).toBeGreaterThan(64 * 1024);
    }
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2 }));
    expect(copier.copies).toBe(MAX_LOOKS_BEHIND);
    expect(statSync(join(dir, WAL)).size).toBe(0);
    running.stop();
    store.close();
  });
});

describe('a clean stop whose WAL another connection still holds', () => {
  it('leaves the record open, not stopped: the next start reads the WAL as after a kill, and has everything', () => {
    const dir = tempDir();
    const db = openDatabase({ dataDir: dir });
    db.exec('CREATE TABLE t (v TEXT)');
    for (let i = 0; i < 50; i++) db.prepare('INSERT INTO t (v) VALUES (?)').run(`row ${i}`);
    const marks = keepWalEnd(db, dir);
    marks.stop();
    // A reader that has not let go (a copier thread past its wait) keeps the WAL from being emptied.
    const other = new Database(join(dir, DATABASE_FILE));
    other.exec('BEGIN');
    other.prepare('SELECT count(*) FROM t').get();
    db.pragma('busy_timeout = 50');
    closeDatabase(db);
    expect(readLastStop(dir)).toMatchObject({ state: 'open' });
    expect(existsSync(join(dir, WAL))).toBe(true);
    // Where the WAL ended stays beside it, for the next start to compare.
    expect(existsSync(join(dir, WAL_END_FILE))).toBe(true);
    other.exec('COMMIT');
    other.close();
    const again = openDatabase({ dataDir: dir });
    expect(again.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 50 });
    closeDatabase(again);
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped' });
  });
});
