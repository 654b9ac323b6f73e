import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { DataDirInUseError, HOLDER_FILE, LOCK_FILE, claimDataDir } from './data-dir-lock.js';
import { openStore } from './store.js';

const tempDir = tempDirs('cqc-lock-');
const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/** What another process sees when it tries to take the lock: SQLite's error code, or 'taken'. */
function tryFromAnotherProcess(dir: string): string {
  const script = `const D = require(${JSON.stringify(betterSqlite3)}); const db = new D(${JSON.stringify(join(dir, LOCK_FILE))}, { timeout: 0 }); try { db.exec('BEGIN EXCLUSIVE'); console.log('taken'); } catch (e) { console.log(e.code); }`;
  return spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout.trim();
}

/** Name, inode, size and modification time of every file in `dir`, read without opening any:
 *  closing a file this process has locked would drop the lock (POSIX). */
function filesOf(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const stat = statSync(join(dir, name));
      return `${name} ${stat.ino} ${stat.size} ${stat.mtimeMs}`;
    });
}

function refusalOf(open: () => unknown): DataDirInUseError {
  try {
    open();
  } catch (error) {
    if (error instanceof DataDirInUseError) return error;
    throw error;
  }
  throw new Error('the second console started');
}

describe('a data dir another console has open', () => {
  it('refuses the second console, naming the folder and the process that has it', () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir, consoleKind: 'serve' });
    const refusal = refusalOf(() => openStore({ dataDir: dir }));
    expect(refusal.code).toBe('data_dir_in_use');
    expect(refusal.dataDir).toBe(dir);
    expect(refusal.holder).toMatchObject({ pid: process.pid, kind: 'serve' });
    expect(refusal.message).toBe(
      `another Cloud Queue Console (pid ${process.pid}, started ${refusal.holder?.startedAt}: serve) has ${dir} open; close it, or start this one with another --data-dir or --ephemeral`,
    );
    expect(Date.now() - Date.parse(refusal.holder?.startedAt ?? '')).toBeLessThan(60_000);
    first.close();
  });

  it('leaves the first console working and the files of the dir untouched', () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir });
    first.settings.set('before', true);
    const before = filesOf(dir);
    refusalOf(() => openStore({ dataDir: dir }));
    expect(filesOf(dir)).toEqual(before);
    first.settings.set('after', true);
    expect(first.settings.get('before')).toBe(true);
    // The lock is the OS's, not only this process's: another process cannot take it either.
    expect(tryFromAnotherProcess(dir)).toMatch(/^SQLITE_BUSY/);
    first.close();
  });

  it('says "process unknown" when the holder left no record of itself', () => {
    const dir = tempDir();
    const first = claimDataDir(dir);
    rmSync(join(dir, HOLDER_FILE));
    const refusal = refusalOf(() => claimDataDir(dir));
    expect(refusal.holder).toBeNull();
    expect(refusal.message).toBe(
      `another Cloud Queue Console (process unknown) has ${dir} open; close it, or start this one with another --data-dir or --ephemeral`,
    );
    first.release();
  });

  it.skipIf(process.platform === 'win32')('keeps the lock and its record readable by their owner only', () => {
    const dir = tempDir();
    const claim = claimDataDir(dir);
    expect(statSync(join(dir, LOCK_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, HOLDER_FILE)).mode & 0o777).toBe(0o600);
    claim.release();
  });

  it('is free again once the console that had it closes, and its record is gone', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    expect(existsSync(join(dir, HOLDER_FILE))).toBe(false);
    expect(tryFromAnotherProcess(dir)).toBe('taken');
    openStore({ dataDir: dir }).close();
  });

  it('is free again when the console that had it was killed: the OS dropped its lock', () => {
    const dir = tempDir();
    // A process takes the claim as a console does, then dies without letting it go.
    const script = `const D = require(${JSON.stringify(betterSqlite3)}); const db = new D(${JSON.stringify(join(dir, LOCK_FILE))}); db.pragma('locking_mode = EXCLUSIVE'); db.exec('CREATE TABLE claim (pid INTEGER)'); db.exec('INSERT INTO claim VALUES (1)'); process.kill(process.pid, 'SIGKILL');`;
    expect(spawnSync(process.execPath, ['-e', script]).signal).toBe('SIGKILL');
    const claim = claimDataDir(dir);
    // While it is held, another process cannot take it: what a second console sees.
    expect(tryFromAnotherProcess(dir)).toMatch(/^SQLITE_BUSY/);
    claim.release();
  });

  it('is no lock when console.lock is not a database: it is replaced and the console opens', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), randomBytes(4096));
    const store = openStore({ dataDir: dir });
    expect(refusalOf(() => openStore({ dataDir: dir })).holder?.pid).toBe(process.pid);
    store.close();
  });

  it('needs no claim in memory (--ephemeral): any number run side by side', () => {
    const stores = [openStore({ dataDir: null }), openStore({ dataDir: null })];
    for (const store of stores) store.settings.set('running', true);
    for (const store of stores) store.close();
  });
});
