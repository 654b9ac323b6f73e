/**
 * A damaged console database halts the start with a message naming the file and the remedy, and
 * is never quietly swapped for an empty one (docs/contract/console.md §9). The attack: each of
 * these started (or started empty) and then answered 500s.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.js';
import { DATABASE_FILE, DamagedDatabaseError } from './database.js';
import { openStore } from './store.js';

const tempDir = tempDirs('cqc-damage-');

/** A data dir whose console database holds a few MB, stopped cleanly (the WAL checkpointed into it). */
function dirWithData(): string {
  const dir = tempDir();
  const store = openStore({ dataDir: dir });
  store.transaction(() => {
    for (let i = 0; i < 2_000; i++) store.settings.set(`kept-${i}`, { text: 'x'.repeat(1_000), i });
  });
  store.close();
  return dir;
}

function refusalOf(dir: string): DamagedDatabaseError {
  try {
    openStore({ dataDir: dir }).close();
  } catch (error) {
    if (error instanceof DamagedDatabaseError) return error;
    throw error;
  }
  throw new Error('the console opened a damaged database');
}

function expectRefused(dir: string, what: RegExp): void {
  const file = join(dir, DATABASE_FILE);
  const before = readFileSync(file);
  const refusal = refusalOf(dir);
  expect(refusal.code).toBe('database_damaged');
  expect(refusal.file).toBe(file);
  expect(refusal.message).toMatch(what);
  // Names the file and the remedy, on one line (the CLI prints it as it is).
  expect(refusal.message).toContain(`the console database ${file} is damaged`);
  expect(refusal.message).toMatch(/Move it aside .* or put back a backup, then start again/);
  expect(refusal.message).not.toContain('\n');
  // Nothing was changed, nothing swapped in.
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(readdirSync(dir).filter((name) => name.startsWith(DATABASE_FILE))).toEqual([DATABASE_FILE]);
  // And the refused start let the data dir go: once the file is dealt with, a console opens.
  truncateSync(file, 0);
  writeFileSync(file, before);
  expect(() => openStore({ dataDir: dir }).close()).toThrow(DamagedDatabaseError);
}

describe('a damaged console database at start', () => {
  it('random bytes where the database was', () => {
    const dir = dirWithData();
    const file = join(dir, DATABASE_FILE);
    writeFileSync(file, randomBytes(statSync(file).size));
    expectRefused(dir, /file is not a database/);
  });

  it('a database cut short', () => {
    const dir = dirWithData();
    const file = join(dir, DATABASE_FILE);
    truncateSync(file, Math.floor(statSync(file).size / 2));
    expectRefused(dir, /quick_check|malformed/);
  });

  it('garbage over pages inside it', () => {
    const dir = dirWithData();
    const file = join(dir, DATABASE_FILE);
    const pageSize = 4096;
    const fd = openSync(file, 'r+');
    // Past the schema page: the tables' b-tree pages, as a stray write leaves them.
    for (const page of [3, 10, 40, 200]) writeSync(fd, randomBytes(pageSize), 0, pageSize, page * pageSize);
    closeSync(fd);
    expectRefused(dir, /quick_check|malformed/);
  });

  it('garbage over pages after a kill: refused, and neither the database nor its WAL is changed', () => {
    const dir = dirWithData();
    const store = openStore({ dataDir: dir });
    store.transaction(() => {
      for (let i = 0; i < 200; i++) store.settings.set(`since-${i}`, { text: 'y'.repeat(1_000) });
    });
    // What a kill -9 now leaves: the files as they are (the kernel has every write), the WAL full.
    const killed = tempDir();
    for (const name of readdirSync(dir))
      if (name.startsWith(`${DATABASE_FILE}`)) copyFileSync(join(dir, name), join(killed, name));
    store.close();
    const file = join(killed, DATABASE_FILE);
    const fd = openSync(file, 'r+');
    for (const page of [3, 10, 40, 200]) writeSync(fd, randomBytes(4096), 0, 4096, page * 4096);
    closeSync(fd);
    const wal = readFileSync(`${file}-wal`);
    const before = readFileSync(file);
    expect(wal.length).toBeGreaterThan(0);
    const refusal = refusalOf(killed);
    expect(refusal.message).toMatch(/quick_check|malformed/);
    // The refused connection's close checkpointed the WAL into the damaged file and deleted it.
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readFileSync(`${file}-wal`).equals(wal)).toBe(true);
  });

  it('a zero-length file: a fresh data dir has none, so it is damage, not a new console', () => {
    const dir = dirWithData();
    truncateSync(join(dir, DATABASE_FILE), 0);
    expectRefused(dir, /it is empty: 0 bytes/);
  });

  it('a fresh data dir has no console.sqlite until the console makes one, never an empty one', () => {
    const dir = join(tempDir(), 'fresh');
    const store = openStore({ dataDir: dir });
    expect(statSync(join(dir, DATABASE_FILE)).size).toBeGreaterThan(0);
    expect(existsSync(join(dir, `${DATABASE_FILE}.new`))).toBe(false);
    store.settings.set('kept', true);
    store.close();
    const again = openStore({ dataDir: dir });
    expect(again.settings.get('kept')).toBe(true);
    again.close();
  });
});
