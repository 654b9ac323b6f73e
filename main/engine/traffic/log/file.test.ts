import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../store/data-dir-lock.js';
import { LAST_STOP_FILE } from '../../store/last-stop.js';
import { migrate } from '../../store/migrations.js';
import { openStore } from '../../store/store.js';
import { tempDirs } from '../../testing/temp-dirs.js';
import { testTrafficEntry } from '../../testing/traffic.js';
import { LOG_PAGE_SIZE, TRAFFIC_LOG_FILE, openStoreWithTrafficLog } from './file.js';
import { SEGMENTS_PER_READ } from './log.js';
import { logMigrations } from './migrations/index.js';

const tempDir = tempDirs('cqc-traffic-log-');

/**
 * A data dir whose log holds `rows` entries, closed cleanly, or (`stop: 'unclean'`) left as a
 * killed process leaves it: the connection gone without the clean stop, the journal still there.
 */
function dirWithLog(rows: number, stop: 'clean' | 'unclean' = 'clean'): string {
  const dir = tempDir();
  const { store, traffic } = openStoreWithTrafficLog({ dataDir: dir });
  store.settings.set('kept', true);
  traffic.append(
    Array.from({ length: rows }, (_, i) =>
      testTrafficEntry({
        path: `/queues/q/v2.3/itemWindow`,
        url: `http://127.0.0.1:9003/w?n=${i}`,
        responseBody: 'x'.repeat(2_000) + i,
      }),
    ),
    1_000_000,
  );
  if (stop === 'clean') {
    store.close();
    return dir;
  }
  return leftByKill(dir, () => store.close());
}

/**
 * What a kill -9 leaves of `dir`: every file as it is this moment (the kernel has every write),
 * the console database's WAL and the log's journal included, and no lock; the console itself is
 * then closed (`close`). A raw close of the connection instead would checkpoint and delete that
 * WAL, which a killed console never does, and the start would refuse its absence.
 */
function leftByKill(dir: string, close: () => void): string {
  const killed = tempDir();
  for (const name of readdirSync(dir))
    if (!name.startsWith(LOCK_FILE)) copyFileSync(join(dir, name), join(killed, name));
  close();
  return killed;
}
/**
 * Garbage over the root page of the shared bodies' index, as a torn write after an OS crash
 * leaves it: nothing reads that page on open, so only the check finds it.
 */
function damageBodyIndex(dir: string): void {
  const file = join(dir, TRAFFIC_LOG_FILE);
  const db = new Database(file, { readonly: true });
  const root = db
    .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'traffic_bodies_by_last_use'")
    .pluck()
    .get() as number;
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(LOG_PAGE_SIZE, 0x5a), 0, LOG_PAGE_SIZE, LOG_PAGE_SIZE * (root - 1));
  closeSync(fd);
}
/** A data dir with the console's database and no traffic log yet, for a log written by hand beside it. */
function dirWithConsole(): string {
  const dir = tempDir();
  openStore({ dataDir: dir }).close();
  return dir;
}
const journal = (dir: string) => join(dir, `${TRAFFIC_LOG_FILE}-journal`);

describe('the traffic log file', () => {
  it('sits beside the console database, keeps a journal while open and none after a clean stop', () => {
    const dir = tempDir();
    const { store, traffic } = openStoreWithTrafficLog({ dataDir: dir });
    expect(store.db.pragma('log.journal_mode', { simple: true })).toBe('persist');
    expect(store.db.pragma('log.synchronous', { simple: true })).toBe(0);
    // The console's own state keeps its durability.
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    traffic.append([testTrafficEntry()], 10);
    expect(existsSync(journal(dir))).toBe(true);
    store.close();
    // The lock file stays: it is free once its connection closes (see data-dir-lock.ts).
    expect(readdirSync(dir).sort()).toEqual([LOCK_FILE, 'console.sqlite', LAST_STOP_FILE, TRAFFIC_LOG_FILE].sort());
  });

  it('is found again after a restart', () => {
    const dir = dirWithLog(3);
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir });
    expect(recovery).toBeNull();
    expect(traffic.page({}, 0, 10).total).toBe(3);
    store.close();
  });

  it('is checked after a run that did not stop cleanly, and kept when it is sound', () => {
    const dir = dirWithLog(3, 'unclean');
    expect(statSync(journal(dir)).size).toBeGreaterThan(0);
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir });
    expect(recovery).toBeNull();
    expect(traffic.page({}, 0, 10).total).toBe(3);
    store.close();
  });

  it('is put aside and started anew when damaged, and the console still opens with its state', () => {
    // An OS crash with `synchronous = OFF` can leave pages half written.
    const dir = dirWithLog(200, 'unclean');
    damageBodyIndex(dir);

    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 1234);
    expect(recovery).toMatchObject({
      putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234`),
      because: expect.stringMatching(/integrity_check/),
    });
    expect(existsSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234`))).toBe(true);
    expect(existsSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-1234-journal`))).toBe(true);
    expect(store.settings.get('kept')).toBe(true);
    expect(traffic.page({}, 0, 10).total).toBe(0);
    expect(traffic.append([testTrafficEntry()], 10).stored[0]!.id).toBe(1);
    store.close();
  });

  it('is put aside when a segment does not hold what its layout says, which SQLite cannot see', () => {
    const dir = dirWithLog(200, 'unclean');
    const db = new Database(join(dir, TRAFFIC_LOG_FILE));
    // Kept, as the console keeps it: its being there says the run did not stop cleanly.
    db.pragma('journal_mode = PERSIST');
    // A run of the detail blob's text torn: the b-tree is sound, the blob is not.
    const detail = db.prepare('SELECT detail FROM traffic_segments').pluck().get() as Buffer;
    db.prepare('UPDATE traffic_segments SET detail = ?').run(detail.subarray(0, detail.length - 100));
    db.close();
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 55);
    expect(recovery).toMatchObject({
      putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-55`),
      because: expect.stringMatching(/traffic segment parts add up to .* \(segment 1\)/),
    });
    expect(traffic.page({}, 0, 10).total).toBe(0);
    store.close();
  });

  it('checks every segment, past the first page of them', () => {
    const live = tempDir();
    const { store, traffic } = openStoreWithTrafficLog({ dataDir: live });
    for (let i = 0; i < SEGMENTS_PER_READ * 2 + 1; i++) traffic.append([testTrafficEntry()], 1_000_000);
    const dir = leftByKill(live, () => store.close());
    const db = new Database(join(dir, TRAFFIC_LOG_FILE));
    db.pragma('journal_mode = PERSIST');
    // Only the newest segment torn.
    const last = db.prepare('SELECT MAX(first_id) FROM traffic_segments').pluck().get() as number;
    db.prepare('UPDATE traffic_segments SET last_id = last_id + 1 WHERE first_id = ?').run(last);
    db.close();
    const { store: reopened, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 58);
    expect(recovery).toMatchObject({
      because: expect.stringMatching(new RegExp(`traffic segment ${last}: 1 entries in its summary`)),
    });
    reopened.close();
  });

  it('is put aside when a segment claims more entries than any layout could hold, whatever the decoder throws', () => {
    const dir = dirWithLog(200, 'unclean');
    const db = new Database(join(dir, TRAFFIC_LOG_FILE));
    db.pragma('journal_mode = PERSIST');
    const summary = Buffer.from(db.prepare('SELECT summary FROM traffic_segments').pluck().get() as Buffer);
    // The count word of the head torn into the largest count there is.
    summary.writeUInt32LE(0xffff_ffff, 4);
    db.prepare('UPDATE traffic_segments SET summary = ?').run(summary);
    db.close();
    const { store, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 56);
    expect(recovery).toMatchObject({
      putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-56`),
      because: expect.stringMatching(/\(segment 1\)/),
    });
    store.close();
  });

  it('is put aside when a log from before segments holds a row that cannot be read', () => {
    const dir = dirWithConsole();
    const db = new Database(':memory:');
    db.prepare('ATTACH DATABASE ? AS log').run(join(dir, TRAFFIC_LOG_FILE));
    migrate(db, logMigrations.slice(0, 1), 0, 'log');
    db.prepare(
      `INSERT INTO log.traffic (target, at, wall_at, method, url, path, outcome, request_headers, response_headers, fault) VALUES ('cloudQueue', 0, 0, 'GET', 'http://127.0.0.1/w', '/w', 'answered', '', '', '{"torn')`,
    ).run();
    db.close();
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 57);
    expect(recovery).toMatchObject({
      putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-57`),
      because: expect.stringMatching(/traffic row 1 cannot be read/),
    });
    expect(traffic.page({}, 0, 10).total).toBe(0);
    store.close();
  });

  it('takes 16 KiB pages, and a log from before is rewritten with them once', () => {
    const dir = dirWithConsole();
    const db = new Database(':memory:');
    db.prepare('ATTACH DATABASE ? AS log').run(join(dir, TRAFFIC_LOG_FILE));
    db.pragma('log.page_size = 4096');
    migrate(db, logMigrations.slice(0, 1), 0, 'log');
    db.prepare(
      `INSERT INTO log.traffic (target, at, wall_at, method, url, path, outcome, request_headers, response_headers) VALUES ('cloudQueue', 0, 0, 'GET', 'http://127.0.0.1/w', '/w', 'answered', '', '')`,
    ).run();
    db.close();
    const { store, traffic } = openStoreWithTrafficLog({ dataDir: dir });
    expect(store.db.pragma('log.page_size', { simple: true })).toBe(LOG_PAGE_SIZE);
    expect(traffic.page({}, 0, 10).rows.map((row) => row.path)).toEqual(['/w']);
    store.close();
    const { store: fresh } = openStoreWithTrafficLog({ dataDir: tempDir() });
    expect(fresh.db.pragma('log.page_size', { simple: true })).toBe(LOG_PAGE_SIZE);
    fresh.close();
  });

  // docs/contract/console.md §9: whatever the damage and however the last stop went. (This was
  // "opened without a check after a clean stop"; the check costs ~100 ms on a full log.)
  it('is checked after a clean stop too, which leaves no journal, and put aside when damaged', () => {
    const dir = dirWithLog(200);
    expect(existsSync(journal(dir))).toBe(false);
    damageBodyIndex(dir);
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 31);
    expect(recovery).toMatchObject({
      putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-31`),
      because: expect.stringMatching(/integrity_check/),
    });
    expect(store.settings.get('kept')).toBe(true);
    expect(traffic.page({}, 0, 10).total).toBe(0);
    store.close();
  });

  describe('damaged after a clean stop (the attack: the start was refused)', () => {
    /** The log's one segment row, rewritten by `change`, the way a stray write leaves it. */
    function rewriteSegment(
      dir: string,
      change: (row: { summary: Buffer; detail: Buffer }) => { summary: Buffer; detail: Buffer },
    ): void {
      const db = new Database(join(dir, TRAFFIC_LOG_FILE));
      const row = db
        .prepare('SELECT first_id, summary, detail FROM traffic_segments ORDER BY first_id LIMIT 1')
        .get() as { first_id: number; summary: Buffer; detail: Buffer };
      const changed = change({ summary: Buffer.from(row.summary), detail: Buffer.from(row.detail) });
      db.prepare('UPDATE traffic_segments SET summary = ?, detail = ? WHERE first_id = ?').run(
        changed.summary,
        changed.detail,
        row.first_id,
      );
      db.pragma('journal_mode = DELETE');
      db.close();
    }

    /** Opens the dir as the engine does: it must open, with a new, working log, and the console's state kept. */
    function opensWithNewLog(dir: string, at: number): void {
      const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, at);
      try {
        expect(recovery).toMatchObject({ putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-${at}`) });
        expect(existsSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-${at}`))).toBe(true);
        expect(store.settings.get('kept')).toBe(true);
        expect(traffic.page({}, 0, 10).total).toBe(0);
        expect(traffic.append([testTrafficEntry()], 10).stored[0]!.id).toBe(1);
      } finally {
        store.close();
      }
    }

    it('a zeroed summary blob', () => {
      const dir = dirWithLog(200);
      rewriteSegment(dir, ({ summary, detail }) => ({ summary: Buffer.alloc(summary.length), detail }));
      opensWithNewLog(dir, 41);
    });

    it('a zeroed detail blob', () => {
      const dir = dirWithLog(200);
      rewriteSegment(dir, ({ summary, detail }) => ({ summary, detail: Buffer.alloc(detail.length) }));
      opensWithNewLog(dir, 42);
    });

    it('a cut summary blob', () => {
      const dir = dirWithLog(200);
      rewriteSegment(dir, ({ summary, detail }) => ({ summary: summary.subarray(0, summary.length >> 1), detail }));
      opensWithNewLog(dir, 43);
    });

    it('random bytes flipped across the file', () => {
      const dir = dirWithLog(2_000);
      const file = join(dir, TRAFFIC_LOG_FILE);
      const size = statSync(file).size;
      const fd = openSync(file, 'r+');
      // A fixed sequence (xorshift), so that the same bytes go every run.
      let seed = 0x2545f491;
      const next = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) / 2 ** 32);
      for (let i = 0; i < 200; i++)
        writeSync(
          fd,
          Buffer.from([Math.floor(next() * 256)]),
          0,
          1,
          LOG_PAGE_SIZE + Math.floor(next() * (size - LOG_PAGE_SIZE)),
        );
      closeSync(fd);
      opensWithNewLog(dir, 44);
    });

    it('garbage over the whole file, its header too', () => {
      const dir = dirWithLog(200);
      const file = join(dir, TRAFFIC_LOG_FILE);
      writeFileSync(file, Buffer.alloc(statSync(file).size, 0xa5));
      opensWithNewLog(dir, 45);
    });
  });

  // docs/contract/console.md §9, "whatever the damage". The attack: a log missing its segments
  // table stopped the start, and a zero-byte one was replaced without a word.
  describe('damaged in its schema or emptied (the attack: a start that failed, or a log replaced silently)', () => {
    /** Runs `sql` on the log of a data dir stopped cleanly. */
    function alterLog(dir: string, sql: string): void {
      const db = new Database(join(dir, TRAFFIC_LOG_FILE));
      db.exec(sql);
      db.pragma('journal_mode = DELETE');
      db.close();
    }

    it.each([
      ['its segments table dropped', 'DROP TABLE traffic_segments', /traffic_segments/],
      ['its state table dropped', 'DROP TABLE traffic_state', /traffic_state/],
      ['its state row deleted', 'DELETE FROM traffic_state', /traffic_state/],
      ['its shared bodies dropped', 'DROP TABLE traffic_bodies', /traffic_bodies/],
      ['a column missing', 'ALTER TABLE traffic_segments DROP COLUMN detail', /traffic_segments/],
      ['its migrations forgotten', 'DROP TABLE schema_version', /./],
    ])('%s: put aside, and the console opens with a new log', (_what, sql, because) => {
      const dir = dirWithLog(5);
      alterLog(dir, sql);
      const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 61);
      try {
        expect(recovery).toMatchObject({
          putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-61`),
          because: expect.stringMatching(because),
        });
        expect(store.settings.get('kept')).toBe(true);
        expect(traffic.page({}, 0, 10).total).toBe(0);
        expect(traffic.append([testTrafficEntry()], 10).stored[0]!.id).toBe(1);
      } finally {
        store.close();
      }
      // And the next start finds the new log sound.
      const again = openStoreWithTrafficLog({ dataDir: dir }, 62);
      expect(again.recovery).toBeNull();
      expect(again.traffic.page({}, 0, 10).total).toBe(1);
      again.store.close();
    });

    it('zero bytes: put aside with a warning, not taken for a new log', () => {
      const dir = dirWithLog(5);
      writeFileSync(join(dir, TRAFFIC_LOG_FILE), '');
      const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 63);
      try {
        expect(recovery).toMatchObject({
          putAside: join(dir, `${TRAFFIC_LOG_FILE}.damaged-63`),
          because: 'it is empty: 0 bytes',
        });
        expect(statSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-63`)).size).toBe(0);
        expect(store.settings.get('kept')).toBe(true);
        expect(traffic.append([testTrafficEntry()], 10).stored[0]!.id).toBe(1);
      } finally {
        store.close();
      }
    });

    it('a new data dir makes its log without a word', () => {
      const { store, recovery } = openStoreWithTrafficLog({ dataDir: tempDir() });
      expect(recovery).toBeNull();
      store.close();
    });
  });

  it('is kept in memory for the run when a damaged log cannot be moved aside', () => {
    const dir = dirWithLog(200, 'unclean');
    damageBodyIndex(dir);
    mkdirSync(join(dir, `${TRAFFIC_LOG_FILE}.damaged-7`, 'occupied'), { recursive: true });
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 7);
    expect(recovery).toMatchObject({ putAside: null, because: expect.stringMatching(/moving it aside failed/) });
    expect(store.settings.get('kept')).toBe(true);
    expect(traffic.append([testTrafficEntry()], 10).stored[0]!.id).toBe(1);
    expect((store.db.pragma('database_list') as { name: string }[]).find((row) => row.name === 'log')).toMatchObject({
      file: '',
    });
    store.close();
  });

  it('is put aside when it is not a database at all', () => {
    const dir = dirWithConsole();
    writeFileSync(join(dir, TRAFFIC_LOG_FILE), 'not a database, just text that happens to be here'.repeat(200));
    const { store, traffic, recovery } = openStoreWithTrafficLog({ dataDir: dir }, 99);
    expect(recovery?.putAside).toBe(join(dir, `${TRAFFIC_LOG_FILE}.damaged-99`));
    expect(traffic.page({}, 0, 10).total).toBe(0);
    store.close();
  });

  it('is refused, not replaced, when a newer console wrote it', () => {
    const dir = dirWithLog(1);
    const db = new Database(join(dir, TRAFFIC_LOG_FILE));
    db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(
      logMigrations.length + 1,
      'from-the-future',
      0,
    );
    db.close();
    expect(() => openStoreWithTrafficLog({ dataDir: dir })).toThrow(
      new RegExp(`the log database has schema version ${logMigrations.length + 1}, newer than this console knows`),
    );
    expect(existsSync(join(dir, TRAFFIC_LOG_FILE))).toBe(true);
  });
});
