import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { openDatabase } from './database.js';
import { migrate, schemaVersion, type Migration } from './migrations.js';
import { migrations } from './migrations/index.js';
import { MAX_REPORTS_PER_QUEUE } from './repositories/time-played.js';
import { openStore } from './store.js';

const tempDir = tempDirs('cqc-store-');

describe('store', () => {
  it('opens a file database in WAL mode and migrates it to the latest version', () => {
    const store = openStore({ dataDir: tempDir() });
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.schemaVersion).toBe(migrations.length);
    const recorded = store.db.prepare('SELECT version, name FROM schema_version ORDER BY version').all();
    expect(recorded).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
    store.close();
  });

  it('keeps what was stored across a reopen of the same data dir', () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir });
    first.households.create({ id: 'h1', name: 'Flat', createdAt: 1 });
    first.settings.set('answer', { value: 42 });
    first.close();
    const second = openStore({ dataDir: dir });
    expect(second.households.get('h1')).toEqual({ id: 'h1', name: 'Flat', createdAt: 1 });
    expect(second.settings.get('answer')).toEqual({ value: 42 });
    second.close();
  });

  it('keeps nothing on disk when ephemeral', () => {
    const store = openStore({ dataDir: null });
    expect(store.db.memory).toBe(true);
    store.close();
  });

  it('rolls a transaction back as a whole when part of it fails', () => {
    const store = openStore({ dataDir: null });
    expect(() =>
      store.transaction(() => {
        store.households.create({ id: 'h1', name: 'A', createdAt: 1 });
        store.households.create({ id: 'h1', name: 'duplicate', createdAt: 1 });
      }),
    ).toThrow();
    expect(store.households.list()).toEqual([]);
    store.close();
  });

  it('answers with what the work returns, and nests: a failed inner part rolls back alone', () => {
    const store = openStore({ dataDir: null });
    const kept = store.transaction(() => {
      store.households.create({ id: 'h1', name: 'A', createdAt: 1 });
      expect(() =>
        store.transaction(() => {
          store.households.create({ id: 'h2', name: 'B', createdAt: 1 });
          throw new Error('inner part fails');
        }),
      ).toThrow('inner part fails');
      return store.households.list().map((h) => h.id);
    });
    expect(kept).toEqual(['h1']);
    expect(store.db.inTransaction).toBe(false);
    expect(store.households.list().map((h) => h.id)).toEqual(['h1']);
    store.close();
  });
});

describe('migrate', () => {
  const table = (name: string, version: number): Migration => ({
    version,
    name,
    up: `CREATE TABLE ${name} (id INTEGER)`,
  });

  it('applies only migrations newer than the recorded version, each once', () => {
    const db = openDatabase({ dataDir: null });
    expect(migrate(db, [table('a', 1)], 0)).toBe(1);
    expect(migrate(db, [table('a', 1), table('b', 2)], 0)).toBe(2);
    expect(migrate(db, [table('a', 1), table('b', 2)], 0)).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('a', 'b')").all()).toHaveLength(
      2,
    );
  });

  it('leaves no trace of a migration that fails', () => {
    const db = openDatabase({ dataDir: null });
    const broken: Migration = { version: 1, name: 'broken', up: 'CREATE TABLE ok (id INTEGER); CREATE TABLE nope (' };
    expect(() => migrate(db, [broken], 0)).toThrow();
    expect(schemaVersion(db)).toBe(0);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'ok'").get()).toBeUndefined();
  });

  it('refuses a database written by a newer console', () => {
    const db = openDatabase({ dataDir: null });
    migrate(db, [table('a', 1), table('b', 2)], 0);
    expect(() => migrate(db, [table('a', 1)], 0)).toThrow(/newer than this console knows/);
  });

  it('drops the traffic tables at 11 when no log is attached to take them, only if they hold nothing', () => {
    const empty = openDatabase({ dataDir: null });
    migrate(empty, migrations.slice(0, 10), 0);
    expect(migrate(empty, migrations, 0)).toBe(migrations.length);
    expect(empty.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'traffic%'").all()).toEqual([]);

    const held = openDatabase({ dataDir: null });
    migrate(held, migrations.slice(0, 10), 0);
    held.exec(
      "INSERT INTO traffic (target, at, wall_at, method, url, path, outcome, request_headers, response_headers) VALUES ('cloudQueue', 0, 0, 'GET', 'http://127.0.0.1/w', '/w', 'answered', '', '')",
    );
    held.exec('DELETE FROM traffic');
    // Even a cleared log has its next id to carry over.
    expect(() => migrate(held, migrations, 0)).toThrow(/opened without it/);
    expect(schemaVersion(held)).toBe(10);
  });

  it('cuts each queue to its newest reports at 13 (docs/contract/console.md §9), leaving the rest', () => {
    const db = openDatabase({ dataDir: null });
    migrate(db, migrations.slice(0, 12), 0);
    const queue = db.prepare(
      "INSERT INTO queues (id, name, created_at, queue_version, context_version, next_item_seq, item_count, container, playback_policies, reports, access_token, token_issued_at, token_expires_at) VALUES (?, 'q', 0, 1, 1, 1, 0, '{}', '{}', '{}', 't', 0, 1)",
    );
    const [many, few] = ['many', 'few'].map((id) => Number(queue.run(id).lastInsertRowid));
    const report = db.prepare(
      "INSERT INTO time_played (queue_key, item_id, player_id, received_at, type, report) VALUES (?, 'item-1', NULL, ?, 'update', '{}')",
    );
    db.transaction(() => {
      for (let n = 0; n < MAX_REPORTS_PER_QUEUE + 5; n++) report.run(many, n);
      for (let n = 0; n < 3; n++) report.run(few, n);
    })();
    expect(migrate(db, migrations, 0)).toBe(migrations.length);
    const kept = (key: number) =>
      db.prepare('SELECT COUNT(*) AS n, MIN(received_at) AS oldest FROM time_played WHERE queue_key = ?').get(key);
    expect(kept(many!)).toEqual({ n: MAX_REPORTS_PER_QUEUE, oldest: 5 });
    expect(kept(few!)).toEqual({ n: 3, oldest: 0 });
  });

  it('refuses gaps in the numbering', () => {
    const db = openDatabase({ dataDir: null });
    expect(() => migrate(db, [table('a', 1), table('c', 3)], 0)).toThrow(/expected 2/);
  });
});
