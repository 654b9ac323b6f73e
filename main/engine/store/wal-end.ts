/**
 * Where the running console last saw its WAL end, kept beside it in `console.wal-end`, so that a
 * WAL cut short after a kill is told from one the kill left whole (docs/persistence.md, "Damage
 * never passes silently"). Cut at a frame boundary, a WAL verifies to its new end and SQLite
 * replays what is left without a word: the commits past the cut, acknowledged, are gone.
 *
 * A kill loses nothing the console wrote (the kernel has every write), so in the same boot of the
 * machine the WAL is at least as long as the console ever saw it. Only an OS crash or a power loss
 * may take its tail (`synchronous=NORMAL` syncs the WAL at checkpoints, not at every commit), so a
 * mark from another boot says nothing and is not compared.
 *
 * What the mark holds is read from the WAL index (`console.sqlite-shm`), which SQLite keeps in
 * shared memory backed by that file: its header, 48 bytes written twice (offsets 0 and 48, equal
 * once a write is done), holds in the machine's byte order the version 3007000 (bytes 0–3), an
 * "initialised" flag (byte 12), the page size (bytes 14–15), and the number of frames through the
 * last commit (bytes 16–19), then a copy of the WAL header's two salts (bytes 32–39, as they are
 * in the WAL). A header that does not read so, or salts that are not the WAL's, write no mark: a
 * mark may only ever say less than the WAL holds, never more.
 *
 * Written at the open and then every WAL_END_EVERY_MS when it changed, without a sync (a crash of
 * the machine voids it anyway): commits acknowledged in the last moment before a kill may be
 * missing from it, and a cut that takes only those is not seen.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { endianness, uptime } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './data-dir-files.js';
import type Database from 'better-sqlite3';

export const WAL_END_FILE = 'console.wal-end';
/** How often the WAL index is looked at (a read of 96 bytes: microseconds). */
export const WAL_END_EVERY_MS = 50;

/** The mark's record: its JSON padded with blanks (JSON reads past them). */
const RECORD_BYTES = 512;
const INDEX_HEADER_BYTES = 48;
const INDEX_VERSION = 3007000;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
/** The wal-index header is in the machine's own byte order. */
const LITTLE_ENDIAN = endianness() === 'LE';

export interface WalEnd {
  /** The boot of the machine it was seen in (`currentBoot`). */
  boot: string;
  /** The database's generation (`last-stop.ts`) then: a checkpoint begins the WAL again. */
  generation: number;
  /** The WAL header's two salts, hex: which WAL it was. */
  salts: string;
  /** Frames through its last commit. */
  frames: number;
  /** Wall time it was seen, for the messages. */
  at: number;
}

/**
 * This boot of the machine: Linux names each one; elsewhere, when it began, to the minute (a
 * boot read as another one only skips the comparison, never raises an alarm).
 */
export function currentBoot(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return `up since minute ${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  }
}

/** The mark in `dataDir`; null when there is none or it does not read (a crash of the machine may leave it so). */
export function readWalEnd(dataDir: string): WalEnd | null {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, WAL_END_FILE), 'utf8')) as Partial<WalEnd>;
    const { boot, generation, salts, frames, at } = value;
    if (
      typeof boot === 'string' &&
      Number.isSafeInteger(generation) &&
      typeof salts === 'string' &&
      Number.isSafeInteger(frames) &&
      Number.isFinite(at)
    )
      return { boot, generation: generation!, salts, frames: frames!, at: at! };
  } catch {
    // None, or not what the console writes: as none.
  }
  return null;
}

export function forgetWalEnd(dataDir: string): void {
  rmSync(join(dataDir, WAL_END_FILE), { force: true });
}

/** The WAL's salts and its frames through the last commit, as SQLite's index has them now; null when they do not read. */
export function seenWalEnd(databaseFile: string): { salts: string; frames: number } | null {
  const index = readStart(`${databaseFile}-shm`, 2 * INDEX_HEADER_BYTES);
  const wal = readStart(`${databaseFile}-wal`, WAL_HEADER_BYTES);
  if (!index || !wal) return null;
  const u32 = (at: number) => (LITTLE_ENDIAN ? index.readUInt32LE(at) : index.readUInt32BE(at));
  const u16 = (at: number) => (LITTLE_ENDIAN ? index.readUInt16LE(at) : index.readUInt16BE(at));
  const first = index.subarray(0, INDEX_HEADER_BYTES);
  if (!first.equals(index.subarray(INDEX_HEADER_BYTES)) || u32(0) !== INDEX_VERSION || index[12] !== 1) return null;
  const salts = wal.subarray(16, 24);
  if (!salts.equals(index.subarray(32, 40))) return null;
  // The page size 65536 is stored as 1 in the index, as in the WAL header.
  const pageSize = u16(14) === 1 ? 65536 : u16(14);
  const frames = u32(16);
  if (wal.size < WAL_HEADER_BYTES + frames * (FRAME_HEADER_BYTES + pageSize)) return null;
  return { salts: salts.toString('hex'), frames };
}

/** The first `bytes` of `path` with its size; null when it is missing or shorter. */
function readStart(path: string, bytes: number): (Buffer & { size: number }) | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(bytes);
    if (readSync(fd, buffer, 0, bytes, 0) < bytes) return null;
    // The size of the very file just read.
    return Object.assign(buffer, { size: fstatSync(fd).size });
  } finally {
    closeSync(fd);
  }
}

/**
 * Marks where the WAL ends now and then every `everyMs` while it changes; `look` marks it at once
 * (tests). `stop` before the clean close, which then forgets the mark (a clean stop leaves no WAL).
 * The mark is one record written over itself in place, padded to RECORD_BYTES: one small write,
 * which a kill leaves whole, and no second name in the data dir while it is written.
 */
export function keepWalEnd(
  db: Database.Database,
  dataDir: string,
  { everyMs = WAL_END_EVERY_MS, boot = currentBoot() } = {},
): { look(): void; stop(): void } {
  const file = join(dataDir, WAL_END_FILE);
  let fd: number | null = null;
  let marked = '';
  const look = () => {
    if (!db.open || db.inTransaction) return;
    let seen: { salts: string; frames: number } | null;
    try {
      seen = seenWalEnd(db.name);
    } catch {
      return;
    }
    if (!seen || seen.frames === 0) return;
    const key = `${seen.salts}:${seen.frames}`;
    if (key === marked) return;
    const mark: WalEnd = {
      boot,
      generation: db.pragma('user_version', { simple: true }) as number,
      ...seen,
      at: Date.now(),
    };
    const record = Buffer.alloc(RECORD_BYTES, ' ');
    if (record.write(`${JSON.stringify(mark)}\n`) >= RECORD_BYTES) return;
    try {
      // Opened on the first mark: a run that writes nothing leaves the last run's mark as it was.
      fd ??= openSync(file, 'w', PRIVATE_FILE_MODE);
      writeSync(fd, record, 0, RECORD_BYTES, 0);
      marked = key;
    } catch {
      // A full disk: the mark stays behind the WAL, which only ever makes it say less.
    }
  };
  look();
  const timer = setInterval(look, everyMs);
  timer.unref();
  return {
    look,
    stop: () => {
      clearInterval(timer);
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
