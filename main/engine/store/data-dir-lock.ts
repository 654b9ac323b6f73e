/**
 * Whether another console has this data dir open. The desktop app's userData folder is also
 * `serve`'s default, so the two can meet on one folder: SQLite keeps the files whole, but both
 * consoles run the same players and write the same saved state over each other, which looks like
 * a console gone strange. So the second one says so in a warning, and still starts: CONTRACT §1
 * lets a console start on any data dir, and a refusal would also stop a restart while a console
 * killed with its npm parent still runs on.
 *
 * The claim is an exclusive lock on a small SQLite file (`console.lock`), held while the engine
 * runs. The OS drops it when the process ends, however it ends: a killed console leaves nothing
 * stale, and a process id used again after a reboot cannot hold it.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'console.lock';

export interface DataDirClaim {
  /** Another console had the folder open when this one started. */
  shared: boolean;
  release(): void;
}

export function claimDataDir(dataDir: string, nativeBinding?: string): DataDirClaim {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, LOCK_FILE), { timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock, and EXCLUSIVE mode keeps it until the connection closes.
    // One row, naming the process for anyone who opens the file.
    db.exec('CREATE TABLE IF NOT EXISTS claim (pid INTEGER NOT NULL)');
    db.prepare('REPLACE INTO claim (rowid, pid) VALUES (1, ?)').run(process.pid);
    return { shared: false, release: () => db.close() };
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    return { shared: true, release: () => undefined };
  }
}
