/**
 * A database or WAL that does not match what the last stop left stops the start, naming the file
 * and the choices; nothing acknowledged is dropped without a word (docs/contract/console.md §9).
 * The attack: 20 queues acknowledged, the console killed, a byte of its WAL flipped: the console
 * started without them, and its next clean stop made that permanent.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  readSync,
  truncateSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { addQueues, snapshotInto } from './testing.js';
import { LOOK_EVERY_MS, checkpoint, keepCheckpointing } from './checkpoints.js';
import { DATABASE_FILE, DamagedDatabaseError } from './database.js';
import { LOCK_FILE } from './data-dir-lock.js';
import { LAST_STOP_FILE, readLastStop } from './last-stop.js';
import { openStore, type Store } from './store.js';
import { inspectWal } from './wal-check.js';
import { WAL_END_FILE, currentBoot, keepWalEnd, readWalEnd } from './wal-end.js';

const tempDir = tempDirs('cqc-last-stop-');
const WAL = `${DATABASE_FILE}-wal`;

/** The files of `dir` as they are this moment, into a new folder: what a kill -9 now would leave. */
const snapshot = (dir: string): string => snapshotInto(dir, tempDir());

/**
 * A data dir whose console was killed right after acknowledging 20 queues, all still in the WAL
 * (a clean stop before them put everything earlier into the database).
 */
function killedAfter20Queues(): string {
  const dir = tempDir();
  openStore({ dataDir: dir }).close();
  const store = openStore({ dataDir: dir });
  addQueues(store, 0, 20);
  const killed = snapshot(dir);
  store.close();
  return killed;
}

function queueCount(dir: string): number {
  const store = openStore({ dataDir: dir });
  try {
    return store.queues.list().length;
  } finally {
    store.close();
  }
}

/** What plain SQLite makes of the files: how many queues it would have started with. */
function queuesSqliteSees(dir: string): number {
  const copy = snapshot(dir);
  const db = new Database(join(copy, DATABASE_FILE));
  try {
    return db.prepare('SELECT COUNT(*) FROM queues').pluck().get() as number;
  } finally {
    db.close();
  }
}

function refusalOf(dir: string): DamagedDatabaseError {
  const before = new Map(
    readdirSync(dir)
      .filter((name) => !name.startsWith(LOCK_FILE))
      .map((name) => [name, readFileSync(join(dir, name))]),
  );
  let refusal: unknown = null;
  try {
    openStore({ dataDir: dir }).close();
  } catch (error) {
    refusal = error;
  }
  if (!(refusal instanceof DamagedDatabaseError)) throw refusal ?? new Error('the console started');
  expect(refusal.code).toBe('database_damaged');
  expect(refusal.message).not.toContain('\n');
  expect(refusal.message).toContain('nothing was changed');
  // Nothing was changed: every file as it was (the lock the refused start took aside).
  for (const [name, bytes] of before) expect(readFileSync(join(dir, name)).equals(bytes), name).toBe(true);
  return refusal;
}

interface WalShape {
  pageSize: number;
  frames: number;
  frameAt: (frame: number) => number;
  isCommit: (frame: number) => boolean;
}

function walShape(dir: string): WalShape {
  const wal = readFileSync(join(dir, WAL));
  const pageSize = wal.readUInt32BE(8);
  const frameBytes = 24 + pageSize;
  const frameAt = (frame: number) => 32 + (frame - 1) * frameBytes;
  return {
    pageSize,
    frames: Math.floor((wal.length - 32) / frameBytes),
    frameAt,
    isCommit: (frame) => wal.readUInt32BE(frameAt(frame) + 4) !== 0,
  };
}

function flipByte(file: string, at: number): void {
  const fd = openSync(file, 'r+');
  const byte = Buffer.alloc(1);
  readSync(fd, byte, 0, 1, at);
  byte[0] = byte[0]! ^ 0x5a;
  writeSync(fd, byte, 0, 1, at);
  closeSync(fd);
}

describe('a WAL that SQLite would not replay whole', () => {
  it('(the attack) a byte flipped in a frame in the middle: refused, naming the WAL and the choices, where SQLite alone dropped acknowledged queues', () => {
    const dir = killedAfter20Queues();
    const wal = walShape(dir);
    flipByte(join(dir, WAL), wal.frameAt(Math.ceil(wal.frames / 2)) + 24 + 100);
    // What the console did before: SQLite stops at the frame and starts without the queues after it.
    expect(queuesSqliteSees(dir)).toBeLessThan(20);
    const refusal = refusalOf(dir);
    expect(refusal.file).toBe(join(dir, WAL));
    expect(refusal.message).toMatch(
      new RegExp(
        `^the console database’s WAL ${join(dir, WAL)} is damaged \\(frame \\d+ of ${wal.frames} does not verify`,
      ),
    );
    expect(refusal.message).toContain(
      `Put back a copy of the data dir, or move ${WAL} aside (with ${DATABASE_FILE}-shm and ${LAST_STOP_FILE}) to start from ${DATABASE_FILE} as its last checkpoint left it`,
    );
    // Refused again and again, never made permanent.
    expect(() => openStore({ dataDir: dir }).close()).toThrow(DamagedDatabaseError);
    // The choice taken: the WAL moved aside (and the record of the unclean stop, which expects
    // one), the console starts from its last checkpoint.
    renameSync(join(dir, WAL), join(dir, `${WAL}.aside`));
    rmSync(join(dir, `${DATABASE_FILE}-shm`), { force: true });
    renameSync(join(dir, LAST_STOP_FILE), join(dir, `${LAST_STOP_FILE}.aside`));
    expect(queueCount(dir)).toBe(0);
  });

  it('a byte flipped in the last commit, the newest queue: refused', () => {
    const dir = killedAfter20Queues();
    const wal = walShape(dir);
    expect(wal.isCommit(wal.frames)).toBe(true);
    flipByte(join(dir, WAL), wal.frameAt(wal.frames) + 24 + 7);
    expect(queuesSqliteSees(dir)).toBe(19);
    expect(refusalOf(dir).message).toMatch(
      /is damaged \(frame \d+ of \d+ does not verify, so SQLite would drop it and every commit after it/,
    );
  });

  it.each([
    ['its checkpoint sequence', 12],
    ['a salt', 17],
    ['its checksum', 30],
    ['its magic number', 1],
  ])('a byte flipped in the header (%s): refused, where SQLite ignored the whole WAL', (_what, at) => {
    const dir = killedAfter20Queues();
    flipByte(join(dir, WAL), at);
    expect(queuesSqliteSees(dir)).toBe(0);
    const refusal = refusalOf(dir);
    expect(refusal.file).toBe(join(dir, WAL));
    expect(refusal.message).toMatch(
      /\(its header (fails its checksum|is not a WAL header), so SQLite would ignore all of it\)/,
    );
  });

  it('a salt flipped in a frame header: refused', () => {
    const dir = killedAfter20Queues();
    const wal = walShape(dir);
    flipByte(join(dir, WAL), wal.frameAt(2) + 9);
    expect(refusalOf(dir).message).toMatch(/frame 2 of \d+ has one of its two salts changed/);
  });
});

describe('no false alarm', () => {
  it('a clean restart starts silently with everything', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 20);
    store.close();
    expect(existsSync(join(dir, WAL))).toBe(false);
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 1 });
    expect(queueCount(dir)).toBe(20);
    expect(queueCount(dir)).toBe(20);
    expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 3 });
  });

  it('a clean stop cut short after the close that deleted its WAL (the record says closing) starts silently', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 20);
    store.close();
    // What a kill between the close and the last write of the record leaves: no WAL, `closing`.
    const { generation } = readLastStop(dir) as { generation: number };
    writeFileSync(join(dir, LAST_STOP_FILE), `${JSON.stringify({ state: 'closing', generation, at: 5 })}\n`);
    expect(existsSync(join(dir, WAL))).toBe(false);
    expect(queueCount(dir)).toBe(20);
  });

  it('a WAL another SQLite client copied in and deleted after a kill (the sqlite3 shell, a check) starts silently', () => {
    const dir = killedAfter20Queues();
    const db = new Database(join(dir, DATABASE_FILE));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(existsSync(join(dir, WAL))).toBe(false);
    expect(queueCount(dir)).toBe(20);
  });

  it('a kill -9 with the WAL intact starts silently with every acknowledged queue, again and again', () => {
    const dir = killedAfter20Queues();
    expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 1 });
    expect(inspectWal(join(dir, WAL))).toMatchObject({ kind: 'sound', commits: 20 });
    // Killed again, with more in the WAL.
    const store = openStore({ dataDir: dir });
    expect(store.queues.list()).toHaveLength(20);
    addQueues(store, 20, 5);
    const killed = snapshot(dir);
    store.close();
    expect(queueCount(killed)).toBe(25);
  });

  it('a transaction the kill cut short (its last frame torn, no commit) is no damage: nothing of it was acknowledged', () => {
    const dir = killedAfter20Queues();
    const wal = walShape(dir);
    const file = join(dir, WAL);
    const header = readFileSync(file).subarray(0, 32);
    // One more frame of this WAL, not a commit, its page half written.
    const frame = Buffer.alloc(24 + wal.pageSize, 0);
    frame.writeUInt32BE(3, 0);
    header.copy(frame, 8, 16, 24);
    frame.fill(0x77, 24, 24 + wal.pageSize / 2);
    writeFileSync(file, Buffer.concat([readFileSync(file), frame]));
    expect(inspectWal(file)).toMatchObject({ kind: 'sound', commits: 20 });
    expect(queueCount(dir)).toBe(20);
  });

  it('older frames past the end of a WAL that began again after a checkpoint are no damage', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 200);
    store.db.pragma('wal_checkpoint(RESTART)');
    // The WAL begins again from its first frame, with new salts; the old frames stay after it.
    addQueues(store, 200, 3);
    const killed = snapshot(dir);
    store.close();
    expect(walShape(killed).frames).toBeGreaterThan(20);
    expect(inspectWal(join(killed, WAL))).toMatchObject({ kind: 'sound', commits: 3 });
    expect(queueCount(killed)).toBe(203);
  });
});

describe('a database that does not match what the last stop left', () => {
  it('(the attack) console.sqlite deleted: refused, where the console started empty', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 20);
    store.close();
    rmSync(join(dir, DATABASE_FILE));
    const refusal = refusalOf(dir);
    expect(refusal.file).toBe(join(dir, DATABASE_FILE));
    expect(refusal.message).toMatch(
      new RegExp(
        `^the console database ${join(dir, DATABASE_FILE)} is missing \\(${LAST_STOP_FILE} records a clean stop at .*\\); nothing was changed\\. Put back a copy of it, or move ${LAST_STOP_FILE} aside as well to start an empty console$`,
      ),
    );
    expect(existsSync(join(dir, DATABASE_FILE))).toBe(false);
    // The choice taken: the record moved aside too, an empty console starts.
    renameSync(join(dir, LAST_STOP_FILE), join(dir, `${LAST_STOP_FILE}.aside`));
    expect(queueCount(dir)).toBe(0);
  });

  it('console.sqlite deleted after a kill, its WAL left: refused', () => {
    const dir = killedAfter20Queues();
    rmSync(join(dir, DATABASE_FILE));
    expect(refusalOf(dir).message).toMatch(
      /is missing \(console\.state records a run that began at .* and did not stop cleanly\); .* move console\.state and console\.sqlite-wal aside as well/,
    );
  });

  it('(audit) its WAL deleted after a kill: refused, where the console started without the queues it had acknowledged', () => {
    const dir = killedAfter20Queues();
    rmSync(join(dir, WAL));
    rmSync(join(dir, `${DATABASE_FILE}-shm`), { force: true });
    // Plain SQLite starts from the database file as the clean stop before the queues left it.
    expect(queuesSqliteSees(dir)).toBe(0);
    const refusal = refusalOf(dir);
    expect(refusal.file).toBe(join(dir, WAL));
    expect(refusal.message).toMatch(
      new RegExp(
        `^the console database’s WAL ${join(dir, WAL)} is missing \\(${LAST_STOP_FILE} records a run that began at .* and did not stop cleanly, which leaves a WAL with every change since the last checkpoint\\); nothing was changed\\. Put back a copy of the data dir with ${WAL}, or move ${LAST_STOP_FILE} aside to start from ${DATABASE_FILE} as its last checkpoint left it, without the changes since$`,
      ),
    );
    // The choice taken: the record moved aside, the console starts from its last checkpoint.
    renameSync(join(dir, LAST_STOP_FILE), join(dir, `${LAST_STOP_FILE}.aside`));
    expect(queueCount(dir)).toBe(0);
  });

  it('an older copy of console.sqlite put back: refused, until the record is moved aside', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 5);
    store.close();
    const older = readFileSync(join(dir, DATABASE_FILE));
    const again = openStore({ dataDir: dir });
    addQueues(again, 5, 20);
    again.close();
    writeFileSync(join(dir, DATABASE_FILE), older);
    const refusal = refusalOf(dir);
    expect(refusal.message).toMatch(
      /console\.sqlite is older than the last stop left it \(it is at generation 1 of its clean stops and checkpoints, console\.state records 2 after a clean stop at .*\); nothing was changed\. Put back the newer copy, or move console\.state aside to start from this one$/,
    );
    renameSync(join(dir, LAST_STOP_FILE), join(dir, `${LAST_STOP_FILE}.aside`));
    expect(queueCount(dir)).toBe(5);
  });

  it('a WAL with commits beside a database whose last stop was clean (it left none): refused', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const killed = killedAfter20Queues();
    copyFileSync(join(killed, WAL), join(dir, WAL));
    const refusal = refusalOf(dir);
    expect(refusal.file).toBe(join(dir, WAL));
    expect(refusal.message).toMatch(
      /WAL .* does not belong to it \(console\.state records a clean stop at .*, which leaves no WAL, yet this one holds 20 commits\)/,
    );
  });

  it('a record that cannot be read: refused, naming it', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    writeFileSync(join(dir, LAST_STOP_FILE), '{"state":');
    expect(refusalOf(dir).file).toBe(join(dir, LAST_STOP_FILE));
  });

  it('the record is private and whole: written aside and renamed, 0600', () => {
    const dir = join(tempDir(), 'fresh');
    mkdirSync(dir);
    openStore({ dataDir: dir }).close();
    expect(statSync(join(dir, LAST_STOP_FILE)).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, `${LAST_STOP_FILE}.new`))).toBe(false);
  });
});

describe('checkpoints, each recorded in the marker', () => {
  it('a copy of console.sqlite from before the last checkpoint, put back after a kill: refused', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 5);
    // The database file alone, as a backup tool that knows nothing of the WAL copies it.
    const backup = readFileSync(join(dir, DATABASE_FILE));
    expect(checkpoint(store.db, dir, 5)).toBe(true);
    expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2, at: 5 });
    addQueues(store, 5, 5);
    const killed = snapshot(dir);
    store.close();
    writeFileSync(join(killed, DATABASE_FILE), backup);
    rmSync(join(killed, WAL));
    expect(refusalOf(killed).message).toMatch(
      /is older than the last stop left it \(it is at generation 1 of its clean stops and checkpoints, console\.state records 2 after a run that began at /,
    );
    // What the marker said before: a start from the backup, 5 queues short, without a word.
    renameSync(join(killed, LAST_STOP_FILE), join(killed, `${LAST_STOP_FILE}.aside`));
    expect(queueCount(killed)).toBe(0);
  });

  it('the store checkpoints once the WAL passes its size, not SQLite inside a commit', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const dir = tempDir();
      openStore({ dataDir: dir }).close();
      const store = openStore({ dataDir: dir });
      const running = keepCheckpointing(store.db, dir, { walBytes: 64 * 1024 });
      addQueues(store, 0, 100);
      const wal = statSync(join(dir, WAL)).size;
      expect(wal).toBeGreaterThan(64 * 1024);
      expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 1 });
      vi.advanceTimersByTime(LOOK_EVERY_MS);
      // Copied in a thread of its own (wal-copier.test.ts), then recorded.
      await vi.waitFor(() => expect(readLastStop(dir)).toMatchObject({ state: 'open', generation: 2 }), {
        timeout: 10_000,
      });
      // Everything is in the database file (a copy of it alone has it), and the WAL is empty again:
      // the next looks leave it be.
      expect(statSync(join(dir, WAL)).size).toBe(0);
      const alone = join(tempDir(), DATABASE_FILE);
      copyFileSync(join(dir, DATABASE_FILE), alone);
      const db = new Database(alone, { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(db.prepare('SELECT count(*) AS n FROM queues').get()).toEqual({ n: 100 });
      db.close();
      addQueues(store, 100, 1);
      vi.advanceTimersByTime(LOOK_EVERY_MS * 3);
      expect(readLastStop(dir)).toMatchObject({ generation: 2 });
      expect(store.queues.list()).toHaveLength(101);
      running.stop();
      store.close();
      expect(readLastStop(dir)).toMatchObject({ state: 'stopped', generation: 3 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a WAL cut short after a kill, told by where the console saw it end (console.wal-end)', () => {
  /** 20 queues after a clean stop, the WAL's end marked (as the running console marks it every 50 ms), more after the mark when asked, then killed. */
  function killedMarked({ after = 0, boot }: { after?: number; boot?: string } = {}): string {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 20);
    markWalEnd(store, dir, boot);
    addQueues(store, 20, after);
    const killed = snapshot(dir);
    store.close();
    // A clean stop forgets the mark: it means nothing once the close deleted the WAL.
    expect(existsSync(join(dir, WAL_END_FILE))).toBe(false);
    return killed;
  }

  /** Marks where the WAL ends now, as the running console does every 50 ms. */
  function markWalEnd(store: Store, dir: string, boot?: string): void {
    const marks = keepWalEnd(store.db, dir, boot === undefined ? {} : { boot });
    marks.look();
    marks.stop();
  }

  /** The commit frames of the WAL in `dir`, oldest first. */
  function commitFrames(dir: string): number[] {
    const wal = walShape(dir);
    return Array.from({ length: wal.frames }, (_, i) => i + 1).filter((frame) => wal.isCommit(frame));
  }

  function cutAfterFrame(dir: string, frame: number): void {
    truncateSync(join(dir, WAL), walShape(dir).frameAt(frame + 1));
  }

  it('(audit) cut after its 17th commit: refused, where SQLite started without the last 3 queues', () => {
    const dir = killedMarked();
    const commits = commitFrames(dir);
    expect(commits).toHaveLength(20);
    expect(readWalEnd(dir)).toMatchObject({ generation: 1, frames: commits[19], boot: currentBoot() });
    cutAfterFrame(dir, commits[16]!);
    // What plain SQLite makes of it: every frame left verifies, so it starts 3 queues short.
    expect(inspectWal(join(dir, WAL))).toMatchObject({ kind: 'sound', commits: 17 });
    expect(queuesSqliteSees(dir)).toBe(17);
    const refusal = refusalOf(dir);
    expect(refusal.file).toBe(join(dir, WAL));
    expect(refusal.message).toMatch(
      new RegExp(
        `^the console database’s WAL ${join(dir, WAL)} was cut short \\(it ends with the commit at frame ${commits[16]}, where the console saw commits through frame ${commits[19]} at .*, and the machine has not restarted since: the commits after frame ${commits[16]} were cut from it\\); nothing was changed\\. Put back a copy of the data dir with the whole ${WAL}, or move ${WAL_END_FILE} aside to start from ${WAL} as it is, without those commits$`,
      ),
    );
    // The choice taken: the mark moved aside, the console starts with what is left.
    renameSync(join(dir, WAL_END_FILE), join(dir, `${WAL_END_FILE}.aside`));
    expect(queueCount(dir)).toBe(17);
  });

  it('cut inside its last commit frame, or to less than its header: refused', () => {
    const inside = killedMarked();
    truncateSync(join(inside, WAL), statSync(join(inside, WAL)).size - 100);
    expect(refusalOf(inside).message).toContain('was cut short');
    const header = killedMarked();
    truncateSync(join(header, WAL), 0);
    expect(inspectWal(join(header, WAL))).toEqual({ kind: 'empty' });
    expect(refusalOf(header).message).toMatch(
      /WAL .* is not the one the console left \(it holds no frames, where the console saw commits through frame \d+ of its WAL at /,
    );
  });

  it('no false alarm: commits after the mark, and a cut that takes only those (the mark is behind by up to 50 ms)', () => {
    const whole = killedMarked({ after: 5 });
    expect(queueCount(whole)).toBe(25);
    const cut = killedMarked({ after: 5 });
    cutAfterFrame(cut, commitFrames(cut)[21]!);
    expect(queueCount(cut)).toBe(22);
  });

  it('no false alarm: a mark from another boot of the machine (an OS crash may take the WAL’s unsynced tail)', () => {
    const dir = killedMarked({ boot: 'a boot before this one' });
    cutAfterFrame(dir, commitFrames(dir)[16]!);
    expect(queueCount(dir)).toBe(17);
  });

  it('no false alarm: a checkpoint after the mark began the WAL again', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 20);
    markWalEnd(store, dir);
    expect(checkpoint(store.db, dir, 5)).toBe(true);
    addQueues(store, 20, 2);
    const killed = snapshot(dir);
    store.close();
    expect(queueCount(killed)).toBe(22);
  });

  it('no false alarm: a transaction rolled back after SQLite spilled its pages into the WAL (the mark is the last commit, not the file’s size)', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const store = openStore({ dataDir: dir });
    addQueues(store, 0, 20);
    const committed = statSync(join(dir, WAL)).size;
    store.db.pragma('cache_size = 10');
    expect(() =>
      store.transaction(() => {
        addQueues(store, 20, 400);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(statSync(join(dir, WAL)).size).toBeGreaterThan(committed);
    markWalEnd(store, dir);
    expect(readWalEnd(dir)!.frames).toBe(commitFrames(dir).at(-1));
    const killed = snapshot(dir);
    store.close();
    expect(queueCount(killed)).toBe(20);
  });

  it('no false alarm: a mark that does not read, and the WAL another SQLite client copied in after the kill', () => {
    const unreadable = killedMarked();
    writeFileSync(join(unreadable, WAL_END_FILE), '{"boot":');
    expect(queueCount(unreadable)).toBe(20);
    const shell = killedMarked();
    const db = new Database(join(shell, DATABASE_FILE));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(existsSync(join(shell, WAL))).toBe(false);
    expect(queueCount(shell)).toBe(20);
  });

  it('the mark is private, written at the open, and changes only when the WAL does', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    // The store's own keeper marked the WAL its migrations wrote.
    expect(readWalEnd(dir)).toMatchObject({ generation: 0, boot: currentBoot() });
    const marks = keepWalEnd(store.db, dir);
    addQueues(store, 0, 1);
    marks.look();
    const first = readFileSync(join(dir, WAL_END_FILE), 'utf8');
    expect(statSync(join(dir, WAL_END_FILE)).mode & 0o777).toBe(0o600);
    marks.look();
    expect(readFileSync(join(dir, WAL_END_FILE), 'utf8')).toBe(first);
    addQueues(store, 1, 1);
    marks.look();
    expect(readWalEnd(dir)!.frames).toBeGreaterThan(JSON.parse(first).frames);
    marks.stop();
    store.close();
  });
});
