import { existsSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { trafficEntry } from '../testing/traffic.js';
import { logMigrations } from './log-migrations/index.js';
import { openStore } from './store.js';
import { TRAFFIC_LOG_FILE } from './traffic-log.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cqc-traffic-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data dir whose log holds `rows` entries, closed cleanly. */
function dirWithLog(rows: number): string {
  const dir = tempDir();
  const store = openStore({ dataDir: dir });
  store.traffic.append(
    Array.from({ length: rows }, (_, i) => trafficEntry({ path: `/queues/q/v2.3/itemWindow`, url: `http://127.0.0.1:9003/w?n=${i}`, responseBody: 'x'.repeat(2_000) + i })),
    1_000_000,
  );
  store.close();
  return dir;
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
    expect(readdirSync(dir).sort()).toEqual(['console.sqlite', TRAFFIC_LOG_FILE]);
  });

  it('is found again after a restart', () => {
    const dir = dirWithLog(3);
    const store = openStore({ dataDir: dir });
    expect(store.trafficLogRecovery).toBeNull();
    expect(store.traffic.page({}, 0, 10).total).toBe(3);
    store.close();
  });

  it('is checked after a run that did not stop cleanly, and kept when it is sound', () => {
    const dir = dirWithLog(3);
    writeFileSync(journal(dir), ''); // what a killed process leaves behind
    const store = openStore({ dataDir: dir });
    expect(store.trafficLogRecovery).toBeNull();
    expect(store.traffic.page({}, 0, 10).total).toBe(3);
    store.close();
  });

  it('is put aside and started anew when damaged, and the console still opens with its state', () => {
    const dir = dirWithLog(200);
    const before = openStore({ dataDir: dir });
    before.settings.set('kept', true);
    before.close();
    // An OS crash with `synchronous = OFF` can leave pages half written: garbage over a data page.
    const fd = openSync(join(dir, TRAFFIC_LOG_FILE), 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 5);
    closeSync(fd);
    writeFileSync(journal(dir), '');

    const store = openStore({ dataDir: dir }, 1234);
    expect(store.trafficLogRecovery).toMatchObject({ putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234`), because: expect.stringMatching(/quick_check/) });
    expect(existsSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234`))).toBe(true);
    expect(store.settings.get('kept')).toBe(true);
    expect(store.traffic.page({}, 0, 10).total).toBe(0);
    expect(store.traffic.append([trafficEntry()], 10).stored[0]!.id).toBe(1);
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
    expect(() => openStore({ dataDir: dir })).toThrow(/the log database has schema version 2, newer than this console knows/);
    expect(existsSync(join(dir, TRAFFIC_LOG_FILE))).toBe(true);
  });
});
