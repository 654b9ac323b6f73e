/**
 * The console database's WAL is copied into its file in a thread of its own (wal-copier.ts): the
 * engine's thread only counts the generation and records it, a kill at any point still starts
 * with every acknowledged write and no false alarm, and a clean stop leaves one file and its record.
 */
import { copyFileSync, existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyQueueRow } from '../testing/queue-rows.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { WalCopier } from './wal-copier.js';
import { LOOK_EVERY_MS, keepCheckpointing } from './checkpoints.js';
import { DATABASE_FILE, closeDatabase, openDatabase } from './database.js';
import { LOCK_FILE } from './data-dir-lock.js';
import { readLastStop } from './last-stop.js';
import { openStore, type Store } from './store.js';
import { keepWalEnd, readWalEnd, seenWalEnd } from './wal-end.js';

const tempDir = tempDirs('cqc-wal-copier-');
const WAL = `${DATABASE_FILE}-wal`;

function addQueues(store: Store, from: number, count: number): void {
  for (let i = from; i < from + count; i++) store.queues.create(emptyQueueRow(`q${i}`, `queue ${i}`));
}

/** A store in a data dir that has had one clean stop (the marker at generation 1). */
function reopened(): { dir: string; store: Store } {
  const dir = tempDir();
  openStore({ dataDir: dir }).close();
  return { dir, store: openStore({ dataDir: dir }) };
}

/** The data dir's files as a kill -9 now would leave them, in a new folder (the kernel has every write). */
function killedNow(dir: string): string {
  const killed = tempDir();
  for (const name of readdirSync(dir))
    if (name.startsWith('console.') && !name.startsWith(LOCK_FILE)) {
      copyFileSync(join(dir, name), join(killed, name));
      // Times kept, as a kill leaves them: the marker stamps the database file's.
      const { atime, mtime } = statSync(join(dir, name));
      utimesSync(join(killed, name), atime, mtime);
    }
  return killed;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('checkpoints copied in a thread of their own', () => {
  it('copy the WAL whole and begin it again, and the engine records the new generation', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const copier = new WalCopier(join(dir, DATABASE_FILE));
    const running = keepCheckpointing(store.db, dir, { walBytes: 64 * 1024, copier });
    addQueues(store, 0, 100);
    expect(statSync(join(dir, WAL)).size).toBeGreaterThan(64 * 1024);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    // The new generation is committed at once; the copy and its record come from the thread.
    expect(store.db.pragma('user_version', { simple: true })).toBe(2);
    expect(running.running).toBe(true);
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2 }), {
      timeout: 10_000,
    });
    expect(running.running).toBe(false);
    expect(copier.failure).toBeNull();
    // Everything is in the database file: a copy of it alone has the 100 queues.
    const alone = join(tempDir(), DATABASE_FILE);
    copyFileSync(join(dir, DATABASE_FILE), alone);
    const reader = new Database(alone, { readonly: true });
    expect(reader.prepare('SELECT count(*) AS n FROM queues').get()).toEqual({ n: 100 });
    reader.close();
    // The next commit begins the WAL again over the same file (cutting it short held every
    // commit): the looks count the frames not yet copied, not the file's size.
    const walFile = statSync(join(dir, WAL)).size;
    addQueues(store, 100, 1);
    expect(statSync(join(dir, WAL)).size).toBe(walFile);
    expect(seenWalEnd(join(dir, DATABASE_FILE))?.frames).toBeLessThan(5);
    vi.advanceTimersByTime(LOOK_EVERY_MS * 3);
    expect(readLastStop(dir)).toMatchObject({ generation: 2 });
    running.stop();
    store.close();
    // The thread's connection closed first: the engine's close was the last, and deleted the WAL.
    expect(existsSync(join(dir, WAL))).toBe(false);
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 3 });
  });

  it('killed after the WAL was begun again over a longer one: the start has every queue, and says nothing', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const running = keepCheckpointing(store.db, dir, {
      walBytes: 64 * 1024,
      copier: new WalCopier(join(dir, DATABASE_FILE)),
    });
    addQueues(store, 0, 300);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ generation: 2 }), { timeout: 10_000 });
    // Fewer frames than the WAL file holds: the old frames stay past the new ones' end.
    const marks = keepWalEnd(store.db, dir);
    addQueues(store, 300, 20);
    marks.look();
    expect(readWalEnd(dir)).toMatchObject({ generation: 2 });
    const killed = killedNow(dir);
    expect(statSync(join(killed, WAL)).size).toBeGreaterThan(statSync(join(dir, WAL)).size / 2);
    marks.stop();
    running.stop();
    store.close();
    const again = openStore({ dataDir: killed });
    expect(again.queues.list()).toHaveLength(320);
    again.close();
  });

  it('killed as the next commit begins the WAL again, before its end was marked: no false alarm', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    // The database alone, with one loop of each kind (a store runs its own as well).
    const dir = tempDir();
    const db = openDatabase({ dataDir: dir });
    db.exec('CREATE TABLE t (v TEXT)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const generation = (readLastStop(dir) as { generation: number }).generation;
    const running = keepCheckpointing(db, dir, { walBytes: 64 * 1024, copier: new WalCopier(db.name) });
    const marks = keepWalEnd(db, dir, { waits: () => running.running });
    for (let i = 0; i < 300; i++) insert.run('x'.repeat(500));
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    // While the thread copies, the WAL (with the new generation in it) is not marked either.
    expect(running.running).toBe(true);
    marks.look();
    await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ generation: generation + 1 }), {
      timeout: 10_000,
    });
    // Every frame copied: the look marks nothing. The mark it would take, of this WAL at the new
    // generation, is what the next commit makes stale: it begins the WAL again.
    const seen = seenWalEnd(db.name)!;
    expect(seen.copied).toBe(seen.frames);
    marks.look();
    expect(readWalEnd(dir)).toMatchObject({ generation });
    insert.run('one more');
    const killed = killedNow(dir);
    marks.stop();
    running.stop();
    closeDatabase(db);
    const again = openDatabase({ dataDir: killed });
    expect(again.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 301 });
    closeDatabase(again);
  });

  it('a stop while the thread checkpoints waits for it, and the clean stop is whole', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { dir, store } = reopened();
    const running = keepCheckpointing(store.db, dir, {
      walBytes: 64 * 1024,
      copier: new WalCopier(join(dir, DATABASE_FILE)),
    });
    addQueues(store, 0, 2_000);
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    expect(running.running).toBe(true);
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
    await vi.waitFor(() => expect(copier.failure).toMatch(/Cannot open database/), { timeout: 10_000 });
    await vi.waitFor(() => expect(running.running).toBe(false));
    expect(readLastStop(dir)).toMatchObject({ generation: 1 });
    vi.advanceTimersByTime(LOOK_EVERY_MS);
    expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 3 });
    expect(statSync(join(dir, WAL)).size).toBe(0);
    running.stop();
    store.close();
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 4 });
  });

  it('marks no WAL end while a checkpoint runs: the old WAL is never paired with the new generation', () => {
    const { dir, store } = reopened();
    let waits = true;
    const marks = keepWalEnd(store.db, dir, { waits: () => waits });
    addQueues(store, 0, 5);
    marks.look();
    expect(readWalEnd(dir)).toBeNull();
    waits = false;
    marks.look();
    expect(readWalEnd(dir)).toMatchObject({ generation: 1 });
    marks.stop();
    store.close();
  });
});
