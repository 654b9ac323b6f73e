/**
 * One console per data dir. The desktop app's userData folder is also `serve`'s default, and the
 * app falls back to free ports when another console holds its own, so without a lock the two would
 * share `console.sqlite` and the traffic log (written without a WAL) and overwrite each other's
 * players and settings. The lock is a file naming the process that holds it; a file whose process
 * is gone (a killed console) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'console.lock';

export interface DataDirLock {
  release(): void;
}

/** Takes the data dir for this process, or throws saying which process has it. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK_FILE);
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, `${JSON.stringify({ pid: process.pid, since: new Date().toISOString() })}\n`);
      } finally {
        closeSync(fd);
      }
      return { release: () => holderOf(file) === process.pid && rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(file);
    if (holder !== null && running(holder)) {
      throw new Error(
        `the data folder ${dataDir} is already open in another Cloud Queue Console (process ${holder}); close it, or start this one with --data-dir or --ephemeral. If no console runs, delete ${file}.`,
      );
    }
    // Left by a console that was killed: take it over.
    rmSync(file, { force: true });
  }
}

function holderOf(file: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Signal 0 asks whether the process exists: EPERM means it does, as another user's. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
