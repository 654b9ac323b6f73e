/**
 * A console database that does not match what the last stop left stops the start
 * (docs/contract/console.md §9): a WAL whose commits SQLite would drop, a database missing where a
 * console had written one, a database older than the marker (`last-stop.ts`), a WAL written after
 * a clean stop that left none. Each is found before SQLite opens the database (whose close would
 * checkpoint a WAL into it), so each refusal names the file and the choices and changes nothing.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DamagedDatabaseError } from './damaged.js';
import {
  LAST_STOP_FILE,
  describeLastStop,
  fileStamp,
  readLastStop,
  writeLastStop,
  type LastStop,
} from './last-stop.js';
import { inspectWal, type WalState } from './wal-check.js';
import { WAL_END_FILE, currentBoot, readWalEnd } from './wal-end.js';

export interface BeforeOpen {
  lastStop: LastStop | null;
  wal: WalState;
}

/**
 * Before SQLite opens `file` (which replays its WAL, dropping what does not verify).
 * `existed`: whether `file` is there; `besides`: other files only a console that made `file`
 * writes into the data dir (the traffic log).
 */
export function checkBeforeOpen(
  dataDir: string,
  file: string,
  existed: boolean,
  besides: readonly string[],
): BeforeOpen {
  const marker = join(dataDir, LAST_STOP_FILE);
  const lastStop = readLastStop(dataDir);
  if (lastStop === 'unreadable') {
    throw new DamagedDatabaseError(marker, 'it does not hold what the console writes there', {
      subject: 'the record of the console database’s last stop',
      remedy: `Put back a copy, or move it aside to start without comparing ${basename(file)} with it once`,
    });
  }
  const walFile = `${file}-wal`;
  if (!existed) {
    const found = [
      ...(lastStop ? [marker] : []),
      ...[walFile, ...besides.map((name) => join(dataDir, name))].filter((path) => nonEmpty(path)),
    ];
    if (found.length === 0) return { lastStop: null, wal: { kind: 'empty' } };
    const why = lastStop
      ? `${LAST_STOP_FILE} records ${describeLastStop(lastStop)}`
      : `${found.map((path) => basename(path)).join(' and ')} ${found.length === 1 ? 'is' : 'are'} there`;
    throw new DamagedDatabaseError(file, why, {
      state: 'is missing',
      remedy: `Put back a copy of it, or move ${found.map((path) => basename(path)).join(' and ')} aside as well to start an empty console`,
    });
  }
  const wal = inspectWal(walFile);
  if (wal.kind === 'damaged') {
    throw new DamagedDatabaseError(walFile, wal.why, {
      subject: 'the console database’s WAL',
      remedy: `Put back a copy of the data dir, or move ${basename(walFile)} aside (with ${basename(file)}-shm${lastStop?.state === 'open' ? ` and ${LAST_STOP_FILE}` : ''}) to start from ${basename(file)} as its last checkpoint left it, without the changes since`,
    });
  }
  if (lastStop?.state === 'stopped' && wal.kind === 'sound' && wal.commits > 0) {
    throw new DamagedDatabaseError(
      walFile,
      `${LAST_STOP_FILE} records ${describeLastStop(lastStop)}, which leaves no WAL, yet this one holds ${wal.commits} commits`,
      {
        subject: 'the console database’s WAL',
        state: 'does not belong to it',
        remedy: `Move it aside (with ${basename(file)}-shm) to start as that stop left the console, or move ${LAST_STOP_FILE} aside to take its changes`,
      },
    );
  }
  // Read as SQLite will see it, before it opens: its close would checkpoint the WAL into the file.
  const generation = (wal.kind === 'sound' ? wal.userVersion : null) ?? userVersionOf(file);
  if (lastStop && generation < lastStop.generation) {
    throw new DamagedDatabaseError(
      file,
      `it is at generation ${generation} of its clean stops and checkpoints, ${LAST_STOP_FILE} records ${lastStop.generation} after ${describeLastStop(lastStop)}`,
      {
        state: 'is older than the last stop left it',
        remedy: `Put back the newer copy, or move ${LAST_STOP_FILE} aside to start from this one`,
      },
    );
  }
  // A console that did not stop cleanly leaves its WAL, whatever it held: SQLite deletes it only at
  // a clean close. Gone, with the database file as the console last left it, it took every commit
  // since the last checkpoint with it, and SQLite would start from the file without a word (audit:
  // two acknowledged queues lost that way). A file changed since is one another SQLite client
  // (the sqlite3 shell, an integrity check) opened after the kill: its close copied the WAL in
  // before deleting it.
  if (lastStop?.state === 'open' && !existsSync(walFile) && untouchedSince(file, lastStop)) {
    throw new DamagedDatabaseError(
      walFile,
      `${LAST_STOP_FILE} records ${describeLastStop(lastStop)}, which leaves a WAL with every change since the last checkpoint`,
      {
        subject: 'the console database’s WAL',
        state: 'is missing',
        remedy: `Put back a copy of the data dir with ${basename(walFile)}, or move ${LAST_STOP_FILE} aside to start from ${basename(file)} as its last checkpoint left it, without the changes since`,
      },
    );
  }
  if (lastStop?.state === 'open') checkWalEnd(dataDir, file, wal, lastStop);
  return { lastStop, wal };
}

/**
 * After a kill, in the same boot of the machine: the WAL is at least as long as the running
 * console last saw it (`wal-end.ts`). Shorter, the commits past its new end were cut from it, and
 * SQLite would replay what is left without a word. Another WAL, or none, beside a database file
 * untouched since (no SQLite client copied a WAL in and began it again): the WAL was replaced.
 */
function checkWalEnd(dataDir: string, file: string, wal: WalState, lastStop: LastStop): void {
  const seen = readWalEnd(dataDir);
  if (!seen || seen.frames === 0 || seen.generation !== lastStop.generation || seen.boot !== currentBoot()) return;
  const walFile = `${file}-wal`;
  const when = `at ${new Date(seen.at).toISOString()}`;
  const remedy = `Put back a copy of the data dir with the whole ${basename(walFile)}, or move ${WAL_END_FILE} aside to start from ${basename(walFile)} as it is, without those commits`;
  const subject = 'the console database’s WAL';
  if (wal.kind === 'sound' && wal.salts === seen.salts) {
    if (wal.end >= seen.frames) return;
    throw new DamagedDatabaseError(
      walFile,
      `it ends with the commit at frame ${wal.end}, where the console saw commits through frame ${seen.frames} ${when}, and the machine has not restarted since: the commits after frame ${wal.end} were cut from it`,
      { subject, state: 'was cut short', remedy },
    );
  }
  if (!untouchedSince(file, lastStop)) return;
  const found = wal.kind === 'sound' ? 'it is another WAL (other salts)' : 'it holds no frames';
  throw new DamagedDatabaseError(
    walFile,
    `${found}, where the console saw commits through frame ${seen.frames} of its WAL ${when}, and the machine has not restarted since`,
    { subject, state: 'is not the one the console left', remedy },
  );
}

/** Once SQLite has opened the database: the marker says the console holds it (`open`) until its clean stop. */
export function recordOpen(generation: number, dataDir: string, now: number, file: string): void {
  writeLastStop(dataDir, { state: 'open', generation, at: now, database: fileStamp(file) });
}

/** Whether `file` is as the record's last open or checkpoint left it (a record without a stamp: no telling, so no). */
function untouchedSince(file: string, lastStop: LastStop): boolean {
  if (!lastStop.database) return false;
  const now = fileStamp(file);
  // To the millisecond: a copy that keeps times (cp -a, rsync -a, a test's copy) may keep no finer.
  return now.size === lastStop.database.size && Math.abs(now.mtimeMs - lastStop.database.mtimeMs) < 1;
}

/** `user_version` in the database file's header (byte 60, big-endian); 0 for a file too short to have one. */
function userVersionOf(file: string): number {
  const header = Buffer.alloc(64);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, header, 0, 64, 0) === 64 ? header.readUInt32BE(60) : 0;
  } finally {
    closeSync(fd);
  }
}

function nonEmpty(path: string): boolean {
  return existsSync(path) && statSync(path).size > 0;
}
