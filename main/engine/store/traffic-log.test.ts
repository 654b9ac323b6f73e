import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { trafficEntry } from '../testing/traffic.js';
import { LOCK_FILE } from './data-dir-lock.js';
import { logMigrations } from './log-migrations/index.js';
import { openStore } from './store.js';
import { TRAFFIC_LOG_FILE } from './traffic-log.js';

const tempDir = tempDirs('cqc-traffic-log-');

/**
 * A data dir whose log holds `rows` entries, closed cleanly, or (`stop: 'unclean'`) left as a
 * killed process leaves it: the connection gone without the clean stop, the journal still there.
 */
function dirWithLog(rows: number, stop: 'clean' | 'unclean' = 'clean'): string {
  const dir = tempDir();
  const store = openStore({ dataDir: dir });
  store.settings.set('kept', true);
  store.traffic.append(
    Array.from({ length: rows }, (_, i) => trafficEntry({ path: `/queues/q/v2.3/itemWindow`, url: `http://127.0.0.1:9003/w?n=${i}`, responseBody: 'x'.repeat(2_000) + i })),
    1_000_000,
  );
  if (stop === 'clean') store.close();
  else store.db.close();
  return dir;
}
/** Garbage over one page, as a torn write after an OS crash leaves it. */
function damagePage(dir: string, page: number): void {
  const fd = openSync(join(dir, TRAFFIC_LOG_FILE), 'r+');
  writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * page);
  closeSync(fd);
}
const journal = (dir: string) => join(dir, `${TRAFFIC_LOG_FILE}-journal`);

describe('the traffic log file', () => {
  it('sits beside the console database, keeps a journal while open and none after a clean stop', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    expect(store.db.pragma('log.journal_mode', { simple: true })).toBe('persist');
    expect(store.db.pragma('log.synchronous', { simple: true })).toBe(0);
    // The console's own state keeps its durability.
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.traffic.append([trafficEntry()], 10);
    expect(existsSync(journal(dir))).toBe(true);
    store.close();
    // The lock file stays: it is free once its connection closes (see data-dir-lock.ts).
    expect(readdirSync(dir).sort()).toEqual([LOCK_FILE, 'console.sqlite', TRAFFIC_LOG_FILE]);
  });

  it('is found again after a restart', () => {
    const dir = dirWithLog(3);
    const store = openStore({ dataDir: dir });
    expect(store.trafficLogRecovery).toBeNull();
    expect(store.traffic.page({}, 0, 10).total).toBe(3);
    store.close();
  });

  it('is checked after a run that did not stop cleanly, and kept when it is sound', () => {
    const dir = dirWithLog(3, 'unclean');
    expect(statSync(journal(dir)).size).toBeGreaterThan(0);
    const store = openStore({ dataDir: dir });
    expect(store.trafficLogRecovery).toBeNull();
    expect(store.traffic.page({}, 0, 10).total).toBe(3);
    store.close();
  });

  it('is put aside and started anew when damaged, and the console still opens with its state', () => {
    // An OS crash with `synchronous = OFF` can leave pages half written. Page 6 is the root of the
    // body index, which nothing reads on open: only the check finds it.
    const dir = dirWithLog(200, 'unclean');
    damagePage(dir, 5);

    const store = openStore({ dataDir: dir }, 1234);
    expect(store.trafficLogRecovery).toMatchObject({ putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234`), because: expect.stringMatching(/integrity_check/) });
    expect(existsSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234`))).toBe(true);
    expect(existsSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234-journal`))).toBe(true);
    expect(store.settings.get('kept')).toBe(true);
    expect(store.traffic.page({}, 0, 10).total).toBe(0);
    expect(store.traffic.append([trafficEntry()], 10).stored[0]!.id).toBe(1);
    store.close();
  });

  it('is opened without a check after a clean stop, which leaves no journal', () => {
    const dir = dirWithLog(200);
    damagePage(dir, 5);
    const store = openStore({ dataDir: dir });
    expect(store.trafficLogRecovery).toBeNull();
    store.close();
  });

  it('is kept in memory for the run when a damaged log cannot be moved aside', () => {
    const dir = dirWithLog(200, 'unclean');
    damagePage(dir, 5);
    mkdirSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-7`, 'occupied'), { recursive: true });
    const store = openStore({ dataDir: dir }, 7);
    expect(store.trafficLogRecovery).toMatchObject({ putAside: null, because: expect.stringMatching(/moving it aside failed/) });
    expect(store.settings.get('kept')).toBe(true);
    expect(store.traffic.append([trafficEntry()], 10).stored[0]!.id).toBe(1);
    expect((store.db.pragma('database_list') as { name: string }[]).find((row) => row.name === 'log')).toMatchObject({ file: '' });
    store.close();
  });

  it('is put aside when it is not a database at all', () => {
    const dir = tempDir();
    writeFileSync(join(dir, TRAFFIC_LOG_FILE), 'not a database, just text that happens to be here'.repeat(200));
    const store = openStore({ dataDir: dir }, 99);
    expect(store.trafficLogRecovery?.putAside).toBe(join(dir, `${TRAFFIC_LOG_FILE}.damaged-99`));
    expect(store.traffic.page({}, 0, 10).total).toBe(0);
    store.close();
  });

  it('is refused, not replaced, when a newer console wrote it', () => {
    const dir = dirWithLog(1);
    const db = new Database(join(dir, TRAFFIC_LOG_FILE));
    db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(logMigrations.length + 1, 'from-the-future', 0);
    db.close();
    expect(() => openStore({ dataDir: dir })).toThrow(new RegExp(`the log database has schema version ${logMigrations.length + 1}, newer than this console knows`));
    expect(existsSync(join(dir, TRAFFIC_LOG_FILE))).toBe(true);
  });
});
