/**
 * Damage never passes silently (docs/contract/console.md §9), on a whole console: the attacks as
 * the audit ran them. A WAL with a flipped byte after a kill started the console without 20
 * acknowledged queues; a deleted console.sqlite beside traffic.sqlite started an empty one; a
 * traffic log missing its segments table stopped the start; a zero-byte one was replaced without
 * a word.
 */
import {
  closeSync,
  copyFileSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EngineStateView } from './api/types.js';
import { DATABASE_FILE, DamagedDatabaseError } from './store/database.js';
import { LOCK_FILE } from './store/data-dir-lock.js';
import { LAST_STOP_FILE } from './store/last-stop.js';
import { WAL_END_EVERY_MS } from './store/wal-end.js';
import { admin, startTestEngine } from './testing/http.js';
import { tempDirs } from './testing/temp-dirs.js';
import type { Engine } from './index.js';
import { TRAFFIC_LOG_FILE } from './traffic/log/index.js';

const tempDir = tempDirs('cqc-damage-at-start-');
const WAL = `${DATABASE_FILE}-wal`;

async function addQueues(engine: Engine, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const { status } = await admin(engine, 'POST', '/queues', {
      name: `Q${i}`,
      items: [{ track: { name: 'One', mediaUrl: 'https://example.com/1.mp3' } }],
    });
    expect(status).toBe(200);
  }
}

async function queueCount(engine: Engine): Promise<number> {
  return ((await admin(engine, 'GET', '/queues')).body as unknown[]).length;
}

/** The data dir's files as they are this moment: what a kill -9 now would leave (the kernel has every write). */
function snapshot(dir: string): string {
  const copy = tempDir();
  for (const name of readdirSync(dir)) if (!name.startsWith(LOCK_FILE)) copyFileSync(join(dir, name), join(copy, name));
  return copy;
}

/** A console killed right after acknowledging 20 queues (a clean stop before them): two copies of what it left. */
async function killedAfter20Queues(): Promise<[string, string]> {
  const dir = tempDir();
  await (await startTestEngine({ dataDir: dir })).close();
  const engine = await startTestEngine({ dataDir: dir });
  const before = await queueCount(engine);
  await addQueues(engine, 20);
  expect(await queueCount(engine)).toBe(before + 20);
  const killed: [string, string] = [snapshot(dir), snapshot(dir)];
  await engine.close();
  return killed;
}

async function refusalOf(dir: string): Promise<DamagedDatabaseError> {
  const started = await startTestEngine({ dataDir: dir }).then(
    async (engine) => {
      await engine.close();
      return null;
    },
    (error: unknown) => error,
  );
  if (!(started instanceof DamagedDatabaseError)) throw started ?? new Error('the console started');
  return started;
}

async function warningsOf(engine: Engine): Promise<string[]> {
  return ((await admin(engine, 'GET', '/state')).body as EngineStateView).warnings
    .filter((w) => w.source === 'traffic-log')
    .map((w) => w.message);
}

describe('damage found at start, on a whole console', () => {
  it('a byte flipped in the WAL after a kill: the start is refused naming console.sqlite-wal; an intact one starts with every queue', async () => {
    const [damaged, intact] = await killedAfter20Queues();
    const wal = join(damaged, WAL);
    const fd = openSync(wal, 'r+');
    // A byte in the page of the first frame: SQLite would stop there, before every queue.
    writeSync(fd, Buffer.from([0xa5]), 0, 1, 32 + 24 + 200);
    closeSync(fd);
    const refusal = await refusalOf(damaged);
    expect(refusal.file).toBe(wal);
    expect(refusal.message).toMatch(
      /^the console database’s WAL .*console\.sqlite-wal is damaged \(frame 1 of \d+ does not verify.*\); nothing was changed\. Put back a copy of the data dir, or move console\.sqlite-wal aside/,
    );

    // No false alarm: the same kill with the WAL intact starts without a word, with all 20.
    const engine = await startTestEngine({ dataDir: intact });
    try {
      expect(await queueCount(engine)).toBeGreaterThanOrEqual(20);
      expect(await warningsOf(engine)).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('(audit) the WAL cut after a kill, at a frame boundary: refused naming it, where the console started without the queues cut', async () => {
    const dir = tempDir();
    await (await startTestEngine({ dataDir: dir })).close();
    const engine = await startTestEngine({ dataDir: dir });
    await addQueues(engine, 5);
    // The running console marks where its WAL ends every WAL_END_EVERY_MS.
    await sleep(WAL_END_EVERY_MS * 4);
    const [cut, whole] = [snapshot(dir), snapshot(dir)];
    await engine.close();
    // The WAL as it stood before the last queue's commit: every frame left verifies.
    const wal = readFileSync(join(cut, WAL));
    const frameBytes = 24 + wal.readUInt32BE(8);
    const commits = [];
    for (let at = 32; at + frameBytes <= wal.length; at += frameBytes)
      if (wal.readUInt32BE(at + 4) !== 0) commits.push(at);
    truncateSync(join(cut, WAL), commits.at(-2)! + frameBytes);
    const refusal = await refusalOf(cut);
    expect(refusal.file).toBe(join(cut, WAL));
    expect(refusal.message).toMatch(
      /^the console database’s WAL .*console\.sqlite-wal was cut short \(it ends with the commit at frame \d+, where the console saw commits through frame \d+ at /,
    );
    // No false alarm: the same kill with the WAL whole starts with all 5.
    const again = await startTestEngine({ dataDir: whole });
    try {
      expect(await queueCount(again)).toBeGreaterThanOrEqual(5);
    } finally {
      await again.close();
    }
  });

  it('console.sqlite deleted beside traffic.sqlite: refused, even with the record of the last stop moved aside too', async () => {
    const dir = tempDir();
    const engine = await startTestEngine({ dataDir: dir });
    await addQueues(engine, 3);
    await engine.close();
    rmSync(join(dir, DATABASE_FILE));
    expect((await refusalOf(dir)).message).toMatch(
      /console\.sqlite is missing \(console\.state records a clean stop at /,
    );
    renameSync(join(dir, LAST_STOP_FILE), join(dir, `${LAST_STOP_FILE}.aside`));
    expect((await refusalOf(dir)).message).toMatch(
      /console\.sqlite is missing \(traffic\.sqlite is there\); nothing was changed\. Put back a copy of it, or move traffic\.sqlite aside as well/,
    );
  });

  it.each([
    [
      'missing its segments table',
      (file: string) => {
        const db = new Database(file);
        db.exec('DROP TABLE traffic_segments');
        db.close();
      },
      /its table traffic_segments is missing/,
    ],
    ['of zero bytes', (file: string) => writeFileSync(file, ''), /it is empty: 0 bytes/],
  ])(
    'a traffic log %s: put aside with a warning, and the console starts with its queues',
    async (_what, damage, because) => {
      const dir = tempDir();
      const first = await startTestEngine({ dataDir: dir });
      await addQueues(first, 3);
      const queues = await queueCount(first);
      await first.close();
      damage(join(dir, TRAFFIC_LOG_FILE));
      const engine = await startTestEngine({ dataDir: dir });
      try {
        const [warning, ...more] = await warningsOf(engine);
        expect(more).toEqual([]);
        expect(warning).toMatch(because);
        expect(warning).toMatch(
          new RegExp(`it was put aside as ${join(dir, TRAFFIC_LOG_FILE)}\\.damaged-\\d+ and a new one started`),
        );
        expect(readdirSync(dir).filter((name) => name.startsWith(`${TRAFFIC_LOG_FILE}.damaged-`))).toHaveLength(1);
        expect(await queueCount(engine)).toBe(queues);
      } finally {
        await engine.close();
      }
    },
  );
});
