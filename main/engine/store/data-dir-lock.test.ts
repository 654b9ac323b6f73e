import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitedPid } from '../testing/processes.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js';
import { openStore } from './store.js';

const tempDir = tempDirs('cqc-lock-');

describe('one console per data dir', () => {
  it('refuses a second console on a data dir that one holds, saying what to do', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    expect(() => openStore({ dataDir: dir })).toThrow(new RegExp(`already open in another Cloud Queue Console \\(process ${process.pid}\\).*--data-dir or --ephemeral`));
    // The refused console changed nothing: the first one still holds the dir and works.
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    store.settings.set('still', true);
    store.close();
  });

  it('gives the dir back when the console closes, so the next one opens it', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    openStore({ dataDir: dir }).close();
  });

  it('takes over the lock a killed console left behind', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: exitedPid() }));
    const store = openStore({ dataDir: dir });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    store.close();
  });

  it('takes over a lock file it cannot read', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), '');
    lockDataDir(dir).release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('leaves alone, on release, a lock that another console has since taken', () => {
    const dir = tempDir();
    const lock = lockDataDir(dir);
    const other = JSON.stringify({ pid: process.ppid });
    writeFileSync(join(dir, LOCK_FILE), other);
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(other);
  });

  it('needs no lock in memory (--ephemeral): any number run side by side', () => {
    const stores = [openStore({ dataDir: null }), openStore({ dataDir: null })];
    for (const store of stores) store.close();
  });
});
