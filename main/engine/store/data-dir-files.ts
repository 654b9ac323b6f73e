/**
 * The data dir's files are the user's alone (docs/contract/console.md §9): the folder 0700, every
 * file the console writes there 0600, whatever the umask. A folder that cannot be a data dir (a
 * file in the way, no write access) is refused at once, with a message that says what to do.
 *
 * Why modes are set twice: `open`'s and `mkdir`'s modes pass through the umask, so a file is
 * created with 0600 and then chmod-ed to exactly that. SQLite creates a database's -wal, -shm and
 * -journal with the mode of the database file itself, so each database file is made private
 * before SQLite first opens it, and its companions follow.
 */
import { accessSync, chmodSync, closeSync, constants, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** The files SQLite keeps beside a database while it is open (and after a run that did not stop cleanly). */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

export class DataDirUnusableError extends Error {
  readonly code = 'data_dir_unusable';
  readonly dataDir: string;

  constructor(dataDir: string, why: string) {
    super(
      `cannot use ${dataDir} as the data dir: ${why}; start with --data-dir naming a folder this user can write, or with --ephemeral`,
    );
    this.name = 'DataDirUnusableError';
    this.dataDir = dataDir;
  }
}

/**
 * Makes the data dir (0700), or checks the one that is there: a folder this process can write, with
 * no folder where it keeps one of `keptFiles`.
 * An existing folder is made 0700 when it already holds a console's files (`ownFiles`: a data dir
 * from before this rule) or nothing at all (made for it). A folder holding other things of the
 * user's own (or `/tmp`) is never changed.
 */
export function prepareDataDir(
  dataDir: string,
  ownFiles: readonly string[],
  keptFiles: readonly string[] = ownFiles,
): void {
  let made: string | undefined;
  try {
    made = mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    throw unusableOr(error, dataDir);
  }
  if (!statSync(dataDir).isDirectory()) throw new DataDirUnusableError(dataDir, 'it is a file, not a folder');
  try {
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw unusableOr(error, dataDir);
  }
  // A folder where the console keeps a file: SQLite said "unable to open database file", a read
  // "EISDIR", neither naming it (outsider).
  const folder = keptFiles.find((name) => statSync(join(dataDir, name), { throwIfNoEntry: false })?.isDirectory());
  if (folder !== undefined)
    throw new DataDirUnusableError(
      dataDir,
      `${join(dataDir, folder)} is a folder where the console keeps a file of its own: move it away`,
    );
  // An empty folder given as the data dir becomes one now, private from its first run (audit: a
  // 0777 one stayed so until the second start); a folder holding other things is left alone.
  if (made === undefined && !ownFiles.some((name) => exists(join(dataDir, name))) && !isEmpty(dataDir)) return;
  try {
    chmodSync(dataDir, PRIVATE_DIR_MODE);
  } catch {
    // Another owner's folder that this user may write: its mode is not this console's to set.
  }
}

/**
 * The data dir's own errors (ENOTDIR, EACCES, …) as a `DataDirUnusableError`: the raw message
 * (`EEXIST: file already exists, mkdir '…'`) does not say what to do.
 */
export function unusableOr(error: unknown, dataDir: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const path = (error as NodeJS.ErrnoException).path ?? dataDir;
  switch (code) {
    case 'EEXIST':
    case 'ENOTDIR': {
      const file = fileInTheWay(path);
      return new DataDirUnusableError(dataDir, `${file === dataDir ? 'it' : file} is a file, not a folder`);
    }
    case 'EACCES':
    case 'EPERM':
      return new DataDirUnusableError(dataDir, `this user may not write ${path} (${code})`);
    case 'EROFS':
      return new DataDirUnusableError(dataDir, `${path} is on a read-only file system`);
    case 'ENOSPC':
      return new DataDirUnusableError(dataDir, 'the disk is full');
    default:
      return error;
  }
}

/** Creates `file` empty and 0600 unless it exists; an existing one is left as it is. */
export function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Makes `file` and the companions SQLite keeps beside it 0600, those that exist: a data dir from
 * before this rule has them 0644. By path, never by opening: closing a file this process has
 * locked would drop the lock (POSIX).
 */
export function keepPrivate(file: string, companions: readonly string[] = SQLITE_COMPANIONS): void {
  for (const path of [file, ...companions.map((suffix) => `${file}${suffix}`)]) {
    try {
      chmodSync(path, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Whether this process may write `file` (absent: whether it may create it, which the folder decides). */
export function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** The first of `path` and its parents that is there and is not a folder (mkdir names only the path it made). */
function fileInTheWay(path: string): string {
  for (let at = path; ; at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) return at;
    } catch {
      // Not there: a parent is in the way.
    }
    if (dirname(at) === at) return path;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isEmpty(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}
