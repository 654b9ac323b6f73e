import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { LOCK_FILE, claimDataDir } from './data-dir-lock.js';
import { openStore } from './store.js';

const tempDir = tempDirs('cqc-lock-');

describe('a data dir another console has open', () => {
  it('is said to be shared, and still opens: both consoles work', () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir });
    expect(first.dataDirShared).toBe(false);
    const second = openStore({ dataDir: dir });
    expect(second.dataDirShared).toBe(true);
    second.settings.set('second', true);
    expect(first.settings.get('second')).toBe(true);
    second.close();
    first.close();
  });

  it('is free again once the console that had it closes', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const next = openStore({ dataDir: dir });
    expect(next.dataDirShared).toBe(false);
    next.close();
  });

  it('is free again when the console that had it was killed: the OS dropped its lock', () => {
    const dir = tempDir();
    // A process takes the claim as a console does, then dies without letting it go.
    const script = `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(join(dir, LOCK_FILE))}); db.pragma('locking_mode = EXCLUSIVE'); db.exec('CREATE TABLE claim (pid INTEGER)'); db.exec('INSERT INTO claim VALUES (1)'); process.kill(process.pid, 'SIGKILL');`;
    expect(spawnSync(process.execPath, ['-e', script]).signal).toBe('SIGKILL');
    const claim = claimDataDir(dir);
    expect(claim.shared).toBe(false);
    // While it is held, another connection cannot take it: what the second console sees.
    const other = new Database(join(dir, LOCK_FILE), { timeout: 0 });
    expect(() => other.exec('INSERT INTO claim VALUES (2)')).toThrow(/locked|busy/i);
    other.close();
    claim.release();
  });

  it('needs no claim in memory (--ephemeral): any number run side by side', () => {
    const stores = [openStore({ dataDir: null }), openStore({ dataDir: null })];
    expect(stores.map((s) => s.dataDirShared)).toEqual([false, false]);
    for (const store of stores) store.close();
  });
});
